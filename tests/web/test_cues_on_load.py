"""Cues survive a reload (issue 24, item 5): whatever a person must do now (a test the GM
called on their character, their turn to settle a Caerbannog opposed test, a group test under
way) is in the page's first HTML, rendered by the server, not fetched after the page loads."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rolls.pending import actions as pending
from tests.web import test_group_test as group_tests
from tests.web import test_opposed_settle as settling
from tests.web.test_group_test import gathered
from tests.web.test_opposed_settle import settle
from tests.web.test_panel_fasttest import SHEET

TABLE = pytest.mark.table(name="Zarith", characters=[("Brunhilda", SHEET), ("Zbyszko", SHEET)])
pytestmark = [pytest.mark.django_db, TABLE]

# Their fixtures: Ala, Bartek and Celina in a Caerbannog party; Ala's Julio against Bartek's
# rival, both rolled, nothing settled yet.
party = group_tests.party
caerbannog, rolled = settling.caerbannog, settling.rolled


@pytest.fixture
def called(table, gm):
    """The GM calls for a BUDOWA test on Brunhilda, the player's character."""
    return pending.call_test(
        session=table.session, character=table.hero, gm=gm, target={"attribute": "BUDOWA"}
    )


#: What the idle panel says: nothing is being tested yet.
IDLE = "Click a stat on the sheet to prepare a test"


def page(client, user, name, *args, **query) -> str:
    client.force_login(user)
    return client.get(reverse(name, args=args), query).content.decode()


def sheet_page(client, user, character) -> str:
    return page(client, user, "character_detail", character.campaign_id, character.pk)


def part(html: str, opening: str) -> str:
    """The element that opens with ``opening`` (``<div class="group-cues"``), to its end."""
    start = html.index(opening)
    return html[start : html.index("</div>", start)]


def call_cue_of(character) -> str:
    return f'class="call-cue" data-character="{character.pk}"'


# The test panel -------------------------------------------------------------------------------


def test_the_sheet_of_a_character_with_a_called_test_opens_with_that_tests_panel(
    client, player, table, called
):
    html = sheet_page(client, player, table.hero)
    assert f'<input type="hidden" name="pending" value="{called.pk}">' in html
    assert IDLE not in html


def test_the_table_page_of_a_character_with_a_called_test_opens_with_that_tests_panel(
    client, player, table, called
):
    html = page(client, player, "session_detail", table.campaign.pk, table.session.pk)
    assert f'<input type="hidden" name="pending" value="{called.pk}">' in html
    assert IDLE not in html


def panel_tag(html: str) -> str:
    return re.search(r'<section id="test-panel"[^>]*>', html).group(0)


def test_the_panels_own_tag_is_the_same_idle_called_and_open(client, player, table, gm):
    """htmx re-initialises an element whose attributes changed, dropping the requests queued on
    it (the panel's hx-sync): the panel's own tag never changes, whatever it shows."""
    idle = sheet_page(client, player, table.hero)
    assert IDLE in idle
    url = reverse("test_panel", args=[table.campaign.pk, table.hero.pk])
    opened = client.get(url, {"attribute": "BUDOWA"}).content.decode()
    pending.call_test(
        session=table.session, character=table.hero, gm=gm, target={"attribute": "BUDOWA"}
    )
    called = sheet_page(client, player, table.hero)
    assert "pending-note" in called
    assert panel_tag(idle) == panel_tag(opened) == panel_tag(called)


def test_the_panel_no_longer_waits_for_a_fetch_to_show_the_call(client, player, table, called):
    assert "data-pending" not in sheet_page(client, player, table.hero)


def test_the_initiators_turn_to_settle_is_on_their_sheet_when_it_opens(client, player, rolled):
    html = sheet_page(client, player, rolled.initiator.character)
    assert 'class="opposed-settle" data-turn="a"' in html
    assert "My result stands: reveal it" in html


