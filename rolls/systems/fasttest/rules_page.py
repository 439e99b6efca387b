"""How FastTest's test works, in our words, for its page under /rules/ (``rolls.rules.pages``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from rolls.rules.pages import RulesPage

PAGE = RulesPage(
    system="fasttest",
    title="FastTest",
    intro=_(
        "FastTest asks whether the character succeeds and how well. Every test is one d10 "
        "read against a chance, together with one d6 that gives the degree."
    ),
    steps=(
        _(
            "Add the tested attribute (BUDOWA, ZRĘCZNOŚĆ, UMYSŁ or DUCH) and the skill: that "
            "is the chance. A chance above 9 stays 9 and each point above it becomes a bonus "
            "die; a chance below 1 stays 1 and each point below it becomes a penalty die."
        ),
        _(
            "Bonus dice come from the traits that apply (their levels added up), from "
            "circumstances the GM grants and from experience dice you spend. Penalty dice "
            "come from the GM's circumstances, the traits of an opposing NPC (the highest, "
            "plus 1 for each other one), wounds and the difficulty of a spell."
        ),
        _(
            "Bonus and penalty dice cancel one for one. Each die left over is a d10 or a d6: "
            "you choose for bonus dice (the panel marks the split with the best odds), the "
            "GM for penalty dice (all d10 unless the GM says otherwise)."
        ),
        _(
            "Roll one d10 and one d6 plus the extra dice, then keep one d10 and one d6: the "
            "best pair when you had bonus dice, the worst when you had penalty dice."
        ),
        _(
            "A kept d10 at or under the chance is a success (Tak), above it a failure (Nie). "
            "The kept d6 tells how: 6 adds “and…”, 4 or 5 is plain, 1 to 3 adds “but…”."
        ),
        _(
            "A spell is a test the caster marks as one, on whichever attribute fits, and needs "
            "a magic trait: 2 or 3 penalty dice (the GM may call it easier), one more for each "
            "similar spell cast earlier in the session, then the magic die is rolled."
        ),
        _(
            "A spell's outcome is its effect: Tak, i… (yes, and…) better than intended, Tak "
            "(yes) as intended, Tak, ale… (yes, but…) with a minor side effect; Nie, ale… (no, "
            "but…) fails without one, Nie (no) fails with a side effect, Nie, i… (no, and…) "
            "with a serious one. After each of these three the GM is offered a roll on the "
            "campaign's side-effect table of that kind."
        ),
    ),
    example=(
        _(
            "BUDOWA 8 and WALKA +2 make 10: the chance is 9 and the point above it is one "
            "bonus die. Taken as a d10, the roll is two d10 and one d6."
        ),
        _(
            "The d10s show 10 and 3, the d6 shows 5. The 3 is under the chance, so that d10 "
            "is kept: a success, and the 5 makes it a plain Tak (yes)."
        ),
        _(
            "The other way round, BUDOWA 2 and WALKA −2 make 0: the chance is 1, with one "
            "penalty die."
        ),
        _(
            "An opposing fencer with szermierz 4k and zwinny 2k gives 4 + 1 = 5 penalty dice; "
            "against a player with 3 bonus dice, 2 penalty dice are left."
        ),
    ),
    checks=(
        (
            {"attribute": 8, "skills": [2], "bonus": 0, "penalty": 0, "extra_d10": 1},
            {"d10": [10, 3], "d6": [5]},
            {"chance": 9, "net": 1, "kept_d10": 3, "outcome": "yes"},
        ),
        (
            {"attribute": 2, "skills": [-2], "bonus": 0, "penalty": 0, "extra_d10": 1},
            {"d10": [1, 4], "d6": [2]},
            {"chance": 1, "net": -1},
        ),
        (
            {"attribute": 5, "skills": [0], "bonus": 3, "penalty": 0, "npc_traits": [4, 2]},
            {"d10": [1, 4, 5], "d6": [2]},
            {"net": -2},
        ),
    ),
)
