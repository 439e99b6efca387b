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
    "funt": _("FUNT spent"),
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
    "boost_spent": _("category bonus, 1 Rozmach spent"),
    "paid_with": _("paid with %(name)s"),
    "paid_with_other": _("paid with %(name)s, allowed by the GM: %(price)s"),
    "wytrzymalosc": _("Wytrzymałość"),
    "determinacja": _("Determinacja"),
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


# Issue 14, "Wrong today": ignoring wounds (FastTest) and re-rolls from abilities (Caerbannog).
WORDS |= {
    "severity_scratch": _("scratch"),
    "severity_light": _("light"),
    "severity_heavy": _("heavy"),
    "severity_deadly": _("deadly"),
    "ignored_wounds": _("wounds ignored: one more %(severity)s wound and a consciousness test"),
    "rerolled_by": _("%(ability)s: %(dice)s"),
    "reroll_cost": _("re-roll (%(ability)s)"),
}
COUNTED_SOURCE_KINDS |= {
    "wounds_ignored": ngettext_lazy("%(n)s wound die ignored", "%(n)s wound dice ignored", "n"),
    "rozmach_spent": ngettext_lazy("%(n)s Rozmach spent", "%(n)s Rozmach spent", "n"),
}
UNSIGNED_SOURCE_KINDS = UNSIGNED_SOURCE_KINDS | {"wounds_ignored", "rozmach_spent"}
SOURCE_KINDS |= {"wounds_ignored": _("wound dice ignored"), "rozmach_spent": _("Rozmach spent")}
# The GM's random tables (rolls.tables.random_tables): the log's kind and label of a table roll.
KIND_LABELS["table"] = _("table")
WORDS["table_roll"] = _("Table: %(name)s (%(dice)s)")
# A table the rules call for after a roll, with what for (rolls.tables.random_tables.purpose_word).
WORDS["table_roll_for"] = _("Table: %(name)s (%(dice)s), %(why)s")
# Opposed tests (rolls.opposed): the one entry that says who won, and the NPC's side.
KIND_LABELS["opposed"] = _("opposed test")
WORDS.update(
    {
        "opposed_won": _(
            "Opposed test (#%(a_seq)s against #%(b_seq)s): %(winner)s beats %(loser)s "
            "by %(margin)s — %(how)s"
        ),
        "opposed_won_plain": _(
            "Opposed test (#%(a_seq)s against #%(b_seq)s): %(winner)s beats %(loser)s by %(margin)s"
        ),
        "opposed_draw": _("Opposed test (#%(a_seq)s against #%(b_seq)s): %(a)s and %(b)s draw"),
        "opposed_npc_side": _("%(name)s: the NPC's side of an opposed test"),
        "opposed_minor": _("minor victory"),
        "opposed_win": _("victory"),
        "opposed_clear_win": _("clear victory"),
        "opposed_critical_win": _("critical victory"),
    }
)
# Group tests (rolls.group): each participant's dice, a re-roll of some, the one result entry.
KIND_LABELS["group"] = _("group test")
KIND_LABELS["group_die"] = _("group test dice")
KIND_LABELS["group_reroll"] = _("group test re-roll")
WORDS.update(
    {
        "group_die": _("%(name)s's dice in %(initiator)s's group test"),
        "group_reroll": _("%(name)s re-rolls in the group test (%(ability)s)"),
        "group_result": _("Group test of %(initiator)s with %(helpers)s (%(seqs)s)"),
        # 2d6 joint tests: the helpers' count with the characters of the table named.
        "helpers_named": _("%(helpers)s: %(names)s"),
    }
)
# Caerbannog's Rozmach before a test's dice (rolls.systems.caerbannog.rozmach): surprise in the
# first round, a reaction's cost, a forced spending paid with Determinacja.
WORDS |= {
    "rozmach_surprised": _("surprised in the first round: the pool of %(before)s halved"),
    "rozmach_surprising": _("surprising in the first round: the pool of %(before)s doubled"),
    "reaction": _("reaction: %(reaction)s"),
    "forced_spending": _("forced spending (%(reaction)s): the Rozmach the pool lacked"),
}
COUNTED_SOURCE_KINDS |= {
    "determinacja_lost": ngettext_lazy("%(n)s Determinacja lost", "%(n)s Determinacja lost", "n"),
}
UNSIGNED_SOURCE_KINDS = UNSIGNED_SOURCE_KINDS | {"determinacja_lost"}
SOURCE_KINDS |= {
    "rozmach_surprise": _("Rozmach (surprise)"),
    "determinacja_lost": _("Determinacja lost"),
}
# FastTest spells (rolls.systems.fasttest.spells): the spell's label and its penalty dice.
WORDS.update(
    {
        "spell_test": _("Spell “%(name)s”: %(test)s"),
        "spell_difficulty": _("spell difficulty (%(name)s)"),
        "similar_spells": _("similar spells earlier this session (%(seqs)s)"),
    }
)


