"""The T10 pool of Moorcrest (RULES.md section 3) as one ``System``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from campaigns import stored_text
from campaigns.systems import BaseSystem, register
from rolls import labels
from rolls.conditions.in_force import ConditionRules
from rolls.dashboard.npc_rolls import NpcTests
from rolls.engine import t10 as engine
from rolls.panels import FollowUps
from rolls.systems.t10 import demo as demo_t10
from rolls.systems.t10 import npc_test, panel
from rolls.systems.t10 import options as options_after
from rolls.systems.t10.options import OPTIONS
from rolls.systems.t10.rules_page import PAGE as RULES_PAGE
from rolls.tables.rules import TableRules
from sheets.systems import t10 as sheet

_ = gettext_lazy

#: The conditions T10's options leave (RULES.md 3.6's Decision), the GM's one-click list.
CONDITIONS = (
    {
        "key": "knocked_down",
        "name": _("knocked down (faller)"),
        "original": _(
            "−2 dice on every action until you have got up again (-2 tärningar på alla "
            "handlingar tills du lyckats resa dig igen)"
        ),
        "effect": "pool",
        "amount": -2,
        "scope": "all",
        "lasts": "success",
        "ends_with": _("stand up (resa dig)"),
    },
    {
        "key": "good_method",
        "name": _("a good way of doing it (ett bra sätt)"),
        "original": _(
            "−1 difficulty to do it again later (-1 i Svårighet på att göra det igen senare)"
        ),
        "effect": "difficulty",
        "amount": -1,
        "scope": "target",
        "scope_name": _("the same target or case"),
        "lasts": "hand",
    },
)

_TABLES = (
    ("catastrophe", _("Bad options (Katastrof)")),
    ("fail_but", _("Options: failure, but…")),
    ("success_but", _("Options: success, but…")),
    ("impressive", _("Extra options (Imponerande)")),
)
DEFAULT_TABLES = tuple(
    {
        "name": name,
        "dice": f"1d{len(OPTIONS[purpose])}",
        "purpose": purpose,
        "rows": tuple(text for text, _original, _condition in OPTIONS[purpose]),
    }
    for purpose, name in _TABLES
)

# The tables the rules bring are stored in the language of the GM who added them (the GM edits
# them): their names and rows read in each reader's (campaigns.stored_text).
stored_text.register(
    *(name for _purpose, name in _TABLES),
    *(text for rows in OPTIONS.values() for text, _original, _condition in rows),
)

# The options, in each reader's language, wherever the log names them.
labels.WORDS |= {f"t10_option:{purpose}:{at}": row[0] for purpose, rows in OPTIONS.items()
                 for at, row in enumerate(rows, start=1)}  # fmt: skip


def _tables_after(roll) -> list[str]:
    answer = roll.result.get("answer", {}) if isinstance(roll.result, dict) else {}
    outcome = answer.get("outcome")
    return [outcome] if roll.kind == "test" and outcome in options_after.PURPOSES else []


class T10(BaseSystem):
    key = "t10"
    name = gettext_lazy("T10 pool (Moorcrest)")
    position = 3
    engine = engine
    sheet = sheet
    panel = panel
    demo = demo_t10
    rules_page = RULES_PAGE
    facts = ("result", "severity", "extra_options")
    gm_controls = panel.GM_CONTROLS

    parts = (
        NpcTests(npc_test.FIELDS, npc_test.params),
        # RULES.md 3.6: after a roll, the options to pick from, one list per result (our words).
        TableRules(purposes=options_after.PURPOSES, after=_tables_after, defaults=DEFAULT_TABLES),
        FollowUps(menu=options_after.menu),
        #: What a T10 condition changes: dice in the pool, or the difficulty (RULES.md 3.6).
        ConditionRules(
            effects={"pool": _("dice in the pool"), "difficulty": _("difficulty")},
            presets=CONDITIONS,
        ),
    )
    # RULES.md's T10 outcomes: a success reads in the seed's Swedish, like its other results.
    outcome_words = {"success": _("Lyckat (success)")}

    #: What a T10 condition changes: dice in the pool, or the difficulty (RULES.md 3.6).

    def view(self, data):
        return sheet.view(data)


SYSTEM = register(T10())
