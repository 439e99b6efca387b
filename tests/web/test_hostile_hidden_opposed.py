"""A side the GM rolled hidden tells nothing through the other side's offers (issue 23, item 1).

Caerbannog's heroic effort in an opposed test costs the failure against the opponent's result
plus one: offered against a hidden result, the offer (and its absence) told that result, and the
public heroic entry carried it as its difficulty. The rule, for every system: nothing a viewer
is shown (an offer, a cost, odds, a label, an error, an export) is computed from what they may
not see (``rolls.log.reading.shown_wherever``).
"""

from __future__ import annotations

import copy
import re
import uuid

import pytest
from django.urls import reverse

from rolls.log.reading import shown_wherever
from rolls.models import Roll, Visibility
from tests.web.test_opposed import caerbannog_duel, duel, roll_side
from tests.web.test_opposed_settle import follow, panel_of
from tests.web.test_panel_caerbannog import SHEET

pytestmark = pytest.mark.django_db

HIDDEN = {"visibility": Visibility.HIDDEN}


@pytest.fixture
def caerbannog(make_table):
    """Ala's Julio and Bartek's rival, both on the Caerbannog panel's sheet."""
    return make_table(**duel("caerbannog", copy.deepcopy(SHEET), copy.deepcopy(SHEET)))


@pytest.fixture
def duel_against_hidden(client, gm, player, caerbannog, dice):
    """``duel_against_hidden(b_faces)``: Julio rolls 4 (4, 2, 9); the GM rolls his rival's
    side hidden with ``b_faces``."""

    def make(*b_faces):
        opposed = caerbannog_duel(client, gm, caerbannog)
        dice(4, 2, 9)
        roll_side(client, player, opposed.initiator)
        dice(*b_faces)
        roll_side(client, gm, opposed.opponent, **HIDDEN)
        return opposed

    return make


def initiators_panel(client, player, table) -> str:
    """Julio's panel as his player's page shows it, without what differs from render to render
    (the idempotency keys, the CSRF token)."""
    html = panel_of(client, player, table.characters[0]).content.decode()
    html = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "KEY", html)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "CSRF", html)


def test_heroic_effort_is_not_offered_against_an_opponents_hidden_result(
    client, player, caerbannog, duel_against_hidden
):
    duel_against_hidden(7, 1, 8)  # 7: Julio's 4 would fail by 3, heroic effort costing 4
    box = panel_of(client, player, caerbannog.characters[0]).context["opposed_settle"]
    assert box["may_settle"]
    assert "heroic" not in [offer.kind for offer in box["follow_ups"]]
    assert box["declare"] is None  # revealed, it would still be hidden where Julio's roll shows


@pytest.mark.parametrize("hidden_result", [(2, 1, 3), (7, 1, 8), (8, 8, 8)])
def test_the_initiators_panel_is_the_same_whatever_the_hidden_result(
    client, player, caerbannog, duel_against_hidden, hidden_result
):
    duel_against_hidden(*hidden_result)
    shown = initiators_panel(client, player, caerbannog)
    hidden = Roll.objects.filter(visibility=Visibility.HIDDEN)
    result = hidden.get().result
    result["answer"]["result"] = 4  # what the rival's 4, 4, 4 would have read
    hidden.update(result=result, faces=[4, 4, 4])  # log entries are never edited, but here
    assert initiators_panel(client, player, caerbannog) == shown


def test_a_forged_heroic_effort_against_a_hidden_result_is_refused_and_logs_nothing(
    client, player, caerbannog, duel_against_hidden
):
    opposed = duel_against_hidden(7, 1, 8)
    response = follow(client, player, opposed.initiator, "heroic", resource="wytrzymalosc")
    text = response.content.decode()
    assert "That can no longer be done with this roll." in text
    assert "costs" not in text
    assert not Roll.objects.filter(kind="heroic").exists()


def test_a_heroic_entry_never_carries_a_hidden_result_into_the_public_log(
    client, gm, player, caerbannog, duel_against_hidden
):
    opposed = duel_against_hidden(7, 1, 8)
    opposed.initiator.refresh_from_db()
    # The GM may settle the initiator's side for its player: still nothing hidden in it.
    client.force_login(gm)
    hero = caerbannog.characters[0]
    parent = Roll.objects.filter(character=hero).order_by("-seq").first()
    url = reverse("test_follow_up", args=[hero.campaign_id, hero.pk, parent.pk, "heroic"])
    form = {"resource": "wytrzymalosc", "key": str(uuid.uuid4())}
    response = client.post(url, form, HTTP_HX_REQUEST="true")
    assert "That can no longer be done with this roll." in response.content.decode()
    assert not Roll.objects.filter(kind="heroic").exists()
    assert opposed.initiator.roll.visibility == Visibility.PUBLIC


@pytest.mark.parametrize(
    ("source", "entry", "same_actor", "shown"),
    [
        (Visibility.PUBLIC, Visibility.PUBLIC, False, True),
        (Visibility.HIDDEN, Visibility.PUBLIC, False, False),
        (Visibility.SECRET, Visibility.PUBLIC, True, False),
        (Visibility.SECRET, Visibility.SECRET, True, True),
        (Visibility.SECRET, Visibility.SECRET, False, False),
        (Visibility.HIDDEN, Visibility.SECRET, True, False),
        (Visibility.HIDDEN, Visibility.HIDDEN, False, True),
    ],
)
def test_an_entry_reads_only_what_everyone_who_sees_it_may_see(source, entry, same_actor, shown):
    def a_roll(visibility, actor_id):
        return Roll(visibility=visibility, actor_id=actor_id)

    assert shown_wherever(a_roll(source, 1), a_roll(entry, 1 if same_actor else 2)) is shown
