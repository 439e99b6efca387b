"""Caerbannog beyond one roller: combined, group and opposed tests, re-rolls, the Rozmach pool."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rolls.engine import caerbannog as cb
from rolls.engine import caerbannog_pool as pool
from rolls.engine.caerbannog_group import (
    GroupTest,
    Member,
    added_dice,
    combined_dice,
    draw_group_reroll,
    draw_reroll,
    group_dice,
    group_dice_counts,
    reroll,
    reroll_group,
    resolve_group,
    roll_group,
    skill_die,
)
from rolls.engine.caerbannog_opposed import opposed_test
from rolls.engine.core import EngineError


def params(dice, **fields) -> cb.Params:
    return cb.parse_params(
        {"dice": list(dice), "difficulty": fields.pop("difficulty", 0), **fields}
    )


class Recorder:
    """A random source that remembers what it drew."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.drawn: list[int] = []

    def randint(self, a: int, b: int) -> int:
        value = self.rng.randint(a, b)
        self.drawn.append(value)
        return value


# --- Combined tests -------------------------------------------------------------------------


def test_skill_levels_0_to_iv_roll_d4_to_d12():
    assert [skill_die(level) for level in range(5)] == [4, 6, 8, 10, 12]
    with pytest.raises(EngineError, match="between 0 and 4"):
        skill_die(5)


def test_one_skill_rolls_three_of_its_dice():
    assert combined_dice([8]) == (8, 8, 8)


def test_two_combined_skills_give_the_main_one_2_dice_and_the_other_1():
    assert combined_dice([10, 6]) == (10, 10, 6)


def test_julios_opanowanie_i_ukrycie_ii_percepcja_iii_roll_d6_d8_d10():
    dice = combined_dice([skill_die(1), skill_die(2), skill_die(3)])
    assert dice == (6, 8, 10)
    result = cb.resolve(params(dice, difficulty=5), (6, 4, 8))
    assert (result.kept, result.result, result.rozmach_gained) == (6, 1, 1)


def test_each_combined_skill_above_the_third_adds_a_die():
    assert combined_dice([12, 4, 6, 8]) == (12, 4, 6, 8)
    assert len(combined_dice([6] * 7)) == 7


def test_the_added_form_is_a_full_roll_of_the_main_skill_plus_a_die_per_added_skill():
    assert added_dice(skill_die(2), [skill_die(1)]) == (8, 8, 8, 6)
    assert added_dice(8, [6, 4]) == (8, 8, 8, 6, 4)
    assert added_dice(12, []) == (12, 12, 12)


def test_marcus_jazda_with_dociekliwosc_8_6_3_1_reads_6_for_2_at_difficulty_4():
    dice = added_dice(8, [6])
    result = cb.resolve(params(dice, difficulty=4), (8, 6, 3, 1))
    assert (result.kept, result.result) == (6, 2)


@pytest.mark.parametrize("skills", [[], [7], [8, 3], [8, True], "8"])
def test_bad_skill_dice_are_refused(skills):
    with pytest.raises(EngineError):
        combined_dice(skills)


def test_combined_and_added_dice_respect_the_dice_cap():
    with pytest.raises(EngineError, match="at most 200"):
        combined_dice([6] * 201)
    with pytest.raises(EngineError, match="at most 200"):
        added_dice(6, [6] * 198)


# --- Group tests ----------------------------------------------------------------------------


def test_group_dice_one_helper_gives_the_initiator_2_and_the_helper_1():
    assert group_dice_counts(1) == (2, 1)
    assert group_dice(8, [6]) == ((8, 8), (6,))


def test_group_dice_two_or_more_helpers_roll_one_die_each():
    assert group_dice_counts(0) == (3,)
    assert group_dice_counts(2) == (1, 1, 1)
    assert group_dice_counts(4) == (1, 1, 1, 1, 1)
    assert group_dice(10, [6, 4]) == ((10,), (6,), (4,))


def test_group_dice_refuse_a_negative_count_and_too_many_dice():
    with pytest.raises(EngineError):
        group_dice_counts(-1)
    with pytest.raises(EngineError, match="at most 200"):
        group_dice_counts(200)


