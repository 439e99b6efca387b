"""The row-editing tag of the sheets built from free named lists (AST, T10, 2d6)."""

from __future__ import annotations

from typing import Any

from django import template

from sheets.systems.named_lists import form_rows as build_rows

register = template.Library()


@register.simple_tag
def form_rows(
    data: Any, key: str, fields: str, errors: Any, creating: bool = False, defaults: str = ""
) -> list[dict[str, Any]]:
    """``{% form_rows data "attributes" "name value" errors creating=creating as rows %}``.

    ``defaults`` are the values of a blank row, as ``"value=1 category=personal"``.
    """
    pairs = dict(item.split("=", 1) for item in defaults.split() if "=" in item)
    return build_rows(
        data,
        key,
        fields.split(),
        errors if isinstance(errors, dict) else {},
        creating=bool(creating),
        defaults=pairs,
    )
