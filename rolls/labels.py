"""Words for the engine's keys, in the reader's language. The engine itself writes no prose.

Game terms keep their original names beside the translation (RULES.md's outcome table).
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

OUTCOME_LABELS = {
    # FastTest and AST (RULES.md's shared outcome keys).
    "yes_and": _("Tak, i… (yes, and…)"),
    "yes": _("Tak (yes)"),
    "yes_but": _("Tak, ale… (yes, but…)"),
    "no_but": _("Nie, ale… (no, but…)"),
    "no": _("Nie (no)"),
    "no_and": _("Nie, i… (no, and…)"),
    # T10.
    "catastrophe": _("Katastrof (catastrophe)"),
    "fail": _("Misslyckande (failure)"),
    "fail_but": _("Misslyckande, men… (failure, but…)"),
    "success_but": _("Lyckat, men… (success, but…)"),
    "impressive": _("Imponerande (impressive)"),
    # Caerbannog and 2d6.
    "success": pgettext_lazy("outcome", "Success"),
    "failure": pgettext_lazy("outcome", "Failure"),
    "critical_failure": _("Krytyczna porażka (critical failure)"),
}

#: Outcomes shown in the good colour.
GOOD_OUTCOMES = frozenset({"yes_and", "yes", "yes_but", "success_but", "success", "impressive"})

#: Why a die was kept or dropped (core.Die.why), read out to screen readers.
DIE_REASONS = {
    "": "",
    "kept": _("kept"),
    "best": _("kept: the most favourable"),
    "worst": _("kept: the least favourable"),
    "only": _("kept"),
    "dropped": _("dropped"),
    "read": _("read"),
    "match": _("same face as the read die"),
    "success": _("success"),
    "setback": _("setback"),
    "cancelled": _("cancelled by a setback"),
    "exploded": _("exploded"),
    "high": _("dropped: high"),
    "low": _("dropped: low"),
}

#: Names of the numbers a log entry shows beside the dice.
FACT_LABELS = {
    "chance": _("chance"),
    "chance_raw": _("attribute + skill"),
    "net": _("net dice"),
    "level": _("test level"),
    "mode": _("mode"),
    "extra_and": _("extra “and”"),
    "funt_gained": _("FUNT gained"),
    "result": _("result"),
    "severity": _("bad options"),
    "extra_options": _("extra options"),
    "kept": _("die read"),
    "rozmach_gained": _("Rozmach gained"),
    "rozmach": _("Rozmach now"),
    "przebicia": _("przebicia"),
    "heroic_cost": _("heroic effort cost"),
    "total": _("total"),
    "success_points": _("success points"),
    "failure_points": _("failure points"),
    "automatic": _("automatic"),
    "difficulty": _("difficulty"),
}

KIND_LABELS = {
    "test": _("test"),
    "reroll": _("re-roll"),
    "boost": _("boost"),
    "heroic": _("heroic effort"),
    "wound_test": _("wound test"),
    "magic_die": _("magic die"),
}

#: What a modifier changes, for "+5 penalty dice: Szermierz (szermierz 4k, zwinny)".
SOURCE_KINDS = {
    "bonus": _("bonus dice"),
    "penalty": _("penalty dice"),
    "skill": _("skill"),
    "attribute": _("attribute"),
    "white": _("white dice"),
    "level": _("test level"),
    "pool": _("dice in the pool"),
    "difficulty": _("difficulty"),
    "ease": _("eased"),
    "hinder": _("hindered"),
    "modifier": _("modifier"),
    "circumstance": _("circumstance modifier"),
    "personal": _("personal modifier"),
    "equipment": _("equipment modifier"),
    "supernatural": _("supernatural modifier"),
    "helpers": _("helpers"),
    "challenge": _("challenge points"),
    "funt": _("FUNT spent"),
}

# 2d6: a raise of the success-point cap (a specialisation, fitting equipment, help).
SOURCE_KINDS["cap"] = _("success-point cap")

# AST: the player's own choice of the white die read when the test is eased (a follow-up).
KIND_LABELS["choose"] = _("white die chosen")

# Caerbannog: the follow-ups of a test, as modifiers the log names.
SOURCE_KINDS |= {
    "boost": _("boost"),
    "heroic": _("heroic effort cost"),
    "reroll": _("dice re-rolled"),
}

#: The GM's controls on a pending test.
CONTROL_LABELS = {
    "difficulty": _("Difficulty"),
    "easing": _("Easing factors"),
    "hindering": _("Hindering factors"),
    "challenge": _("Challenge points (Punkty Wyzwań)"),
}

# FastTest after the roll: the magic die (Kość magii) after a spell (rolls.after_roll).
OUTCOME_LABELS |= {
    "magic_held": _("Magic die (Kość magii) holds"),
    "magic_dropped": _("Magic die (Kość magii) drops a step"),
    "magic_lost": _("Magic die (Kość magii) lost: the caster falls unconscious"),
    "magic_held_emanation": _("Emanation (niekontrolowana emanacja mocy)! The magic die holds"),
    "magic_dropped_emanation": _(
        "Emanation (niekontrolowana emanacja mocy)! The magic die drops a step"
    ),
    "magic_lost_emanation": _(
        "Emanation (niekontrolowana emanacja mocy)! The magic die is lost: "
        "the caster falls unconscious"
    ),
}
GOOD_OUTCOMES = GOOD_OUTCOMES | {"magic_held"}

DIE_REASONS |= {"higher": _("dropped: high"), "lower": _("dropped: low")}

#: Words for the values an entry shows (AST's mode) and the roles of dice (core.Die.group).
VALUE_LABELS = {
    "eased": _("eased"),
    "hindered": _("hindered"),
    "even": _("even (black die read)"),
    "black": _("black"),
    "white": _("white"),
}
