"""Group tests: an initiator and helpers roll one test together (RULES.md, Caerbannog point 9).

The GM or the initiator's player gathers helpers (characters of the table); the rules
(its ``GroupRules`` part) say how many dice each participant rolls. Each
participant's dice are rolled for them (one log entry each, kind "group_die"), by their player
or the GM; each may boost with their own pool and bonus, and re-roll their own dice naming the
ability (and its cost). The initiator's player or the GM settles it: one entry of kind "group",
a follow-up of the initiator's dice naming every participant's seq, and each participant's pool
is what the engine left them. Every change grows ``revision`` and tells the whole table
(``table.group``), so every page shows the test as it builds up; a page acting on a revision it
no longer shows is refused.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.live import broadcast_on_commit, campaign_group
from campaigns.models import GameSession
from campaigns.systems import get_system
from rolls import labels
from rolls.actions import ActionRefused, RollSpec, record_roll
from rolls.engine import dice as quick_dice
from rolls.labels import joined, words
from rolls.models import GroupTest
from rolls.panels import source
from sheets.models import Character

# The log's words for group tests: each participant's dice, a re-roll of some, the one result.
labels.register(
    kinds={
        "group": gettext_lazy("group test"),
        "group_die": gettext_lazy("group test dice"),
        "group_reroll": gettext_lazy("group test re-roll"),
    },
    words={
        "group_die": gettext_lazy("%(name)s's dice in %(initiator)s's group test"),
        "group_reroll": gettext_lazy("%(name)s re-rolls in the group test (%(ability)s)"),
        "group_result": gettext_lazy("Group test of %(initiator)s with %(helpers)s (%(seqs)s)"),
    },
)

#: Idempotency keys of the result entries: one per group test, whoever settles it.
_RESULT_KEYS = uuid.UUID("8f0b3a52-3c1e-4d7a-9f51-3b2f6f1c9a02")
OPEN = (GroupTest.Status.GATHERING, GroupTest.Status.ROLLING)


@dataclass(frozen=True)
class GroupRules:
    """What a system's rules say about group tests.

    ``choices(character)``: what the character may test with, ``[{"key", "label", "sides",
    "bonus"}]``; ``dice_counts(helpers)``: each participant's number of dice, initiator first;
    ``odds(members, difficulty, ease)``: the exact ``{"success", "boosted"}`` odds from the
    members as stored (faces rolled so far, boosts chosen); ``resolve(members, pools,
    difficulty, ease, heroic)``: the engine's result (``dice``, ``contract()``, ``members``
    with each one's ``rozmach`` left); ``pool`` / ``keep_pool``: read and write a character's pool;
    ``gained(member)``: what a member's own faces add to their pool; ``heroic``: the
    resources the initiator may pay heroic effort with (``(key, label)``), and
    ``pay_heroic(character, resource, cost)`` takes its cost from the sheet.
    """

    key: ClassVar[str] = "group"
    choices: Callable[[Character], list[dict[str, Any]]]
    dice_counts: Callable[[int], tuple[int, ...]]
    odds: Callable[[list[dict[str, Any]], int, int], dict[str, float]]
    resolve: Callable[[list[dict[str, Any]], list[int], int, int, bool], Any]
    pool: Callable[[Character], int]
    keep_pool: Callable[[Character, int], None]
    gained: Callable[[dict[str, Any]], int]
    max_helpers: int
    heroic: tuple[tuple[str, Any], ...] = ()
    pay_heroic: Callable[[Character, str, int], None] | None = None


def rules_of(system_key: str) -> GroupRules | None:
    return get_system(system_key).part(GroupRules)


def _rules(session: GameSession) -> GroupRules:
    rules = rules_of(session.campaign.system)
    if rules is None:
        raise ActionRefused(_("The rules of this game have no group tests."))
    return rules


def current(session: GameSession | None) -> GroupTest | None:
    """The session's group test being gathered or rolled, else the last one settled."""
    if session is None:
        return None
    tests = GroupTest.objects.filter(session=session).select_related("result")
    return tests.filter(status__in=OPEN).first() or tests.filter(status="resolved").first()


# --- Who may do what --------------------------------------------------------------------------


def _is_gm(group: GroupTest, user) -> bool:
    return group.session.campaign.gm_id == user.pk


def _owner_of(character_pk: int) -> int | None:
    return Character.objects.filter(pk=character_pk).values_list("owner_id", flat=True).first()


def may_lead(group: GroupTest, user) -> bool:
    """The GM and the initiator's player gather, re-order and settle the test."""
    return _is_gm(group, user) or _owner_of(group.members[0]["character"]) == user.pk


