"""The GM's NPC trait lists: quick entry, full form, reveal, delete, and who sees what."""

import pytest
from django.urls import reverse

from campaigns.actions import create_campaign, join_campaign
from campaigns.models import Campaign
from rolls.demo import seed_demo
from sheets.models import NPC

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(gm, player):
    campaign = create_campaign(gm=gm, name="Zarith", system="fasttest")
    join_campaign(campaign, player)
    return campaign


@pytest.fixture
def troll(campaign):
    return NPC.objects.create(
        campaign=campaign,
        name="Troll",
        traits=[{"name": "wielki", "dice": 3}, {"name": "głodny", "dice": 1}],
        notes="Pod mostem śpi skarb.",
    )


@pytest.fixture
def goblin(campaign):
    return NPC.objects.create(
        campaign=campaign, name="Goblin", traits=[{"name": "tchórz", "dice": 1}], revealed=True
    )


def u(name, campaign, *args):
    return reverse(name, args=[campaign.pk, *args])


def full_post(name="Wojownik", traits=(("szermierz", "4"),), notes="", revealed=False, total=None):
    data = {
        "name": name,
        "notes": notes,
        "traits-TOTAL_FORMS": str(len(traits) if total is None else total),
        "traits-INITIAL_FORMS": "0",
    }
    if revealed:
        data["revealed"] = "on"
    for index, (trait, dice) in enumerate(traits):
        data[f"traits-{index}-name"] = trait
        data[f"traits-{index}-dice"] = dice
    return data


# Who sees what


def test_the_gm_sees_every_npc_with_traits_and_notes(client, campaign, gm, troll, goblin):
    client.force_login(gm)
    html = client.get(u("npc_list", campaign)).content.decode()
    assert "Troll" in html
    assert "Goblin" in html
    assert "wielki</span> <span" in html
    assert "Pod mostem śpi skarb." in html


def test_a_player_sees_only_revealed_npcs(client, campaign, player, troll, goblin):
    client.force_login(player)
    html = client.get(u("npc_list", campaign)).content.decode()
    assert "Goblin" in html
    assert "tchórz" in html
    assert "Troll" not in html


def test_a_player_never_sees_notes_or_gm_controls(client, campaign, player, troll):
    troll.revealed = True
    troll.save()
    client.force_login(player)
    html = client.get(u("npc_list", campaign)).content.decode()
    assert "Troll" in html
    assert "Pod mostem" not in html
    assert u("npc_edit", campaign, troll.pk) not in html
    assert u("npc_quick_create", campaign) not in html


def test_the_four_demo_npcs_show_every_trait_with_its_dice(client):
    seed_demo()
    campaign = Campaign.objects.get(system="fasttest")
    client.force_login(campaign.gm)
    html = client.get(u("npc_list", campaign)).content.decode()
    for name in ("Wojownik (Warrior)", "Troll", "Goblin", "Smok (Dragon)"):
        assert name in html
    assert '<span class="trait-name">śmierdzący</span> <span class="dice"' in html
    assert html.count('class="trait"') == 6 + 7 + 6 + 9 + 2  # and the guard captain's two


@pytest.mark.parametrize("size", [1, 8])
def test_the_list_runs_the_same_queries_for_any_number_of_npcs(
    client, campaign, gm, django_assert_num_queries, size
):
    for index in range(size):
        NPC.objects.create(campaign=campaign, name=f"N{index}", traits=[{"name": "x", "dice": 2}])
    client.force_login(gm)
    # session, user, campaign, NPCs
    with django_assert_num_queries(3):
        assert client.get(u("npc_list", campaign)).status_code == 200


def test_the_campaign_page_links_the_npc_list(client, campaign, player, goblin, troll):
    client.force_login(player)
    html = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert u("npc_list", campaign) in html


# Outsiders and players


def every_npc_url(campaign, npc):
    return [
        ("get", u("npc_list", campaign)),
        ("post", u("npc_quick_create", campaign)),
        ("get", u("npc_create", campaign)),
        ("get", u("npc_edit", campaign, npc.pk)),
        ("post", u("npc_reveal", campaign, npc.pk)),
        ("get", u("npc_delete", campaign, npc.pk)),
        ("post", u("npc_delete", campaign, npc.pk)),
    ]


def test_a_player_gets_404_on_every_gm_npc_url(client, campaign, player, goblin):
    client.force_login(player)
    for method, url in every_npc_url(campaign, goblin)[1:]:
        assert getattr(client, method)(url).status_code == 404, url
    assert NPC.objects.filter(pk=goblin.pk).exists()


