"""Saved tests (issue 28 item 5): a player pins the test the panel prepares and rolls it again
from the sheet in one click; the pin keeps the panel's choices, and its roll is the panel's own,
so what the sheet no longer allows is refused with the panel's words."""

from __future__ import annotations

import re
import uuid

import pytest
from django.urls import reverse

from rolls.models import Roll, SavedTest
from rolls.saved.actions import MOST
from tests.web.live import panel_url
from tests.web.test_after_roll import HERO

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table("fasttest", characters=[("Brunhilda", HERO), ("Ulryk", HERO)]),
]

HX = {"HTTP_HX_REQUEST": "true"}


def pin(client, table, name="cios toporem", character=None, **choices):
    character = character or table.characters[0]
    url = reverse("pin_test", args=[table.campaign.pk, character.pk])
    data = {"attribute": "BUDOWA", "key": str(uuid.uuid4()), "shown": "", **choices}
    return client.post(url, {**data, "pin_name": name}, **HX)


def sheet(client, table, character=None) -> str:
    character = character or table.characters[0]
    url = reverse("character_detail", args=[table.campaign.pk, character.pk])
    return client.get(url).content.decode()


def test_a_player_pins_the_panels_test_under_a_name(client, table, player):
    client.force_login(player)
    response = pin(client, table, "  cios   toporem ")
    assert response.status_code == 200
    saved = SavedTest.objects.get()
    assert (saved.character, saved.name) == (table.characters[0], "cios toporem")
    assert saved.choices == {"attribute": ["BUDOWA"]}  # the request's own fields are not kept
    assert "Roll: cios toporem" in response.content.decode()


def test_the_sheet_offers_each_pinned_test_with_its_choices(client, table, player):
    client.force_login(player)
    pin(client, table)
    page = sheet(client, table)
    assert 'id="pinned-tests"' in page
    assert '<input type="hidden" name="attribute" value="BUDOWA">' in page


def test_a_pinned_test_rolls_in_one_click_through_the_panel(client, table, player):
    client.force_login(player)
    pin(client, table)
    page = sheet(client, table)
    form = re.search(r'<form[^>]*class="inline pinned-roll".*?</form>', page, re.S).group(0)
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form))
    response = client.post(panel_url(table.characters[0], "test_roll"), fields, **HX)
    assert response.status_code == 200
    roll = Roll.objects.get(kind="test")
    assert (roll.character_id, roll.actor_id) == (table.characters[0].pk, player.pk)
    assert roll.params["attribute"] == table.characters[0].data["attributes"]["BUDOWA"]


def test_the_list_comes_again_with_fresh_keys_so_the_next_click_rolls_again(client, table, player):
    client.force_login(player)
    pin(client, table)
    url = reverse("pinned_tests", args=[table.campaign.pk, table.characters[0].pk])
    keys = [re.search(r'name="key" value="([^"]+)"', client.get(url, **HX).content.decode())
            .group(1) for _ in range(2)]  # fmt: skip
    assert keys[0] != keys[1]


def test_a_pinned_test_the_sheet_no_longer_allows_is_refused_with_the_panels_words(
    client, table, player
):
    client.force_login(player)
    pin(client, table, attribute="NIEISTNIEJĄCY")
    saved = SavedTest.objects.get()
    fields = {"key": str(uuid.uuid4()), "visibility": "public"}
    fields |= {name: value for name, value in saved.fields()}
    response = client.post(panel_url(table.characters[0], "test_roll"), fields, **HX)
    assert response.status_code == 422
    assert "Choose the attribute to test." in response.content.decode()
    assert not Roll.objects.exists()


def test_a_name_is_needed_and_is_kept_once(client, table, player):
    client.force_login(player)
    assert pin(client, table, "").status_code == 422
    pin(client, table, "cios")
    response = pin(client, table, "cios")
    assert response.status_code == 409
    assert "already has a pinned test called “cios”" in response.content.decode()
    assert SavedTest.objects.count() == 1


def test_nothing_prepared_is_nothing_to_pin(client, table, player):
    client.force_login(player)
    url = reverse("pin_test", args=[table.campaign.pk, table.characters[0].pk])
    response = client.post(url, {"pin_name": "pusty", "key": str(uuid.uuid4())}, **HX)
    assert response.status_code == 409
    assert "Prepare a test on the panel first" in response.content.decode()
    assert not SavedTest.objects.exists()


@pytest.mark.parametrize(
    "choices",
    [{"attribute": "BUD\x00OWA"}, {"attribute": "x" * 201}, {f"f{n}": "1" for n in range(41)}],
    ids=["control character", "too long", "too many"],
)
def test_choices_that_are_no_panels_are_refused(client, table, player, choices):
    client.force_login(player)
    response = pin(client, table, **choices)
    assert response.status_code in (409, 422)
    assert not SavedTest.objects.exists()


def test_a_character_keeps_a_bounded_number_of_pins(client, table, player):
    client.force_login(player)
    for n in range(MOST):
        assert pin(client, table, f"test {n}").status_code == 200
    response = pin(client, table, "jeden za dużo")
    assert response.status_code == 409
    assert SavedTest.objects.count() == MOST


def test_another_player_cannot_pin_or_see_the_pins_of_a_character_not_theirs(
    client, table, player, other_player
):
    client.force_login(player)
    pin(client, table)
    client.force_login(other_player)
    assert pin(client, table, "cudzy").status_code == 404
    url = reverse("pinned_tests", args=[table.campaign.pk, table.characters[0].pk])
    assert client.get(url, **HX).status_code == 404
    assert "Roll: cios toporem" not in sheet(client, table)
    assert SavedTest.objects.count() == 1


def test_an_outsider_cannot_pin(client, table, outsider):
    client.force_login(outsider)
    assert pin(client, table).status_code == 404
    assert not SavedTest.objects.exists()


def test_the_player_unpins_a_test(client, table, player):
    client.force_login(player)
    pin(client, table)
    saved = SavedTest.objects.get()
    url = reverse("unpin_test", args=[table.campaign.pk, table.characters[0].pk, saved.pk])
    response = client.post(url, **HX)
    assert response.status_code == 200
    assert not SavedTest.objects.exists()
    again = client.post(url, **HX)
    assert again.status_code == 409
    assert "gone already" in again.content.decode()


def test_another_player_cannot_unpin_a_test_not_theirs(client, table, player, other_player):
    client.force_login(player)
    pin(client, table)
    saved = SavedTest.objects.get()
    client.force_login(other_player)
    url = reverse("unpin_test", args=[table.campaign.pk, table.characters[0].pk, saved.pk])
    assert client.post(url, **HX).status_code == 404
    own = table.characters[1]
    url = reverse("unpin_test", args=[table.campaign.pk, own.pk, saved.pk])
    assert client.post(url, **HX).status_code == 409  # not a pin of their own character
    assert SavedTest.objects.count() == 1


def test_the_panel_offers_to_pin_a_ready_free_test(client, table, player):
    client.force_login(player)
    response = client.post(panel_url(table.characters[0]), {"attribute": "BUDOWA"}, **HX)
    assert 'class="pin-test"' in response.content.decode()


def test_a_plain_post_goes_back_to_the_sheet(client, table, player):
    client.force_login(player)
    url = reverse("pin_test", args=[table.campaign.pk, table.characters[0].pk])
    response = client.post(url, {"attribute": "BUDOWA", "pin_name": "bez skryptów"})
    assert response.status_code == 302
    assert response["Location"].endswith("#pinned-tests")
    assert SavedTest.objects.get().name == "bez skryptów"
