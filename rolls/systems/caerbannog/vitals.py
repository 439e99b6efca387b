"""Caerbannog's party card on the GM's dashboard (its ``System.vitals``): its resources."""

from __future__ import annotations

from typing import Any

from sheets.systems.caerbannog import RESOURCES


def vitals(sheet) -> list[tuple[str, Any]]:
    """The card of a ``CaerbannogSheet``: its resources named as the sheet names them."""
    label = {key: text for key, text, _bounds in RESOURCES}
    return [
        (label["rozmach"], f"{sheet.resource('rozmach')}/10"),
        *(
            (label[key], sheet.resource(key))
            for key in ("wytrzymalosc", "determinacja", "zywotnosc", "zdrowie")
        ),
    ]
