"""Caerbannog group tests through the web layer: the GM or the initiator gathers helpers, each
participant's dice are rolled for them, each boosts with their own Rozmach and bonus, and one
log entry, linked to everyone's rolls, says how it went (RULES.md section 4, point 9)."""

from __future__ import annotations

import copy
import re
import uuid

import pytest
from django.urls import reverse

from rolls.labels import render
from rolls.models import GroupTest, Roll
from sheets.models import Character
from tests.web.test_panel_caerbannog import SHEET

pytestmark = pytest.mark.django_db


def sheet(rozmach: int = 0, **levels) -> dict:
    data = copy.deepcopy(SHEET)
    for skill in data["skills"]:
        if skill["name"] in levels:
            skill["level"] = levels[skill["name"]]
    data["resources"]["rozmach"] = rozmach
    return data


@pytest.fixture
def party(make_table, player, other_player, third_player):
    """Ala (Atletyka III, d10, physical bonus 2), Bartek (Dociekliwość II, d8, practical bonus
    3) and Celina (Percepcja I, d6), each with their own player, in a running session."""
    return make_table(
        "caerbannog",
        characters=[
            ("Ala", sheet(rozmach=1)),
            ("Bartek", sheet(rozmach=1)),
            ("Celina", sheet(rozmach=1)),
        ],
        players=[player, other_player, third_player],
        session="first",  # a new scene empties the Rozmach pools: the session comes first
    )


def post(client, name, campaign, *args, **form):
    url = reverse(name, args=[campaign.pk, *args])
    return client.post(url, form, HTTP_HX_REQUEST="true")


def group():
    return GroupTest.objects.get()


def start(client, table, character, skill, difficulty=5, **form):
    return post(
        client, "group_start", table.campaign, pick=f"{character.pk}|{skill}",
        difficulty=difficulty, **form,
    )  # fmt: skip


def add(client, table, character, skill, revision=None):
    revision = group().revision if revision is None else revision
    return post(
        client, "group_add", table.campaign, group().pk,
        pick=f"{character.pk}|{skill}", revision=revision,
    )  # fmt: skip


def roll(client, table, character, revision=None):
    revision = group().revision if revision is None else revision
    return post(
        client, "group_roll", table.campaign, group().pk,
        character=character.pk, revision=revision, key=str(uuid.uuid4()),
    )  # fmt: skip


def boost(client, table, character):
    return post(
        client, "group_boost", table.campaign, group().pk,
        character=character.pk, revision=group().revision, boost="on",
    )  # fmt: skip


def refusal(response) -> str:
    return response.context["refusal"]


def gathered(party, dice):
    """Ala starts, gathering Bartek and Celina (one die each)."""
    ala, bartek, celina = party.characters
    client = party.client(party.players[0])
    start(client, party, ala, "skill:Atletyka")
    add(client, party, bartek, "skill:Dociekliwość")
    add(client, party, celina, "skill:Percepcja")
    return client


# Gathering ------------------------------------------------------------------------------------


def test_the_initiator_gathers_two_helpers_and_everyone_sees_one_die_each(party):
    client = gathered(party, None)
    response = client.get(reverse("group_section", args=[party.campaign.pk]))
    members = response.context["members"]
    assert [m["name"] for m in members] == ["Ala", "Bartek", "Celina"]
    assert [m["dice_count"] for m in members] == [1, 1, 1]
    assert [m["sides"] for m in members] == [10, 8, 6]
    assert "Odds of success" in response.content.decode()


def test_the_group_test_links_to_the_rules_page_that_says_how_it_shares_its_dice(party):
    client = gathered(party, None)
    html = client.get(reverse("group_section", args=[party.campaign.pk])).content.decode()
    assert f'href="{reverse("rules", args=["caerbannog"])}"' in html
    assert "How does this test work?" in html


def test_one_helper_gives_the_initiator_two_dice_and_the_helper_one(party):
    ala, bartek, _celina = party.characters
    gm = party.client(party.gm)
    start(gm, party, ala, "skill:Atletyka")
    response = add(gm, party, bartek, "skill:Dociekliwość")
    assert [m["dice_count"] for m in response.context["members"]] == [2, 1]


def test_the_odds_of_success_are_exact_and_change_as_helpers_join(party):
    ala, bartek, _celina = party.characters
    client = party.client(party.players[0])
    alone = start(client, party, ala, "skill:Atletyka").context["odds"]["success"]
    # 3d10 read in the middle, difficulty 5: P(middle >= 6) = 1/2 exactly.
    assert alone == pytest.approx(0.5)
    helped = add(client, party, bartek, "skill:Dociekliwość").context["odds"]["success"]
    # 2d10 + 1d8, the middle (of three) at least 6: brute force over 800 faces gives 386/800.
    faces = [(a, b, c) for a in range(1, 11) for b in range(1, 11) for c in range(1, 9)]
    wins = sum(sorted(f)[1] >= 6 for f in faces)
    assert helped == pytest.approx(wins / len(faces))


