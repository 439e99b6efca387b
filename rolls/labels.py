"""Words for the engine's keys, in the reader's language. The engine itself writes no prose.

Game terms keep their original names beside the translation (RULES.md's outcome table).

Words stored as data, rendered in each reader's language.

A log entry outlives the request that made it and is read by people in other languages, so its
label and the sources of its modifiers are not stored as prose in the roller's language but as
data: ``{"w": key, "a": {name: argument}}``, where ``key`` names a message of
``WORDS`` and each argument is a number, a text typed by someone (a name, "slippery
ice": shown as it is), another message, or a joined list ``{"j": separator, "i": [items]}``.
``render`` turns any of these into text in the active language, ``source_line`` a whole modifier;
a plain string (the rows logged before this, or a text nobody translates) renders as itself,
unless it is one of the app's own messages once stored as text (``campaigns.stored_text``: the
test ending a rules' condition, a table the rules bring), which reads in the reader's language.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from campaigns.stored_text import as_read
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

# --- Words stored as data (rolls.labels): an entry's label and its sources, by message key -------
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
    kinds of entry, messages by key (``rolls.labels``), kinds of source, the counted ones with
    their plural forms, and those of them that read without a sign."""
    global UNSIGNED_SOURCE_KINDS
    KIND_LABELS.update(kinds or {})
    WORDS.update(words or {})
    SOURCE_KINDS.update(sources or {})
    COUNTED_SOURCE_KINDS.update(counted or {})
    UNSIGNED_SOURCE_KINDS = UNSIGNED_SOURCE_KINDS | frozenset(unsigned)


# --- Words stored as data -----------------------------------------------------------------------

#: The most a stored message may nest (a message in a list in a message...): forged or broken
#: data renders as far as this and no further.
MAX_DEPTH = 6


def words(key: str, **args: Any) -> dict[str, Any]:
    """A message of ``rolls.WORDS`` with its arguments, to be rendered when read."""
    return {"w": key, "a": args} if args else {"w": key}


def joined(items: list[Any], separator: str = ", ") -> dict[str, Any] | Any:
    """Items rendered one by one and joined (a single item stays itself)."""
    if len(items) == 1:
        return items[0]
    return {"j": separator, "i": list(items)}


def render(value: Any, depth: int = 0) -> str:
    """``value`` as text in the active language (see the module's notes)."""
    if value is None or depth > MAX_DEPTH:
        return ""
    if isinstance(value, dict):
        if "w" in value:
            message = WORDS.get(value["w"])
            args = value.get("a") if isinstance(value.get("a"), dict) else {}
            if message is None:
                return str(value["w"])
            shown = {
                name: arg if _is_number(arg) else render(arg, depth + 1)
                for name, arg in args.items()
            }
            try:
                return str(message % shown) if shown else str(message)
            except (KeyError, TypeError, ValueError):
                return str(message)
        if "j" in value:
            items = value.get("i") if isinstance(value.get("i"), list) else []
            return str(value["j"]).join(render(item, depth + 1) for item in items)
        return ""
    if isinstance(value, list):
        return ", ".join(render(item, depth + 1) for item in value)
    return as_read(str(value))


def _is_number(value: Any) -> bool:
    # Numbers stay numbers, so a plural message picks its form from them.
    return isinstance(value, int | float) and not isinstance(value, bool)


def source_line(entry) -> str:
    """One modifier in words: "+1 penalty die: slippery ice", "4 dice rolled: Jazda 3d8 + …"."""
    if not isinstance(entry, dict):
        return render(entry)
    kind, amount = entry.get("kind", ""), entry.get("amount")
    counted = COUNTED_SOURCE_KINDS.get(kind)
    if counted is not None and isinstance(amount, int) and not isinstance(amount, bool):
        text = str(counted % {"n": abs(amount)})
        if kind not in UNSIGNED_SOURCE_KINDS:
            sign = "+" if amount > 0 else ("−" if amount < 0 else "")
            text = sign + text
    else:
        text = f"{signed_number(amount)} {SOURCE_KINDS.get(kind, kind)}".strip()
    where = render(entry.get("source"))
    return f"{text}: {where}" if where else text