def gate(rosalia_boost=False, julio_boost=False, difficulty=5, **fields) -> GroupTest:
    """The city-gate bribe: Rosalia leads, Marcus and Julio help, trudny (5) Przebiegłość."""
    assert cb.DIFFICULTIES["trudny"] == 5
    dice = group_dice(10, [6, 6])
    return GroupTest(
        members=(
            Member("Rosalia", dice[0], bonus=2, boost=rosalia_boost, rozmach=2),
            Member("Marcus", dice[1], bonus=1, rozmach=1),
            Member("Julio", dice[2], bonus=3, boost=julio_boost, rozmach=1),
        ),
        difficulty=difficulty,
        **fields,
    )


GATE_FACES = [[9], [2], [1]]


def test_group_9_2_1_against_5_is_a_failure_of_minus_3():
    result = resolve_group(gate(), GATE_FACES)
    assert (result.kept, result.reader, result.result) == (2, "Marcus", -3)
    assert result.outcome == "failure"


def test_group_boosts_by_julio_3_and_rosalia_2_make_it_2_successes():
    result = resolve_group(gate(rosalia_boost=True, julio_boost=True), GATE_FACES)
    assert result.result == 2
    assert [(m.name, m.boosted, m.rozmach) for m in result.members] == [
        ("Rosalia", True, 1),
        ("Marcus", False, 1),
        ("Julio", True, 0),  # his last point
    ]


def test_re_rolling_julios_1_into_4_gives_9_2_4_reads_4_and_minus_1_plus_3_plus_2_is_4():
    test = gate(rosalia_boost=True, julio_boost=True)
    marcus_pool = pool.spend(1, 1)  # Inspirująca osobowość costs Marcus 1 Rozmach
    result = reroll_group(test, GATE_FACES, [4], which=[(2, 0)])
    assert marcus_pool == 0
    assert (result.kept, result.reader, result.base, result.result) == (4, "Julio", -1, 4)
    assert [die.face for die in result.dice] == [9, 2, 4]


def test_group_rozmach_from_a_die_goes_to_its_roller():
    result = resolve_group(gate(), [[10], [6], [2]])
    assert [(m.name, m.rozmach_gained, m.rozmach) for m in result.members] == [
        ("Rosalia", 1, 3),
        ("Marcus", 1, 2),
        ("Julio", 0, 1),
    ]


def test_group_members_boost_from_their_own_pool_which_may_include_fresh_rozmach():
    test = GroupTest(
        (Member("A", (6, 6), bonus=2, boost=True), Member("B", (4,), bonus=5)),
        difficulty=4,
    )
    result = resolve_group(test, [[6, 3], [2]])
    assert (result.kept, result.result, result.members[0].rozmach) == (3, 1, 0)  # 3 - 4 + 2
    with pytest.raises(EngineError, match="A cannot boost: their Rozmach pool is empty"):
        resolve_group(test, [[5, 3], [2]])


def test_group_dice_carry_their_rollers_name():
    result = resolve_group(gate(), GATE_FACES)
    assert [(die.group, die.why) for die in result.dice] == [
        ("Rosalia", "higher"),
        ("Marcus", "kept"),
        ("Julio", "lower"),
    ]


def test_a_group_with_an_even_number_of_dice_reads_the_higher_middle_die():
    test = GroupTest(tuple(Member(name, (8,)) for name in "ABCD"), difficulty=3)
    assert resolve_group(test, [[1], [5], [7], [3]]).kept == 5


def test_a_group_critical_failure_counts_as_0_and_cannot_be_boosted():
    result = resolve_group(gate(), [[1], [1], [1]])
    assert (result.result, result.outcome) == (0, "critical_failure")
    with pytest.raises(EngineError, match="critical failure cannot be boosted"):
        resolve_group(gate(julio_boost=True), [[1], [1], [1]])
    with pytest.raises(EngineError, match="after a critical failure"):
        resolve_group(gate(heroic=True), [[1], [1], [1]])


def test_the_group_initiators_heroic_effort_turns_minus_3_into_1_for_4():
    result = resolve_group(gate(heroic=True), GATE_FACES)
    assert (result.result, result.heroic_cost, result.outcome) == (1, 4, "success")


def test_group_heroic_effort_on_a_success_is_refused():
    with pytest.raises(EngineError, match="only possible after a failure"):
        resolve_group(gate(heroic=True, difficulty=0), GATE_FACES)


