"""After a FastTest roll: the consequences the GM applies in one click (RULES.md section 1).

- **The combat wound**, only after a test the GM called and marked as a combat test (a plain
  test, or one the GM did not mark, deals no wound). The engine's ``combat_wound`` says who
  takes which wound. A wound on the
  player's character goes on the sheet and, when ``needs_wound_test`` says so, the GM's call for
  a BUDOWA wound test goes to the player (a pending test, the armor as bonus dice; the new wound
  is already on the sheet, so the panel counts it). Once rolled, ``read_wound_test`` applies its
  reading: with armor, ``yes_and`` removes the new wound. Applied once per roll.
- **The magic die after a spell.** A follow-up of the spell's roll (the FastTest panel offers it),
  logged as kind "magic_die"; 1-2 drops the sheet's die a step, a d4 dropping leaves none.
- **A night's rest.** The magic die one step up, never above the starting die.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.models import Campaign, GameSession
from campaigns.system_settings import system_settings
from campaigns.systems import get_system
from rolls.actions import ActionRefused, roll_follow_up
from rolls.engine import EngineError
from rolls.engine.core import SUCCESSES, Die
from rolls.engine.fasttest_combat import (
    PLAYER,
    WEAPON_CLASSES,
    WEAPON_HAND,
    WEAPON_HEAVY,
    WEAPON_LIGHT,
    combat_wound,
    ignored_wounds_added,
    needs_wound_test,
    wound_test_outcome,
)
from rolls.engine.fasttest_sheet import (
    MAGIC_DICE,
    MagicRoll,
    magic_die_roll,
    rest_magic_die,
    roll_magic_die,
)
from rolls.models import AppliedWound, Award, PendingTest, Roll
from rolls.panels import FollowUp, Panel, source
from rolls.pending import actions as pending_actions
from rolls.systems.fasttest import states
from rolls.words import words
from sheets import actions as sheet_actions
from sheets.models import Character
from sheets.systems import fasttest as fasttest_sheet

#: How many of the open session's test rolls the dashboard's strip shows, newest first.
STRIP_LENGTH = 10

WEAPON_NAMES = {
    WEAPON_LIGHT: gettext_lazy("light weapon"),
    WEAPON_HAND: gettext_lazy("hand weapon"),
    WEAPON_HEAVY: gettext_lazy("heavy weapon"),
}
WEAPON_LABELS = {
    WEAPON_LIGHT: gettext_lazy("light (dagger, knuckles, sling)"),
    WEAPON_HAND: gettext_lazy("hand (sword, axe)"),
    WEAPON_HEAVY: gettext_lazy("heavy (lance, halberd, two-handed sword, heavy crossbow)"),
}

#: The wound test is one BUDOWA test, with no skill (RULES.md's Decision). ``wound_test`` marks
#: it for the panel: its dice are the rules' own (the new wound, the armor), not the player's.
WOUND_TEST_TARGET = {"attribute": "BUDOWA", "skill": [], "wound_test": True}

#: A spell is a test the caster marked as one (any attribute, RULES.md's Decision): its label is
#: this message (rolls.systems.fasttest.spells), and only such a roll is followed by the magic die.
SPELL_LABEL = "spell_test"
MAGIC_DIE = "magic_die"


# --- The combat wound -------------------------------------------------------------------------


@transaction.atomic
def apply_combat_wound(*, roll: Roll, gm, player_weapon: str, enemy_weapon: str) -> AppliedWound:
    """Read who takes which wound after ``roll`` and apply it, once.

    The player's character hit: the wound goes on the sheet (labelled "combat, #seq") and a
    wound test is called when the rules want one. The enemy hit: only recorded, for the GM.
    """
    fasttest = get_system(roll.system).after_roll_strip
    if not fasttest or roll.kind != "test" or roll.character_id is None:
        raise ActionRefused(_("Only a FastTest test of a character deals a combat wound."))
    if not is_combat_roll(roll):
        raise ActionRefused(
            _("Only a test you called as a combat test deals a wound; this one was not.")
        )
    if player_weapon not in WEAPON_CLASSES or enemy_weapon not in WEAPON_CLASSES:
        raise ActionRefused(_("Choose the weapon class of each side: light, hand or heavy."))
    # The character's row lock serialises two clicks on the same roll.
    character = Character.objects.select_for_update().get(pk=roll.character_id)
    if AppliedWound.objects.filter(roll=roll).exists():
        raise ActionRefused(_("The wound of this roll has already been applied."))
    session = GameSession.objects.get(pk=roll.session_id)
    if not session.is_open:
        raise ActionRefused(_("This session has ended; wounds are applied during play."))
    try:
        hit = combat_wound(_outcome(roll), player_weapon, enemy_weapon)
    except EngineError as error:
        raise ActionRefused(str(error)) from error
    applied = AppliedWound(
        roll=roll,
        target=hit.target,
        severity=hit.severity,
        player_weapon=player_weapon,
        enemy_weapon=enemy_weapon,
        applied_by=gm,
    )
    if hit.target == PLAYER:
        applied.label, applied.armor = _wound_the_character(character, roll, hit.severity)
        if needs_wound_test(hit.severity, applied.armor):
            applied.wound_test = _call_wound_test(
                session, character, gm, applied.armor, _with_open_consciousness_test(character)
            )
    try:
        with transaction.atomic():
            applied.save()
    except IntegrityError as error:
        raise ActionRefused(_("The wound of this roll has already been applied.")) from error
    return applied


def is_combat_roll(roll: Roll) -> bool:
    """Whether the roll answered a test the GM called and marked as a combat test."""
    return any(
        pending_actions.is_combat(test.modifiers)
        for test in PendingTest.objects.filter(roll=roll).only("modifiers")
    )


def _outcome(roll: Roll) -> str:
    answer = roll.result.get("answer") if isinstance(roll.result, dict) else None
    return answer.get("outcome", "") if isinstance(answer, dict) else ""


def _add_wound(character: Character, label: str, severity: str) -> None:
    """The sheet's one wound action; what it refuses refuses the GM's click or the roll."""
    if errors := sheet_actions.add_wound(character, label, severity):
        raise ActionRefused(" ".join(m for messages in errors.values() for m in messages))


def _wound_the_character(character: Character, roll: Roll, severity: str) -> tuple[str, int]:
    """Add the wound to the (locked) sheet; return its label and the armor worn."""
    label = str(fasttest_sheet.COMBAT_WOUND) % {"seq": roll.seq}
    _add_wound(character, label, severity)
    return label, get_system(roll.system).view(character.data).armor


def _call_wound_test(session, character, gm, armor: int, target=None) -> PendingTest:
    """Call the BUDOWA wound test; each armor point is one bonus die, named as the armor's."""
    test = pending_actions.call_test(
        session=session, character=character, gm=gm, target=target or dict(WOUND_TEST_TARGET)
    )
    if armor:
        test = pending_actions.change_test(
            test.pk, gm, "add_dice", kind="bonus", amount=armor, source=words("armor")
        )
    return test