def test_the_opponents_turn_to_settle_is_on_their_sheet_once_the_initiator_settled(
    client, player, other_player, rolled
):
    settle(client, player, rolled, "a")
    html = sheet_page(client, other_player, rolled.opponent.character)
    assert 'class="opposed-settle" data-turn="b"' in html
    assert "My result stands: reveal it" in html


# The call cue ---------------------------------------------------------------------------------


def test_above_a_sheet_the_call_cue_names_another_called_character_but_not_this_one(
    client, gm, player, table, called
):
    other = table.campaign.characters.create(owner=player, name="Jadwiga", data=SHEET)
    pending.call_test(session=table.session, character=other, gm=gm, target={"attribute": "DUCH"})
    html = sheet_page(client, player, table.hero)
    assert call_cue_of(other) in html
    assert call_cue_of(table.hero) not in html


def test_the_call_cue_is_in_the_campaign_pages_first_html(client, player, table, called):
    html = page(client, player, "campaign_detail", table.campaign.pk)
    assert call_cue_of(table.hero) in html
    assert "The GM calls for a test: Brunhilda" in html


def test_the_call_cue_is_above_the_players_other_characters_sheet(client, player, table, called):
    other = table.campaign.characters.create(owner=player, name="Jadwiga", data=SHEET)
    assert call_cue_of(table.hero) in sheet_page(client, player, other)


def test_the_call_cue_is_refreshed_on_events_only(client, player, table):
    html = sheet_page(client, player, table.hero)
    cues = part(html, '<div class="call-cues"')
    assert 'hx-trigger="table:pending from:document, table:session from:document"' in cues


def test_the_call_cues_refresh_leaves_out_the_character_whose_panel_is_on_the_page(
    client, player, table, called
):
    html = sheet_page(client, player, table.hero)
    url = reverse("my_calls", args=[table.campaign.pk]) + f"?sheet={table.hero.pk}"
    assert f'hx-get="{url}"' in html
    assert call_cue_of(table.hero) not in client.get(url).content.decode()


def group_cue_on(html: str) -> str:
    return part(html, '<div class="group-cues"')


def test_the_group_cue_is_in_the_first_html_of_a_players_sheet(party):
    gathered(party, None)
    bartek = party.characters[1]
    html = party.client(party.players[1]).get(
        reverse("character_detail", args=[party.campaign.pk, bartek.pk])
    )
    cue = group_cue_on(html.content.decode())
    assert "Ala's group test: Bartek's dice are waiting." in cue
    assert f'href="{reverse("group_test", args=[party.campaign.pk])}"' in cue
    assert "load" not in re.search(r'hx-trigger="([^"]*)"', cue).group(1)


def test_the_group_cue_on_the_group_page_does_not_link_to_it(party):
    gathered(party, None)
    url = reverse("group_test", args=[party.campaign.pk])
    cue = group_cue_on(party.client(party.players[1]).get(url).content.decode())
    assert "Ala's group test: Bartek's dice are waiting." in cue
    assert "It is below on this page." in cue
    assert f'href="{url}"' not in cue


def test_the_group_cues_refresh_on_the_group_page_does_not_link_to_it(party):
    gathered(party, None)
    url = reverse("group_cue", args=[party.campaign.pk])
    cue = party.client(party.players[1]).get(url, {"here": "1"}).content.decode()
    assert "It is below on this page." in cue
    assert reverse("group_test", args=[party.campaign.pk]) not in cue


def test_the_group_page_offers_no_link_to_itself_before_a_group_test(party):
    url = reverse("group_test", args=[party.campaign.pk])
    client = party.client(party.players[0])
    cue = group_cue_on(client.get(url).content.decode())
    refreshed = client.get(reverse("group_cue", args=[party.campaign.pk]), {"here": "1"})
    assert f'href="{url}"' not in cue
    assert f'href="{url}"' not in refreshed.content.decode()
