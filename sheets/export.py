"""A character as a JSON file, and reading one back.

The document: ``{"schema": 1, "system": "fasttest", "name": "...", "data": {...}}``. ``data`` is
the sheet in its system's shape; an import is validated with the system's creation rules, and
every problem is reported at once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.systems import system_choices
from config.text import MAX_JSON_DEPTH, TooDeep, has_unsafe_text, load_json
from config.text import MESSAGE as UNSAFE_TEXT
from sheets.actions import clean_name, validate_sheet
from sheets.models import Character

SCHEMA = 1
#: The largest file or pasted text an import reads (a full sheet is a few kilobytes).
MAX_BYTES = 64 * 1024


def export_document(character: Character) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "system": character.campaign.system,
        "name": character.name,
        "data": character.data,
    }


def export_json(character: Character) -> str:
    return json.dumps(export_document(character), ensure_ascii=False, indent=2, sort_keys=True)


@dataclass
class Imported:
    """What an import read: the name and the validated sheet, or every problem found."""

    name: str = ""
    data: dict = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def _no_constant(name: str) -> None:
    # NaN and Infinity are not JSON (PostgreSQL's jsonb refuses them): not an exported file.
    raise ValueError(name)


def _too_deep() -> str:
    return _("This file is nested more than %(n)s levels deep; an exported character is not.") % {
        "n": MAX_JSON_DEPTH
    }


def read_import(raw: bytes | str, campaign: Campaign) -> Imported:
    """Parse and check an exported character for ``campaign``; never raises on bad input."""
    if len(raw.encode("utf-8") if isinstance(raw, str) else raw) > MAX_BYTES:
        return Imported(
            problems=[
                _("The file is too large: a character is at most %(kb)d KB.")
                % {"kb": MAX_BYTES // 1024}
            ]
        )
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
        document = load_json(text, parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError):
        return Imported(problems=[_("This is not a JSON file exported from a character sheet.")])
    except TooDeep:
        return Imported(problems=[_too_deep()])
    if has_unsafe_text(document):
        return Imported(problems=[str(UNSAFE_TEXT)])
    if not isinstance(document, dict):
        return Imported(problems=[_("The JSON must be an object with schema, system and data.")])
    schema = document.get("schema")
    if schema != SCHEMA or isinstance(schema, bool):
        return Imported(
            problems=[
                _("Unsupported schema version %(found)s: this site reads version %(schema)d.")
                % {"found": json.dumps(schema), "schema": SCHEMA}
            ]
        )
    system = document.get("system")
    if system != campaign.system:
        names = dict(system_choices())
        return Imported(
            problems=[
                _("This character is for %(found)s; this campaign plays %(system)s.")
                % {
                    "found": names.get(system, json.dumps(system, ensure_ascii=False)),
                    "system": names[campaign.system],
                }
            ]
        )
    problems: list[str] = []
    if not isinstance(document.get("data"), dict):
        problems.append(_("The “data” of the file must be an object: the sheet."))
        return Imported(problems=problems)
    name, name_errors = clean_name(document.get("name"))
    for messages in name_errors.values():
        problems.extend(messages)
    data, errors = validate_sheet(campaign, document.get("data"), creating=True)
    for messages in errors.values():
        problems.extend(messages)
    return Imported(name=name, data=data, problems=problems)