def is_wound_test(pending: PendingTest) -> bool:
    """The pending test is the wound test called after a combat wound, or the consciousness test
    after ignoring wounds."""
    target = pending.target if isinstance(pending.target, dict) else {}
    if target.get("wound_test") is True:
        return True
    return AppliedWound.objects.filter(wound_test_id=pending.pk).exists()


# --- Ignoring wounds (RULES.md section 1, "Test", step 4) ---------------------------------------


def ignore_wounds_after(character_id: int):
    """The panel's ``after`` for a test that ignored its wounds: one more wound at once, of the
    worst severity already there (RULES.md's Decision), and the consciousness test called (a
    BUDOWA wound test counting it, the armor as bonus dice, always rolled)."""

    def after(roll: Roll) -> None:
        character = Character.objects.select_for_update().get(pk=character_id)
        sheet = get_system(roll.system).view(character.data)
        severity = ignored_wounds_added(sheet.wounds)
        if severity is None:
            raise ActionRefused(_("There are no wounds to ignore; roll without ignoring them."))
        label = str(fasttest_sheet.IGNORED_WOUNDS) % {"seq": roll.seq}
        _add_wound(character, label, severity)
        armor = sheet.armor
        session = GameSession.objects.select_related("campaign__gm").get(pk=roll.session_id)
        target = dict(WOUND_TEST_TARGET)
        # What the reading needs once it is rolled (read_wound_test).
        target["ignored"] = {"severity": severity, "armor": armor, "label": label, "seq": roll.seq}
        _call_wound_test(session, character, session.campaign.gm, armor, target)

    return after


