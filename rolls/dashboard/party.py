"""The numbers that matter in play: what the GM's dashboard shows of each character. Each
system says which (its ``System.vitals``; FastTest's, Caerbannog's and AST's are their
``vitals.py``)."""

from __future__ import annotations

from typing import Any

from campaigns.systems import get_system


def vitals(character, system: str) -> list[tuple[str, Any]]:
    """(label, value) pairs for one character's card; values already as the GM reads them."""
    data = character.data if isinstance(character.data, dict) else {}
    return get_system(system).vitals(data)