def test_a_character_of_another_table_cannot_help(party, make_table, outsider):
    stranger = make_table("caerbannog", characters=[("Obcy", sheet())], players=[outsider])
    client = party.client(party.players[0])
    start(client, party, party.hero, "skill:Atletyka")
    response = add(client, party, stranger.hero, "skill:Atletyka")
    assert refusal(response) == "Only a character of this table can take part in a group test."
    assert len(group().members) == 1


def test_a_character_cannot_take_part_twice(party):
    client = party.client(party.players[0])
    start(client, party, party.hero, "skill:Atletyka")
    response = add(client, party, party.hero, "skill:Percepcja")
    assert refusal(response) == "Ala already takes part in this group test."


def test_a_helper_cannot_gather_other_helpers(party):
    ala, bartek, celina = party.characters
    start(party.client(party.players[0]), party, ala, "skill:Atletyka")
    response = add(party.client(party.players[1]), party, celina, "skill:Percepcja")
    assert refusal(response) == "Only the GM or the initiator's player gathers the helpers."


def test_a_player_cannot_start_a_group_test_for_another_players_character(party):
    response = start(party.client(party.players[1]), party, party.hero, "skill:Atletyka")
    assert refusal(response) == "Only the GM or the initiator's player may start a group test."
    assert not GroupTest.objects.exists()


def test_a_change_made_on_a_stale_page_is_refused(party):
    ala, bartek, celina = party.characters
    client = party.client(party.players[0])
    start(client, party, ala, "skill:Atletyka")
    seen = group().revision
    add(party.client(party.gm), party, bartek, "skill:Dociekliwość")
    response = add(client, party, celina, "skill:Percepcja", revision=seen)
    assert refusal(response) == (
        "The group test changed meanwhile (someone else acted); look at it again."
    )
    assert [m["name"] for m in group().members] == ["Ala", "Bartek"]


def test_a_skill_the_character_does_not_have_is_refused(party):
    response = start(party.client(party.players[0]), party, party.hero, "skill:Alchemia")
    assert refusal(response) == "Ala has no such skill to test with; choose one of theirs."


# Rolling --------------------------------------------------------------------------------------


def test_a_player_cannot_roll_another_participants_die(party, dice):
    ala, bartek, _celina = party.characters
    gathered(party, dice)
    dice(5)
    response = roll(party.client(party.players[0]), party, bartek)
    assert refusal(response) == "Only Bartek's player or the GM may roll Bartek's dice."
    assert not Roll.objects.filter(kind="group_die").exists()


def test_each_participants_die_is_one_log_entry_and_the_first_closes_the_gathering(party, dice):
    ala, bartek, celina = party.characters
    client = gathered(party, dice)
    dice(7)
    roll(party.client(party.players[1]), party, bartek)
    entry = Roll.objects.get(kind="group_die")
    assert (entry.character, entry.faces) == (bartek, [7])
    assert render(entry.label_words) == "Bartek's dice in Ala's group test"
    assert group().status == "rolling"
    response = post(
        client, "group_remove", party.campaign, group().pk,
        character=celina.pk, revision=group().revision,
    )  # fmt: skip
    assert refusal(response) == "The dice are being rolled: the helpers stay."


def test_a_boost_needs_rozmach(party, dice):
    ala, bartek, celina = party.characters
    Character.objects.filter(pk=celina.pk).update(data=sheet(rozmach=0))
    gathered(party, dice)
    dice(3)
    celinas = party.client(party.players[2])
    roll(celinas, party, celina)
    response = boost(celinas, party, celina)
    assert refusal(response) == "Celina's Rozmach pool is empty: nothing to boost with."


def test_the_test_is_settled_only_once_everyone_has_rolled(party, dice):
    client = gathered(party, dice)
    dice(9)
    roll(client, party, party.hero)
    response = post(client, "group_settle", party.campaign, group().pk, revision=group().revision)
    assert refusal(response) == "Everyone's dice must be rolled before the test is settled."


# RULES.md's worked example --------------------------------------------------------------------


