"""The T10 pool of Moorcrest (RULES.md section 3) as one ``System``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from campaigns.systems import BaseSystem, register
from rolls import labels, npc_rolls
from rolls.engine import t10 as engine
from rolls.systems.t10 import demo as demo_t10
from rolls.systems.t10 import panel
from rolls.systems.t10.rules_page import PAGE as RULES_PAGE
from sheets.systems import t10 as sheet

_ = gettext_lazy

#: The seed's option lists (RULES.md 3.6), one per result: each option in the project's words
#: with the seed's Swedish beside it, and the condition it leaves (``CONDITIONS``), if any.
#: The GM's default random tables (``DEFAULT_TABLES``) are made of the same rows.
OPTIONS = {
    "catastrophe": (
        (_("You fail badly and get hurt, while the foe slips away untouched."),
         "Du misslyckas fatalt och tar själv skada, medan din fiende med lätthet undviker din "
         "klumpiga attack.", ""),
        (_("You break something that was helping you."),
         "Du förstör något som hjälpte dig.", ""),
    ),
    "fail_but": (
        (_("You deal harm and take some too."), "Du både ger och tar skada", ""),
        (_("Half an effect, and something you need is lost or broken."),
         "Du lyckas halvdant (halv skada/effekt), men tappar eller förstör något objekt viktigt "
         "för dig", ""),
        (_("Half an effect, and you fall: −2 dice on everything until you are up again."),
         "Du lyckas halvdant (halv skada/effekt) men faller och kommer få -2 tärningar på alla "
         "handlingar tills du lyckats resa dig igen", "knocked_down"),
        (_("It works, but you are caught in the act."),
         "Du lyckas men ertappas på bar gärning med vad du gör.", ""),
        (_("It works, but it will cost you dearly later."),
         "Du lyckas men detta kommer stå dig dyrt senare", ""),
    ),
    "success_but": (
        (_("It works, but you take half harm."), "Du lyckas men tar lite skada (halv skada) också",
         ""),
        (_("A poor hit (−1 harm, at least 0), and hostile eyes turn to you."),
         "Du lyckas med en eventuellt dålig träff (-1 i skada, som lägst 0) och drar på dig "
         "fientlig uppmärksamhet", ""),
        (_("It works, but an object is damaged."), "Du lyckas men ett objekt tar lite skada.", ""),
        (_("It works, but someone notices and acts."),
         "Du lyckas men någon upptäcker dig och agerar.", ""),
        (_("It works, but you leave tracks that lead back to you."),
         "Du lyckas men lämnar spår efter dig som kommer leda tillbaka till dig senare.", ""),
        (_("It works, but it takes far longer than you hoped."),
         "Du lyckas men det tar betydligt längre tid än du väntat dig", ""),
        (_("It works, but this may become a problem later."),
         "Du lyckas, men detta kan bli ett problem senare", ""),
    ),
    "impressive": (
        (_("The target is disarmed."), "Avväpnar offret", ""),
        (_("The target is knocked to the ground."), "Offret slås till marken", ""),
        (_("You leave no trace at all."), "Du lämnar inga som helst spår efter dig", ""),
        (_("So smooth that nobody even notices."), "Du lyckas så bra att ingen ens märker det",
         ""),
        (_("A gap in the defence: armour counts half."),
         "Du hittar en glipa i försvaret, skydd halveras", ""),
        (_("+1 harm."), "Du gör +1 i skada", ""),
        (_("Better work than usual: +1 die or −1 difficulty, as the GM decides."),
         "Du skapar något bättre än normalt, SL avgör om det ger +1 tärning eller -1 i "
         "Svårighetsgrad", ""),
        (_("Done in half the time."), "Du gör det snabbare än väntat, halvera tiden", ""),
        (_("A good way of doing it: −1 difficulty to do it again later (same target or case)."),
         "Du hittade ett bra sätt att göra detta på, och har -1 i Svårighet på att göra det igen "
         "senare (Gäller endast samma offer eller liknande omständigheter. SL avgör).",
         "good_method"),
    ),
}  # fmt: skip

#: The conditions T10's options leave (RULES.md 3.6's Decision), the GM's one-click list.
CONDITIONS = (
    {
        "key": "knocked_down",
        "name": _("knocked down (faller)"),
        "original": "-2 tärningar på alla handlingar tills du lyckats resa dig igen",
        "effect": "pool",
        "amount": -2,
        "scope": "all",
        "lasts": "success",
        "ends_with": _("stand up (resa dig)"),
    },
    {
        "key": "good_method",
        "name": _("a good way of doing it (ett bra sätt)"),
        "original": "-1 i Svårighet på att göra det igen senare",
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

# The options, in each reader's language, wherever the log names them.
labels.WORDS |= {f"t10_option:{purpose}:{at}": row[0] for purpose, rows in OPTIONS.items()
                 for at, row in enumerate(rows, start=1)}  # fmt: skip


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

    #: What a T10 condition changes: dice in the pool, or the difficulty (RULES.md 3.6).
    condition_effects = {"pool": _("dice in the pool"), "difficulty": _("difficulty")}
    condition_presets = CONDITIONS

    def options_after(self, roll):
        """RULES.md 3.6: after a test, the options of its result and how many to pick (the
        severity of a catastrophe, result − 3 extra after an impressive one, else one)."""
        answer = roll.result.get("answer", {}) if isinstance(roll.result, dict) else {}
        purpose = answer.get("outcome")
        if roll.kind != "test" or purpose not in OPTIONS:
            return None
        count = {"catastrophe": answer.get("severity"), "impressive": answer.get("extra_options")}
        picks = count.get(purpose) or 1
        options = [
            {"key": f"t10_option:{purpose}:{at}", "text": text, "original": original,
             "condition": condition}
            for at, (text, original, condition) in enumerate(OPTIONS[purpose], start=1)
        ]  # fmt: skip
        return {"purpose": purpose, "why": self.table_purposes[purpose], "picks": picks,
                "options": options}  # fmt: skip

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
