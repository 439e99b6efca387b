"""A long evening's log in a few statements: real rolls copied under the following seqs, so a
page or a benchmark can be given 2,000 entries (or 200,000) without rolling 2,000 times."""

from __future__ import annotations

import copy
import random
import uuid

from django.db import transaction

from rolls.models import Roll, Visibility
from tests.web.live import roll

#: Every how many entries one is the player's secret and one the GM's hidden roll, so each page
#: of the log holds entries a viewer may not see whole.
SECRET_EVERY = 7
HIDDEN_EVERY = 11

#: An evening of ``mixed_log``: how often each kind of entry comes, in percent. Most are a
#: player's public test; the quick rolls are few (and never the first player's).
MIX = {
    "test": 68,  # a player's public test
    "secret": 8,  # a player's secret test (the player and the GM see it)
    "hidden": 8,  # the GM's hidden test (the GM alone)
    "chat": 7,  # a player's line to the table
    "to_gm": 2,  # a player's line to the GM (chat, secret)
    "whisper": 3,  # a player's whisper to the next player (their GM sees it too)
    "gm_chat": 3,  # the GM's line to the table
    "quick": 1,  # a player's quick dice (2d6+3), public
}
#: How many copies wait in memory before they are written.
CHUNK = 5000


def long_log(session, player, gm, count: int, character=None) -> None:
    """Fill ``session`` up to ``count`` entries: public rolls of ``player`` (for ``character``),
    every SECRET_EVERY-th their secret one, every HIDDEN_EVERY-th the ``gm``'s hidden one."""
    shapes = {
        "public": roll(session, player, character=character),
        "secret": roll(session, player, visibility="secret", character=character),
        "hidden": roll(session, gm, visibility="hidden"),
    }
    session.refresh_from_db()
    first = session.last_seq + 1
    copies = []
    for seq in range(first, count + 1):
        shape = "secret" if seq % SECRET_EVERY == 0 else "public"
        shape = "hidden" if seq % HIDDEN_EVERY == 0 else shape
        copies.append(_copy(shapes[shape], seq))
    Roll.objects.bulk_create(copies, batch_size=500)
    session.last_seq = max(count, session.last_seq)
    session.save(update_fields=["last_seq"])


def mixed_log(session, gm, players: list[tuple], count: int, seed: int = 0) -> None:
    """Fill the open ``session`` up to ``count`` entries as an evening of ``players`` ((user,
    character) pairs) and their ``gm`` goes: each entry of a kind of ``MIX`` drawn at random
    (``seed``), by a player drawn too. The first entry of each kind and player is made for real
    (the roll rolled, the line said, in the session's seq); the next ones are copies of it.

    The quick rolls are never the first player's: their quick-dice box finds none of theirs and
    reads back through all their entries (rolls.tables.quick_dice.recent), as most players'
    does. A whisper needs a second player; with one, it is a line to the GM instead."""
    draw = random.Random(seed)
    kinds, weights = list(MIX), list(MIX.values())
    made: dict[tuple[str, int], Roll] = {}
    waiting: list[Roll] = []
    with transaction.atomic():
        session.refresh_from_db()
        seq = session.last_seq
        while seq < count:
            kind, who = _draw(draw, kinds, weights, len(players))
            shape = made.get((kind, who))
            if shape is None:
                _write(session, waiting, seq)
                shape = made[kind, who] = _real(session, gm, players, kind, who)
                seq = shape.seq
                continue
            seq += 1
            waiting.append(_copy(shape, seq))
            if len(waiting) >= CHUNK:
                _write(session, waiting, seq)
        _write(session, waiting, seq)


def _draw(draw: random.Random, kinds, weights, players: int) -> tuple[str, int]:
    kind = draw.choices(kinds, weights)[0]
    if kind in ("hidden", "gm_chat"):
        return kind, -1
    if kind == "quick":
        return ("quick", draw.randrange(1, players)) if players > 1 else ("test", 0)
    if kind == "whisper" and players < 2:
        kind = "to_gm"
    return kind, draw.randrange(players)


def _real(session, gm, players: list[tuple], kind: str, who: int) -> Roll:
    """The entry of ``kind`` by player ``who`` (-1: the GM) made as the table makes it."""
    from rolls.chat.actions import say
    from rolls.tables.quick_dice import read_form, roll_quick

    campaign = session.campaign
    user, hero = players[who] if who >= 0 else (gm, None)
    if kind in ("test", "secret", "hidden"):
        visibility = "public" if kind == "test" else kind
        return roll(session, user, visibility=visibility, character=hero)
    if kind == "quick":
        form = read_form({"expression": "2d6+3", "visibility": "public"}, is_gm=False)
        return roll_quick(campaign=campaign, actor=user, form=form, key=uuid.uuid4())[0]
    line = {"campaign": campaign, "actor": user, "key": uuid.uuid4(), "character": hero}
    if kind == "to_gm":
        line["visibility"] = Visibility.SECRET
    elif kind == "whisper":
        line |= {
            "visibility": Visibility.WHISPER,
            "recipient": players[(who + 1) % len(players)][0],
        }
    return say(text="The door creaks; I hold my breath and listen.", **line)[0]


def _copy(shape: Roll, seq: int) -> Roll:
    entry = copy.copy(shape)
    entry.pk, entry.seq, entry.idempotency_key = None, seq, uuid.uuid4()
    return entry


def _write(session, waiting: list[Roll], seq: int) -> None:
    """The copies waiting, written; the session's last seq is ``seq`` (a real roll goes next)."""
    if waiting:
        Roll.objects.bulk_create(waiting, batch_size=500)
        waiting.clear()
    if session.last_seq != seq:
        session.last_seq = seq
        session.save(update_fields=["last_seq"])
