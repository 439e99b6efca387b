"""Counting a template's renders: the log's entry is rendered once per language and redaction,
whatever shows it (rolls.log.rendered)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.test.signals import template_rendered

ENTRY = "rolls/log/_entry.html"


@contextlib.contextmanager
def renders_of(name: str = ENTRY) -> Iterator[list[str]]:
    """A list that holds ``name`` once for each time the template is rendered inside the block
    (in any thread: the signal is the process's)."""
    rendered: list[str] = []

    def count(sender, template, **kwargs):
        if template.name == name:
            rendered.append(template.name)

    template_rendered.connect(count)
    try:
        yield rendered
    finally:
        template_rendered.disconnect(count)
