"""A session's log as Markdown, CSV or JSON, with the reader's visibility applied."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from django.utils.translation import gettext as _

from rolls.labels import OUTCOME_LABELS, SOURCE_KINDS


def _dice_text(entry: dict[str, Any]) -> str:
    return " ".join(
        f"d{die['sides']}:{die['face']}{'' if die['kept'] else '(x)'}" for die in entry["dice"]
    )


def _sources_text(entry: dict[str, Any]) -> str:
    parts = []
    for source in entry["sources"]:
        amount = source.get("amount")
        kind = SOURCE_KINDS.get(source.get("kind", ""), source.get("kind", ""))
        text = f"{amount:+d} {kind}" if isinstance(amount, int) else str(kind)
        parts.append(f"{text}: {source['source']}" if source.get("source") else text)
    return "; ".join(parts)


def _who(entry: dict[str, Any]) -> str:
    return entry["character_name"] or entry["actor_name"]


def fair_header(session) -> dict[str, Any]:
    """What a checker needs besides the entries (ENGINE.md, "Fair dice"): the seed only once
    the session has ended."""
    return {
        "scheme": "HMAC-SHA256(seed, '{seq}:{nonce}:{j}'), 4 bytes a die (ENGINE.md, Fair dice)",
        "commitment": session.commitment,
        "seed": session.published_seed,
        "check": "python3 -m rolls.engine check this-file.json",
    }


def as_json(session, entries: list[dict[str, Any]]) -> str:
    document = {
        "schema": 1,
        "campaign": session.campaign.name,
        "session": {
            "id": session.pk,
            "title": str(session),
            "started_at": session.started_at,
            "ended_at": session.ended_at,
        },
        "fair": fair_header(session),
        "entries": entries,
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
                entry["actor_name"], entry["label"], _dice_text(entry),
                str(OUTCOME_LABELS.get(entry["outcome"], entry["outcome"])), _sources_text(entry),
            ]
        )  # fmt: skip
    return out.getvalue()


def as_markdown(session, entries: list[dict[str, Any]]) -> str:
    lines = [f"# {session.campaign.name}: {session}", ""]
    lines.append(f"{_('Dice commitment (SHA-256 of the seed)')}: `{session.commitment}`")
    if session.published_seed:
        lines.append(f"{_('Seed (published)')}: `{session.published_seed}`")
    lines.append("")
    for entry in entries:
        if entry["redacted"]:
            lines.append(f"- **#{entry['seq']}** {_('A hidden roll was made.')}")
            continue
        outcome = OUTCOME_LABELS.get(entry["outcome"], entry["outcome"])
        line = f"- **#{entry['seq']}** {_who(entry)}"
        if entry["label"]:
            line += f" — {entry['label']}"
        line += f": **{outcome}** ({_dice_text(entry)})"
        if entry["sources"]:
            line += f" — {_sources_text(entry)}"
        lines.append(line)
    return "\n".join(lines) + "\n"
