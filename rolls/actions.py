"""The writes that matter for the live table, one function per action.

Each saves in one transaction and broadcasts in ``transaction.on_commit``, so a page never shows
something that did not happen (a rolled-back roll), and views and consumers never save rolls.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from campaigns.actions import ActionRefused
from campaigns.live import broadcast_on_commit, campaign_group
from campaigns.models import GameSession
from campaigns.systems import get_system
from rolls import limits
from rolls.discord import outbox
from rolls.engine import EngineError, fair, note
from rolls.engine.core import RandomSource
from rolls.engine.typed import TypedDice
from rolls.labels import render
from rolls.log import reading
from rolls.log.payload import audience_of, engine_faces, result_document, roll_payload
from rolls.log.rendered import entry_html
from rolls.models import Roll, Seal, Visibility
from sheets import actions as sheet_actions
from sheets.models import Character

#: ``resolver(module, parsed_params, rng) -> result``: how a roll's dice are had (see record_roll).
Resolver = Callable[[Any, Any, Any], Any]


# --- Rolls ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollSpec:
    """One roll to log (``record_roll``): what is rolled, by whom and for whom, how the log reads
    it, and what follows from its result.

    ``label`` and the ``source`` of each of ``sources`` are plain text or words as data
    (rolls.labels), which each reader of the log gets in their own language. ``key`` makes a
    retried request get the roll it already made. ``nonce`` is what the roller's page sent for
    the fair stream (ENGINE.md, "Fair dice"); a request without one gets a nonce made here.

    ``resolver(module, params, rng)`` replaces the plain ``module.roll`` for follow-ups that
    re-read the parent's faces (a boost) or re-roll some of them; ``on_result(result, roll)``
    runs inside the same transaction to update the sheet (Rozmach, FUNT, spent dice).

    ``engine`` replaces the system's engine for a roll that is not one of the system's tests:
    quick dice (``rolls.engine.dice``) or a GM's table (``rolls.tables.random_tables``); its
    faces are stored as a plain list, in draw order.

    ``sealed_for``: the roll is sealed (rolls.models.Seal): the GM and these users alone see it
    whole until it is revealed (``reveal``); everyone else, that it was made and waits.

    ``recipient``: whom a whisper (``Visibility.WHISPER``, rolls.chat) is for.

    ``typed``: the dice are real dice the actor rolled at the table and typed in; the caller
    passes them to ``record_roll`` as its ``rng`` (``rolls.engine.typed.TypedDice``).
    """

    session: GameSession
    actor: Any
    system: str
    params: dict[str, Any]
    key: uuid.UUID
    label: str | dict[str, Any] = ""
    sources: list[dict[str, Any]] | None = None
    character: Character | None = None
    npc: Any = None
    visibility: str = Visibility.PUBLIC
    kind: str = "test"
    parent: Roll | None = None
    resolver: Resolver | None = None
    on_result: Callable[[Any, Roll], object] | None = None
    nonce: str | None = None
    engine: Any = None
    sealed_for: tuple[int, ...] | None = None
    recipient: Any = None
    typed: bool = False


def record_roll(spec: RollSpec, *, rng: RandomSource | None = None) -> tuple[Roll, bool]:
    """Roll ``spec`` on the server, log it under the next seq, broadcast it once committed.

    The dice come from the session's fair stream of (seed, seq, nonce); ``rng`` replaces the
    stream (tests that script their dice), and such an entry records no drawn dice.

    Returns ``(roll, created)``: a repeated key (a retried or double-clicked request) gets the
    roll it already made, and nothing is rolled twice.
    """
    try:
        with transaction.atomic():
            return _record(spec, rng)
    except IntegrityError:
        # The key was used before (a retry, a double click): the first one's roll is the roll,
        # and this attempt's dice and seq went with its transaction.
        existing = Roll.objects.filter(session=spec.session, idempotency_key=spec.key).first()
        if existing is None:
            raise
        return _made_before(existing, spec.actor)


def _made_before(existing: Roll, actor) -> tuple[Roll, bool]:
    """The answer to a key used before: the entry it made. Never one its requester may not know
    of (a chat line to others, ``rolls.log.payload.UNSHOWN_KINDS``): its author resending gets
    it, anyone else with its key is refused as with any forged key, not told even its seq."""
    if audience_of(existing)["unshown"]:
        is_gm = existing.session.campaign.is_gm(actor)
        if not reading.may_see(existing, actor, is_gm):
            raise ActionRefused(_("This request is malformed; reload the page and try again."))
    return existing, False


def record_note(
    *, kind: str, facts: dict[str, Any] | None = None, **spec: Any
) -> tuple[Roll, bool]:
    """Log an entry that rolls nothing (``rolls.engine.note``: a condition, the options chosen,
    a result the GM applied...) the way every roll is logged: its ``kind`` is both the entry's
    kind and the note its params say, ``facts`` the rest of them; ``spec`` the other fields of
    a ``RollSpec``."""
    params = {"note": kind, **(facts or {})}
    return record_roll(RollSpec(params=params, kind=kind, engine=note, **spec))


def _plain_roll(module, params, rng):
    return module.roll(params, rng)


#: Where a roll's dice come from when its caller passes no ``rng``: the session's fair stream
#: of (seed, seq, nonce) (ENGINE.md, "Fair dice"). Views never pass an ``rng``, so this is the
#: one injection point for tests that script the dice of a roll made through a view
#: (tests/web/dice.py swaps it); nothing in the app replaces it.
dice_source: Callable[[str, int, str], RandomSource] = fair.FairDice


def _nonce(nonce: str | None) -> tuple[str, bool]:
    """The roll's nonce and whether the server made it (the request brought none)."""
    if not nonce:
        return fair.new_nonce(), True
    try:
        return fair.check_nonce(nonce), False
    except EngineError as error:
        raise ActionRefused(
            _("This roll request is malformed (its random value); reload the page and try again.")
        ) from error


