"""Small helpers for the sheet templates of every system."""

from __future__ import annotations

import json
from typing import Any

from django import template

register = template.Library()


@register.inclusion_tag("sheets/_field_errors.html")
def field_errors(errors: dict | None, name: str) -> dict[str, Any]:
    """The messages of one field, each with the id ``<name>-error`` for aria-describedby."""
    return {"field_messages": (errors or {}).get(name, []), "name": name}


@register.filter
def has_errors(errors: dict | None, name: str) -> bool:
    return bool((errors or {}).get(name))


@register.filter
def get(mapping: Any, key: Any) -> Any:
    """``mapping[key]`` for keys a template cannot spell (spaces, computed names); "" if absent."""
    if isinstance(mapping, dict):
        return mapping.get(key, "")
    if isinstance(mapping, list | tuple):
        try:
            return mapping[int(key)]
        except (ValueError, IndexError, TypeError):
            return ""
    return ""


@register.filter
def roll_json(target: dict) -> str:
    """The value of a roll target's data-roll attribute (escaped by the template)."""
    return json.dumps(target, ensure_ascii=False, sort_keys=True)


@register.filter
def roman(level: Any) -> str:
    """Skill levels 0..4 as the sheets print them: 0, I, II, III, IV."""
    numerals = {0: "0", 1: "I", 2: "II", 3: "III", 4: "IV"}
    return numerals.get(level, str(level)) if isinstance(level, int) else str(level)


@register.filter
def with_blanks(rows: Any, blanks: int = 2) -> list[tuple[int, dict]]:
    """(index, row) pairs of a list typed in a form, then ``blanks`` empty rows to fill in."""
    rows = rows if isinstance(rows, list) else []
    filled = [row if isinstance(row, dict) else {} for row in rows]
    return list(enumerate(filled + [{} for _ in range(int(blanks))]))


@register.filter
def roll_as(name: Any, kind: str) -> str:
    """A one-key roll target: ``{{ "BUDOWA"|roll_as:"attribute" }}`` -> {"attribute": "BUDOWA"}."""
    return json.dumps({kind: name}, ensure_ascii=False)


@register.filter
def fieldname(value: Any, pattern: str) -> str:
    """A form field's name from a pattern: ``{{ 2|fieldname:"trait_{}_name" }}`` -> trait_2_name."""
    return pattern.replace("{}", str(value))
