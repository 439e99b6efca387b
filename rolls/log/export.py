"""A session's log as Markdown, CSV or JSON, with the reader's visibility applied."""

from __future__ import annotations

import io
import json
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from campaigns.stored_text import as_read
from config import csv_cells
from config.member_text import isolated_text
from rolls.engine.chat import KIND as CHAT
from rolls.engine.chat import written_out
from rolls.engine.dice import QUICK_KIND
from rolls.labels import outcome_word, render, source_line
from rolls.models import Visibility


def dice_text(entry: dict[str, Any]) -> str:
    return " ".join(
        f"d{die['sides']}:{die['face']}{'' if die['kept'] else '(x)'}" for die in entry["dice"]
    )


def sources_text(entry: dict[str, Any]) -> str:
    return "; ".join(source_line(source) for source in entry["sources"])


def outcome(entry: dict[str, Any], total: str = "= {}") -> str:
    """What came of the entry; an expression's total as ``total`` says (a sum in Markdown, the
    bare number in a spreadsheet's cell)."""
    if entry.get("note"):  # a condition added or cleared, options chosen: its label says it
        return ""
    if entry["kind"] == QUICK_KIND:  # an expression has a total, not an outcome
        return total.format(entry["result"].get("total"))
    if entry["kind"] == "table":  # a GM's table: the total, the row and its text
        answer = entry["result"]
        return f"{answer.get('total')} → {answer.get('range')}: {as_read(answer.get('text'))}"
    return outcome_word(entry["outcome"], entry["system"])


def label_text(entry: dict[str, Any]) -> str:
    """The entry's label in the reader's language; a line of chat with each roll it made in
    place written with its result (``[[1d20+2 = 17]]``), its dice beside it as every entry's."""
    label = entry["label"]
    params = entry.get("params") if isinstance(entry.get("params"), dict) else {}
    if entry["kind"] == CHAT and params.get("inline"):
        text = params.get("text")
        label = _text_replaced(label, text, written_out(str(text), entry["result"]))
    return render(label)


def _text_replaced(label: Any, text: Any, written: str, depth: int = 0) -> Any:
    """``label`` (words as data) with its ``text`` argument, the line as typed, written out:
    only there, so a speaker's name that looks like a roll stays a name."""
    if not isinstance(label, dict) or depth > 6:
        return label
    args = label.get("a")
    if not isinstance(args, dict):
        return label
    changed = {
        name: written
        if name == "text" and value == text
        else _text_replaced(value, text, written, depth + 1)
        for name, value in args.items()
    }
    return {**label, "a": changed}


def _in_words(entry: dict[str, Any]) -> dict[str, Any]:
    """The entry with its label and sources in the reader's language (they are stored as data,
    rolls.labels): what a reader of the file wants; the dice, params and faces stay as they are."""
    if entry["redacted"]:
        return entry
    sources = [
        {**source, "source": render(source.get("source")), "text": source_line(source)}
        if isinstance(source, dict)
        else source
        for source in entry["sources"]
    ]
    return {**entry, "label": label_text(entry), "sources": sources}


def _redacted(entry: dict[str, Any]) -> str:
    """What a redacted entry says: a hidden roll, or a sealed one that waits to be revealed
    (the same words as the log's, ``rolls/log/_entry.html``)."""
    if entry.get("sealed"):
        return _(
            "%(name)s has rolled their side of the opposed test; it is shown once the "
            "initiator reveals their final result."
        ) % {"name": entry["character_name"]}
    return _("A hidden roll was made.")


def _who(entry: dict[str, Any]) -> str:
    return isolated_text(entry["character_name"] or entry["actor_name"])


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
        "entries": [_in_words(entry) for entry in entries],
    }
    return json.dumps(document, ensure_ascii=False, indent=2, default=str)