def _record(spec: RollSpec, rng: RandomSource | None) -> tuple[Roll, bool]:
    # The row lock serialises every roll of a session: seq has no gaps and no duplicates.
    # A repeated key is not looked up first: its insert breaks the unique key, which undoes
    # this transaction and answers with the first roll (record_roll), at no cost to a new roll.
    session, system, engine, character, npc = (
        spec.session, spec.system, spec.engine, spec.character, spec.npc
    )  # fmt: skip
    # Every entry a request writes spends its user's budget here, where every entry is written,
    # so a view that writes many (a turn order's dice) spends as many (rolls.limits).
    limits.charge_entry()
    seq, seed, campaign_id = _next_seq(session.pk)
    scene_id, bridged = _scene_and_bridge(session.pk, campaign_id)
    module = engine or get_system(system).engine
    nonce, server_nonce = _nonce(spec.nonce)
    source = rng or dice_source(seed, seq, nonce)
    resolver = spec.resolver or _plain_roll
    try:
        result = resolver(module, module.parse_params(spec.params), source)
    except EngineError as error:
        raise ActionRefused(str(error)) from error
    if getattr(source, "unused", 0):  # typed dice the roll did not ask for: never dropped
        raise ActionRefused(_("More dice were typed than this test rolls; look at it again."))
    document = result_document(result)
    drawn = [list(die) for die in getattr(source, "drawn", ())]
    roll = Roll.objects.create(
        # The caller's session: ``roll.session`` needs no query (follow-ups read its scenes).
        session=session,
        seq=seq,
        scene_id=scene_id,
        actor=spec.actor,
        character=character,
        npc=npc,
        character_name=character.name if character else (npc.name if npc else ""),
        system=system,
        kind=spec.kind,
        parent=spec.parent,
        visibility=spec.visibility,
        recipient=spec.recipient,
        # The roller's words for the admin and old readers; the data for everyone else.
        label=render(spec.label)[:200],
        label_data=None if isinstance(spec.label, str) else spec.label,
        params=spec.params,
        sources=spec.sources or [],
        faces=engine_faces(system, document["dice"])
        if engine is None
        else [die["face"] for die in document["dice"]],
        result=document,
        idempotency_key=spec.key,
        nonce=nonce,
        # Said only of dice drawn with it: an entry that settles others (an opposed or group
        # test's result) draws none, and no page was asked for its nonce.
        server_nonce=server_nonce and bool(drawn),
        drawn=drawn,
        typed=spec.typed,
    )
    if spec.sealed_for is not None:
        Seal.objects.create(roll=roll, viewers=list(spec.sealed_for))  # caches ``roll.seal`` too
    else:
        Roll.seal.related.set_cached_value(roll, None)  # no seal: the payload asks no query
    Roll.strike.related.set_cached_value(roll, None)  # nor for a strike: a new entry stands
    if spec.on_result is not None:
        spec.on_result(result, roll)
    payload = roll_payload(roll)
    if (language := translation.get_language()) is not None:
        # Rendered once as it commits, before the broadcast: the roller's answer and this
        # process's sockets in the roller's language reuse it (rolls.log.rendered).
        transaction.on_commit(lambda: entry_html(payload, language), robust=True)
    broadcast_on_commit(campaign_group(campaign_id), {"type": "table.roll", "payload": payload})
    if bridged:  # what every member may read leaves for the group's Discord channel
        outbox.queue_entry(roll, payload, campaign_id)
    return roll, True


