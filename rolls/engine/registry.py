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


def system_module(key: Any) -> ModuleType:
    """The module for a system key, or an error naming the keys that exist."""
    if not isinstance(key, str) or key not in SYSTEMS:
        known = ", ".join(SYSTEMS)
        raise EngineError(f"Unknown system {key!r}; the engine knows: {known}.")
    return importlib.import_module(f"{__package__}.{SYSTEMS[key]}")
