"""How T10's test works, in our words, for its page under /rules/ (``rolls.rules.pages``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from rolls.rules.pages import RulesPage

PAGE = RulesPage(
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
        _(
            "The options are yours: right after the roll your panel lists your result's "
            "options (Du får chansen att vrida din handling) and how many to pick, or write "
            "your own; the GM sees your pick and may add a counter-move. Only a Katastrof's "
            "bad options are the GM's to pick, and after a Misslyckande (0 successes) the GM "
            "may make a counter-move (motdrag). An option that lasts, such as falling (−2 dice "
            "until you stand up), goes on your sheet until it ends."
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
)