def may_act_for(group: GroupTest, user, member: dict[str, Any]) -> bool:
    """A participant's dice and boost are theirs: their player's, or the GM's."""
    return _is_gm(group, user) or _owner_of(member["character"]) == user.pk


def _member(group: GroupTest, character_pk: int) -> dict[str, Any]:
    for member in group.members:
        if member["character"] == character_pk:
            return member
    raise ActionRefused(_("That character takes no part in this group test."))


# --- Gathering ----------------------------------------------------------------------------------


def _choice(rules: GroupRules, character: Character, key: str) -> dict[str, Any]:
    for choice in rules.choices(character):
        if choice["key"] == key:
            return choice
    raise ActionRefused(
        _("%(name)s has no such skill to test with; choose one of theirs.")
        % {"name": character.name}
    )


def _participant(rules: GroupRules, character: Character, key: str) -> dict[str, Any]:
    choice = _choice(rules, character, key)
    return {
        "character": character.pk,
        "name": character.name,
        "skill": choice["key"],
        "label": str(choice["label"]),
        "sides": choice["sides"],
        "bonus": choice["bonus"],
        "dice": 0,
        "faces": [],
        "seq": None,
        "boost": False,
    }


def _in_campaign(session: GameSession, character: Character | None) -> Character:
    if character is None or character.campaign_id != session.campaign_id:
        raise ActionRefused(_("Only a character of this table can take part in a group test."))
    return character


@transaction.atomic
def start_group(
    *, session: GameSession, user, initiator: Character | None, skill: str, difficulty: int,
    ease: int = 0,
) -> GroupTest:  # fmt: skip
    """The GM or the initiator's player starts gathering a group test."""
    rules = _rules(session)
    if not session.is_open:
        raise ActionRefused(_("Start a session before calling for tests."))
    initiator = _in_campaign(session, initiator)
    if session.campaign.gm_id != user.pk and initiator.owner_id != user.pk:
        raise ActionRefused(_("Only the GM or the initiator's player may start a group test."))
    if GroupTest.objects.select_for_update().filter(session=session, status__in=OPEN).exists():
        raise ActionRefused(
            _("A group test is already under way at this table; settle it or call it off first.")
        )
    group = GroupTest.objects.create(
        session=session,
        difficulty=difficulty,
        ease=max(-1, min(1, ease)),
        members=[_participant(rules, initiator, skill)],
        started_by=user,
    )
    _changed(group, save=False)
    return group


def _locked(group_id: int, revision: int | None) -> GroupTest:
    group = (
        GroupTest.objects.select_for_update().select_related("session__campaign").get(pk=group_id)
    )
    if group.status not in OPEN:
        raise ActionRefused(_("This group test is over; start a new one."))
    if revision is not None and revision != group.revision:
        raise ActionRefused(
            _("The group test changed meanwhile (someone else acted); look at it again.")
        )
    return group


def _changed(group: GroupTest, save: bool = True) -> None:
    if save:
        group.revision += 1
        group.save()
    broadcast_on_commit(
        campaign_group(group.session.campaign_id),
        {"type": "table.group", "group": group.pk, "revision": group.revision},
    )


@transaction.atomic
def add_helper(
    *, group_id: int, user, revision: int | None, character: Character | None, skill: str
) -> GroupTest:
    group = _locked(group_id, revision)
    rules = _rules(group.session)
    if not may_lead(group, user):
        raise ActionRefused(_("Only the GM or the initiator's player gathers the helpers."))
    _gathering(group)
    character = _in_campaign(group.session, character)
    room_for(group, rules, character)
    group.members = [*group.members, _participant(rules, character, skill)]
    group.offers = [o for o in group.offers if o["character"] != character.pk]
    _changed(group)
    return group


def room_for(group: GroupTest, rules: GroupRules, character: Character) -> None:
    """Refused unless ``character`` may still join: not taking part yet, and fewer helpers than
    the rules allow."""
    if any(member["character"] == character.pk for member in group.members):
        raise ActionRefused(
            _("%(name)s already takes part in this group test.") % {"name": character.name}
        )
    if len(group.members) - 1 >= rules.max_helpers:
        raise ActionRefused(
            _("A group test takes at most %(n)s helpers.") % {"n": rules.max_helpers}
        )


def _gathering(group: GroupTest) -> None:
    if group.status != GroupTest.Status.GATHERING:
        raise ActionRefused(_("The dice are being rolled: no helper can join any more."))


@transaction.atomic
def remove_helper(*, group_id: int, user, revision: int | None, character_pk: int) -> GroupTest:
    group = _locked(group_id, revision)
    if not may_lead(group, user):
        raise ActionRefused(_("Only the GM or the initiator's player gathers the helpers."))
    if group.status != GroupTest.Status.GATHERING:
        raise ActionRefused(_("The dice are being rolled: the helpers stay."))
    member = _member(group, character_pk)
    if member is group.members[0]:
        raise ActionRefused(_("The initiator cannot leave; call the group test off instead."))
    group.members = [m for m in group.members if m is not member]
    _changed(group)
    return group


