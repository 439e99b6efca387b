"""What a Caerbannog test's result does (RULES.md 4; the seed's "Wyniki testów"), applied by the
GM in one click from the entry on the dashboard (issue 15):

- **an attack**: the successes are damage, off the target's Wytrzymałość (a physical attack) or
  Determinacja (a mental one);
- **healing**: the successes are points of the target's Żywotność turned into Wytrzymałość;
- **a state**: the successes are its strength (e.g. stunned 2), a condition on the target that
  hinders the tests it concerns (``rolls.conditions``; the panel counts it).

Each is one entry of the session's log (through ``record_roll``, the note engine: no dice),
following the roll it came from, on the target: who took how much from which roll. A roll's
result is applied once, from the newest entry of its test (a boost, a re-roll or heroic effort
after it replaces its result), in the session it was rolled in.

**Decisions**: damage stops at 0 (the seed names no negative Wytrzymałość); healing moves at
most the Żywotność the target has, and the seed names no maximum Wytrzymałość, so none caps it;
a result of 0 or less does nothing (the opponent resisted: "całkowite zniwelowanie obrażeń").
A side of an opposed test is not offered: its own result is not the success level; the opposed
test's result entry is, with the initiator's level when the initiator won (an NPC's roll too).
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

from django import forms
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from campaigns.models import GameSession
from campaigns.systems import get_system
from rolls import labels
from rolls.actions import ActionRefused, record_note
from rolls.conditions import actions as conditions
from rolls.conditions import in_force
from rolls.labels import words
from rolls.models import Roll, Visibility
from rolls.opposed.actions import side_of_roll
from rolls.panels import source
from sheets import actions as sheet_actions
from sheets.models import Character
from sheets.systems.caerbannog import RESOURCES
from sheets.systems.caerbannog import view as read_sheet

# The log's words for a result applied by the GM, and a state's strength among a test's sources.
labels.register(
    kinds={"damage": gettext_lazy("damage taken"), "healing": gettext_lazy("healing")},
    sources={"damage": gettext_lazy("damage"), "healing": gettext_lazy("healed")},
    counted={"hindering_state": gettext_lazy("a state of strength %(n)s: hindered")},
    unsigned={"hindering_state"},
    words={
        "damage_taken": gettext_lazy(
            "%(target)s takes %(n)s damage to %(pool)s from #%(seq)s (%(roller)s): "
            "%(before)s → %(after)s"
        ),
        "healing_taken": ngettext_lazy(
            "%(target)s turns %(n)s Żywotność (vitality) into Wytrzymałość (endurance) after "
            "#%(seq)s (%(roller)s): Wytrzymałość %(before)s → %(after)s",
            "%(target)s turns %(n)s Żywotność (vitality) into Wytrzymałość (endurance) after "
            "#%(seq)s (%(roller)s): Wytrzymałość %(before)s → %(after)s",
            "n",
        ),
        "result_of": gettext_lazy("the result of #%(seq)s"),
    },
)

DAMAGE, HEALING = "damage", "healing"
#: The entries of a test whose answer is its result (rolls.systems.caerbannog.follow_ups).
RESULT_KINDS = ("test", "reroll", "boost", "heroic")
#: The opposed test's result entry (rolls.opposed): its level is the initiator's successes.
OPPOSED = "opposed"
OFFERED_KINDS = (*RESULT_KINDS, OPPOSED)
#: What follows a roll once its result is applied: the damage, the healing, the state's adding.
APPLIED_KINDS = (DAMAGE, HEALING, in_force.ADDED)
#: How many of the open session's latest entries the dashboard's box looks at.
WINDOW = 10
TEMPLATE = "systems/caerbannog/_results_box.html"
#: The pools an attack lowers: physical, mental; named as the sheet names them (the log names
#: them by their message keys, rolls.labels.WORDS).
DAMAGED = {
    key: label for key, label, _bounds in RESOURCES if key in ("wytrzymalosc", "determinacja")
}


def successes(roll: Roll) -> int:
    """The test's successes (its result above 0; an opposed test's level when the initiator
    won), 0 for a failure or an unreadable answer."""
    try:
        answer = (roll.result or {})["answer"]
        if roll.kind == OPPOSED:
            return max(0, int(answer["level"])) if answer.get("winner") == "a" else 0
        return max(0, int(answer["result"]))
    except (KeyError, TypeError, ValueError):
        return 0


def roller(roll: Roll) -> str:
    """Who made the test: the roll's character or NPC; an opposed test's initiator."""
    side = roll.parent if roll.kind == OPPOSED and roll.parent is not None else roll
    return side.character_name


def _a_side(roll: Roll) -> bool:
    """Whether ``roll`` is one side of an opposed test (whose own die is not the level)."""
    return roll.kind != OPPOSED and side_of_roll(roll)[0] is not None


def offers(campaign, session) -> list[dict[str, Any]]:
    """The open session's latest test entries with successes not yet applied, newest first:
    only the newest entry of each test (nothing follows it yet)."""
    if session is None or not session.is_open:
        return []
    rolls = (
        Roll.objects.filter(session=session, system="caerbannog", kind__in=OFFERED_KINDS)
        .exclude(follow_ups__isnull=False)
        .select_related("character", "parent")
        .order_by("-seq")[:WINDOW]
    )
    return [
        {"roll": roll, "successes": successes(roll), "roller": roller(roll)}
        for roll in rolls
        if successes(roll) and not _a_side(roll)
    ]


def box_context(campaign, session, **extra) -> dict[str, Any]:
    """The dashboard's box of results to apply (at its ``results`` place): the offers and the
    party to choose a target."""
    party = list(Character.objects.filter(campaign=campaign).only("pk", "name").order_by("name"))
    found = offers(campaign, session)
    for offer in found:
        # An attack's target is most often another: the first of the party who did not roll.
        others = [c.pk for c in party if c.pk != offer["roll"].character_id]
        offer["target"] = others[0] if others else None
    return {
        "campaign": campaign,
        "session": session,
        "result_offers": found,
        "result_party": party,
        "result_states": in_force.condition_rules(get_system("caerbannog")).presets,
        "result_damaged": DAMAGED,
        **extra,
    }


class ApplyForm(forms.Form):
    """The GM's one click: the target (a character of this table) and what the result does
    (``damage:<pool>``, ``healing`` or ``state:<key>``)."""

    target = forms.TypedChoiceField(coerce=int)
    apply = forms.ChoiceField()

    def __init__(self, *args, campaign=None, **kwargs):
        super().__init__(*args, **kwargs)
        party = Character.objects.filter(campaign=campaign) if campaign is not None else []
        self.characters = {character.pk: character for character in party}
        self.fields["target"].choices = [(pk, c.name) for pk, c in self.characters.items()]
        states = in_force.condition_rules(get_system("caerbannog")).presets
        self.fields["apply"].choices = (
            [(f"{DAMAGE}:{key}", name) for key, name in DAMAGED.items()]
            + [(HEALING, HEALING)]
            + [(f"state:{state['key']}", state["name"]) for state in states]
        )
        who = _("Choose a character of this table as the target.")
        what = _("Choose what the result does: damage, healing or a state of the rules.")
        self.fields["target"].error_messages = {"invalid_choice": who, "required": who}
        self.fields["apply"].error_messages = {"invalid_choice": what, "required": what}

    def target_character(self) -> Character:
        return self.characters[self.cleaned_data["target"]]


@transaction.atomic
def apply_result(*, roll: Roll, gm, target: Character, what: str) -> Roll:
    """Apply ``roll``'s successes to ``target`` as ``what`` (see ApplyForm), once; the entry
    (or, for a state, the condition's adding) follows the roll in the log."""
    session = GameSession.objects.select_for_update().get(pk=roll.session_id)
    _check(roll, session, target)
    amount = successes(roll)
    if what == HEALING:
        return _heal(roll, gm, target, amount, session)
    kind, _sep, key = what.partition(":")
    if kind == DAMAGE and key in DAMAGED:
        return _damage(roll, gm, target, amount, key, session)
    if kind == "state":
        return _state(roll, gm, target, amount, key)
    raise ActionRefused(_("Choose what the result does: damage, healing or a state of the rules."))


def _check(roll: Roll, session: GameSession, target: Character) -> None:
    if target.campaign_id != session.campaign_id:
        raise ActionRefused(_("Choose a character of this table as the target."))
    if not session.is_open:
        raise ActionRefused(_("That roll is of an earlier session; apply a result from this one."))
    later = roll.follow_ups.filter(kind__in=RESULT_KINDS).order_by("seq").first()
    if later is not None:
        raise ActionRefused(
            _("#%(later)s replaced the result of #%(seq)s; apply it from #%(later)s.")
            % {"later": later.seq, "seq": roll.seq}
        )
    applied = roll.follow_ups.filter(kind__in=APPLIED_KINDS).order_by("seq").first()
    if applied is not None:
        raise ActionRefused(
            _("The result of #%(seq)s has already been applied (#%(applied)s).")
            % {"seq": roll.seq, "applied": applied.seq}
        )
    if roll.kind not in OFFERED_KINDS or successes(roll) == 0:
        raise ActionRefused(_("#%(seq)s has no successes to apply.") % {"seq": roll.seq})
    if _a_side(roll):
        # Its die alone is not the success level: the opposed test settles that (not yet here).
        raise ActionRefused(
            _("#%(seq)s is one side of an opposed test: apply the test's result once settled.")
            % {"seq": roll.seq}
        )


def _write(target: Character, numbers: dict[tuple[str, ...], int]) -> None:
    try:
        sheet_actions.set_numbers(target, numbers)
    except sheet_actions.SheetRefused as error:
        raise ActionRefused(str(error)) from error


def _damage(roll, gm, target, amount, pool, session) -> Roll:
    before = read_sheet(target.data).resource(pool)
    after = max(0, before - amount)
    _write(target, {("resources", pool): after})
    label = words("damage_taken", target=target.name, n=amount, pool=words(pool),
                  seq=roll.seq, roller=roller(roll), before=before, after=after)  # fmt: skip
    return _log(session, gm, roll, target, DAMAGE, label, amount, {"pool": pool})


def _heal(roll, gm, target, amount, session) -> Roll:
    sheet = read_sheet(target.data)
    vitality, endurance = sheet.resource("zywotnosc"), sheet.resource("wytrzymalosc")
    moved = min(amount, vitality)
    if moved == 0:
        raise ActionRefused(
            _("%(name)s has no Żywotność left to turn into Wytrzymałość.") % {"name": target.name}
        )
    _write(
        target,
        {("resources", "zywotnosc"): vitality - moved,
         ("resources", "wytrzymalosc"): endurance + moved},
    )  # fmt: skip
    label = words("healing_taken", target=target.name, n=moved, seq=roll.seq,
                  roller=roller(roll), before=endurance,
                  after=endurance + moved)  # fmt: skip
    return _log(session, gm, roll, target, HEALING, label, moved, {})


def _state(roll, gm, target, amount, key) -> Roll:
    system = get_system("caerbannog")
    low, high = in_force.condition_rules(system).amounts
    spec = replace(in_force.preset_spec(system, key), amount=min(max(amount, low), high))
    condition = conditions.add_condition(
        character=target, actor=gm, spec=spec, source_roll=roll, on_target=True
    )
    return condition.added_entry


def _log(session, gm, roll, target, kind, label, amount, facts) -> Roll:
    seq = roll.seq
    entry, _created = record_note(
        kind=kind,
        facts={"amount": amount, "from": roll.seq, **facts},
        session=session,
        actor=gm,
        system="caerbannog",
        key=uuid.uuid4(),
        label=label,
        sources=[source(kind, -amount if kind == DAMAGE else amount, words("result_of", seq=seq))],
        character=target,
        visibility=Visibility.PUBLIC,
        parent=roll,
    )
    return entry


KIND_WORDS = {
    DAMAGE: gettext_lazy("damage taken"),
    HEALING: gettext_lazy("healing"),
}