def _next_seq(session_id: int) -> tuple[int, str, int]:
    """Lock the session's row and take its next seq: ``(seq, seed, campaign_id)``.

    One ``UPDATE ... RETURNING`` (PostgreSQL, SQLite 3.35+) where the ORM needs three
    statements (the locked read, the update and its SQL built in Python each time): the row
    lock serialises every roll of a session, so seq has no gaps and no duplicates, and a roll
    refused after it (an ended session, a bad nonce, an engine error) undoes the bump with its
    transaction.
    """
    if connection.vendor == "sqlite" and sqlite3.sqlite_version_info < (3, 35):
        locked = GameSession.objects.select_for_update().get(pk=session_id)
        if not locked.is_open:
            raise ActionRefused(_("This session has ended; the GM can start a new one."))
        locked.last_seq += 1
        locked.save(update_fields=["last_seq"])
        return locked.last_seq, locked.seed, locked.campaign_id
    with connection.cursor() as cursor:
        cursor.execute(_NEXT_SEQ, [session_id])
        row = cursor.fetchone()
    if row is None:
        raise GameSession.DoesNotExist("GameSession matching query does not exist.")
    seq, seed, ended_at, campaign_id = row
    if ended_at is not None:
        raise ActionRefused(_("This session has ended; the GM can start a new one."))
    return seq, seed, campaign_id


def _scene_and_bridge(session_id: int, campaign_id: int) -> tuple[int | None, bool]:
    """The session's latest scene, read once its row is locked (a scene started meanwhile
    waited for the lock, so it is either wholly before this roll or after it), and whether the
    campaign posts to Discord (rolls.discord.outbox): one statement, so a campaign without a
    bridge pays nothing for it."""
    with connection.cursor() as cursor:
        cursor.execute(_SCENE_AND_BRIDGE, [session_id, campaign_id])
        scene_id, bridged = cursor.fetchone()
    return scene_id, bool(bridged)


_NEXT_SEQ = (
    'UPDATE "campaigns_gamesession" SET "last_seq" = "last_seq" + 1 WHERE "id" = %s '
    'RETURNING "last_seq", "seed", "ended_at", "campaign_id"'
)
_SCENE_AND_BRIDGE = (
    'SELECT (SELECT "id" FROM "campaigns_scene" WHERE "session_id" = %s '
    f'ORDER BY "number" DESC LIMIT 1), {outbox.HAS_BRIDGE}'
)


