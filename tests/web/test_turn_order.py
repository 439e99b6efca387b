"""Turn order (issue 28 item 2): the GM gives the party and the NPCs their numbers on the
dashboard, higher first, then "Next turn" and "Next round"; every page of the table shows the
round and whose turn it is, a player's own turn says "Your turn!", and an NPC the GM has not
shown stays "an NPC" to the players. Players, outsiders and bad input are refused."""

from __future__ import annotations

import html
import uuid

import pytest
from django.urls import reverse

from campaigns.models import Membership
from campaigns.sessions import new_scene
from rolls.engine import dice as quick_dice
from rolls.models import Combatant, Roll, Turn, Visibility
from rolls.turns import fight, order
from tests.web.test_caerbannog_rozmach import PD_TABLE, resources, sheet

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def table(make_table):
    """Brunhilda (the player's), Ulryk (the other player's), a shown Goblin, a hidden Troll."""
    table = make_table(
        "fasttest",
        characters=[("Brunhilda", {}), ("Ulryk", {})],
        npcs=[("Goblin", [{"name": "zwinny", "dice": 2}]), ("Troll", [])],
    )
    goblin = table.npcs[0]
    goblin.revealed = True
    goblin.save()
    return table


def numbers(table, brunhilda=None, ulryk=None, goblin=None, troll=None) -> dict[str, str]:
    (b, u), (g, t) = table.characters, table.npcs
    given = {f"character-{b.pk}": brunhilda, f"character-{u.pk}": ulryk,
             f"npc-{g.pk}": goblin, f"npc-{t.pk}": troll}  # fmt: skip
    return {name: "" if number is None else str(number) for name, number in given.items()}


def set_order(client, table, htmx=True, key=None, **given):
    client.force_login(table.gm)
    url = reverse("turn_order", args=[table.campaign.pk])
    data = numbers(table, **given) | {"key": key or str(uuid.uuid4())}
    return client.post(url, data, **(HX if htmx else {}))


def step(client, table, name="turn_next", user=None):
    client.force_login(user or table.gm)
    return client.post(reverse(name, args=[table.campaign.pk]), **HX)


def names(table) -> list[str]:
    return [place.name for place in order.order_of(order.current_scene(table.campaign.pk))]


def text(response) -> str:
    return html.unescape(response.content.decode())


def bar(client, table, user) -> str:
    client.force_login(user)
    return text(client.get(reverse("turn_bar", args=[table.campaign.pk])))


def whose(table) -> str:
    return fight.current(table.campaign.pk).name


# --- Setting the order -----------------------------------------------------------------------


def test_the_gm_sets_the_order_higher_numbers_first(client, table):
    response = set_order(client, table, brunhilda=7, ulryk=12, goblin=9, troll=3)
    assert response.status_code == 200
    assert names(table) == ["Ulryk", "Goblin", "Brunhilda", "Troll"]
    assert "The order: Ulryk 12, Goblin 9, Brunhilda 7, Troll 3." in text(response)


def test_a_tie_puts_the_party_before_the_npcs(client, table):
    set_order(client, table, brunhilda=5, goblin=5, ulryk=5)
    assert names(table) == ["Brunhilda", "Ulryk", "Goblin"]


def test_a_combatant_left_blank_stays_out_of_the_fight(client, table):
    set_order(client, table, brunhilda=4, troll=8)
    assert names(table) == ["Troll", "Brunhilda"]


def test_setting_the_order_again_replaces_it(client, table):
    set_order(client, table, brunhilda=4, troll=8)
    set_order(client, table, ulryk=2, goblin=1)
    assert names(table) == ["Ulryk", "Goblin"]


def test_the_form_offers_the_numbers_the_order_holds(client, table):
    set_order(client, table, brunhilda=4, troll=8)
    client.force_login(table.gm)
    page = client.get(reverse("dashboard", args=[table.campaign.pk])).content.decode()
    brunhilda, _ulryk = table.characters
    assert f'name="character-{brunhilda.pk}" id="order-character-{brunhilda.pk}"' in page
    assert 'placeholder="e.g. 12 or 1d10" value="4"' in page