def test_rules_worked_example_group_with_boosts_and_a_reroll(party, dice):
    """RULES.md: "Group 9,2,1 vs 5 → −3; boosts +3 and +2 → 2; re-rolling the 1 → 4 gives
    9,2,4 → 4 → −1 + 3 + 2 = 4." Ala's 9 (d10), Bartek's 2 (d8), Celina's 1 (d6); Bartek boosts
    with his practical bonus 3, Ala with her physical bonus 2; Celina re-rolls her 1 with an
    ability costing 1 Rozmach."""
    ala, bartek, celina = party.characters
    alas, bartek_s, celinas = (party.client(user) for user in party.players)
    start(alas, party, ala, "skill:Atletyka")
    add(alas, party, bartek, "skill:Dociekliwość")
    add(alas, party, celina, "skill:Percepcja")
    for client, character, face in ((alas, ala, 9), (bartek_s, bartek, 2), (celinas, celina, 1)):
        dice(face)
        roll(client, party, character)
    boost(bartek_s, party, bartek)
    shown = boost(alas, party, ala).context
    assert shown["refusal"] == "", shown["refusal"]
    assert [m["boost"] for m in group().members] == [True, True, False], group().members
    # 9, 2, 1 reads 2: 2 - 5 = -3, and the boosts +3 +2 make 2 successes for certain.
    assert shown["odds"]["success"] == 1.0
    dice(4)
    rerolled = post(
        celinas, "group_reroll", party.campaign, group().pk, character=celina.pk,
        revision=group().revision, dice=["0"], ability="Inspirująca osobowość", cost="1",
        key=str(uuid.uuid4()),
    )  # fmt: skip
    assert rerolled.context["refusal"] == ""
    assert [m["faces"] for m in group().members] == [[9], [2], [4]]
    reroll_entry = Roll.objects.get(kind="group_reroll")
    assert render(reroll_entry.label_words) == (
        "Celina re-rolls in the group test (Inspirująca osobowość)"
    )

    post(alas, "group_settle", party.campaign, group().pk, revision=group().revision)

    result = Roll.objects.get(kind="group")
    answer = result.result["answer"]
    assert (answer["kept"], answer["result"], answer["success"]) == (4, 4, True)
    assert answer["reader"] == "Celina"
    dice_rolls = list(Roll.objects.filter(kind="group_die").order_by("seq"))
    assert answer["seqs"] == [r.seq for r in dice_rolls]
    assert result.parent == dice_rolls[0]
    assert render(result.label_words) == (
        f"Group test of Ala with Bartek, Celina (#{dice_rolls[0].seq}, "
        f"#{dice_rolls[1].seq}, #{dice_rolls[2].seq})"
    )
    assert [m["boosted"] for m in answer["members"]] == [True, True, False]
    # Each boost was paid from the booster's own pool; the re-roll's cost from Celina's.
    pools = {c.name: c.data["resources"]["rozmach"] for c in Character.objects.all()}
    assert pools == {"Ala": 0, "Bartek": 0, "Celina": 0}
    assert group().status == "resolved"


def test_the_group_entry_shows_the_difficulty_each_participants_dice_and_who_boosted(party, dice):
    ala, bartek, celina = party.characters
    alas, bartek_s, celinas = (party.client(user) for user in party.players)
    start(alas, party, ala, "skill:Atletyka")
    add(alas, party, bartek, "skill:Dociekliwość")
    add(alas, party, celina, "skill:Percepcja")
    for client, character, face in ((alas, ala, 9), (bartek_s, bartek, 2), (celinas, celina, 1)):
        dice(face)
        roll(client, party, character)
    boost(bartek_s, party, bartek)
    post(alas, "group_settle", party.campaign, group().pk, revision=group().revision)
    result = Roll.objects.get(kind="group")
    assert [(s["kind"], s["amount"], s["source"]) for s in result.sources] == [
        ("difficulty", 5, ""),
        ("rolled", 1, "Ala: 9"),
        ("rolled", 1, "Bartek: 2"),
        ("boost", 3, "Bartek"),
        ("rolled", 1, "Celina: 1"),
    ]


def test_momentum_from_a_die_goes_to_its_roller(party, dice):
    ala, bartek, celina = party.characters
    client = party.client(party.gm)
    start(client, party, ala, "skill:Atletyka")
    add(client, party, bartek, "skill:Dociekliwość")
    add(client, party, celina, "skill:Percepcja")
    for character, face in ((ala, 3), (bartek, 8), (celina, 6)):  # Bartek's d8 and Celina's d6 max
        dice(face)
        roll(client, party, character)
    post(client, "group_settle", party.campaign, group().pk, revision=group().revision)
    pools = {c.name: c.data["resources"]["rozmach"] for c in Character.objects.all()}
    assert pools == {"Ala": 1, "Bartek": 2, "Celina": 2}


def test_the_gm_rolls_for_anyone_and_the_screen_shows_the_result(party, dice):
    ala, bartek, _celina = party.characters
    gm = party.client(party.gm)
    start(gm, party, ala, "skill:Atletyka")
    add(gm, party, bartek, "skill:Dociekliwość")
    dice(6, 7)
    roll(gm, party, ala)
    dice(5)
    roll(gm, party, bartek)
    settled = post(gm, "group_settle", party.campaign, group().pk, revision=group().revision)
    # 6, 7 and 5 read 6: 6 - 5 = 1 success.
    assert "1 success" in settled.content.decode()
    page = party.client(party.players[1]).get(reverse("group_test", args=[party.campaign.pk]))
    assert "Group test of Ala with Bartek" in page.content.decode()


