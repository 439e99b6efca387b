"""FastTest's combat wound and the wound tests after it (RULES.md section 1, "Combat and
wounds"): the consequences the GM applies in one click after a roll, and what the player's
wound test then reads. **The combat wound** comes only after a test the GM called and marked as
a combat test (a plain test, or one the GM did not mark, deals no wound); the engine's
``combat_wound`` says who takes which wound. A wound on the player's character goes on the
sheet and, when ``needs_wound_test`` says so, the GM's call for a BUDOWA wound test goes to the
player (a pending test, the armor as bonus dice; the new wound is already on the sheet, so the
panel counts it). Once rolled, ``read_wound_test`` applies its reading: with armor, ``yes_and``
removes the new wound. Applied once per roll. **Ignoring wounds** adds one more wound at once
and calls the consciousness test, read the same way. The weapon classes' names and labels for
the GM's form are here too.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from campaigns.models import GameSession
from rolls import labels
from rolls.actions import ActionRefused
from rolls.engine import EngineError
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
from rolls.labels import words
from rolls.models import PendingTest, Roll
from rolls.pending import actions as pending_actions
from rolls.systems.fasttest import is_ours, sheet_actions, states
from rolls.systems.fasttest.models import AppliedWound
from sheets.models import Character
from sheets.systems import fasttest as fasttest_sheet

# The log's words for ignoring wounds (issue 14): the severities, the entry, the wound dice
# left out.
labels.register(
    words={
        "severity_scratch": gettext_lazy("scratch"),
        "severity_light": gettext_lazy("light"),
        "severity_heavy": gettext_lazy("heavy"),
        "severity_deadly": gettext_lazy("deadly"),
        "ignored_wounds": gettext_lazy(
            "wounds ignored: one more %(severity)s wound and a consciousness test"
        ),
    },
    counted={
        "wounds_ignored": ngettext_lazy("%(n)s wound die ignored", "%(n)s wound dice ignored", "n"),
    },
    unsigned={"wounds_ignored"},
    sources={"wounds_ignored": gettext_lazy("wound dice ignored")},
)

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


# --- The combat wound -------------------------------------------------------------------------


@transaction.atomic
def apply_combat_wound(*, roll: Roll, gm, player_weapon: str, enemy_weapon: str) -> AppliedWound:
    """Read who takes which wound after ``roll`` and apply it, once.

    The player's character hit: the wound goes on the sheet (labelled "combat, #seq") and a
    wound test is called when the rules want one. The enemy hit: only recorded, for the GM.
    """
    if not is_ours(roll.system) or roll.kind != "test" or roll.character_id is None:
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
        hit = combat_wound(roll_outcome(roll), player_weapon, enemy_weapon)
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


def roll_outcome(roll: Roll) -> str:
    """The outcome of a FastTest test's roll, "" when its answer has none."""
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
    return label, fasttest_sheet.view(character.data).armor


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
        sheet = fasttest_sheet.view(character.data)
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


def read_wound_test(pending: PendingTest, roll: Roll) -> AppliedWound | None:
    """Read a rolled wound test (RULES.md), ``roll``, and apply it: with armor, ``yes_and``
    removes the new wound from the sheet. Runs inside the roll's transaction; nothing for other
    called tests."""
    applied = (
        AppliedWound.objects.select_for_update()
        .filter(wound_test_id=pending.pk, test_outcome="")
        .first()
    )
    # A consciousness test still open when the combat wound came is read by this test too.
    ignored = _read_consciousness_test(pending, roll)
    if applied is None:
        _leave_state(pending, roll, ignored)
        return None
    outcome = roll_outcome(roll)
    reading = wound_test_outcome(applied.severity, applied.armor, outcome)
    applied.test_outcome = outcome
    applied.alive = reading.alive
    applied.conscious = reading.conscious
    applied.wound_removed = reading.wound_removed
    if reading.wound_removed:
        _remove_wound(pending.character_id, applied)
    applied.save(update_fields=["test_outcome", "alive", "conscious", "wound_removed"])
    _leave_state(pending, roll, reading, ignored)
    return applied


def _leave_state(pending: PendingTest, roll: Roll, *readings) -> None:
    """The character's state after the test (issue 15): the gravest of its readings (the
    combat wound's and an ignored wound's, when one test reads both)."""
    read = [r for r in readings if r is not None]
    if read:
        states.after_wound_test(
            pending.character_id,
            roll,
            alive=all(r.alive is not False for r in read),
            conscious=all(r.conscious is not False for r in read),
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


def _read_consciousness_test(pending: PendingTest, roll: Roll):
    """The consciousness test after ignoring wounds: with armor, ``yes_and`` removes the wound
    it added (RULES.md, "Combat and wounds"). Its reading, None for another test."""
    ignored = (pending.target or {}).get("ignored")
    if not isinstance(ignored, dict):
        return None
    try:
        reading = wound_test_outcome(
            ignored["severity"], ignored["armor"], roll_outcome(roll), consciousness=True
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