@transaction.atomic
def roll_from_panel(
    *,
    session,
    actor,
    character,
    panel,
    key,
    visibility,
    kind="test",
    parent=None,
    resolver=None,
    nonce=None,
    defer_after=False,
    sealed_for=None,
    typed=None,
) -> tuple[Roll, bool]:
    """Roll a test panel for a character; what the roll spends or gains lands on the sheet in
    the same transaction (experience dice spent, FUNT gained, Rozmach after the roll), then the
    panel's ``after`` runs (``defer_after``: the caller runs it, once its own rows are saved);
    ``sealed_for`` seals it as ``record_roll`` says. ``typed``: the faces of real dice the actor
    rolled at the table, in the order the test asks for them, rolled instead of drawn dice."""

    def update_sheet(result, roll: Roll) -> None:
        if not panel.spend and panel.on_result is None:
            return
        on_result = panel.on_result or (lambda data, result: None)
        changed: list = []
        try:
            locked = sheet_actions.change_sheet(
                character, lambda data: on_result(data, result), panel.spend, changed
            )
        except sheet_actions.SheetRefused as error:
            raise ActionRefused(str(error)) from error
        # The caller's object shows the sheet as the roll left it, without reading it again.
        character.data, character.updated_at = locked.data, locked.updated_at
        if changed:  # kept with the entry, so a GM striking it may give it back
            roll.sheet_change = {"character": character.pk, "numbers": changed}
            Roll.objects.filter(pk=roll.pk).update(sheet_change=roll.sheet_change)

    roll, created = record_roll(
        RollSpec(
            session=session,
            actor=actor,
            system=panel.system,
            params=panel.params,
            key=key,
            label=panel.label,
            sources=panel.sources,
            character=character,
            visibility=visibility,
            kind=kind,
            parent=parent,
            resolver=resolver,
            on_result=update_sheet,
            nonce=nonce,
            sealed_for=sealed_for,
            typed=typed is not None,
        ),
        rng=None if typed is None else TypedDice(typed),
    )
    if created and panel.after is not None and not defer_after:
        panel.after(roll)
    return roll, created


@transaction.atomic
def roll_follow_up(
    *, parent: Roll, actor, character, kind, build, key, nonce=None
) -> tuple[Roll, bool]:
    """A follow-up of ``parent`` (re-roll, boost, heroic effort...), checked and rolled under the
    session's lock, so two clicks at once cannot both spend the test's one re-roll.

    ``build()`` returns the follow-up's panel, or raises ActionRefused when the rules no longer
    allow it (it is called after the lock is taken, so it sees every earlier follow-up).
    """
    GameSession.objects.select_for_update().get(pk=parent.session_id)
    existing = Roll.objects.filter(session_id=parent.session_id, idempotency_key=key).first()
    if existing is not None:
        return _made_before(existing, actor)
    panel = build()
    return roll_from_panel(
        session=parent.session,
        actor=actor,
        character=character,
        panel=panel,
        key=key,
        visibility=parent.visibility,
        kind=kind,
        parent=parent,
        resolver=panel.resolver,
        nonce=nonce,
    )


# --- Sealed rolls -------------------------------------------------------------------------------


def reveal(rolls: list[Roll]) -> None:
    """Lift the seals of ``rolls`` (rolls.models.Seal): from now on each entry is shown as its
    visibility says, and every page of the table that shows it redacted shows it whole (the
    ``table.reveal`` event: each socket sends the entries again as its user may see them)."""
    seals = Seal.objects.filter(roll__in=rolls, revealed_at__isnull=True).select_related(
        "roll__actor", "roll__parent", "roll__session", "roll__strike"
    )
    revealed = []
    for seal in seals:
        seal.revealed_at = timezone.now()
        seal.save(update_fields=["revealed_at"])
        revealed.append(seal.roll)
    if not revealed:
        return
    revealed.sort(key=lambda roll: roll.seq)
    payloads = [roll_payload(roll) for roll in revealed]
    campaign_id = revealed[0].session.campaign_id
    broadcast_on_commit(campaign_group(campaign_id), {"type": "table.reveal", "payloads": payloads})
    for roll, payload in zip(revealed, payloads, strict=True):
        outbox.queue_entry(roll, payload, campaign_id)  # public once revealed: posted now


def reveal_at_end(sender, session, **kwargs) -> None:
    """A session that ends reveals what it kept sealed: nobody can settle an opposed test any
    more, and its seed comes out for anyone to check every entry's dice (connected to
    ``campaigns.sessions.session_ended`` in rolls.apps)."""
    sealed = Roll.objects.filter(
        session=session, seal__isnull=False, seal__revealed_at__isnull=True
    )
    reveal(list(sealed))