# --- Rolling, boosting, re-rolling ---------------------------------------------------------------


def _dice_text(count: int, sides: int) -> str:
    return f"{count}d{sides}"


@transaction.atomic
def roll_member(
    *, group_id: int, user, revision: int | None, character_pk: int, key: uuid.UUID,
    nonce: str | None = None,
) -> GroupTest:  # fmt: skip
    """A participant's dice are rolled for them; the first roll closes the gathering."""
    group = _locked(group_id, revision)
    rules = _rules(group.session)
    member = _member(group, character_pk)
    if not may_act_for(group, user, member):
        raise ActionRefused(
            _("Only %(name)s's player or the GM may roll %(name)s's dice.")
            % {"name": member["name"]}
        )
    if member["seq"] is not None:
        raise ActionRefused(_("%(name)s's dice are already rolled.") % {"name": member["name"]})
    if group.status == GroupTest.Status.GATHERING:
        counts = rules.dice_counts(len(group.members) - 1)
        for other, count in zip(group.members, counts, strict=True):
            other["dice"] = count
        group.status = GroupTest.Status.ROLLING
        group.offers = []  # no helper joins once the dice roll: what was offered lapses
    character = Character.objects.get(pk=character_pk)
    roll, _created = record_roll(
        RollSpec(
            session=group.session,
            actor=user,
            system=group.session.campaign.system,
            params={"expression": _dice_text(member["dice"], member["sides"])},
            key=key,
            label=words("group_die", name=member["name"], initiator=group.members[0]["name"]),
            character=character,
            kind=quick_dice.GROUP_DIE_KIND,
            engine=quick_dice,
            nonce=nonce,
        )
    )
    member["faces"] = list(roll.faces)
    member["seq"] = roll.seq
    _changed(group)
    return group


@transaction.atomic
def set_boost(
    *, group_id: int, user, revision: int | None, character_pk: int, boost: bool
) -> GroupTest:
    """A participant spends (or takes back) 1 of their own pool for their own bonus."""
    group = _locked(group_id, revision)
    rules = _rules(group.session)
    member = _member(group, character_pk)
    if not may_act_for(group, user, member):
        raise ActionRefused(
            _("Only %(name)s's player or the GM may boost with %(name)s's Rozmach.")
            % {"name": member["name"]}
        )
    if member["seq"] is None:
        raise ActionRefused(_("A boost comes after the roll: roll the dice first."))
    character = Character.objects.get(pk=character_pk)
    if boost and rules.pool(character) + rules.gained(member) < 1:
        raise ActionRefused(
            _("%(name)s's Rozmach pool is empty: nothing to boost with.") % {"name": member["name"]}
        )
    member["boost"] = bool(boost)
    _changed(group)
    return group


@transaction.atomic
def reroll_member(
    *, group_id: int, user, revision: int | None, character_pk: int, dice: list[int],
    ability: str, cost: int, key: uuid.UUID, nonce: str | None = None,
) -> GroupTest:  # fmt: skip
    """A participant re-rolls chosen dice of their own by an ability, paying its cost from
    their pool at once; the new faces replace the old (only the final roll gives Rozmach)."""
    group = _locked(group_id, revision)
    rules = _rules(group.session)
    member = _member(group, character_pk)
    if not may_act_for(group, user, member):
        raise ActionRefused(
            _("Only %(name)s's player or the GM may re-roll %(name)s's dice.")
            % {"name": member["name"]}
        )
    if member["seq"] is None:
        raise ActionRefused(_("Roll the dice before re-rolling them."))
    if not ability.strip():
        raise ActionRefused(_("Name the ability the re-roll comes from."))
    chosen = sorted(set(dice)) or list(range(len(member["faces"])))
    if any(not 0 <= index < len(member["faces"]) for index in chosen):
        raise ActionRefused(_("Choose dice of this participant to re-roll."))
    character = Character.objects.select_for_update().get(pk=character_pk)
    pool = rules.pool(character)
    if cost < 0 or cost > pool:
        raise ActionRefused(
            _("The re-roll costs %(cost)s Rozmach and %(name)s has %(have)s.")
            % {"cost": cost, "name": member["name"], "have": pool}
        )
    roll, _created = record_roll(
        RollSpec(
            session=group.session,
            actor=user,
            system=group.session.campaign.system,
            params={"expression": _dice_text(len(chosen), member["sides"])},
            key=key,
            label=words("group_reroll", name=member["name"], ability=ability.strip()[:60]),
            character=character,
            kind=quick_dice.GROUP_REROLL_KIND,
            engine=quick_dice,
            nonce=nonce,
        )
    )
    if cost:
        rules.keep_pool(character, pool - cost)
    faces = list(member["faces"])
    for index, face in zip(chosen, roll.faces, strict=True):
        faces[index] = face
    member["faces"] = faces
    member.setdefault("rerolls", []).append(roll.seq)
    _changed(group)
    return group


