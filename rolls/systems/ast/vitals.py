"""AST's party card on the GM's dashboard (its ``System.vitals``): FUNT and negative states."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _


def vitals(sheet) -> list[tuple[str, Any]]:
    """The card of an ``ASTSheet``."""
    negative = sheet.negative_states
    return [
        (_("FUNT (special points)"), sheet.funt),
        (_("Negative states"), ", ".join(f"{s['name']} +{s['value']}" for s in negative) or "–"),
    ]
