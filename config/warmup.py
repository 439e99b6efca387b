"""What a fresh server would otherwise do on its first requests, done once as it starts.

Django compiles a template the first time it is rendered, loads a language's translations (and
imports its number formats) the first time the language is used, and builds its URL resolver
on the first reverse; the first roll after a start paid for all of it (25 to 52 ms against a
warm roll's 5 to 10: docs/performance.md). ``warm_up()`` (config/asgi.py) compiles every
template of the project's own template directories (``DIRS``) into the cached loader, loads
each language's catalog and formats and builds the resolver. It touches no database and no
cache, so importing the ASGI application stays possible without either.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.template import engines
from django.urls import get_resolver
from django.utils import formats, translation

from campaigns.systems import all_systems


def warm_up() -> int:
    """Compile the templates, load the translations and the URLs; the templates compiled."""
    compiled = 0
    for engine in engines.all():
        for folder in getattr(engine, "dirs", ()):
            for path in sorted(Path(folder).rglob("*.html")):
                engine.get_template(path.relative_to(folder).as_posix())
                compiled += 1
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Rolled")
            # Each language's number formats are a module imported on first use.
            formats.localize(1.5)
    get_resolver().reverse_dict  # noqa: B018 (built on first use)
    all_systems()
    return compiled
