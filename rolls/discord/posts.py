"""What a post says in the channel: a Discord embed per post, in the bridge's language.

Built as it is sent, not as it is queued (so a roll pays nothing for it, and an entry struck
before its post left shows struck). An entry reads as the log's Markdown export reads it
(``rolls.log.export``), with the odds its test had and a link back to it. Everything a member
typed is escaped, so it can neither ping (the message allows no mention at all) nor break out of
its formatting.
"""

from __future__ import annotations

import re
from typing import Any

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from campaigns.systems import get_system
from rolls.discord.models import DiscordBridge, DiscordPost
from rolls.engine import EngineError
from rolls.labels import outcome_word
from rolls.log import export
from rolls.log.payload import may_see, roll_payload
from rolls.log.reading import ENTRY_RELATED
from rolls.models import Roll
from rolls.recap import markdown as recap_words
from rolls.recap import running

#: Discord's limits: embeds a message, characters a title, a description, all of a message's.
EMBEDS_A_MESSAGE = 10
TITLE_MAX, DESCRIPTION_MAX, MESSAGE_MAX = 256, 4096, 6000
#: The embeds' colours: the table's, and a struck entry's grey.
COLOUR, STRUCK_COLOUR = 0x5865F2, 0x99AAB5
#: The message allows no mention of anyone: a name or a line typed as "@everyone" stays text.
NO_MENTIONS: dict[str, list[str]] = {"parse": []}

# Every character Discord's Markdown gives a meaning to (and "<", which opens a mention, a
# channel, an emoji or a timestamp), escaped with a backslash: Discord shows it as typed.
_MARKUP = re.compile(r"([\\*_~`|>#\-\[\]()<@:])")


def plain(text: str) -> str:
    """``text`` as Discord shows it literally, on one line."""
    return _MARKUP.sub(r"\\\1", " ".join(str(text).split()))


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def message(bridge: DiscordBridge, posts: list[DiscordPost]) -> dict[str, Any]:
    """The message that carries ``posts`` (at most ``EMBEDS_A_MESSAGE``)."""
    with translation.override(bridge.language):
        embeds = [embed(bridge, post) for post in posts]
    return {"embeds": embeds, "allowed_mentions": NO_MENTIONS}


def fits(embeds: list[dict[str, Any]]) -> bool:
    """Whether these embeds make one message Discord takes."""
    size = sum(len(e.get("title", "")) + len(e.get("description", "")) for e in embeds)
    return len(embeds) <= EMBEDS_A_MESSAGE and size <= MESSAGE_MAX


def embed(bridge: DiscordBridge, post: DiscordPost) -> dict[str, Any]:
    if post.kind in (DiscordPost.Kind.ENTRY, DiscordPost.Kind.EDIT):
        return _entry(bridge, post.roll_id)
    if post.kind == DiscordPost.Kind.TEST:
        text = _("This channel now gets the public log of %(campaign)s from the table.")
        return _said(_("The Table is connected"), text % {"campaign": _name(bridge)})
    if post.kind == DiscordPost.Kind.TURN:
        return _said(_turn(post.facts or {}), "")
    if post.kind == DiscordPost.Kind.RECAP:
        return _recap(bridge, post.session)
    started = post.kind == DiscordPost.Kind.STARTED
    title = _("The session has started") if started else _("The session has ended")
    session = post.session
    text = plain(str(session)) if session is not None else ""
    return _said(title, text, _session_link(bridge, session))


def _name(bridge: DiscordBridge) -> str:
    return plain(bridge.campaign.name)


def _said(title: str, description: str, url: str = "") -> dict[str, Any]:
    said = {"title": _cut(title, TITLE_MAX), "description": _cut(description, DESCRIPTION_MAX)}
    return {**said, "color": COLOUR, **({"url": url} if url else {})}


