"""Words for the engine's keys, in the reader's language. The engine itself writes no prose.

Game terms keep their original names beside the translation (RULES.md's outcome table).
"""

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from campaigns.systems import UnknownSystem, get_system

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
    # Caerbannog and 2d6 (Polish originals, like "Krytyczna porażka"); T10 names its own
    # success in Swedish (its System's ``outcome_words``).
    "success": _("Sukces (success)"),
    "failure": _("Porażka (failure)"),
    "critical_failure": _("Krytyczna porażka (critical failure)"),
}

#: The difficulties a system names, as a called test's target stores them ({name: words}),
#: read in the reader's words wherever the target shows (Caerbannog's "przeciętny",
#: rolls.systems.caerbannog.difficulty).
DIFFICULTY_NAMES: dict[str, Any] = {}

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
    "explosion": _("added by an explosion"),
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
    "funt_gained": _("FUNT (special points) gained"),
    "result": _("result"),
    "severity": _("bad options"),
    "extra_options": _("extra options"),
    "kept": _("die read"),
    "rozmach_gained": _("Rozmach (momentum) gained"),
    "rozmach": _("Rozmach (momentum) now"),
    "przebicia": _("przebicia (breakthroughs)"),
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
    "quick": _("quick roll"),
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
    "funt": _("FUNT (special points) spent"),
}

# 2d6: a raise of the success-point cap (a specialisation, fitting equipment, help).
SOURCE_KINDS["cap"] = _("success-point cap")

# AST: the player's own choice of the white die read when the test is eased (a follow-up).
KIND_LABELS["choose"] = _("white die chosen")
# AST: the GM's choice of the white die read when the test is hindered (a follow-up).
KIND_LABELS["gm_choose"] = _("white die chosen by the GM")

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

# FastTest after the roll: the magic die (Kość magii) after a spell
# (rolls.systems.fasttest.magic_die).
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
    # FastTest's magic die (rolls.systems.fasttest.magic_die); a d66 table's two dice
    # (rolls.engine.tables).
    "magic": _("magic die (Kość magii)"),
    "tens": _("tens"),
    "units": _("units"),
}

# --- Words stored as data (rolls.words): an entry's label and its sources, by message key -------
# Each key names what the message says; the English is the msgid, so a reworded message keeps its
# key and the entries logged before still render (in the new words).
WORDS = {
    # Shared.
    "test": _("test"),
    "circumstances": _("circumstances"),
    "typed_by_gm": _("typed by the GM"),
    "set_by_gm": _("set by the GM"),
    "armor": _("armor"),
    # FastTest.
    "traits": _("traits (%(names)s)"),
    "experience_dice": _("experience dice"),
    "wounds": _("wounds"),
    "chance_above_9": _("chance above 9"),
    "chance_below_1": _("chance below 1"),
    "chance_typed_by_gm": _("chance typed by the GM"),
    "magic_die": _("Magic die (Kość magii) d%(die)s"),
    "emanation_above_duch": _("DUCH: a face above it erupts (emanation)"),
    # AST.
    "ast_test": _("%(dice)s vs %(level)s"),
    "white_dice": ngettext_lazy("%(n)s white die", "%(n)s white dice", "n"),
    "no_white_dice": _("no white dice (2 rolled, hindered)"),
    "black_d6": _("black d6"),
    "black_d6_plus": _("black d6 + %(n)s"),
    "one_white_die_each": _("one white die each"),
    "other_hindrances": _("other hindrances"),
    "rerolled_white_dice": _("re-rolled white dice %(dice)s"),
    # T10.
    "t10_test": _("%(parts)s: %(pool)s d10 vs %(difficulty)s"),
    # Caerbannog.
    "caerbannog_test": _("%(what)s (%(dice)s) vs %(difficulty)s"),
    "skill_with_added": _("%(main)s with %(others)s added"),
    "set_by_number": _("set by number"),
    "pool_combined": _("%(parts)s (combined test)"),
    "pool_added": _("%(parts)s (main skill with others added)"),
    "factors": _("eased ×%(e)s, hindered ×%(h)s → %(verdict)s"),
    "gm_factors": _("GM: eased ×%(e)s, hindered ×%(h)s"),
    "own_factors": _("own: eased ×%(e)s, hindered ×%(h)s"),
    "factors_verdict": _("%(parts)s → %(verdict)s"),
    "eased": _("eased"),
    "hindered": _("hindered"),
    "cancel_out": _("they cancel out"),
    "fixed_modifier": _("fixed modifier"),
    "boost_spent": _("category bonus, 1 Rozmach (momentum) spent"),
    "paid_with": _("paid with %(name)s"),
    "paid_with_other": _("paid with %(name)s, allowed by the GM: %(price)s"),
    "wytrzymalosc": _("Wytrzymałość (endurance)"),
    "determinacja": _("Determinacja (determination)"),
    "all_dice": _("all dice"),
    # 2d6.
    "twod6_test": _("%(test)s vs %(difficulty)s"),
    "other": _("other"),
    "helpers": ngettext_lazy("%(n)s helper %(amount)s", "%(n)s helpers %(amount)s", "n"),
    "held_at": _("%(entries)s (adds up to %(raw)s, held at %(clamped)s)"),
    "specialisation": _("specialisation %(name)s"),
    "equipment_or_help": _("equipment or help"),
}

