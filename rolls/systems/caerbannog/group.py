"""Caerbannog's group tests (RULES.md section 4, point 9) as a ``GroupRules``.

Each participant tests with a skill (its category's bonus is theirs to boost with) or a defence
(no bonus); the engine (``rolls.engine.caerbannog_group``) says the dice and reads the test.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rolls.actions import ActionRefused
from rolls.engine import EngineError
from rolls.engine import caerbannog_group as engine
from rolls.group.actions import GroupRules
from sheets import actions as sheet_actions
from sheets.systems import caerbannog as sheet

#: The engine's limit of dice is the limit of participants (one die each beyond two).
MAX_HELPERS = 9


def choices(character) -> list[dict[str, Any]]:
    """What the character may test with: every skill with a die, then every defence."""
    view = sheet.view(character.data)
    found = []
    for group in view.skill_groups:
        for skill in group["skills"]:
            if skill["die"] and skill["name"]:
                found.append(
                    {
                        "key": f"skill:{skill['name']}",
                        "label": skill["name"],
                        "sides": skill["die"],
                        "bonus": group["bonus"] if isinstance(group["bonus"], int) else 0,
                    }
                )
    for group in view.defence_groups:
        for defence in group["defences"]:
            if defence["die"]:
                found.append(
                    {
                        "key": f"defence:{defence['name']}",
                        "label": defence["name"],
                        "sides": defence["die"],
                        "bonus": 0,  # RULES.md: a defence has no category bonus to boost with
                    }
                )
    return found


def _sizes(members) -> list[int]:
    counts = engine.group_dice_counts(len(members) - 1)
    return [m["sides"] for m, count in zip(members, counts, strict=True) for _ in range(count)]


def odds(members, difficulty: int, ease: int) -> dict[str, float]:
    """Exact odds of success as the test stands: the faces rolled so far are known; "success"
    with the boosts chosen, "boosted" if every participant with a bonus boosted too."""
    counts = engine.group_dice_counts(len(members) - 1)
    known: list[int | None] = []
    for member, count in zip(members, counts, strict=True):
        known.extend(member["faces"] if member["seq"] is not None else [None] * count)
    sizes = _sizes(members)
    chosen = sum(m["bonus"] for m in members if m["boost"])
    every = sum(m["bonus"] for m in members)
    return {
        "success": engine.group_odds(sizes, known, difficulty, ease, bonus=chosen),
        "boosted": engine.group_odds(sizes, known, difficulty, ease, bonus=every),
    }


def gained(member) -> int:
    """Rozmach from a participant's own dice: one per die showing its maximum face."""
    return sum(face == member["sides"] for face in member["faces"])


def resolve(members, pools: list[int], difficulty: int, ease: int, heroic: bool = False):
    test = engine.GroupTest(
        members=tuple(
            engine.Member(
                name=m["name"],
                dice=(m["sides"],) * len(m["faces"]),
                bonus=m["bonus"],
                boost=m["boost"],
                rozmach=pool,
            )
            for m, pool in zip(members, pools, strict=True)
        ),
        difficulty=difficulty,
        ease=ease,
        heroic=heroic,
    )
    try:
        return engine.resolve_group(test, [m["faces"] for m in members])
    except EngineError as error:  # e.g. a boost after a critical failure: the engine says why
        raise ActionRefused(str(error)) from error


def pool(character) -> int:
    return sheet.view(character.data).rozmach


def keep_pool(character, value: int) -> None:
    sheet_actions.set_numbers(character, {("resources", "rozmach"): value})


def pay_heroic(character, resource: str, cost: int) -> None:
    """Heroic effort's cost (failure level + 1) from the initiator's Wytrzymałość or
    Determinacja, refused when the sheet has less."""
    have = sheet.view(character.data).resource(resource)
    if have < cost:
        raise ActionRefused(
            _("Heroic effort costs %(cost)s %(name)s; the sheet has %(have)s.")
            % {"cost": cost, "name": dict(HEROIC)[resource], "have": have}
        )
    sheet_actions.set_numbers(character, {("resources", resource): have - cost})


#: What heroic effort may be paid with (RULES.md point 6).
HEROIC = (
    ("wytrzymalosc", gettext_lazy("Wytrzymałość (endurance)")),
    ("determinacja", gettext_lazy("Determinacja (determination)")),
)


RULES = GroupRules(
    choices=choices,
    dice_counts=engine.group_dice_counts,
    odds=odds,
    resolve=resolve,
    pool=pool,
    keep_pool=keep_pool,
    gained=gained,
    max_helpers=MAX_HELPERS,
    heroic=HEROIC,
    pay_heroic=pay_heroic,
)
