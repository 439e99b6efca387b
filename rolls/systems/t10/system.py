"""The T10 pool of Moorcrest (RULES.md section 3) as one ``System``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from campaigns.systems import BaseSystem, register
from rolls import npc_rolls
from rolls.engine import t10 as engine
from rolls.systems.t10 import demo as demo_t10
from rolls.systems.t10 import panel
from rolls.systems.t10.rules_page import PAGE as RULES_PAGE
from sheets.systems import t10 as sheet

_ = gettext_lazy

#: The seed's option lists (RULES.md 3.6), retold in the project's words, one table per result.
DEFAULT_TABLES = (
    {
        "name": _("Bad options (Katastrof)"),
        "dice": "1d2",
        "purpose": "catastrophe",
        "rows": (
            _("You fail badly and get hurt, while the foe slips away untouched."),
            _("You break something that was helping you."),
        ),
    },
    {
        "name": _("Options: failure, but…"),
        "dice": "1d5",
        "purpose": "fail_but",
        "rows": (
            _("You deal harm and take some too."),
            _("Half an effect, and something you need is lost or broken."),
            _("Half an effect, and you fall: −2 dice on everything until you are up again."),
            _("It works, but you are caught in the act."),
            _("It works, but it will cost you dearly later."),
        ),
    },
    {
        "name": _("Options: success, but…"),
        "dice": "1d7",
        "purpose": "success_but",
        "rows": (
            _("It works, but you take half harm."),
            _("A poor hit (−1 harm, at least 0), and hostile eyes turn to you."),
            _("It works, but an object is damaged."),
            _("It works, but someone notices and acts."),
            _("It works, but you leave tracks that lead back to you."),
            _("It works, but it takes far longer than you hoped."),
            _("It works, but this may become a problem later."),
        ),
    },
    {
        "name": _("Extra options (Imponerande)"),
        "dice": "1d9",
        "purpose": "impressive",
        "rows": (
            _("The target is disarmed."),
            _("The target is knocked to the ground."),
            _("You leave no trace at all."),
            _("So smooth that nobody even notices."),
            _("A gap in the defence: armour counts half."),
            _("+1 harm."),
            _("Better work than usual: +1 die or −1 difficulty, as the GM decides."),
            _("Done in half the time."),
            _("A good way of doing it: −1 difficulty to do it again later (same target or case)."),
        ),
    },
)


class T10(BaseSystem):
    key = "t10"
    position = 3
    engine = engine
    sheet = sheet
    panel = panel
    demo = demo_t10
    rules_page = RULES_PAGE
    facts = ("result", "severity", "extra_options")
    gm_controls = panel.GM_CONTROLS

    #: RULES.md 3.6: after a roll, the options to pick from, one list per result (our words).
    table_purposes = {
        "catastrophe": gettext_lazy("after a Katastrof (bad options)"),
        "fail_but": gettext_lazy("after a Misslyckande, men… (1 success)"),
        "success_but": gettext_lazy("after a Lyckat, men… (2 successes)"),
        "impressive": gettext_lazy("after an Imponerande (extra options)"),
    }
    default_tables = DEFAULT_TABLES
    # RULES.md's T10 outcomes: a success reads in the seed's Swedish, like its other results.
    outcome_words = {"success": _("Lyckat (success)")}

    def tables_after(self, roll):
        answer = roll.result.get("answer", {}) if isinstance(roll.result, dict) else {}
        outcome = answer.get("outcome")
        return [outcome] if roll.kind == "test" and outcome in self.table_purposes else []

    def view(self, data):
        return sheet.view(data)

    def npc_fields(self):
        return npc_rolls.T10_FIELDS

    def npc_params(self, values):
        return npc_rolls.t10_params(values)


SYSTEM = register(T10())