def test_group_contract_lists_every_member():
    reply = resolve_group(gate(rosalia_boost=True), GATE_FACES).contract()
    assert reply["members"][0] == {
        "name": "Rosalia",
        "rozmach_gained": 0,
        "rozmach": 1,
        "boosted": True,
    }
    assert (reply["result"], reply["reader"], reply["outcome"]) == (-1, "Marcus", "failure")


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Member("", (6,)), "needs a name"),
        (lambda: Member("A", ()), "at least one die"),
        (lambda: Member("A", (5,)), "die sizes"),
        (lambda: Member("A", (6,), rozmach=11), "between 0 and 10"),
        (lambda: Member("A", (6,), boost=1), "true or false"),
        (lambda: Member("A", (6,), bonus="2"), "whole number"),
        (lambda: GroupTest((), difficulty=3), "participants"),
        (lambda: GroupTest(None, difficulty=3), "participants"),
        (lambda: GroupTest(["A"], difficulty=3), "participants"),
        (lambda: GroupTest((Member("A", (6,)), Member("A", (6,))), 3), "different name"),
        (lambda: GroupTest((Member("A", (6,)),), difficulty=-1), "at least 0"),
        (lambda: GroupTest(tuple(Member(n, (6,) * 100) for n in "ABC"), 3), "at most 200"),
    ],
)
def test_bad_group_tests_are_refused(build, message):
    with pytest.raises(EngineError, match=message):
        build()


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ([[9], [2]], "needs 3 lists of faces, not 2"),
        ([[9], [2], [1, 1]], "'Julio's faces' must hold exactly 1 dice"),
        ([[9], [7], [1]], "Die 1 of 'Marcus's faces' is a d6"),
        ("921", "one list per participant"),
    ],
)
def test_bad_group_faces_are_refused(faces, message):
    with pytest.raises(EngineError, match=message):
        resolve_group(gate(), faces)


@settings(max_examples=60, deadline=None)
@given(
    dice=st.lists(st.sampled_from([4, 6, 8, 10, 12]), min_size=1, max_size=6),
    seed=st.integers(0, 2**32),
    ease=st.integers(-1, 1),
    rozmach=st.integers(0, 10),
)
def test_a_group_of_one_resolves_like_a_single_test(dice, seed, ease, rozmach):
    rng = Recorder(seed)
    test = GroupTest((Member("Solo", dice, rozmach=rozmach),), difficulty=3, ease=ease)
    group = roll_group(test, rng)
    single = cb.resolve(params(dice, difficulty=3, ease=ease, rozmach=rozmach), rng.drawn)
    assert [die.face for die in group.dice] == rng.drawn
    assert (group.kept, group.result, group.outcome) == (single.kept, single.result, single.outcome)
    assert (group.members[0].rozmach_gained, group.members[0].rozmach) == (
        single.rozmach_gained,
        single.rozmach,
    )


anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 13),
    st.text(max_size=2),
    st.lists(st.integers(-1, 13), max_size=4),
    st.lists(st.lists(st.integers(-1, 13), max_size=3), max_size=4),
)


@settings(max_examples=200, deadline=None)
@given(
    members=st.lists(
        st.tuples(st.text(max_size=2), anything, anything, anything, anything), max_size=4
    ),
    difficulty=anything,
    ease=anything,
    heroic=anything,
    faces=anything,
    which=anything,
)
def test_any_group_request_resolves_or_raises_an_engine_error(
    members, difficulty, ease, heroic, faces, which
):
    try:
        test = GroupTest(
            tuple(
                Member(name, dice, bonus, boost, rozmach)
                for name, dice, bonus, boost, rozmach in members
            ),
            difficulty,
            ease,
            0,
            heroic,
        )
        resolve_group(test, faces)
        reroll_group(test, faces, faces if which is None else [4], which)
    except EngineError:
        return


@settings(max_examples=200, deadline=None)
@given(a=anything, b=anything, new=anything, which=anything, heroic=st.booleans())
def test_any_opposed_or_re_roll_request_resolves_or_raises_an_engine_error(
    a, b, new, which, heroic
):
    with contextlib.suppress(EngineError):
        opposed_test(params([6, 6, 6], heroic=heroic), a, params([8, 8]), b)
    with contextlib.suppress(EngineError):
        reroll(params([6, 6, 6], rozmach=1, boost=heroic), a, new, which)


# --- Re-rolls -------------------------------------------------------------------------------


def test_a_re_roll_saves_a_critical_failure():
    result = reroll(params([6, 6, 6], difficulty=3), [1, 1, 1], [5, 6, 2])
    assert (result.critical_failure, result.result) == (False, 2)


