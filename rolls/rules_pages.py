"""How each system's test works, in our own words, for the page every test panel links to.

The words restate the project's rules (RULES.md, with its decisions) for a player at the table;
each page ends with a worked example. ``checks`` are the example's rolls as engine requests with
the answer the text tells, so a test can hold the words to the engine: a page that says 3
successes where the engine reads 2 fails the suite.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class RulesPage:
    system: str
    title: str
    intro: Any
    steps: tuple[Any, ...]
    example: tuple[Any, ...]
    #: ``(params, faces, expected part of the engine's answer)`` for each roll of the example.
    checks: tuple[tuple[dict[str, Any], Any, dict[str, Any]], ...] = field(default=())


PAGES = {
    "fasttest": RulesPage(
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
    ),
    "ast": RulesPage(
        system="ast",
        title=_("Alternative Test System"),
        intro=_(
            "In the Alternative Test System the answer is on a d6, and your white dice decide "
            "who reads it: you, the GM, or the black die."
        ),
        steps=(
            _(
                "Tick every item of the sheet that helps: an attribute, an advantage (Atut), "
                "equipment, a positive state. Each is one white die, and each FUNT spent before "
                "the roll is one more. With no white dice at all you still roll two, and the test "
                "is hindered whatever they show."
            ),
            _(
                "The test level is the black die plus your negative states, other hindrances and "
                "the challenge points (Punkty Wyzwań) the GM puts in."
            ),
            _(
                "Roll the black die and the white dice, then compare: more white dice than the "
                "level makes the test eased (ułatwiony), and you read the white die you like, the "
                "best by default; fewer makes it hindered (utrudniony), and the GM reads one, the "
                "worst by default; as many means the black die is read."
            ),
            _(
                "The face read is the answer, best to worst: 6 Tak, i…, 4 Tak, 2 Tak, ale…, "
                "5 Nie, ale…, 3 Nie, 1 Nie, i…."
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
            _(
                "Tired (+1), the level is 5, as many as his white dice: the black 4 is read, "
                "Tak (yes)."
            ),
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
    ),
    "t10": RulesPage(
        system="t10",
        title=_("T10 pool (Moorcrest)"),
        intro=_(
            "The T10 pool counts successes: roll a handful of d10 and see how many reach the "
            "difficulty."
        ),
        steps=(
            _(
                "The pool is the attribute (Grundegenskap) plus the skill (Färdighet), with dice "
                "added or taken away by items and circumstances. A pool of 0 or less rolls "
                "nothing: an automatic Misslyckande (failure)."
            ),
            _("The difficulty runs from 4 to 10, usually 7. Each die at or above it is a success."),
            _(
                "Each 1 is a setback: it takes away one success, from the highest die down (10s "
                "first). Every 10 left standing explodes: it adds one more die, read the same "
                "way."
            ),
            _(
                "The result names the outcome: below 0 Katastrof (the GM picks that many bad "
                "options), 0 Misslyckande, 1 Misslyckande, men…, 2 Lyckat, men…, 3 Lyckat, 4 or "
                "more Imponerande, with one extra option for every success above 3."
            ),
        ),
        example=(
            _("Astrid has Styrka 3 and Svärd 2: five d10 against difficulty 7."),
            _(
                "She rolls 10, 8, 6, 3 and 2: the 10 and the 8 are successes, the 6 falls short, "
                "and no 1 takes anything away."
            ),
            _(
                "The 10 stands, so it explodes: the extra die shows 9, a third success. The "
                "result is 3: Lyckat (success)."
            ),
            _(
                "Had the 2 been a 1, it would have cancelled the 10: no explosion, 1 success, "
                "Misslyckande, men… (failure, but…)."
            ),
        ),
        checks=(
            (
                {"pool": 5, "difficulty": 7},
                [10, 8, 6, 3, 2, 9],
                {"result": 3, "outcome": "success"},
            ),
            ({"pool": 5, "difficulty": 7}, [10, 8, 6, 3, 1], {"result": 1, "outcome": "fail_but"}),
        ),  # fmt: skip
    ),
    "caerbannog": RulesPage(
        system="caerbannog",
        title="Caerbannog 2026",
        intro=_("Caerbannog 2026 rolls three dice of the skill's size and reads the middle one."),
        steps=(
            _(
                "A skill's level gives its die: 0 a d4, I a d6, II a d8, III a d10, IV a d12. "
                "Roll three of them."
            ),
            _(
                "Read the middle die, add the fixed modifiers and take away the difficulty "
                "(łatwy 2, przeciętny 3, wymagający 4, trudny 5). Above 0 is that many "
                "successes, and every full 3 successes is one przebicie; 0 or less is a failure."
            ),
            _(
                "An eased test reads the highest die, a hindered one the lowest. With factors "
                "both ways the side with more of them wins; equal counts cancel out."
            ),
            _(
                "Every die showing its highest face gives 1 Rozmach (at most 10 in the pool). "
                "After the roll you may spend 1 Rozmach on a boost: the category's bonus is "
                "added to the result. After a failure you may make a heroic effort: pay "
                "Wytrzymałość or Determinacja equal to the failure plus 1 for exactly one "
                "success."
            ),
            _(
                "Three 1s are a critical failure: it counts as 0, and neither a boost nor a "
                "heroic effort saves it, only a re-roll."
            ),
            _(
                "Re-rolls come from abilities, so one may follow another: each names its "
                "ability, re-rolls all the dice or only those the ability allows, and pays its "
                "cost in Rozmach when it is made. Only the final roll gives Rozmach."
            ),
            _(
                "A combined test of two skills gives the first (main) skill two dice and the "
                "other one; with three skills, one each. With the GM's leave a skill can instead "
                "be added to a full roll of the main skill: three dice of the main skill and one "
                "per added skill."
            ),
        ),
        example=(
            _(
                "Julio tests Dociekliwość II, three d8, against łatwy (2). The dice show 5, 7 and "
                "4: the middle one is 5, and 5 − 2 makes 3 successes, one przebicie."
            ),
            _(
                "Charyzma 0 rolls three d4 against trudny (5): 4, 4 and 1. The middle 4 falls 1 "
                "short, a failure of −1, but both 4s are the d4's highest face: +2 Rozmach."
            ),
            _(
                "Spending 1 of that Rozmach on a boost with the social bonus 3 turns the −1 into "
                "2 successes. Without the boost, a heroic effort costs 2 (the failure of 1, plus "
                "1) for exactly one success."
            ),
        ),
        checks=(
            (
                {"dice": [8, 8, 8], "difficulty": 2},
                [5, 7, 4],
                {"kept": 5, "result": 3, "przebicia": 1},
            ),
            (
                {"dice": [4, 4, 4], "difficulty": 5, "bonus": 3},
                [4, 4, 1],
                {"result": -1, "rozmach_gained": 2},
            ),
            (
                {"dice": [4, 4, 4], "difficulty": 5, "bonus": 3, "boost": True},
                [4, 4, 1],
                {"result": 2},
            ),
            (
                {"dice": [4, 4, 4], "difficulty": 5, "bonus": 3, "heroic": True},
                [4, 4, 1],
                {"result": 1, "heroic_cost": 2},
            ),
        ),  # fmt: skip
    ),
    "2d6": RulesPage(
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
    ),
}