def _turn(facts: dict[str, Any]) -> str:
    round_, name = facts.get("round"), facts.get("name")
    if name:
        return _("Round %(round)s: %(name)s's turn") % {"round": round_, "name": plain(name)}
    if facts.get("npc"):
        return _("Round %(round)s: an NPC's turn") % {"round": round_}
    return _("Round %(round)s begins") % {"round": round_}


def _session_link(bridge: DiscordBridge, session) -> str:
    if session is None:
        return ""
    path = reverse("session_detail", args=[session.campaign_id, session.pk])
    return bridge.site.rstrip("/") + path


def _recap(bridge: DiscordBridge, session) -> dict[str, Any]:
    """The night's recap (rolls.recap) from the session's public entries alone: what the
    channel's every reader may know, never a secret, hidden, sealed or whispered roll."""
    recap = running.recap_for(session, None, False)  # nobody's but what every member may read
    lines = []
    for person in recap.people:
        lines.append(f"**{plain(person.name)}**")
        lines += [plain(line) for line in recap_words.person_lines(person)]
    for key, heading in recap_words.SECTIONS:
        if found := recap.listed[key]:
            lines.append(f"**{plain(heading())}**: {len(found)}")
    title = _("Recap") + f": {plain(str(session))}"
    path = reverse("session_recap", args=[session.campaign_id, session.pk])
    return _said(title, "\n".join(lines), bridge.site.rstrip("/") + path)


def _entry(bridge: DiscordBridge, roll_id: int | None) -> dict[str, Any]:
    roll = Roll.objects.select_related(*ENTRY_RELATED, "session").get(pk=roll_id)
    entry = roll_payload(roll)
    if not may_see(entry, None, False):  # never queued so; said again where it leaves
        raise ValueError(f"entry {roll.pk} is not every member's to read")
    lines = [plain(export.label_text(entry))] if entry["label"] else []
    if outcome := export.outcome(entry):
        lines.append(f"**{plain(outcome)}**")
    if entry["dice"]:
        lines.append(plain(export.dice_text(entry)))
    if entry.get("typed"):  # real dice rolled at the table (rolls.real_dice): none of ours
        lines.append(f"*{plain(export.typed_text(entry))}*")
    if odds := _odds(entry):
        lines.append(odds)
    if entry["sources"]:
        lines.append(plain(export.sources_text(entry)))
    title = f"#{entry['seq']} {plain(export.roller(entry))}"
    described = "\n".join(lines)
    struck = export.struck_text(entry)
    if struck:
        described = f"~~{described}~~\n*{plain(struck)}*" if described else f"*{plain(struck)}*"
    said = _said(title, described, _entry_link(bridge, roll))
    said["timestamp"] = entry["created_at"]
    if struck:
        said["color"] = STRUCK_COLOUR
    return said


def _odds(entry: dict[str, Any]) -> str:
    """The odds the test had before it was rolled, "" for what is no test of the system's (quick
    dice, a table, a note, a follow-up re-rolling part of one)."""
    if entry["kind"] != "test":
        return ""
    engine = get_system(entry["system"]).engine
    try:
        odds = engine.odds(engine.parse_params(entry["params"]))["odds"]
    except (EngineError, KeyError, TypeError):
        return ""
    chances = ", ".join(
        f"{plain(outcome_word(key, entry['system']))} {round(100 * chance)} %"
        for key, chance in sorted(odds.items(), key=lambda item: -item[1])
        if chance > 0
    )
    return _("Odds: %(chances)s") % {"chances": chances}


def _entry_link(bridge: DiscordBridge, roll: Roll) -> str:
    """The entry on the table: the page of the log it tops (it works for every entry, however
    far back, and opens for the table's members only)."""
    path = reverse("session_log_earlier", args=[roll.session.campaign_id, roll.session_id])
    return (
        f"{bridge.site.rstrip('/')}{path}?before={roll.seq + 1}#roll-{roll.session_id}-{roll.seq}"
    )
