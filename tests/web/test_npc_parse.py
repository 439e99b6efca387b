"""Quick entry of NPC trait lists: the line as the FastTest seed writes it."""

import pytest

from sheets.npc_parse import (
    NPCParseError,
    ParsedNPC,
    format_npc_line,
    parse_npc_line,
    parse_npc_lines,
)


def messages_of(text: str) -> list[str]:
    with pytest.raises(NPCParseError) as caught:
        parse_npc_lines(text)
    return caught.value.messages


def test_the_troll_of_the_seed_reads_as_written():
    npc = parse_npc_line("Troll: wielki 3k, paskudny 3k, śmierdzący 4k, regeneracja 2k, głodny")
    assert npc == ParsedNPC(
        "Troll",
        (("wielki", 3), ("paskudny", 3), ("śmierdzący", 4), ("regeneracja", 2), ("głodny", 1)),
    )


@pytest.mark.parametrize("written", ["3k", "3K", "3 k", "3", "(3)", "(3k)", "( 3 k )", "3d", "3 D"])
def test_every_accepted_way_of_writing_a_level_reads_as_that_level(written):
    assert parse_npc_line(f"Troll: wielki {written}").traits == (("wielki", 3),)


def test_a_trait_without_a_number_is_one_die():
    assert parse_npc_line("Goblin: tchórz").traits == (("tchórz", 1),)


def test_names_keep_their_case_and_inner_spaces_are_tidied():
    npc = parse_npc_line("  Smok  (Dragon) :  Stwór   ciemności 2k ")
    assert npc.name == "Smok (Dragon)"
    assert npc.traits == (("Stwór ciemności", 2),)


def test_a_trailing_comma_and_semicolons_are_fine():
    assert parse_npc_line("Goblin: wojak; brudas,").traits == (("wojak", 1), ("brudas", 1))


def test_a_level_that_is_not_a_number_with_k_names_the_trait_and_shows_how():
    assert messages_of("Troll: wielki 3k, paskudny 3k, śmierdzący x4") == [
        "Trait 3 ('śmierdzący x4'): the level must be a number followed by k, like 4k."
    ]


def test_a_die_written_the_other_way_round_is_refused():
    assert "like 4k" in messages_of("Troll: wielki k4")[0]


def test_a_level_outside_one_to_twenty_is_refused():
    assert messages_of("Troll: wielki 21k") == [
        "Trait 1 ('wielki 21k'): the level must be from 1 to 20."
    ]
    assert "from 1 to 20" in messages_of("Troll: wielki 0k")[0]


def test_a_missing_comma_between_two_traits_is_pointed_out():
    assert messages_of("Troll: wielki 3k paskudny 3k") == [
        "Trait 1 ('wielki 3k paskudny 3k'): the level goes at the end of a trait; "
        "is a comma missing after '3k'?"
    ]


def test_a_line_without_a_colon_asks_for_the_name_first():
    assert "before a colon" in messages_of("wielki 3k, paskudny 3k")[0]


def test_a_name_is_required_before_the_colon():
    assert messages_of(": wielki 3k") == ["The NPC needs a name before the colon."]


def test_a_name_with_no_traits_is_refused():
    assert messages_of("Troll:") == ["List at least one trait after the colon, like 'huge 3k'."]


def test_a_level_without_a_trait_name_is_refused():
    assert messages_of("Troll: 3k") == ["Trait 1 ('3k'): the trait needs a name before its level."]


def test_a_trait_given_twice_is_refused_whatever_its_case():
    assert messages_of("Troll: wielki 3k, Wielki 2k") == [
        "Trait 2 ('Wielki') repeats trait 1; give it once."
    ]


def test_every_problem_of_a_line_is_reported_at_once():
    assert len(messages_of("Troll: wielki 30k, paskudny x3, głodny")) == 2


def test_several_lines_make_several_npcs():
    npcs = parse_npc_lines("Troll: wielki 3k\n\nGoblin: wojak, tchórz\n")
    assert [npc.name for npc in npcs] == ["Troll", "Goblin"]


def test_with_several_lines_each_message_names_its_line():
    assert messages_of("Troll: wielki 3k\nGoblin: wojak x2") == [
        "Line 2: Trait 1 ('wojak x2'): the level must be a number followed by k, like 2k."
    ]


def test_an_empty_entry_is_refused():
    assert "Type an NPC" in messages_of("  \n ")[0]


def test_overlong_names_are_refused():
    assert "at most 120" in messages_of("X" * 121 + ": wielki")[0]
    assert "at most 60" in messages_of("Troll: " + "w" * 61)[0]


def test_a_formatted_npc_reads_back_the_same():
    traits = [{"name": "szermierz", "dice": 4}, {"name": "przystojniak", "dice": 1}]
    line = format_npc_line("Wojownik", traits)
    assert line == "Wojownik: szermierz 4k, przystojniak"
    assert parse_npc_line(line).as_traits() == traits


def test_a_malformed_trait_list_formats_without_failing():
    assert format_npc_line("Troll", ["junk", {"name": "wielki", "dice": 3}]) == "Troll: wielki 3k"
    assert format_npc_line("Troll", "junk") == "Troll: "