def read_wound_test(pending: PendingTest) -> AppliedWound | None:
    """Read a rolled wound test (RULES.md) and apply it: with armor, ``yes_and`` removes the new
    wound from the sheet. Runs inside the roll's transaction; nothing for other called tests."""
    applied = (
        AppliedWound.objects.select_for_update()
        .filter(wound_test_id=pending.pk, test_outcome="")
        .first()
    )
    # A consciousness test still open when the combat wound came is read by this test too.
    ignored = _read_consciousness_test(pending)
    if applied is None:
        _leave_state(pending, ignored)
        return None
    outcome = _outcome(pending.roll)
    reading = wound_test_outcome(applied.severity, applied.armor, outcome)
    applied.test_outcome = outcome
    applied.alive = reading.alive
    applied.conscious = reading.conscious
    applied.wound_removed = reading.wound_removed
    if reading.wound_removed:
        _remove_wound(pending.character_id, applied)
    applied.save(update_fields=["test_outcome", "alive", "conscious", "wound_removed"])
    _leave_state(pending, reading, ignored)
    return applied


def _leave_state(pending: PendingTest, *readings) -> None:
    """The character's state after the test (issue 15): the gravest of its readings (the
    combat wound's and an ignored wound's, when one test reads both)."""
    readings = [r for r in readings if r is not None]
    if readings:
        states.after_wound_test(
            pending.character_id,
            pending.roll,
            alive=all(r.alive is not False for r in readings),
            conscious=all(r.conscious is not False for r in readings),
        )


def _with_open_consciousness_test(character: Character) -> dict[str, Any] | None:
    """The wound test's target when a consciousness test (after ignoring wounds) is still open:
    the new call replaces it, so it carries that test's reading along (one BUDOWA test counting
    both new wounds reads both)."""
    for test in PendingTest.objects.filter(character=character, status=PendingTest.Status.OPEN):
        ignored = (test.target or {}).get("ignored") if isinstance(test.target, dict) else None
        if isinstance(ignored, dict):
            return dict(WOUND_TEST_TARGET) | {"ignored": ignored}
    return None


def _read_consciousness_test(pending: PendingTest):
    """The consciousness test after ignoring wounds: with armor, ``yes_and`` removes the wound
    it added (RULES.md, "Combat and wounds"). Its reading, None for another test."""
    ignored = (pending.target or {}).get("ignored")
    if not isinstance(ignored, dict):
        return None
    try:
        reading = wound_test_outcome(
            ignored["severity"], ignored["armor"], _outcome(pending.roll), consciousness=True
        )
    except (EngineError, KeyError, TypeError):
        return None
    if reading.wound_removed:
        _remove_wound(pending.character_id, ignored)
    return reading


def _remove_wound(character_id: int, applied) -> None:
    label, severity = (
        (applied["label"], applied["severity"])
        if isinstance(applied, dict)
        else (applied.label, applied.severity)
    )
    character = Character.objects.select_related("campaign").get(pk=character_id)
    # Taking a wound off cannot break the schema, so there is nothing to refuse here.
    sheet_actions.take_back_wound(character, label, severity)


def wound_reading(applied: AppliedWound) -> str:
    """What a wound test's outcome means for the character, in a few words."""
    if applied.alive is False:
        text = _("the character dies")
    elif applied.conscious is False:
        text = _("alive, but unconscious")
    else:
        text = _("stays conscious")
    if applied.wound_removed:
        text += "; " + _("the armor turned the wound aside: it is gone from the sheet")
    return text


# --- The magic die after a spell ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MagicDieResult:
    """The magic-die roll as the log stores it: ``dice``, ``outcome`` and ``contract()``."""

    magic: MagicRoll
    duch: int
    emanation_rule: bool

    @property
    def outcome(self) -> str:
        if self.magic.unconscious:
            base = "magic_lost"
        elif self.magic.dropped:
            base = "magic_dropped"
        else:
            base = "magic_held"
        return f"{base}_emanation" if self.magic.emanation else base

    @property
    def dice(self) -> tuple[Die, ...]:
        return (Die(self.magic.die, self.magic.face, True, "magic", "read"),)

    def contract(self) -> dict[str, Any]:
        return {
            "die": self.magic.die,
            "face": self.magic.face,
            "die_after": self.magic.die_after,
            "dropped": self.magic.dropped,
            "unconscious": self.magic.unconscious,
            "emanation": self.magic.emanation,
            "emanation_rule": self.emanation_rule,
            "duch": self.duch,
            "outcome": self.outcome,
        }