# --- Settling -----------------------------------------------------------------------------------


class _Settled:
    """The engine's group result as ``record_roll`` stores it, with the seqs of the entries
    whose dice it reads: each participant's roll (``seqs``) and their re-rolls
    (``reroll_seqs``), so the fair-dice checker can tell every die it shows was drawn."""

    def __init__(self, result: Any, seqs: list[int], reroll_seqs: list[int]) -> None:
        self.dice = result.dice
        self._answer = result.contract() | {"seqs": seqs, "reroll_seqs": reroll_seqs}

    def contract(self) -> dict[str, Any]:
        return self._answer


def _result_sources(group: GroupTest, result: Any) -> list[dict[str, Any]]:
    """What the group entry shows it was read from, as every other entry does: the difficulty,
    the ease that applied to all, each participant's dice (the faces after any re-roll), and
    each boost with whose Rozmach paid it."""
    sources = [source("difficulty", group.difficulty)]
    if group.ease:
        sources.append(source("hinder" if group.ease < 0 else "ease", abs(group.ease)))
    for member, share in zip(group.members, result.members, strict=True):
        faces = ", ".join(str(face) for face in member["faces"])
        sources.append(source("rolled", len(member["faces"]), f"{member['name']}: {faces}"))
        if share.boosted:
            sources.append(source("boost", member["bonus"], member["name"]))
    return sources


@transaction.atomic
def settle(*, group_id: int, user, revision: int | None, heroic: str = "") -> GroupTest:
    """Read the test from everyone's dice: one entry, and each participant's pool updated.

    ``heroic`` names the resource the initiator pays heroic effort with ("" for none): only the
    initiator bears the test, so only they may (RULES.md's Decision, as in opposed tests)."""
    group = _locked(group_id, revision)
    rules = _rules(group.session)
    if not may_lead(group, user):
        raise ActionRefused(_("Only the GM or the initiator's player settles the group test."))
    if group.status != GroupTest.Status.ROLLING or any(
        member["seq"] is None for member in group.members
    ):
        raise ActionRefused(_("Everyone's dice must be rolled before the test is settled."))
    characters = {
        c.pk: c
        for c in Character.objects.select_for_update().filter(
            pk__in=[member["character"] for member in group.members]
        )
    }
    pools = [rules.pool(characters[member["character"]]) for member in group.members]
    if heroic and heroic not in dict(rules.heroic):
        raise ActionRefused(_("Choose what the initiator pays heroic effort with."))
    result = rules.resolve(group.members, pools, group.difficulty, group.ease, bool(heroic))
    seqs = [member["seq"] for member in group.members]
    reroll_seqs = sorted(seq for member in group.members for seq in member.get("rerolls", []))
    initiator = characters[group.members[0]["character"]]
    parent = group.session.rolls.get(seq=seqs[0])

    def keep_pools(_result, _roll) -> None:
        for member, share in zip(group.members, result.members, strict=True):
            rules.keep_pool(characters[member["character"]], share.rozmach)
        if heroic:
            rules.pay_heroic(initiator, heroic, result.heroic_cost)

    flat = [member["sides"] for member in group.members for _ in member["faces"]]
    roll, _created = record_roll(
        RollSpec(
            session=group.session,
            actor=user,
            system=group.session.campaign.system,
            params={"dice": flat, "difficulty": group.difficulty, "ease": group.ease},
            key=uuid.uuid5(_RESULT_KEYS, str(group.pk)),
            label=words(
                "group_result",
                initiator=initiator.name,
                helpers=joined([member["name"] for member in group.members[1:]]),
                seqs=", ".join(f"#{seq}" for seq in seqs),
            ),
            sources=_result_sources(group, result),
            character=initiator,
            kind="group",
            parent=parent,
            resolver=lambda module, params, rng: _Settled(result, seqs, reroll_seqs),
            on_result=keep_pools,
        )
    )
    group.result = roll
    group.status = GroupTest.Status.RESOLVED
    _changed(group)
    return group


@transaction.atomic
def cancel(*, group_id: int, user) -> GroupTest:
    group = _locked(group_id, None)
    if not may_lead(group, user):
        raise ActionRefused(_("Only the GM or the initiator's player may call the test off."))
    group.status = GroupTest.Status.CANCELLED
    _changed(group)
    return group
