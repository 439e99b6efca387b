"""The keys static/js/attention.js follows (issue 28, item 3): each cue that asks the reader to act
carries one that stays the same across the cue's refreshes, in the page's first HTML and in the
refresh, so a call is "new" only once however often the cues are fetched again."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.web import test_cues_on_load as cues
from tests.web import test_group_test as group_tests
from tests.web.test_group_test import gathered

pytestmark = [pytest.mark.django_db, cues.TABLE]

called = cues.called
party = group_tests.party


def test_a_called_tests_cue_carries_its_key_on_the_page_and_in_its_refresh(
    client, player, table, called
):
    key = f'data-attention="call-{called.pk}"'
    assert key in cues.page(client, player, "campaign_detail", table.campaign.pk)
    refreshed = client.get(reverse("my_calls", args=[table.campaign.pk])).content.decode()
    assert key in refreshed
    # The page's switches for it: the script shows them, the notification is asked on a click.
    html = cues.page(client, player, "campaign_detail", table.campaign.pk)
    assert "data-attention-controls" in html
    assert "Notify me when the GM calls" in html


def test_the_gm_is_offered_no_switches_for_calls_they_make(client, gm, table, called):
    assert "data-attention-controls" not in cues.page(
        client, gm, "campaign_detail", table.campaign.pk
    )


def test_a_group_tests_cue_carries_its_key_for_the_helper_whose_dice_wait(party):
    gathered(party, None)
    group = group_tests.group()
    client = party.client(party.players[1])
    url = reverse("group_cue", args=[party.campaign.pk])
    assert f'data-attention="group-{group.pk}"' in client.get(url).content.decode()
    bartek = party.characters[1]
    html = client.get(reverse("character_detail", args=[party.campaign.pk, bartek.pk]))
    assert f'data-attention="group-{group.pk}"' in cues.group_cue_on(html.content.decode())