# AST: the GM's pick of the white die read when the test is hindered ("the white 6, read by
# the GM's choice: white die 3").
COUNTED_SOURCE_KINDS["gm_read"] = ngettext_lazy(
    "the white %(n)s read by the GM's choice", "the white %(n)s read by the GM's choice", "n"
)
UNSIGNED_SOURCE_KINDS |= {"gm_read"}
SOURCE_KINDS["gm_read"] = _("white die read by the GM's choice")
WORDS["white_die_n"] = _("white die %(n)s")

# Conditions (rolls.conditions): their entries in the log, and each one among a test's sources.
KIND_LABELS |= {
    "condition": _("condition added"),
    "condition_cleared": _("condition cleared"),
    "options": _("options chosen"),
    "counter_move": _("counter-move"),
}
WORDS |= {
    "condition_added": _("%(name)s (%(concerns)s, %(until)s)"),
    "condition_cleared": _("%(name)s: %(why)s"),
    "condition_source": _("%(name)s (condition, #%(seq)s)"),
    "concerns_all": _("all tests"),
    "concerns_attribute": _("tests of %(name)s"),
    "concerns_skill": _("tests of %(name)s"),
    "concerns_target": _("tests against %(name)s"),
    "until_hand": _("until the GM clears it"),
    "until_scene": _("until the scene ends"),
    "until_session": _("until the session ends"),
    "until_next_test": _("for the next test it applies to"),
    "until_success": _("until “%(test)s” succeeds"),
    "cleared_by_hand": _("cleared by the GM"),
    "cleared_after_test": _("used up by the test #%(seq)s"),
    "cleared_by_success": _("“%(test)s” succeeded (#%(seq)s)"),
    "cleared_scene_end": _("the scene ended"),
    "cleared_session_end": _("the session ended"),
}
WORDS["options_chosen"] = _("Chosen: %(options)s")
# The GM's pick of a player's options on their behalf (rolls.roll_options).
WORDS["options_chosen_for"] = _("Chosen by the GM for %(name)s: %(options)s")
# FastTest's states (rolls.systems.fasttest.states): a condition without dice reads "state:
# unconscious (condition, #14)", with neither sign nor number.
COUNTED_SOURCE_KINDS["state"] = _("state")
UNSIGNED_SOURCE_KINDS = UNSIGNED_SOURCE_KINDS | {"state"}
SOURCE_KINDS["state"] = _("state")

# Caerbannog (rolls.systems.caerbannog.consequences): a result applied by the GM, a state's
# strength among a test's sources.
KIND_LABELS |= {"damage": _("damage taken"), "healing": _("healing")}
SOURCE_KINDS |= {"damage": _("damage"), "healing": _("healed")}
COUNTED_SOURCE_KINDS["hindering_state"] = _("a state of strength %(n)s: hindered")
UNSIGNED_SOURCE_KINDS |= {"hindering_state"}
WORDS |= {
    "damage_taken": _(
        "%(target)s takes %(n)s damage to %(pool)s from #%(seq)s (%(roller)s): "
        "%(before)s → %(after)s"
    ),
    "healing_taken": _(
        "%(target)s turns %(n)s Żywotność into Wytrzymałość after #%(seq)s (%(roller)s): "
        "Wytrzymałość %(before)s → %(after)s"
    ),
    "result_of": _("the result of #%(seq)s"),
}

# Caerbannog (rolls.systems.caerbannog.blind): heroic effort declared before an opposed test's
# reveal and not made once the opponent's result was known.
KIND_LABELS["heroic_declared"] = _("heroic effort declared")
WORDS |= {
    "heroic_unpaid": _(
        "Heroic effort declared before the reveal by %(name)s could not be paid: #%(seq)s "
        "failed against #%(against)s, it cost %(cost)s %(resource)s and the sheet had "
        "%(have)s; nothing was spent."
    ),
    "heroic_not_needed": _(
        "Heroic effort declared before the reveal by %(name)s was not needed: #%(seq)s is no "
        "failure against #%(against)s; nothing was spent."
    ),
}
