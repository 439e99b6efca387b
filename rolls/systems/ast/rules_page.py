"""How AST's test works, in our words, for its page under /rules/ (``rolls.rules.pages``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from rolls.rules.pages import RulesPage

PAGE = RulesPage(
    system="ast",
    title=_("Alternative Test System"),
    intro=_(
        "In the Alternative Test System the answer is on a d6, and your white dice decide "
        "who reads it: you, the GM, or the black die."
    ),
    steps=(
        _(
            "Tick every item of the sheet that helps: an attribute, an advantage (Atut), "
            "equipment, a positive state. Each is one white die, and each FUNT (special "
            "points) spent before the roll is one more. With no white dice at all you still "
            "roll two, and the test is hindered whatever they show."
        ),
        _(
            "The test level is the black die plus your negative states, other hindrances and "
            "the challenge points (Punkty Wyzwań) the GM puts in."
        ),
        _(
            "Outcomes leave temporary advantages (one white die each, claimed in the panel) "
            "and temporary hindrances (one on the level each, the GM's on a called test). An "
            "advantage and a hindrance cancel each other one for one, and the panel says so."
        ),
        _(
            "Roll the black die and the white dice, then compare: more white dice than the "
            "level makes the test eased (ułatwiony), and you read the white die you like, the "
            "best by default; fewer makes it hindered (utrudniony), and the GM reads one, the "
            "worst by default; as many means the black die is read."
        ),
        _(
            "The face read is the answer, best to worst: 6 Tak, i… (yes, and…), 4 Tak (yes), "
            "2 Tak, ale… (yes, but…), 5 Nie, ale… (no, but…), 3 Nie (no), 1 Nie, i… (no, "
            "and…)."
        ),
        _(
            "When several white dice show the face read, you gain 1 FUNT and one more “and…” "
            "for each repeat. Once per test, after the roll, N FUNT re-roll N white dice of "
            "your choice."
        ),
    ),
    example=(
        _(
            "Olaf ticks strong, clever, axe fighting, his sharp axe and his leather armour: "
            "5 white dice. The black die shows 4, the white ones 3, 3, 6, 4 and 1."
        ),
        _(
            "Rested, the level is the black 4: his 5 white dice beat it, the test is eased "
            "and Olaf reads his 6: Tak, i… (yes, and…)."
        ),
        _("Tired (+1), the level is 5, as many as his white dice: the black 4 is read, Tak (yes)."),
        _(
            "Tired and wounded (+2), the level is 6, more than his dice: the test is "
            "hindered and the GM reads the 1, Nie, i… (no, and…)."
        ),
    ),
    checks=(
        (
            {"white": 5, "level_mod": 0},
            {"black": 4, "white": [3, 3, 6, 4, 1]},
            {"mode": "eased", "face": 6, "outcome": "yes_and"},
        ),
        (
            {"white": 5, "level_mod": 1},
            {"black": 4, "white": [3, 3, 6, 4, 1]},
            {"mode": "even", "read": "black", "outcome": "yes"},
        ),
        (
            {"white": 5, "level_mod": 2},
            {"black": 4, "white": [3, 3, 6, 4, 1]},
            {"mode": "hindered", "face": 1, "outcome": "no_and"},
        ),
    ),  # fmt: skip
)
