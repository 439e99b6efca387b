""" "Apply the wound" only under FastTest tests the GM called as combat tests: the GM marks a
call as combat (when calling, or on its card), and a plain test deals no wound (issue 13,
item 13)."""

from __future__ import annotations

import copy
import uuid

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.sessions import start_session
from rolls import actions
from rolls.actions import ActionRefused
from rolls.models import PendingTest
from rolls.pending import actions as pending
from rolls.systems.fasttest.models import AppliedWound
from rolls.systems.fasttest.wounds import apply_combat_wound
from sheets.models import Character
from tests.web.dice import Scripted, deal
from tests.web.live import seat
from tests.web.test_after_roll import HERO
from tests.web.test_panel_t10 import SHEET as T10_SHEET

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table(name="Zarith", characters=[("Brunhilda", HERO)]),
]

HX = {"HTTP_HX_REQUEST": "true"}
TARGET = {"attribute": "BUDOWA", "skill": "WALKA"}


def call(client, campaign, hero, **form):
    url = reverse("call_test", args=[campaign.pk, hero.pk])
    return client.post(url, {**TARGET, **form}, **HX)


def change(client, test, **form):
    url = reverse("change_test", args=[test.character.campaign_id, test.pk])
    return client.post(url, form, **HX)


def roll_called(client, monkeypatch, test):
    """The player rolls the called test (two d10s for the wound die, both 10: a failure)."""
    test.refresh_from_db()
    deal(monkeypatch, 10, 10, 4)
    client.force_login(test.character.owner)
    form = {"pending": test.pk, "revision": test.revision, "key": str(uuid.uuid4())}
    url = reverse("test_roll", args=[test.character.campaign_id, test.character_id])
    assert client.post(url, form).status_code == 200
    test.refresh_from_db()
    return test.roll


def strip(client, campaign) -> str:
    return client.get(reverse("after_roll_strip", args=[campaign.pk])).content.decode()


def test_the_call_form_offers_to_mark_a_combat_test(client, table, gm):
    campaign = table.campaign
    client.force_login(gm)
    html = client.get(reverse("dashboard", args=[campaign.pk])).content.decode()
    assert '<input type="checkbox" name="combat" value="yes">' in html


def test_a_test_called_as_combat_is_marked(client, table, gm):
    campaign, hero = table.campaign, table.hero
    client.force_login(gm)
    html = call(client, campaign, hero, combat="yes").content.decode()
    assert PendingTest.objects.get().modifiers == {"combat": True}
    assert 'class="badge combat-badge"' in html


def test_a_plain_call_is_not_a_combat_test(client, table, gm):
    campaign, hero = table.campaign, table.hero
    client.force_login(gm)
    call(client, campaign, hero)
    assert PendingTest.objects.get().modifiers == {}


def test_the_gm_marks_a_called_test_as_combat_on_its_card_and_unmarks_it(client, table, gm):
    campaign, hero = table.campaign, table.hero
    client.force_login(gm)
    call(client, campaign, hero)
    test = PendingTest.objects.get()
    change(client, test, op="set_combat", value="yes")
    test.refresh_from_db()
    assert (test.modifiers, test.revision) == ({"combat": True}, 2)
    change(client, test, op="set_combat", value="no")
    test.refresh_from_db()
    assert test.modifiers == {}


def test_a_forged_combat_value_is_refused_with_a_message(client, table, gm):
    campaign, hero = table.campaign, table.hero
    client.force_login(gm)
    call(client, campaign, hero)
    test = PendingTest.objects.get()
    response = change(client, test, op="set_combat", value="maybe")
    assert "Say whether this is a combat test" in response.content.decode()
    test.refresh_from_db()
    assert test.revision == 1


def test_the_wound_is_offered_under_a_combat_test(client, monkeypatch, table, gm):
    campaign, hero, session = table.campaign, table.hero, table.session
    test = pending.call_test(session=session, character=hero, gm=gm, target=TARGET, combat=True)
    roll = roll_called(client, monkeypatch, test)
    client.force_login(gm)
    html = strip(client, campaign)
    assert reverse("apply_wound", args=[campaign.pk, roll.pk]) in html
    assert "Apply the wound" in html


def test_no_wound_is_offered_under_a_test_not_marked_as_combat(client, monkeypatch, table, gm):
    campaign, hero, session = table.campaign, table.hero, table.session
    test = pending.call_test(session=session, character=hero, gm=gm, target=TARGET)
    roll = roll_called(client, monkeypatch, test)
    client.force_login(gm)
    html = strip(client, campaign)
    assert f'id="after-{roll.pk}"' in html  # still listed, for the experience die
    assert "Apply the wound" not in html


def test_no_wound_is_offered_under_a_players_own_test(client, table, gm, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll, _ = actions.record_roll(
        actions.RollSpec(
            session=session,
            actor=player,
            system="fasttest",
            params={"attribute": 5},
            key=uuid.uuid4(),
            label="BUDOWA 7",
            character=hero,
        ),
        rng=Scripted(8, 4),
    )
    client.force_login(gm)
    assert "Apply the wound" not in strip(client, campaign)
    response = client.post(
        reverse("apply_wound", args=[campaign.pk, roll.pk]),
        {"player_weapon": "hand", "enemy_weapon": "hand"},
        **HX,
    )
    assert response.status_code == 409
    assert "Only a test you called as a combat test deals a wound" in response.content.decode()
    assert not AppliedWound.objects.exists()


def test_the_wound_of_a_combat_test_lands_on_the_sheet(client, monkeypatch, table, gm):
    hero, session = table.hero, table.session
    test = pending.call_test(session=session, character=hero, gm=gm, target=TARGET, combat=True)
    roll = roll_called(client, monkeypatch, test)
    apply_combat_wound(roll=roll, gm=gm, player_weapon="hand", enemy_weapon="hand")
    hero.refresh_from_db()
    assert hero.data["wounds"][-1]["label"] == f"combat, #{roll.seq}"


def test_the_wound_test_itself_is_not_a_combat_test(client, monkeypatch, table, gm):
    hero, session = table.hero, table.session
    test = pending.call_test(session=session, character=hero, gm=gm, target=TARGET, combat=True)
    roll = roll_called(client, monkeypatch, test)
    applied = apply_combat_wound(roll=roll, gm=gm, player_weapon="hand", enemy_weapon="heavy")
    assert applied.wound_test is not None
    assert not pending.is_combat(applied.wound_test.modifiers)


def test_a_system_without_combat_wounds_has_no_combat_mark(client, gm, player, other_player):
    campaign = Campaign.objects.create(name="Moorcrest", system="t10", gm=gm)
    seat(campaign, gm, player, other_player)
    hero = Character.objects.create(
        campaign=campaign, owner=player, name="Astrid", data=copy.deepcopy(T10_SHEET)
    )
    session = start_session(campaign)
    test = pending.call_test(
        session=session, character=hero, gm=gm, target={"attribute": "Styrka", "skill": ""}
    )
    with pytest.raises(ActionRefused, match="no such setting"):
        pending.change_test(test.pk, gm, "set_combat", value=True)
    client.force_login(gm)
    html = client.get(reverse("dashboard", args=[campaign.pk])).content.decode()
    assert 'name="combat"' not in html
    assert 'value="set_combat"' not in html


def test_a_player_cannot_mark_a_test_as_combat(client, table, gm, player):
    hero, session = table.hero, table.session
    test = pending.call_test(session=session, character=hero, gm=gm, target=TARGET)
    client.force_login(player)
    assert change(client, test, op="set_combat", value="yes").status_code == 404
    test.refresh_from_db()
    assert test.modifiers == {}
