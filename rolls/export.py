"""A session's log as Markdown, CSV or JSON, with the reader's visibility applied."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from django.utils.translation import gettext as _

from rolls.labels import outcome_word, source_line
from rolls.words import render


def _dice_text(entry: dict[str, Any]) -> str:
    return " ".join(
        f"d{die['sides']}:{die['face']}{'' if die['kept'] else '(x)'}" for die in entry["dice"]
    )


def _sources_text(entry: dict[str, Any]) -> str:
    return "; ".join(source_line(source) for source in entry["sources"])


def _outcome(entry: dict[str, Any]) -> str:
    return outcome_word(entry["outcome"], entry["system"])


def _in_words(entry: dict[str, Any]) -> dict[str, Any]:
    """The entry with its label and sources in the reader's language (they are stored as data,
    rolls.words): what a reader of the file wants; the dice, params and faces stay as they are."""
    if entry["redacted"]:
        return entry
    sources = [
        {**source, "source": render(source.get("source")), "text": source_line(source)}
        if isinstance(source, dict)
        else source
        for source in entry["sources"]
    ]
    return {**entry, "label": render(entry["label"]), "sources": sources}


def _who(entry: dict[str, Any]) -> str:
    return entry["character_name"] or entry["actor_name"]


def as_json(session, entries: list[dict[str, Any]]) -> str:
    document = {
        "schema": 1,
        "campaign": session.campaign.name,
        "session": {"id": session.pk, "title": str(session), "started_at": session.started_at},
        "entries": [_in_words(entry) for entry in entries],
    }
    return json.dumps(document, ensure_ascii=False, indent=2, default=str)


def as_csv(entries: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["seq", "time", "visibility", "kind", "character", "rolled_by", "test", "dice", "outcome",
         "modifiers"]
    )  # fmt: skip
    for entry in entries:
        if entry["redacted"]:
            writer.writerow([entry["seq"], entry["created_at"], entry["visibility"], "", "", "",
                             _("A hidden roll was made."), "", "", ""])  # fmt: skip
            continue
        writer.writerow(
            [
                entry["seq"], entry["created_at"], entry["visibility"], entry["kind"], _who(entry),
                entry["actor_name"], render(entry["label"]), _dice_text(entry), _outcome(entry),
                _sources_text(entry),
            ]
        )  # fmt: skip
    return out.getvalue()


def as_markdown(session, entries: list[dict[str, Any]]) -> str:
    lines = [f"# {session.campaign.name}: {session}", ""]
    for entry in entries:
        if entry["redacted"]:
            lines.append(f"- **#{entry['seq']}** {_('A hidden roll was made.')}")
            continue
        outcome = _outcome(entry)
        line = f"- **#{entry['seq']}** {_who(entry)}"
        if entry["label"]:
            line += f" — {render(entry['label'])}"
        line += f": **{outcome}** ({_dice_text(entry)})"
        if entry["sources"]:
            line += f" — {_sources_text(entry)}"
        lines.append(line)
    return "\n".join(lines) + "\n"