def test_a_player_cannot_edit_a_revealed_npc(client, campaign, player, goblin):
    client.force_login(player)
    response = client.post(u("npc_edit", campaign, goblin.pk), full_post(name="Hacked"))
    assert response.status_code == 404
    goblin.refresh_from_db()
    assert goblin.name == "Goblin"


def test_a_player_cannot_quick_add_npcs(client, campaign, player):
    client.force_login(player)
    client.post(u("npc_quick_create", campaign), {"text": "Troll: wielki 3k"})
    assert not NPC.objects.exists()


def test_another_campaigns_npc_is_404_even_for_a_gm(client, campaign, gm, make_user):
    stranger = create_campaign(gm=make_user("gm2"), name="Obca", system="fasttest")
    theirs = NPC.objects.create(campaign=stranger, name="Obcy", traits=[{"name": "x", "dice": 1}])
    client.force_login(gm)
    assert client.get(u("npc_edit", campaign, theirs.pk)).status_code == 404
    assert client.post(u("npc_reveal", campaign, theirs.pk), {"revealed": "1"}).status_code == 404
    assert client.post(u("npc_delete", campaign, theirs.pk)).status_code == 404
    assert NPC.objects.filter(pk=theirs.pk, revealed=False).exists()


# Quick entry


def test_the_gm_adds_an_npc_from_one_line(client, campaign, gm):
    client.force_login(gm)
    line = "Troll: wielki 3k, paskudny 3k, śmierdzący 4k, regeneracja 2k, głodny, głupawy"
    response = client.post(u("npc_quick_create", campaign), {"text": line})
    assert response.status_code == 302
    npc = NPC.objects.get(campaign=campaign)
    assert npc.name == "Troll"
    assert npc.traits[2] == {"name": "śmierdzący", "dice": 4}
    assert npc.traits[-1] == {"name": "głupawy", "dice": 1}


def test_several_lines_add_several_npcs(client, campaign, gm):
    client.force_login(gm)
    client.post(u("npc_quick_create", campaign), {"text": "Troll: wielki 3k\nGoblin: tchórz"})
    assert set(NPC.objects.values_list("name", flat=True)) == {"Troll", "Goblin"}


def test_a_line_that_cannot_be_read_says_where_and_keeps_the_text(client, campaign, gm):
    client.force_login(gm)
    line = "Troll: wielki 3k, paskudny 3k, śmierdzący x4"
    response = client.post(u("npc_quick_create", campaign), {"text": line})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Trait 3 (&#x27;śmierdzący x4&#x27;): the level must be a number followed by k" in html
    assert line in html
    assert not NPC.objects.exists()


def test_one_bad_line_adds_none_of_the_others(client, campaign, gm):
    client.force_login(gm)
    client.post(u("npc_quick_create", campaign), {"text": "Troll: wielki 3k\nGoblin: 99k"})
    assert not NPC.objects.exists()


def test_htmx_quick_entry_swaps_the_board_and_clears_the_box(client, campaign, gm):
    client.force_login(gm)
    response = client.post(
        u("npc_quick_create", campaign),
        {"text": "Troll: wielki 3k"},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert html.startswith('<div id="npc-board"')
    assert "Added Troll." in html
    assert "Troll: wielki 3k</textarea>" not in html


# The full form


def test_the_gm_adds_an_npc_with_the_full_form(client, campaign, gm):
    client.force_login(gm)
    post = full_post(traits=[("szermierz", "4"), ("przystojniak", "")], notes="Ma brata.")
    response = client.post(u("npc_create", campaign), post)
    npc = NPC.objects.get()
    assert response["Location"] == f"{u('npc_list', campaign)}#npc-{npc.pk}"
    assert npc.traits == [{"name": "szermierz", "dice": 4}, {"name": "przystojniak", "dice": 1}]
    assert npc.notes == "Ma brata."


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ("21", "1 to 20."),
        ("0", "1 to 20."),
        ("cztery", "A whole number, 1 to 20."),
    ],
)
def test_bad_dice_are_refused_with_every_value_kept(client, campaign, gm, dice, message):
    client.force_login(gm)
    post = full_post(traits=[("szermierz", dice)], notes="Ma brata.")
    response = client.post(u("npc_create", campaign), post)
    html = response.content.decode()
    assert response.status_code == 200
    assert message in html
    assert f'value="{dice}"' in html
    assert 'value="Wojownik"' in html
    assert "Ma brata." in html
    assert not NPC.objects.exists()


