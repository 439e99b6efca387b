"""Labels and sources are stored as data (rolls.labels); tests read them as the roller does."""

from __future__ import annotations

from typing import Any

from rolls.labels import render


def in_words(value: Any) -> Any:
    """A label, a source or a list of sources with the words rendered in the active language."""
    if isinstance(value, list):
        return [in_words(item) for item in value]
    if isinstance(value, dict) and "kind" in value and "source" in value:
        return {**value, "source": render(value["source"])}
    return render(value)
