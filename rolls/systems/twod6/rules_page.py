"""How 2d6's test works, in our words, for its page under /rules/ (``rolls.rules.pages``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from rolls.rules.pages import RulesPage

PAGE = RulesPage(
    system="2d6",
    title=_("Post-apocalyptic 2d6"),
    intro=_(
        "The post-apocalyptic 2d6 adds two dice to the attribute and the skill and compares "
        "the total with the difficulty."
    ),
    steps=(
        _(
            "Total = attribute (Współczynnik) + skill (Umiejętność) + 2d6 + modifiers. "
            "Modifiers come in four categories: circumstance, personal, equipment and "
            "supernatural; inside each they add up, then count at most +5 or −5."
        ),
        _(
            "A total that reaches the difficulty (Poziom trudności) is a success. Its success "
            "points are the total minus the difficulty, plus 1, and at most the skill plus 1 "
            "(a specialisation, fitting equipment or help can raise that cap). Short of it, "
            "the failure points say how much was missing."
        ),
        _(
            "Each helper in a joint test adds +1 circumstance, at most 4 helpers. When the "
            "numbers without the dice already beat the difficulty the success is automatic; "
            "when even 12 on the dice cannot reach it, so is the failure."
        ),
        _(
            "In an opposed test both sides roll against the same difficulty; success points "
            "count for a side, failure points against it, and the higher score wins. A tie "
            "goes to the side that resists."
        ),
    ),
    example=(
        _(
            "In the library: attribute 4 and skill 7, and the dice show 3 and 2: 16 against "
            "difficulty 15. A success, with 16 − 15 + 1 = 2 success points."
        ),
        _(
            "The mayor: 8 and 6, +2 personal and −2 circumstance, and the dice show 1 and 2: "
            "17 against 20, a failure by 3 failure points."
        ),
    ),
    checks=(
        (
            {"attribute": 4, "skill": 7, "difficulty": 15},
            [3, 2],
            {"total": 16, "success_points": 2},
        ),
        (
            {
                "attribute": 8,
                "skill": 6,
                "difficulty": 20,
                "modifiers": {"personal": [2], "circumstance": [-2]},
            },
            [1, 2],
            {"total": 17, "success": False, "failure_points": 3},
        ),
    ),  # fmt: skip
)