def test_setting_the_order_tells_the_table(
    client, table, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr("campaigns.live.broadcast", lambda group, event: sent.append(event))
    with django_capture_on_commit_callbacks(execute=True):
        set_order(client, table, brunhilda=4)
    assert {"type": "table.turn", "session": table.session.pk, "scene": 1, "order": True} in sent


def test_an_order_set_before_its_first_turn_says_next_turn_starts_it(client, table):
    box = text(set_order(client, table, brunhilda=7, ulryk=12, goblin=9, troll=3))
    assert "Order set: press Next turn to start round 1 with Ulryk." in box
    assert "No fight in this scene yet." not in box


def test_a_scene_without_an_order_says_it_has_no_fight_yet(client, table):
    client.force_login(table.gm)
    dashboard = text(client.get(reverse("dashboard", args=[table.campaign.pk])))
    assert "No fight in this scene yet." in dashboard


def test_a_new_scene_ends_the_order_with_its_turns(client, table):
    set_order(client, table, brunhilda=4)
    step(client, table)
    new_scene(table.session)
    assert names(table) == []
    assert fight.current(table.campaign.pk) is None


# --- Numbers from a roll ----------------------------------------------------------------------


def initiative_rolls() -> list[tuple[str, str, str]]:
    rolls = Roll.objects.filter(kind=quick_dice.QUICK_KIND).order_by("seq")
    return [(roll.character_name, roll.label, roll.visibility) for roll in rolls]


def test_dice_given_for_a_combatant_are_rolled_into_the_log_and_place_it(client, table, dice):
    dice(9)
    set_order(client, table, brunhilda="1d10", ulryk=8)
    assert names(table) == ["Brunhilda", "Ulryk"]
    assert initiative_rolls() == [("Brunhilda", "Initiative: 1d10", Visibility.PUBLIC)]
    assert order.order_of(order.current_scene(table.campaign.pk))[0].initiative == 9


def test_a_hidden_npcs_roll_for_the_order_is_the_gms_alone(client, table, dice):
    dice(4, 2)
    set_order(client, table, goblin="1d6", troll="1d6")
    assert initiative_rolls() == [
        ("Goblin", "Initiative: 1d6", Visibility.PUBLIC),
        ("Troll", "Initiative: 1d6", Visibility.HIDDEN),
    ]


def test_the_same_request_sent_twice_rolls_once(client, table, dice):
    dice(9, 2)
    key = str(uuid.uuid4())
    set_order(client, table, key=key, brunhilda="1d10")
    set_order(client, table, key=key, brunhilda="1d10")
    assert len(initiative_rolls()) == 1
    assert order.order_of(order.current_scene(table.campaign.pk))[0].initiative == 9


def test_a_roll_outside_the_numbers_allowed_is_kept_within_them(client, table, dice):
    dice(6, 6, 6, 6)
    set_order(client, table, brunhilda="4d6+1000")
    assert order.order_of(order.current_scene(table.campaign.pk))[0].initiative == order.HIGHEST


def test_dice_without_the_requests_key_are_refused(client, table):
    client.force_login(table.gm)
    url = reverse("turn_order", args=[table.campaign.pk])
    response = client.post(url, numbers(table, brunhilda="1d10"), **HX)
    assert response.status_code == 400
    assert not Roll.objects.exists()


def test_a_refused_order_rolls_nothing(client, make_table):
    table = make_table(
        "fasttest", session=False, characters=[("Brunhilda", {}), ("Ulryk", {})],
        npcs=[("Goblin", []), ("Troll", [])],
    )  # fmt: skip
    set_order(client, table, brunhilda="1d10")
    assert not Roll.objects.exists()


# --- Moving the fight on -------------------------------------------------------------------


def test_next_turn_goes_down_the_order_then_starts_the_next_round(client, table):
    set_order(client, table, brunhilda=7, ulryk=12, goblin=9)
    seen = []
    for _ in range(4):
        step(client, table)
        now = fight.current(table.campaign.pk)
        seen.append((now.round, now.name))
    assert seen == [(1, "Ulryk"), (1, "Goblin"), (1, "Brunhilda"), (2, "Ulryk")]


def test_next_turn_says_whose_turn_it_is(client, table):
    set_order(client, table, brunhilda=7, goblin=9)
    response = step(client, table)
    assert "Round 1: Goblin's turn." in text(response)


def test_next_round_starts_the_next_round_with_the_first(client, table):
    set_order(client, table, brunhilda=7, ulryk=12, goblin=9)
    step(client, table)
    step(client, table, "round_next")
    now = fight.current(table.campaign.pk)
    assert (now.round, now.name) == (2, "Ulryk")


def test_an_npcs_turn_is_kept_as_the_npcs(client, table):
    set_order(client, table, troll=3)
    step(client, table)
    troll = table.npcs[1]
    assert list(Turn.objects.values_list("round", "character", "npc")) == [(1, None, troll.pk)]


def test_after_a_turn_the_gm_started_on_a_card_the_order_goes_on_from_there(client, table):
    set_order(client, table, brunhilda=7, ulryk=12, goblin=9)
    fight.start_turn(table.session, table.characters[1])  # Ulryk's, out of the order's steps
    step(client, table)
    assert whose(table) == "Goblin"


def test_when_whoever_has_the_turn_left_the_order_it_starts_again_from_the_top(client, table):
    set_order(client, table, brunhilda=7, ulryk=12, goblin=9)
    step(client, table)  # Ulryk
    set_order(client, table, brunhilda=7, goblin=9)
    step(client, table)
    now = fight.current(table.campaign.pk)
    assert (now.round, now.name) == (1, "Goblin")


def test_next_turn_without_an_order_is_refused_with_what_to_do(client, table):
    response = step(client, table)
    assert response.status_code == 409
    assert "Set the turn order first" in text(response)
    assert not Turn.objects.exists()


def test_the_order_without_a_running_session_is_refused(client, make_table):
    table = make_table(
        "fasttest",
        session=False,
        characters=[("Brunhilda", {}), ("Ulryk", {})],
        npcs=[("Goblin", []), ("Troll", [])],
    )
    response = set_order(client, table, brunhilda=3)
    assert response.status_code == 409
    assert not Combatant.objects.exists()


# --- Every page shows it -------------------------------------------------------------------


def test_every_member_reads_the_round_and_whose_turn_it_is(client, table, gm, player):
    set_order(client, table, brunhilda=7, goblin=9)
    step(client, table)
    for user in (gm, player):
        page = bar(client, table, user)
        assert "Round 1" in page
        assert "Goblin's turn" in page


def test_the_player_whose_character_it_is_reads_your_turn(client, table, player, other_player):
    set_order(client, table, brunhilda=7, goblin=9)
    step(client, table)
    step(client, table)
    assert "Your turn!" in bar(client, table, player)
    assert "data-attention=" in bar(client, table, player)
    assert "Your turn!" not in bar(client, table, other_player)


def test_the_turn_bar_is_on_the_sheet_page(client, table, player):
    set_order(client, table, brunhilda=7)
    step(client, table)
    client.force_login(player)
    brunhilda = table.characters[0]
    page = client.get(reverse("character_detail", args=[table.campaign.pk, brunhilda.pk]))
    assert 'id="turn-bar"' in text(page)
    assert "Your turn!" in text(page)


def test_a_hidden_npcs_name_reaches_no_player(client, table, player):
    set_order(client, table, brunhilda=7, troll=9)
    step(client, table)
    seen = bar(client, table, player)
    assert "Troll" not in seen
    assert "an NPC's turn" in seen
    client.force_login(player)
    page = client.get(reverse("session_detail", args=[table.campaign.pk, table.session.pk]))
    assert "Troll" not in text(page)


def test_the_gm_reads_the_hidden_npcs_name(client, table, gm):
    set_order(client, table, brunhilda=7, troll=9)
    step(client, table)
    assert "Troll's turn" in bar(client, table, gm)


def test_outside_a_fight_the_bar_is_hidden(client, table, player):
    assert 'id="turn-bar"' in bar(client, table, player)
    assert " hidden>" in bar(client, table, player)


# --- Caerbannog: a character's turn from the order grants what a card's turn start does ------


def test_in_caerbannog_the_orders_next_turn_grants_the_pd_tables_rozmach(client, make_table):
    table = make_table(
        "caerbannog",
        settings={"caerbannog": {"pd_rozmach": PD_TABLE}},
        characters=[("Morgana", sheet(pd=12))],
        npcs=[("Goblin", [])],
    )
    table.hero.data["resources"]["rozmach"] = 5
    table.hero.save()
    client.force_login(table.gm)
    url = reverse("turn_order", args=[table.campaign.pk])
    client.post(url, {f"character-{table.hero.pk}": "9", f"npc-{table.npcs[0].pk}": "3"})
    response = step(client, table)
    assert "Round 1: Morgana's turn. +3 Rozmach (5 → 8)." in text(response)
    assert resources(table.hero)["rozmach"] == 8
    step(client, table)  # the Goblin's: nothing to grant
    assert resources(table.hero)["rozmach"] == 8


# --- Refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["player", "outsider"])
@pytest.mark.parametrize("name", ["turn_order", "turn_next", "round_next"])
def test_only_the_gm_moves_the_order(client, table, request, who, name):
    client.force_login(request.getfixturevalue(who))
    response = client.post(reverse(name, args=[table.campaign.pk]), numbers(table, brunhilda=1))
    assert response.status_code == 404
    assert not Combatant.objects.exists()
    assert not Turn.objects.exists()


def test_a_visitor_not_logged_in_is_sent_to_log_in(client, table):
    response = client.get(reverse("turn_bar", args=[table.campaign.pk]))
    assert response.status_code == 302
    assert "login" in response["Location"]


def test_a_number_out_of_range_says_what_is_allowed(client, table):
    response = set_order(client, table, brunhilda=1000)
    assert "A number from -99 to 999, or dice to roll (1d10)." in text(response)


def test_dice_the_quick_dice_refuse_are_refused_in_their_words(client, table):
    response = set_order(client, table, brunhilda="1d10+")
    assert response.status_code == 422
    assert not Roll.objects.exists()


def test_no_number_at_all_is_refused(client, table):
    response = set_order(client, table)
    assert response.status_code == 409
    assert "Give at least one combatant a number." in text(response)


@pytest.mark.parametrize("typed", ["abc", "1000", "-100", "1.5", "\x00", "1d10+", "x" * 41])
def test_a_number_out_of_range_or_not_a_number_is_refused_and_kept(client, table, typed):
    response = set_order(client, table, brunhilda=typed, ulryk=4)
    assert response.status_code == 422
    assert "Not set: see the marked numbers." in text(response)
    assert 'aria-invalid="true"' in text(response)
    assert not Combatant.objects.exists()


def test_a_forged_combatant_of_another_table_is_ignored(client, table, make_table):
    elsewhere = make_table("fasttest", name="Inny stół", characters=[("Obcy", {})])
    data = numbers(table, brunhilda=3) | {f"character-{elsewhere.hero.pk}": "9"}
    client.force_login(table.gm)
    client.post(reverse("turn_order", args=[table.campaign.pk]), data, **HX)
    assert names(table) == ["Brunhilda"]


def test_without_javascript_setting_the_order_returns_to_the_dashboard(client, table):
    response = set_order(client, table, htmx=False, brunhilda=3)
    assert response.status_code == 302
    assert response["Location"].endswith("#turn-order")


def test_a_removed_member_reads_no_turn_bar(client, table, other_player):
    set_order(client, table, ulryk=4)
    step(client, table)
    Membership.objects.filter(campaign=table.campaign, user=other_player).delete()
    client.force_login(other_player)
    assert client.get(reverse("turn_bar", args=[table.campaign.pk])).status_code == 404
