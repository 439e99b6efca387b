"""Which module resolves which rule system (keys of RULES.md)."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from .core import EngineError

#: System key -> module name inside this package.
SYSTEMS: dict[str, str] = {
    "fasttest": "fasttest",
    "ast": "ast",
    "t10": "t10",
    "caerbannog": "caerbannog",
    "2d6": "twod6",
}

#: Engines that are not rule systems, reachable by the same contract: quick dice expressions.
TOOLS: dict[str, str] = {
    "dice": "dice",
    # Entries that roll nothing (a condition added or cleared): rolls.engine.note.
    "note": "note",
    # A line of chat, with the dice it rolls in place (``[[1d20+2]]``): rolls.engine.chat.
    "chat": "chat",
}


def system_module(key: Any) -> ModuleType:
    """The module for a system key, or an error naming the keys that exist."""
    modules = SYSTEMS | TOOLS
    if not isinstance(key, str) or key not in modules:
        known = ", ".join(modules)
        raise EngineError(f"Unknown system {key!r}; the engine knows: {known}.")
    return importlib.import_module(f"{__package__}.{modules[key]}")