#: The kinds of modifier that count something, with their plural forms ("1 penalty die").
COUNTED_SOURCE_KINDS = {
    "bonus": ngettext_lazy("%(n)s bonus die", "%(n)s bonus dice", "n"),
    "penalty": ngettext_lazy("%(n)s penalty die", "%(n)s penalty dice", "n"),
    "white": ngettext_lazy("%(n)s white die", "%(n)s white dice", "n"),
    "pool": ngettext_lazy("%(n)s die in the pool", "%(n)s dice in the pool", "n"),
    "rolled": ngettext_lazy("%(n)s die rolled", "%(n)s dice rolled", "n"),
    "challenge": ngettext_lazy("%(n)s challenge point", "%(n)s challenge points", "n"),
    "helpers": ngettext_lazy("%(n)s helper", "%(n)s helpers", "n"),
    "reroll": ngettext_lazy("%(n)s die re-rolled", "%(n)s dice re-rolled", "n"),
}
#: Counted kinds that read without a sign: the dice rolled are not added to anything.
UNSIGNED_SOURCE_KINDS = frozenset({"rolled"})
SOURCE_KINDS["rolled"] = _("dice rolled")

# AST: temporary advantages (white dice) and hindrances (test level), and the pairs of them
# that cancel one for one (RULES.md 2.7).
COUNTED_SOURCE_KINDS |= {
    "advantage": ngettext_lazy(
        "%(n)s temporary advantage (white die)", "%(n)s temporary advantages (white dice)", "n"
    ),
    "hindrance": ngettext_lazy(
        "%(n)s temporary hindrance (test level)", "%(n)s temporary hindrances (test level)", "n"
    ),
    "cancelled": ngettext_lazy(
        "%(n)s advantage and hindrance cancelled", "%(n)s advantages and hindrances cancelled", "n"
    ),
}
UNSIGNED_SOURCE_KINDS |= {"cancelled"}
SOURCE_KINDS |= {
    "advantage": _("temporary advantages"),
    "hindrance": _("temporary hindrances"),
    "cancelled": _("cancelled"),
}
WORDS |= {
    "temporary_advantages": _("temporary advantages"),
    "cancel_one_for_one": _("a temporary advantage and a temporary hindrance cancel one for one"),
}


def outcome_word(key: str, system: str = "") -> str:
    """An outcome in the reader's language, in the words of the system that rolled it: a key
    several systems share may be named in one system's own words (``System.outcome_words``)."""
    return str(_own_outcome_words(system).get(key) or OUTCOME_LABELS.get(key, key))


def _own_outcome_words(system: str):
    try:
        return get_system(system).outcome_words
    except UnknownSystem:  # a roll of a system no longer registered reads in the shared words
        return {}


def signed_number(value) -> str:
    """+3, −2, 0: the sign a modifier reads with."""
    if isinstance(value, bool) or not isinstance(value, int):
        return str(value)
    return f"+{value}" if value > 0 else ("0" if value == 0 else f"−{-value}")


def register(*, kinds=None, words=None, sources=None, counted=None, unsigned=()) -> None:
    """A feature's (or a system's) own words for the log, registered where the feature is, when
    its module is imported (``rolls.apps`` imports every one before a page is served): the log's
    kinds of entry, messages by key (``rolls.words``), kinds of source, the counted ones with
    their plural forms, and those of them that read without a sign."""
    global UNSIGNED_SOURCE_KINDS
    KIND_LABELS.update(kinds or {})
    WORDS.update(words or {})
    SOURCE_KINDS.update(sources or {})
    COUNTED_SOURCE_KINDS.update(counted or {})
    UNSIGNED_SOURCE_KINDS = UNSIGNED_SOURCE_KINDS | frozenset(unsigned)