def magic_follow_ups(roll: Roll, character: Character, campaign: Campaign) -> list[FollowUp]:
    """The magic die, offered once after a spell: a test marked as a spell, of a character with
    a magic trait and a magic die, in a campaign that plays with magic."""
    sheet = get_system(roll.system).view(character.data)
    die = sheet.magic_die
    spell = (
        system_settings(campaign)["magic"]
        and get_system(roll.system).after_roll_strip
        and roll.kind == "test"
        and roll.character_id == character.pk
        and die in MAGIC_DICE
        and sheet.magic_traits > 0
        and is_spell(roll)
    )
    if not spell or any(f.kind == MAGIC_DIE for f in roll.follow_ups.all()):
        return []
    return [FollowUp(MAGIC_DIE, _("Roll the magic die (Kość magii) d%(die)s") % {"die": die})]


def is_spell(roll: Roll) -> bool:
    """Whether the roll cast a spell (the FastTest panel labels a spell with SPELL_LABEL)."""
    data = roll.label_data
    return isinstance(data, dict) and data.get("w") == SPELL_LABEL


def magic_die_odds(die: int, duch: int, emanation_rule: bool) -> list[tuple[str, float]]:
    """The chance of each way a magic die can come up (held, dropped or lost, each with an
    eruption where the optional rule has a face above DUCH erupt), read by the very rule that
    reads a rolled one: every face of the die, equally likely."""
    counts: dict[str, int] = {}
    for face in range(die, 0, -1):  # the best first
        magic = magic_die_roll(die, face, duch, emanation_rule=emanation_rule)
        outcome = MagicDieResult(magic, duch, emanation_rule).outcome
        counts[outcome] = counts.get(outcome, 0) + 1
    return [(outcome, count / die) for outcome, count in counts.items()]


def magic_die_panel(character: Character, campaign: Campaign) -> Panel:
    """The magic-die roll of ``character`` as a follow-up panel: its resolver rolls the die, its
    ``on_result`` writes the die after the roll on the sheet."""
    fresh = Character.objects.get(pk=character.pk)
    sheet = get_system(campaign.system).view(fresh.data)
    panel = Panel(system=campaign.system, template="systems/fasttest/panel.html")
    die = sheet.magic_die
    duch = sheet.attribute("DUCH")
    if die not in MAGIC_DICE or not isinstance(duch, int):
        panel.errors[""] = [_("This character has no magic die to roll.")]
        return panel
    rule = bool(system_settings(campaign)["emanation"])

    def resolve(module, params, rng) -> MagicDieResult:
        return MagicDieResult(roll_magic_die(die, duch, rng, emanation_rule=rule), duch, rule)

    def on_result(sheet: dict[str, Any], result: MagicDieResult) -> None:
        sheet["magic_die"] = result.magic.die_after

    panel.label = words("magic_die", die=die)
    # record_roll checks params with the FastTest engine before the resolver runs; DUCH is the
    # one number of the sheet the magic die is read against, the die and its face are in the
    # answer (contract()), so the entry can be checked again.
    panel.params = {"attribute": duch}
    if rule:
        panel.sources = [source("attribute", duch, words("emanation_above_duch"))]
    panel.resolver = resolve
    panel.on_result = on_result
    # A d4 dropping: the caster falls unconscious from exhaustion (a state, issue 15).
    panel.after = states.after_magic_die
    return panel


def roll_magic_die_after(
    *, parent: Roll, campaign: Campaign, actor, key: uuid.UUID, nonce: str | None = None
):
    """The GM rolls the magic die after a spell from the dashboard: the same follow-up the
    player's panel offers, checked again under the session's lock."""
    character = parent.character

    def build() -> Panel:
        if not magic_follow_ups(parent, character, campaign):
            raise ActionRefused(_("The magic die cannot follow this roll (any more)."))
        panel = magic_die_panel(character, campaign)
        if not panel.ready:
            raise ActionRefused(" ".join(m for ms in panel.errors.values() for m in ms))
        return panel

    return roll_follow_up(
        parent=parent, actor=actor, character=character, kind=MAGIC_DIE, build=build, key=key,
        nonce=nonce,
    )  # fmt: skip