def test_an_npc_needs_at_least_one_trait(client, campaign, gm):
    client.force_login(gm)
    response = client.post(u("npc_create", campaign), full_post(traits=[("", "")]))
    assert "List at least one trait." in response.content.decode()


def test_dice_without_a_trait_name_are_refused(client, campaign, gm):
    client.force_login(gm)
    response = client.post(u("npc_create", campaign), full_post(traits=[("", "3")]))
    assert "Name the trait, or clear the row to remove it." in response.content.decode()


def test_a_trait_listed_twice_is_refused(client, campaign, gm):
    client.force_login(gm)
    post = full_post(traits=[("wielki", "3"), ("Wielki", "2")])
    assert "already listed" in client.post(u("npc_create", campaign), post).content.decode()


def test_a_forged_trait_count_is_refused_without_a_server_error(client, campaign, gm):
    client.force_login(gm)
    response = client.post(u("npc_create", campaign), full_post(total=5000))
    assert response.status_code == 200
    assert "Please submit at most 30 forms." in response.content.decode()


def test_more_trait_rows_keeps_what_was_typed_and_saves_nothing(client, campaign, gm):
    client.force_login(gm)
    post = full_post(traits=[("szermierz", "4"), ("zwinny", "x")])
    post["add_rows"] = "1"
    html = client.post(u("npc_create", campaign), post).content.decode()
    assert 'value="szermierz"' in html
    assert 'value="x"' in html
    assert 'name="traits-7-name"' in html
    assert "A whole number" not in html
    assert not NPC.objects.exists()


@pytest.mark.parametrize(("total", "kept"), [("5000", True), ("many", False), ("-3", False)])
def test_more_trait_rows_with_a_forged_row_count_answers_the_form_without_a_server_error(
    client, campaign, gm, total, kept
):
    client.force_login(gm)
    post = full_post(name="Ogr", traits=[("szermierz", "4")], notes="pod mostem", revealed=True)
    post["traits-TOTAL_FORMS"] = total
    post["add_rows"] = "1"
    response = client.post(u("npc_create", campaign), post)
    html = response.content.decode()
    assert response.status_code == 200
    assert ('value="szermierz"' in html) is kept
    assert 'value="Ogr"' in html
    assert "pod mostem" in html
    assert not NPC.objects.exists()


def test_the_gm_edits_an_npc(client, campaign, gm, troll):
    client.force_login(gm)
    html = client.get(u("npc_edit", campaign, troll.pk)).content.decode()
    assert 'value="wielki"' in html
    assert 'value="Troll: wielki 3k, głodny"' in html
    post = full_post(name="Troll jaskiniowy", traits=[("wielki", "5")], revealed=True)
    client.post(u("npc_edit", campaign, troll.pk), post)
    troll.refresh_from_db()
    assert (troll.name, troll.traits, troll.revealed) == (
        "Troll jaskiniowy",
        [{"name": "wielki", "dice": 5}],
        True,
    )


# Reveal and delete


def test_the_gm_reveals_and_hides_an_npc(client, campaign, gm, player, troll):
    client.force_login(gm)
    client.post(u("npc_reveal", campaign, troll.pk), {"revealed": "1"})
    card = f'id="npc-{troll.pk}"'
    client.force_login(player)
    assert card in client.get(u("npc_list", campaign)).content.decode()
    client.force_login(gm)
    client.post(u("npc_reveal", campaign, troll.pk), {"revealed": "0"})
    client.force_login(player)
    assert card not in client.get(u("npc_list", campaign)).content.decode()


def test_a_forged_reveal_value_is_a_bad_request(client, campaign, gm, troll):
    client.force_login(gm)
    response = client.post(u("npc_reveal", campaign, troll.pk), {"revealed": "yes please"})
    assert response.status_code == 400
    troll.refresh_from_db()
    assert troll.revealed is False


def test_htmx_reveal_swaps_only_the_card(client, campaign, gm, troll):
    client.force_login(gm)
    response = client.post(
        u("npc_reveal", campaign, troll.pk), {"revealed": "1"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert html.startswith(f'<article class="card npc" id="npc-{troll.pk}"')
    assert "Hide from players" in html


def test_deleting_asks_first_then_deletes(client, campaign, gm, troll):
    client.force_login(gm)
    assert "Delete Troll?" in client.get(u("npc_delete", campaign, troll.pk)).content.decode()
    assert NPC.objects.filter(pk=troll.pk).exists()
    response = client.post(u("npc_delete", campaign, troll.pk))
    assert response["Location"] == u("npc_list", campaign)
    assert not NPC.objects.filter(pk=troll.pk).exists()