def as_csv(entries: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv_cells.writer(out)  # a character or label typed as a formula stays text
    writer.writerow(
        ["seq", "time", "visibility", "kind", "character", "rolled_by", "test", "dice", "outcome",
         "modifiers", "struck", "typed_by"]
    )  # fmt: skip
    for entry in entries:
        if entry["redacted"]:
            writer.writerow([entry["seq"], entry["created_at"], entry["visibility"], "", "", "",
                             _redacted(entry), "", "", "", "", ""])  # fmt: skip
            continue
        writer.writerow(
            [
                entry["seq"], entry["created_at"], entry["visibility"], entry["kind"], _who(entry),
                isolated_text(entry["actor_name"]), isolated_text(label_text(entry)),
                dice_text(entry), outcome(entry, "{}"), sources_text(entry), struck_text(entry),
                isolated_text(entry["actor_name"]) if entry.get("typed") else "",
            ]
        )  # fmt: skip
    return out.getvalue()


def _time(entry: dict[str, Any]) -> str:
    """The entry's time of day in the site's time zone (the heading names it)."""
    moment = parse_datetime(entry["created_at"])
    return timezone.localtime(moment).strftime("%H:%M:%S") if moment else ""


def roller(entry: dict[str, Any]) -> str:
    """Who rolled: the character with the player who rolled it, or the roller alone; a note or
    a line of chat is "by" its member, as the log says."""
    character, user = isolated_text(entry["character_name"]), isolated_text(entry["actor_name"])
    if entry["character_name"] and entry["character_name"] != entry["actor_name"]:
        if entry.get("note"):
            return _("%(character)s (by %(user)s)") % {"character": character, "user": user}
        return _("%(character)s (rolled by %(user)s)") % {"character": character, "user": user}
    return user


def _marker(entry: dict[str, Any]) -> str:
    """Who may see the entry, unless the whole table may: the GM's copy keeps secrets marked. A
    line of chat says whom it is for in its own words ("to the GM: ..."), as the log does."""
    if entry["kind"] == CHAT:
        return ""
    if entry["visibility"] == Visibility.SECRET:
        return " *[" + _("secret: the roller and the GM") + "]*"
    if entry["visibility"] == Visibility.HIDDEN:
        return " *[" + _("hidden: the GM only") + "]*"
    if entry["visibility"] == Visibility.WHISPER:
        return " *[" + _("whisper: its author, its reader and the GM") + "]*"
    return ""


def typed_text(entry: dict[str, Any]) -> str:
    """Who typed the entry's real dice (rolls.real_dice)."""
    return _("real dice, typed by %(name)s") % {"name": isolated_text(entry["actor_name"])}


def struck_text(entry: dict[str, Any]) -> str:
    """Who struck the entry and why (rolls.strikes), "" when it stands."""
    struck = entry.get("struck")
    if not struck:
        return ""
    return _("struck by %(name)s (#%(seq)s): %(reason)s") % {
        "name": isolated_text(struck["by"]),
        "seq": struck["seq"],
        "reason": isolated_text(struck["reason"]),
    }


def as_markdown(session, entries: list[dict[str, Any]]) -> str:
    started = timezone.localtime(session.started_at)
    lines = [
        f"# {session.campaign.name}: {session}",
        "",
        _("Started %(date)s; times in %(zone)s.")
        % {
            "date": started.strftime("%Y-%m-%d %H:%M"),
            "zone": timezone.get_current_timezone_name(),
        },
        "",
        # Messages outside the f-strings: xgettext reads no call inside one.
        _("Dice commitment (SHA-256 of the seed)") + f": `{session.commitment}`",
    ]
    if session.published_seed:
        lines.append(_("Seed (published)") + f": `{session.published_seed}`")
    lines.append("")
    for entry in entries:
        head = f"- **#{entry['seq']}** {_time(entry)}"
        if entry["redacted"]:
            lines.append(f"{head} {_redacted(entry)}")
            continue
        said_outcome = outcome(entry)
        line = f"{head} {roller(entry)}{_marker(entry)}"
        if entry["label"]:
            line += f" — {isolated_text(label_text(entry))}"
        # An opposed test's entry has neither an outcome word nor dice: its label says who won.
        said = [f"**{said_outcome}**"] if said_outcome else []
        said += [f"({dice_text(entry)})"] if entry["dice"] else []
        if entry.get("typed"):
            said.append("*[" + typed_text(entry) + "]*")
        if said:
            line += ": " + " ".join(said)
        if entry["sources"]:
            line += f" — {sources_text(entry)}"
        if struck := struck_text(entry):
            line = f"{head} ~~{line[len(head) + 1 :]}~~ *[{struck}]*"
        lines.append(line)
    return "\n".join(lines) + "\n"
