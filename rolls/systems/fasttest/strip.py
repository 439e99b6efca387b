"""The dashboard's after-roll strip in FastTest: the open session's latest tests of
characters, newest first, each with what the GM may still do after it (apply the combat
wound, read its wound test, give an experience die after a failure, roll the magic die after a
spell). It is FastTest's box after the roll (``rolls.dashboard.system_boxes.Box``):
``strip_context`` folds the items and ``templates/systems/fasttest/_after_roll.html`` shows them.
"""

from __future__ import annotations

from typing import Any

from campaigns.models import Campaign, GameSession
from campaigns.system_settings import system_settings
from rolls.engine.core import SUCCESSES
from rolls.models import Award, PendingTest, Roll
from rolls.pending import actions as pending_actions
from rolls.systems.fasttest import is_ours
from rolls.systems.fasttest.magic_die import MAGIC_DIE, magic_follow_ups
from rolls.systems.fasttest.wounds import WEAPON_LABELS, WEAPON_NAMES, roll_outcome, wound_reading
from sheets.systems import fasttest as fasttest_sheet

#: How many of the open session's test rolls the dashboard's strip shows, newest first.
STRIP_LENGTH = 10
TEMPLATE = "systems/fasttest/_after_roll.html"


def strip_context(campaign: Campaign, session: GameSession | None) -> dict[str, Any]:
    """The strip's latest tests: the newest stays open, and any whose wound is still to apply
    (its wound test waits on it); the tests settled before the newest fold away."""
    items = strip_items(campaign, session)
    return {
        "after_roll_items": [i for n, i in enumerate(items) if n == 0 or _wound_to_apply(i)],
        "earlier_after_roll": [i for n, i in enumerate(items) if n > 0 and not _wound_to_apply(i)],
        "weapons": list(WEAPON_LABELS.items()),
    }


def _wound_to_apply(item: dict[str, Any]) -> bool:
    return item["combat"] and item["applied"] is None


def strip_items(campaign: Campaign, session: GameSession | None) -> list[dict[str, Any]]:
    """The open session's latest FastTest tests of characters, newest first, with what the GM
    may still do after each. A constant number of queries whatever the number of rolls."""
    if session is None or not session.is_open or not is_ours(campaign.system):
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
        if test.roll_id is not None and pending_actions.is_combat(test.modifiers)
    }
    return [_item(roll, campaign, dice_on, given, combat) for roll in rolls]


def _item(
    roll: Roll, campaign: Campaign, dice_on: bool, given: set[int], combat: set[int]
) -> dict[str, Any]:
    outcome = roll_outcome(roll)
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
        # The weapons the wound was read with, the player's and the enemy's.
        "wound_weapons": [
            WEAPON_NAMES.get(weapon, weapon)
            for weapon in ((applied.player_weapon, applied.enemy_weapon) if applied else ())
        ],
        "wound_test": test,
        "reading": wound_reading(applied) if applied is not None and applied.test_outcome else "",
        "can_give_die": dice_on and failed and roll.pk not in given,
        "die_given": roll.pk in given,
        "magic": magic_follow_ups(roll, roll.character, campaign),
        "magic_roll": next((f for f in roll.follow_ups.all() if f.kind == MAGIC_DIE), None),
    }
