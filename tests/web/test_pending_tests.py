"""The GM shapes a pending test while the player watches; the roll uses exactly what was shown."""

import threading
import uuid

import pytest
from django.db import connection
from django.urls import reverse

from campaigns.models import Campaign
from rolls import actions
from rolls.models import PendingTest, Roll
from rolls.pending import actions as pending
from sheets.models import NPC
from tests.web.test_panel_fasttest import SHEET

TROLL = [
    {"name": "wielki", "dice": 3}, {"name": "paskudny", "dice": 3},
    {"name": "śmierdzący", "dice": 4}, {"name": "głodny", "dice": 1},
]  # fmt: skip


TABLE = pytest.mark.table(name="Zarith", characters=[("Brunhilda", SHEET)], npcs=[("Troll", TROLL)])
pytestmark = TABLE


def call(client, campaign, hero, **target):
    return client.post(reverse("call_test", args=[campaign.pk, hero.pk]), target)


def change(client, campaign, test, **form):
    return client.post(reverse("change_test", args=[campaign.pk, test.pk]), form, doseq=True)


def panel_for(client, hero, test):
    url = reverse("test_panel", args=[hero.campaign_id, hero.pk])
    return client.get(url, {"pending": test.pk}).context["panel"]


def roll_form(test, revision, **extra):
    return {"pending": test.pk, "revision": revision, "key": str(uuid.uuid4()), **extra}


@pytest.mark.django_db
class TestShapingATest:
    def test_the_gm_calls_for_a_test_on_a_players_character(self, client, table, gm):
        campaign, hero = table.campaign, table.hero
        client.force_login(gm)
        call(client, campaign, hero, attribute="ZRĘCZNOŚĆ", skill="SPRAWNOŚĆ")
        test = PendingTest.objects.get()
        assert (test.target, test.revision) == (
            {"attribute": "ZRĘCZNOŚĆ", "skill": ["SPRAWNOŚĆ"]}, 1,
        )  # fmt: skip

    def test_the_players_panel_shows_the_called_test_fixed(self, client, table, gm, player):
        hero, session = table.hero, table.session
        test = pending.call_test(
            session=session, character=hero, gm=gm, target={"attribute": "UMYSŁ", "skill": []}
        )
        client.force_login(player)
        panel = panel_for(client, hero, test)
        assert panel.label == "UMYSŁ 4"

    def test_ticking_two_troll_traits_adds_the_highest_plus_one(self, client, table, gm, player):
        campaign, hero, troll, session = table.campaign, table.hero, table.npc, table.session
        test = pending.call_test(
            session=session, character=hero, gm=gm, target={"attribute": "BUDOWA"}
        )
        client.force_login(gm)
        change(client, campaign, test, op="set_npc", npc=troll.pk, trait=["0", "2"])
        client.force_login(player)
        panel = panel_for(client, hero, test)
        assert panel.params["npc_traits"] == [3, 4]
        assert {"kind": "penalty", "amount": 5, "source": "Troll (wielki 3k, śmierdzący 4k)"} in (
            panel.sources
        )

    def test_penalty_dice_from_circumstances_carry_their_source(self, client, table, gm, player):
        campaign, hero, session = table.campaign, table.hero, table.session
        test = pending.call_test(
            session=session, character=hero, gm=gm, target={"attribute": "BUDOWA"}
        )
        client.force_login(gm)
        change(client, campaign, test, op="add_dice", kind="penalty", amount="2", source="ciemność")
        test.refresh_from_db()
        assert test.revision == 2
        assert test.modifiers["dice"] == [{"kind": "penalty", "amount": 2, "source": "ciemność"}]

    def test_the_gm_removes_a_modifier(self, client, table, gm):
        campaign, hero, session = table.campaign, table.hero, table.session
        test = pending.call_test(
            session=session, character=hero, gm=gm, target={"attribute": "BUDOWA"}
        )
        pending.change_test(test.pk, gm, "add_dice", kind="penalty", amount=2, source="ciemność")
        client.force_login(gm)
        change(client, campaign, test, op="remove_dice", index="0")
        test.refresh_from_db()
        assert test.modifiers["dice"] == []

    def test_the_gm_splits_penalty_dice_into_d6(self, client, table, gm, player):
        hero, session = table.hero, table.session
        test = pending.call_test(
            session=session, character=hero, gm=gm, target={"attribute": "BUDOWA"}
        )
        pending.change_test(test.pk, gm, "add_dice", kind="penalty", amount=3, source="mgła")
        pending.change_test(test.pk, gm, "set_extra_d10", value=1)
        client.force_login(player)
        assert panel_for(client, hero, test).params["extra_d10"] == 1

    def test_a_new_call_calls_off_the_old_one(self, table, gm):
        hero, session = table.hero, table.session
        first = pending.call_test(
            session=session, character=hero, gm=gm, target={"attribute": "BUDOWA"}
        )
        pending.call_test(session=session, character=hero, gm=gm, target={"attribute": "DUCH"})
        first.refresh_from_db()
        assert first.status == PendingTest.Status.CANCELLED

    @pytest.mark.parametrize(
        ("form", "message"),
        [
            ({"op": "add_dice", "kind": "penalty", "amount": "99", "source": "x"}, "from 1 to 20"),
            ({"op": "add_dice", "kind": "penalty", "amount": "2", "source": ""}, "Say where"),
            ({"op": "add_dice", "kind": "sneaky", "amount": "2", "source": "x"}, "Unknown kind"),
            ({"op": "remove_dice", "index": "4"}, "no longer there"),
            ({"op": "drop_table"}, "Unknown change"),
        ],
    )
    def test_a_forged_change_is_refused_with_a_message(self, client, table, gm, form, message):
        campaign, hero, session = table.campaign, table.hero, table.session
        test = pending.call_test(
            session=session, character=hero, gm=gm, target={"attribute": "BUDOWA"}
        )
        client.force_login(gm)
        response = client.post(
            reverse("change_test", args=[campaign.pk, test.pk]), form, HTTP_HX_REQUEST="true"
        )
        assert message in response.content.decode()
        test.refresh_from_db()
        assert test.revision == 1

    def test_another_campaigns_npc_is_refused(self, client, table, gm):
        hero, session = table.hero, table.session
        elsewhere = Campaign.objects.create(name="Inna", system="fasttest", gm=gm)
        stranger = NPC.objects.create(campaign=elsewhere, name="Obcy", traits=TROLL)
        test = pending.call_test(
            session=session, character=hero, gm=gm, target={"attribute": "BUDOWA"}
        )
        with pytest.raises(actions.ActionRefused, match="No such NPC"):
            pending.change_test(test.pk, gm, "set_npc", npc=stranger.pk, trait=[0])


