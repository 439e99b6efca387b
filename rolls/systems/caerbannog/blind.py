"""Heroic effort declared blind in an opposed test (docs/rules-decisions.md, "Decisions taken
for these tests").

In its turn to settle the initiator does not know the opponent's result (RULES.md 4.10: it is
sealed until they reveal their own), and heroic effort is priced by the failure against that
result (4.6: the failure plus 1). So the initiator may declare "heroic effort if it fails",
with what they pay with, as they settle; settling reveals the opponent's roll and, in the same
transaction, the declaration is read against it: a failure is paid and made exactly as the
heroic follow-up makes it (``follow_ups.build_follow_up``), one the resource does not cover
spends nothing, and no failure needs nothing. Either of the last two is a note in the log,
following the initiator's roll with its visibility. Never after a critical failure (4.3), and
only where the opponent's result, once revealed, is shown wherever the initiator's roll is (a
result the GM rolled hidden stays unreadable: its cost would tell it,
``rolls.log.reading.shown_wherever``).
"""

from __future__ import annotations

import uuid

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rolls import labels
from rolls.actions import ActionRefused, record_note, roll_follow_up
from rolls.labels import words
from rolls.models import Roll
from rolls.opposed.actions import initiators_difficulty
from rolls.opposed.rules import Declared
from rolls.panels import FollowUp
from rolls.systems.caerbannog import follow_ups
from sheets.models import Character
from sheets.systems.caerbannog import view as read_sheet

# Heroic effort declared before an opposed test's reveal and not made once the opponent's result
# was known.
labels.register(
    kinds={"heroic_declared": gettext_lazy("heroic effort declared")},
    words={
        "heroic_unpaid": gettext_lazy(
            "Heroic effort declared before the reveal by %(name)s could not be paid: #%(seq)s "
            "failed against #%(against)s, it cost %(cost)s %(resource)s and the sheet had "
            "%(have)s; nothing was spent."
        ),
        "heroic_not_needed": gettext_lazy(
            "Heroic effort declared before the reveal by %(name)s was not needed: #%(seq)s is no "
            "failure against #%(against)s; nothing was spent."
        ),
    },
)

#: The log's note of a declaration not made (rolls.engine.note.NOTE_KINDS).
DECLARED = "heroic_declared"
#: Why it was not made: the comparison was no failure, or the resource did not cover it.
NOT_NEEDED, UNPAID = "not_needed", "unpaid"
HEROIC = "heroic"


def offer(roll: Roll, character, campaign) -> FollowUp | None:
    """The initiator's settle box's "Heroic effort if it fails" after their final ``roll``,
    while the opponent's roll is sealed; None where it may not be declared."""
    if _refusal(roll, character):
        return None
    hint = _(
        "Nothing is spent if it is no failure, or if what you pay with does not cover it; "
        "the log says which."
    )
    return FollowUp(
        HEROIC,
        _(
            "Heroic effort if it fails: the failure plus 1, counted once the opponent's result "
            "is revealed, for exactly 1 success"
        ),
        (follow_ups.heroic_field(roll, character, None), {"type": "hint", "text": hint}),
    )


def refusal(roll: Roll, character, campaign, choices) -> str:
    """Why a declaration posted with the initiator's settle is refused ("" when it is not)."""
    if why := _refusal(roll, character):
        return why
    paid_with = follow_ups.HeroicChoice.read(choices, follow_ups.heroic_other(roll))
    return " ".join(m for messages in paid_with.messages.values() for m in messages)


def _refusal(roll: Roll, character) -> str:
    if not follow_ups.may_follow(roll, character):
        return _("That can no longer be done with this roll.")
    if roll.result["answer"]["critical_failure"]:
        return _("No heroic effort after a critical failure: only a re-roll saves it.")
    against = initiators_difficulty(roll)
    if against is not None and against.roll is not None:
        return _("The opponent's result is known here: heroic effort is offered as usual.")
    if against is None or not against.after_reveal:
        # The opponent's result stays unreadable (the GM rolled it hidden): the words any
        # withdrawn follow-up gets, which tell nothing of it.
        return _("That can no longer be done with this roll.")
    return ""


def settle(roll: Roll, character, campaign, choices, *, actor, key: uuid.UUID) -> Roll:
    """Once the opponent's roll is revealed: the heroic effort declared after ``roll`` made and
    paid, or a note of why not (nothing spent)."""
    # The sheet as it stands under its lock: what it holds decides whether it pays.
    character = Character.objects.select_for_update().get(pk=character.pk)
    other = follow_ups.heroic_other(roll)
    resource = follow_ups.HeroicChoice.read(choices, other).cleaned["resource"]
    against = initiators_difficulty(roll)
    opponent = against.roll if against is not None else None
    cost = follow_ups.heroic_cost(roll.result["answer"], follow_ups.opponents_result(roll))
    if cost is None:
        return _note(roll, character, actor, key, NOT_NEEDED, opponent, resource, None, None)
    if resource != follow_ups.OTHER:
        have = read_sheet(character.data).resource(resource)
        if have < cost:
            return _note(roll, character, actor, key, UNPAID, opponent, resource, cost, have)
    elif other is not None and other.on_sheet:
        # The GM's number of the sheet (Kapitał Społeczny) costs the GM's price.
        have = read_sheet(character.data).resource(other.resource)
        if have < other.amount:
            return _note(
                roll, character, actor, key, UNPAID, opponent, other.resource, other.amount,
                have, named=other.name,
            )  # fmt: skip

    def build():
        offered = {f.kind for f in follow_ups.follow_ups(roll, character, campaign)}
        if HEROIC not in offered:
            raise ActionRefused(_("That can no longer be done with this roll."))
        built = follow_ups.build_follow_up(HEROIC, roll, character, campaign, choices)
        if not built.ready:
            raise ActionRefused(" ".join(m for ms in built.errors.values() for m in ms))
        return built

    made, _created = roll_follow_up(
        parent=roll, actor=actor, character=character, kind=HEROIC, build=build, key=key
    )
    return made


def _note(roll, character, actor, key, why, opponent, resource, cost, have, named=None) -> Roll:
    """``named``: the resource as the GM named it, where it is not one of the app's words."""
    args = {"name": character.name, "seq": roll.seq, "against": opponent.seq}
    if why == UNPAID:
        said = named if named is not None else words(resource)
        label = words("heroic_unpaid", **args, cost=cost, resource=said, have=have)
    else:
        label = words("heroic_not_needed", **args)
    entry, _created = record_note(
        kind=DECLARED,
        facts={
            "outcome": why,
            "resource": resource,
            "cost": cost,
            "have": have,
            "against": opponent.seq,
        },
        session=roll.session,
        actor=actor,
        system=roll.system,
        key=key,
        label=label,
        character=character,
        visibility=roll.visibility,
        parent=roll,
    )
    return entry


DECLARE = Declared(offer=offer, refusal=refusal, settle=settle)