def test_only_the_final_roll_generates_rozmach():
    result = reroll(params([4, 4, 4], difficulty=3), [4, 4, 1], [2, 3, 1])
    assert (result.rozmach_gained, result.rozmach) == (0, 0)


def test_ease_stays_after_a_re_roll():
    result = reroll(params([8, 8, 8], difficulty=3, ease=1), [1, 2, 3], [7, 3, 2])
    assert (result.kept, result.result) == (7, 4)


def test_a_re_roll_of_some_dice_keeps_the_others():
    result = reroll(params([8, 8, 8], difficulty=3), [1, 2, 3], [8], which=[0])
    assert [die.face for die in result.dice] == [8, 2, 3]
    assert result.kept == 3


@pytest.mark.parametrize(
    ("new", "which", "message"),
    [
        ([5, 5], [0, 0], "only once"),
        ([5], [0, 1], "needs 2 new faces"),
        ([5], [3], "no die or participant with index 3"),
        ([5], ["0"], "named by their index"),
        ([5], 0, "List the re-rolled dice"),
        ([9], [0], "Die 1 of 'faces' is a d8"),
        ([5, 5], None, "exactly 3 dice, not 2"),
        ("5", None, "list of whole numbers"),
    ],
)
def test_bad_re_rolls_are_refused(new, which, message):
    with pytest.raises(EngineError, match=message):
        reroll(params([8, 8, 8], difficulty=3), [1, 2, 3], new, which)


def test_draw_reroll_draws_only_the_named_dice_with_their_sizes():
    rng = Recorder(3)
    result = draw_reroll(params([4, 12, 12], difficulty=3), [1, 2, 3], rng, which=[2])
    assert len(rng.drawn) == 1
    assert [die.face for die in result.dice] == [1, 2, rng.drawn[0]]


def test_draw_reroll_of_everything_draws_every_die():
    rng = Recorder(4)
    result = draw_reroll(params([6, 6, 6], difficulty=3), [1, 1, 1], rng)
    assert [die.face for die in result.dice] == rng.drawn


def test_a_bad_index_is_refused_before_anything_is_drawn():
    rng = Recorder(5)
    with pytest.raises(EngineError):
        draw_reroll(params([6, 6, 6], difficulty=3), [1, 1, 1], rng, which=[5])
    with pytest.raises(EngineError):
        draw_group_reroll(gate(), GATE_FACES, rng, which=[(0, 1)])
    assert rng.drawn == []


def test_a_group_re_roll_of_everything_replaces_every_die():
    rng = Recorder(6)
    result = draw_group_reroll(gate(), GATE_FACES, rng)
    assert [die.face for die in result.dice] == rng.drawn
    assert reroll_group(gate(), GATE_FACES, [[3], [3], [3]]).kept == 3


def test_a_group_re_roll_of_one_die_draws_it_with_its_rollers_die():
    rng = Recorder(8)
    result = draw_group_reroll(gate(), GATE_FACES, rng, which=[(1, 0)])
    assert [die.face for die in result.dice] == [9, rng.drawn[0], 1]
    assert 1 <= rng.drawn[0] <= 6


@pytest.mark.parametrize("which", [[(3, 0)], [(0,)], ["ab"], [(0, 0), (0, 0)]])
def test_bad_group_re_rolls_are_refused(which):
    with pytest.raises(EngineError):
        reroll_group(gate(), GATE_FACES, [4] * len(which), which)


# --- Opposed tests --------------------------------------------------------------------------


def test_julio_9_against_the_suspects_5_succeeds_with_level_4():
    result = opposed_test(params([10, 10, 10]), [2, 9, 10], params([6, 6, 6]), [5, 5, 6])
    assert (result.initiator.result, result.opponent.result) == (9, 5)
    assert (result.level, result.success, result.outcome, result.przebicia) == (
        4,
        True,
        "success",
        1,
    )


def test_an_opposed_tie_or_worse_is_the_initiators_failure():
    result = opposed_test(params([8, 8, 8]), [5, 5, 5], params([8, 8, 8]), [5, 5, 5])
    assert (result.level, result.outcome) == (0, "failure")


def test_opposed_results_include_modifiers_and_boosts():
    initiator = params([8, 8, 8], modifier=1, bonus=3, boost=True, rozmach=1)
    result = opposed_test(initiator, [4, 4, 4], params([8, 8, 8], modifier=2), [6, 6, 6])
    assert (result.initiator.result, result.opponent.result, result.level) == (8, 8, 0)
    assert result.initiator.rozmach == 0