@pytest.mark.django_db
class TestTheRace:
    def test_a_gm_change_between_view_and_click_refuses_the_roll(self, client, table, gm, player):
        campaign, hero, session = table.campaign, table.hero, table.session
        test = pending.call_test(
            session=session, character=hero, gm=gm, target={"attribute": "BUDOWA"}
        )
        client.force_login(player)
        seen = panel_for(client, hero, test)
        pending.change_test(test.pk, gm, "add_dice", kind="penalty", amount=2, source="ciemność")
        url = reverse("test_roll", args=[campaign.pk, hero.pk])
        response = client.post(url, roll_form(test, revision=1, trait="0"))
        assert response.status_code == 409
        assert "The GM just changed this test — look again" in response.content.decode()
        assert not Roll.objects.exists()
        assert seen.params["penalty"] == 0

    def test_the_second_click_rolls_with_the_new_modifiers(self, client, table, gm, player):
        campaign, hero, session = table.campaign, table.hero, table.session
        test = pending.call_test(
            session=session, character=hero, gm=gm, target={"attribute": "BUDOWA"}
        )
        pending.change_test(test.pk, gm, "add_dice", kind="penalty", amount=2, source="ciemność")
        client.force_login(player)
        url = reverse("test_roll", args=[campaign.pk, hero.pk])
        refused = client.post(url, roll_form(test, revision=1))
        fresh = refused.context["pending"].revision
        client.post(url, roll_form(test, revision=fresh))
        roll = Roll.objects.get()
        assert {"kind": "penalty", "amount": 2, "source": "ciemność"} in roll.sources
        test.refresh_from_db()
        assert (test.status, test.roll) == (PendingTest.Status.ROLLED, roll)

    def test_a_rolled_test_cannot_be_rolled_again(self, client, table, gm, player):
        campaign, hero, session = table.campaign, table.hero, table.session
        test = pending.call_test(
            session=session, character=hero, gm=gm, target={"attribute": "BUDOWA"}
        )
        client.force_login(player)
        url = reverse("test_roll", args=[campaign.pk, hero.pk])
        client.post(url, roll_form(test, revision=1))
        again = client.post(url, roll_form(test, revision=1))
        assert "already been rolled" in again.content.decode()
        assert Roll.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_gm_changes_at_once_are_both_kept(postgres_url, table, gm):
    # On PostgreSQL: SQLite's in-memory *test* database fails a second writer at once ("table is
    # locked") instead of waiting, unlike the embedded file database with its busy timeout.
    hero, session = table.hero, table.session
    test = pending.call_test(session=session, character=hero, gm=gm, target={"attribute": "BUDOWA"})
    start = threading.Barrier(2)
    errors = []

    def add(source):
        try:
            start.wait()
            pending.change_test(test.pk, gm, "add_dice", kind="penalty", amount=1, source=source)
        except Exception as error:  # surfaced below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=add, args=(name,)) for name in ("mgła", "błoto")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    test.refresh_from_db()
    assert errors == []
    assert sorted(entry["source"] for entry in test.modifiers["dice"]) == ["błoto", "mgła"]
    assert test.revision == 3


@pytest.mark.django_db
class TestOnlyTheGM:
    def test_players_cannot_call_change_or_call_off_tests(self, client, table, gm, player):
        campaign, hero, session = table.campaign, table.hero, table.session
        test = pending.call_test(
            session=session, character=hero, gm=gm, target={"attribute": "BUDOWA"}
        )
        client.force_login(player)
        assert call(client, campaign, hero, attribute="BUDOWA").status_code == 404
        form = {"op": "add_dice", "kind": "bonus", "amount": "5", "source": "ja"}
        assert change(client, campaign, test, **form).status_code == 404
        assert client.post(reverse("cancel_test", args=[campaign.pk, test.pk])).status_code == 404
        test.refresh_from_db()
        assert test.modifiers == {}

    def test_the_dashboard_shows_the_party_and_the_pending_tests(self, client, table, gm):
        campaign, hero, session = table.campaign, table.hero, table.session
        pending.call_test(session=session, character=hero, gm=gm, target={"attribute": "BUDOWA"})
        client.force_login(gm)
        html = client.get(reverse("dashboard", args=[campaign.pk])).content.decode()
        assert 'id="party-' in html
        assert "Brunhilda: BUDOWA 7" in html


@pytest.mark.django_db
def test_after_rolling_a_called_test_the_panel_stays_on_that_test(client, table, gm, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    test = pending.call_test(session=session, character=hero, gm=gm, target={"attribute": "DUCH"})
    client.force_login(player)
    response = client.post(
        reverse("test_roll", args=[campaign.pk, hero.pk]), roll_form(test, revision=1)
    )
    assert response.context["panel"].label == "DUCH 4"
    assert not response.context["panel"].errors
