"""How each system's test works, in our own words, for the page every test panel links to.

This module is the page's shape; each system brings its own page (``System.rules_page``, e.g.
``rolls/systems/t10/rules_page.py``) and the rules views read them through the registry.

The words restate the project's rules (RULES.md, with its decisions) for a player at the table;
each page ends with a worked example. ``checks`` are the example's rolls as engine requests with
the answer the text tells, so a test can hold the words to the engine: a page that says 3
successes where the engine reads 2 fails the suite.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from campaigns.systems import UnknownSystem, Words, all_systems, get_system


@dataclass(frozen=True)
class RulesPage:
    system: str
    title: Words
    intro: Any
    steps: tuple[Any, ...]
    example: tuple[Any, ...]
    #: ``(params, faces, expected part of the engine's answer)`` for each roll of the example.
    checks: tuple[tuple[dict[str, Any], Any, dict[str, Any]], ...] = field(default=())


def rules_pages() -> dict[str, RulesPage]:
    """Every registered system's page by its key, in RULES.md's order (systems without one left
    out)."""
    return {s.key: s.rules_page for s in all_systems() if s.rules_page is not None}


def rules_page_of(key: str) -> RulesPage | None:
    """The page of the system registered under ``key``, None for an unknown key or no page."""
    try:
        return get_system(key).rules_page
    except UnknownSystem:
        return None