# --- A night's rest -----------------------------------------------------------------------------


def starting_die(character: Character, campaign: Campaign) -> int | None:
    """The character's starting magic die (from the sheet module), None without magic."""
    data = character.data if isinstance(character.data, dict) else {}
    if not system_settings(campaign)["magic"]:
        return None
    try:
        return fasttest_sheet.derived(data, campaign)["starting_magic_die"]
    except (EngineError, KeyError, TypeError):
        return None


def rest_preview(character: Character, campaign: Campaign) -> dict[str, Any] | None:
    """What a night's rest would do: {"current", "after", "starting"}, or None when it would
    change nothing (no magic, or the die is already at its starting size)."""
    starting = starting_die(character, campaign)
    sheet = get_system(campaign.system).view(character.data)
    current = sheet.magic_die
    if starting is None:
        return None
    if current is None and not sheet.magic_traits:
        return None  # no die and no magic trait: not a caster, nothing to rest back
    after = rest_magic_die(current, starting)
    if after == current:
        return None
    return {"current": current, "after": after, "starting": starting}


@transaction.atomic
def night_rest(character: Character, campaign: Campaign) -> tuple[int | None, int | None]:
    """A night's rest: the magic die one step up, never above the starting die."""
    locked = Character.objects.select_for_update().get(pk=character.pk)
    preview = rest_preview(locked, campaign)
    if preview is None:
        raise ActionRefused(
            _("%(name)s's magic die is already at its starting size.") % {"name": locked.name}
        )
    try:
        sheet_actions.set_magic_die(locked, preview["after"])
    except sheet_actions.SheetRefused as error:
        raise ActionRefused(str(error)) from error
    return preview["current"], preview["after"]


# --- The dashboard's strip ----------------------------------------------------------------------


def strip(campaign: Campaign, session: GameSession | None) -> list[dict[str, Any]]:
    """The open session's latest FastTest tests of characters, newest first, with what the GM
    may still do after each. A constant number of queries whatever the number of rolls."""
    if session is None or not session.is_open or not campaign.rules.after_roll_strip:
        return []
    rolls = list(
        Roll.objects.filter(
            session=session, system=campaign.system, kind="test", character__isnull=False
        )
        # A wound test is shown with the combat roll that caused it, not as a new fight.
        .exclude(pending_test__applied_wound__isnull=False)
        .select_related("character", "applied_wound__wound_test__roll")
        .prefetch_related("follow_ups")
        .order_by("-seq")[:STRIP_LENGTH]
    )
    given = set(
        Award.objects.filter(roll__in=rolls, kind=Award.Kind.EXPERIENCE_DIE).values_list(
            "roll_id", flat=True
        )
    )
    dice_on = bool(system_settings(campaign)["experience_dice"])
    combat = {
        test.roll_id
        for test in PendingTest.objects.filter(roll__in=rolls).only("roll_id", "modifiers")
        if pending_actions.is_combat(test.modifiers)
    }
    return [_item(roll, campaign, dice_on, given, combat) for roll in rolls]


def _item(
    roll: Roll, campaign: Campaign, dice_on: bool, given: set[int], combat: set[int]
) -> dict[str, Any]:
    outcome = _outcome(roll)
    applied = getattr(roll, "applied_wound", None)
    test = applied.wound_test if applied is not None else None
    failed = outcome not in SUCCESSES
    return {
        "roll": roll,
        "outcome": outcome,
        "failed": failed,
        # Only a test the GM called as a combat test is offered the wound.
        "combat": roll.pk in combat,
        "applied": applied,
        "severity_label": fasttest_sheet.SEVERITY_LABELS.get(applied.severity) if applied else "",
        "wound_test": test,
        "reading": wound_reading(applied) if applied is not None and applied.test_outcome else "",
        "can_give_die": dice_on and failed and roll.pk not in given,
        "die_given": roll.pk in given,
        "magic": magic_follow_ups(roll, roll.character, campaign),
        "magic_roll": next((f for f in roll.follow_ups.all() if f.kind == MAGIC_DIE), None),
    }