def test_the_cue_tells_a_helper_their_dice_are_waiting(party):
    gathered(party, None)
    cue = party.client(party.players[1]).get(reverse("group_cue", args=[party.campaign.pk]))
    assert "Ala's group test: Bartek's dice are waiting." in cue.content.decode()


def test_the_log_shows_each_participants_dice_and_the_one_result(party, dice):
    ala, bartek, _celina = party.characters
    gm = party.client(party.gm)
    start(gm, party, ala, "skill:Atletyka")
    add(gm, party, bartek, "skill:Dociekliwość")
    dice(6, 7)
    roll(gm, party, ala)
    dice(5)
    roll(gm, party, bartek)
    post(gm, "group_settle", party.campaign, group().pk, revision=group().revision)
    url = reverse("session_detail", args=[party.campaign.pk, party.session.pk])
    page = party.client(party.players[1]).get(url).content.decode()
    assert "Ala&#x27;s dice in Ala&#x27;s group test" in page
    assert "Bartek&#x27;s dice in Ala&#x27;s group test" in page
    assert "Group test of Ala with Bartek (#1, #2)" in page


def test_the_group_screen_speaks_polish(party):
    gathered(party, None)
    client = party.client(party.players[1])
    client.cookies["django_language"] = "pl"
    page = client.get(reverse("group_test", args=[party.campaign.pk])).content.decode()
    assert "Test grupowy: Ala" in page
    assert "Rzuć kośćmi: Bartek" in page
    assert "Szansa powodzenia" in page


def test_the_initiator_saves_a_failed_group_test_with_heroic_effort(party, dice):
    ala, bartek, _celina = party.characters
    client = party.client(party.players[0])
    start(client, party, ala, "skill:Atletyka")
    add(client, party, bartek, "skill:Dociekliwość")
    dice(2, 3)
    roll(client, party, ala)
    dice(1)
    roll(party.client(party.players[1]), party, bartek)
    post(
        client, "group_settle", party.campaign, group().pk,
        revision=group().revision, heroic="wytrzymalosc",
    )  # fmt: skip
    # 2, 3 and 1 read 2: 2 - 5 = -3; heroic effort costs 4 for exactly 1 success.
    answer = Roll.objects.get(kind="group").result["answer"]
    assert (answer["result"], answer["heroic_cost"]) == (1, 4)
    assert Character.objects.get(pk=ala.pk).data["resources"]["wytrzymalosc"] == 4


def test_heroic_effort_after_a_success_is_refused_with_the_engines_reason(party, dice):
    ala, bartek, _celina = party.characters
    client = party.client(party.gm)
    start(client, party, ala, "skill:Atletyka")
    add(client, party, bartek, "skill:Dociekliwość")
    dice(9, 9)
    roll(client, party, ala)
    dice(8)
    roll(client, party, bartek)
    response = post(
        client, "group_settle", party.campaign, group().pk,
        revision=group().revision, heroic="determinacja",
    )  # fmt: skip
    assert refusal(response) == (
        "Heroic effort is only possible after a failure; this test has 4 successes."
    )
    assert not Roll.objects.filter(kind="group").exists()


# A half-filled re-roll survives another participant's action ------------------------------------


def test_the_re_roll_form_keeps_its_fields_through_a_refresh_of_the_section(party, dice):
    """The section is fetched again whenever someone acts; what a participant has ticked and
    typed in their re-roll form is kept by id (keep-typed.js), so every field of it has one."""
    client = gathered(party, dice)
    ala = party.characters[0]
    roll(client, party, ala)
    section = client.get(
        reverse("group_section", args=[party.campaign.pk]), HTTP_HX_REQUEST="true"
    ).content.decode()
    for field in (
        f'id="group-reroll-{ala.pk}"',
        f'id="group-reroll-{ala.pk}-die-0"',
        f'id="group-reroll-{ala.pk}-ability"',
        f'id="group-reroll-{ala.pk}-cost"',
    ):
        assert field in section


def test_the_group_section_is_morphed_in_so_its_typed_fields_stay(party):
    page = party.client(party.players[0]).get(reverse("group_test", args=[party.campaign.pk]))
    tag = re.search(r'<section[^>]*id="group-test"[^>]*>', page.content.decode()).group(0)
    # A refresh waits for the one in flight and is morphed in: focus and typed values stay.
    assert 'hx-swap="morph"' in tag
    assert 'hx-sync="this:queue all"' in tag
