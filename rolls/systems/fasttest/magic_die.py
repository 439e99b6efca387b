"""FastTest's magic die after a spell (RULES.md section 1, "Magic"): a follow-up of the
spell's roll (the FastTest panel offers it, and the GM may roll it from the dashboard's
strip), logged as kind "magic_die"; 1-2 drops the sheet's die a step, a d4 dropping leaves
none (the caster falls unconscious from exhaustion). Here are the roll as the log stores it
(``MagicDieResult``), when it is offered (``magic_follow_ups``, after a test marked as a spell),
the exact odds of each way it can come up, its follow-up panel and the GM's roll of it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.system_settings import system_settings
from rolls.actions import ActionRefused, roll_follow_up
from rolls.engine.core import Die
from rolls.engine.fasttest_sheet import MAGIC_DICE, MagicRoll, magic_die_roll, roll_magic_die
from rolls.labels import words
from rolls.models import Roll
from rolls.panels import FollowUp, Panel, source
from rolls.systems.fasttest import is_ours, states
from sheets.models import Character
from sheets.systems import fasttest as fasttest_sheet

#: A spell is a test the caster marked as one (any attribute, RULES.md's Decision): its label is
#: this message (rolls.systems.fasttest.spells), and only such a roll is followed by the magic die.
SPELL_LABEL = "spell_test"
MAGIC_DIE = "magic_die"


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


def magic_follow_ups(roll: Roll, character: Character | None, campaign: Campaign) -> list[FollowUp]:
    """The magic die, offered once after a spell: a test marked as a spell, of a character with
    a magic trait and a magic die, in a campaign that plays with magic."""
    if character is None:
        return []
    sheet = fasttest_sheet.view(character.data)
    die = sheet.magic_die
    spell = (
        system_settings(campaign)["magic"]
        and is_ours(roll.system)
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
    sheet = fasttest_sheet.view(fresh.data)
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
        if character is None or not magic_follow_ups(parent, character, campaign):
            raise ActionRefused(_("The magic die cannot follow this roll (any more)."))
        panel = magic_die_panel(character, campaign)
        if not panel.ready:
            raise ActionRefused(" ".join(m for ms in panel.errors.values() for m in ms))
        return panel

    return roll_follow_up(
        parent=parent, actor=actor, character=character, kind=MAGIC_DIE, build=build, key=key,
        nonce=nonce,
    )  # fmt: skip
