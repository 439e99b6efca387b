"""One live region per page of a table (issue 41, item 3): the pages' parts that refresh carry
none of their own, so a refresh says nothing again; what the one region says is the page's
script's (tests/web/test_browser_keyboard.py hears it), and the words it says are the reader's."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rolls.pending import actions as pending
from tests.web.test_panel_fasttest import SHEET

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table(name="Zarith", characters=[("Brunhilda", SHEET)]),
]

POLITE = re.compile(r"""aria-live=["']polite["']""")
CUE = re.compile(r'<p class="call-cue"[^>]*>')


def pages(table):
    """Each page of the table that shows the log or a call, as the player and as the GM."""
    campaign, session = table.campaign.pk, table.session.pk
    player, gm = table.players[0], table.gm
    return [
        (player, reverse("character_detail", args=[campaign, table.hero.pk])),
        (player, reverse("session_detail", args=[campaign, session])),
        (gm, reverse("session_detail", args=[campaign, session])),
        (gm, reverse("dashboard", args=[campaign])),
        (player, reverse("campaign_detail", args=[campaign])),
    ]


def test_every_page_of_a_table_has_one_polite_live_region_and_its_parts_none(client, table):
    pending.call_test(
        session=table.session, character=table.hero, gm=table.gm, target={"attribute": "BUDOWA"}
    )
    for user, url in pages(table):
        client.force_login(user)
        html = client.get(url).content.decode()
        assert html.count("data-announcer") == 1, url
        assert len(POLITE.findall(html)) == 1, url
        cues = CUE.findall(html)  # the call's cue is not shouted again at each refresh
        assert not [cue for cue in cues if "role=" in cue], url
    assert cues, "the campaign page shows the call's cue"


def test_the_region_says_its_sentences_in_the_readers_language(client, table):
    client.force_login(table.players[0])
    url = reverse("character_detail", args=[table.campaign.pk, table.hero.pk])
    html = client.get(url).content.decode()
    assert 'data-said-roll="{who} rolled {what}: {outcome}"' in html
    assert 'data-said-turn="Your turn!"' in html


def test_the_dashboards_list_leaves_out_the_keys_of_a_sheet_and_its_panel(client, table):
    client.force_login(table.gm)
    html = client.get(reverse("dashboard", args=[table.campaign.pk])).content.decode()
    listed = html[html.index("data-keys") : html.index("</dialog>")]
    assert "to the roll log" in listed
    assert "roll the test in the panel" not in listed


def test_only_the_gm_is_offered_the_dashboard_key(client, table):
    url = reverse("session_detail", args=[table.campaign.pk, table.session.pk])
    dashboard = reverse("dashboard", args=[table.campaign.pk])
    client.force_login(table.players[0])
    assert "data-dashboard=" not in client.get(url).content.decode()
    client.force_login(table.gm)
    assert f'data-dashboard="{dashboard}"' in client.get(url).content.decode()