def test_only_the_initiator_may_use_heroic_effort_in_an_opposed_test():
    result = opposed_test(params([6] * 3, heroic=True), [3, 3, 3], params([6] * 3), [5, 5, 5])
    assert (result.level, result.heroic_cost, result.outcome) == (1, 3, "success")
    with pytest.raises(EngineError, match="Only the initiator"):
        opposed_test(params([6] * 3), [3, 3, 3], params([6] * 3, heroic=True), [5, 5, 5])


def test_opposed_heroic_effort_on_a_success_is_refused():
    with pytest.raises(EngineError, match="only possible after a failure"):
        opposed_test(params([6] * 3, heroic=True), [6, 6, 6], params([6] * 3), [2, 2, 2])


def test_an_opposed_side_keeps_difficulty_0():
    with pytest.raises(EngineError, match="leave the opponent's 'difficulty' at 0"):
        opposed_test(params([6] * 3), [6, 6, 6], params([6] * 3, difficulty=2), [2, 2, 2])


def test_the_initiators_critical_failure_is_a_level_of_0_and_refuses_heroic_effort():
    result = opposed_test(params([6] * 3), [1, 1, 1], params([6] * 3, modifier=-4), [2, 2, 2])
    assert (result.level, result.success, result.outcome) == (0, False, "critical_failure")
    with pytest.raises(EngineError, match="after a critical failure"):
        opposed_test(params([6] * 3, heroic=True), [1, 1, 1], params([6] * 3), [2, 2, 2])


def test_the_opponents_critical_failure_counts_as_a_result_of_0():
    result = opposed_test(params([6] * 3), [3, 3, 3], params([6] * 3, modifier=2), [1, 1, 1])
    assert (result.opponent.result, result.level) == (0, 3)


def test_opposed_contract_nests_both_sides():
    reply = opposed_test(params([10] * 3), [2, 9, 10], params([6] * 3), [5, 5, 6]).contract()
    assert reply["level"] == 4
    assert reply["initiator"]["result"] == 9
    assert reply["opponent"]["kept"] == 5
    assert reply["initiator"]["rozmach_gained"] == 1


def test_opposed_faces_are_checked():
    with pytest.raises(EngineError, match="exactly 3 dice"):
        opposed_test(params([6] * 3), [3, 3], params([6] * 3), [5, 5, 5])


# --- The Rozmach pool -----------------------------------------------------------------------


def test_the_pool_is_clamped_to_0_through_10():
    assert [pool.clamp_rozmach(n) for n in (-3, 0, 7, 10, 14)] == [0, 0, 7, 10, 10]


def test_gaining_past_10_loses_the_excess():
    assert pool.gain(8, 5) == 10


def test_gaining_and_spending_at_once_adds_first_caps_then_subtracts():
    assert pool.spend(10, 1, gained=2) == 9
    assert pool.spend(0, 2, gained=2) == 0


def test_spending_rozmach_one_lacks_is_refused():
    with pytest.raises(EngineError, match="costs 3 Rozmach, but the pool holds only 2"):
        pool.spend(2, 3)


def test_forced_spending_beyond_the_pool_costs_determinacja_for_the_shortfall():
    assert pool.force_spend(1, 3) == (0, 2)
    assert pool.force_spend(5, 2) == (3, 0)
    assert pool.force_spend(0, 2, gained=1) == (0, 1)


def test_the_pool_goes_back_to_0_at_the_end_of_a_scene():
    assert pool.end_scene(7) == 0


def test_a_surprised_side_halves_its_rozmach_rounding_down():
    assert [pool.surprised(n) for n in (0, 1, 7, 10)] == [0, 0, 3, 5]


def test_the_surprising_side_doubles_its_rozmach_up_to_10():
    assert [pool.surprising(n) for n in (0, 3, 5, 7)] == [0, 6, 10, 10]


@pytest.mark.parametrize(
    "call",
    [
        lambda: pool.gain(11, 0),
        lambda: pool.gain(3, -1),
        lambda: pool.spend(3, -1),
        lambda: pool.force_spend(-1, 1),
        lambda: pool.surprised(True),
        lambda: pool.end_scene(2.0),
        lambda: pool.clamp_rozmach("3"),
    ],
)
def test_pool_helpers_refuse_bad_numbers(call):
    with pytest.raises(EngineError):
        call()
