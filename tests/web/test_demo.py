"""The demo table a newcomer gets from `make run`."""

import pytest
from django.core.management import CommandError, call_command

from campaigns.models import Campaign
from rolls.demo import DEMO_PASSWORD, seed_demo
from rolls.tables.rules import table_rules
from sheets.models import NPC, Character

pytestmark = pytest.mark.django_db


def test_the_demo_has_one_campaign_per_rule_system():
    seed_demo()
    systems = Campaign.objects.values_list("system", flat=True)
    assert sorted(systems) == sorted(["fasttest", "ast", "t10", "caerbannog", "2d6"])


def test_every_demo_campaign_has_a_gm_and_three_players_with_characters():
    for campaign in seed_demo():
        assert campaign.memberships.filter(role="player").count() == 3
        assert campaign.is_gm(campaign.gm)
        assert Character.objects.filter(campaign=campaign).count() == 3


def test_the_fasttest_demo_ships_the_four_sample_npcs_of_the_seed():
    seed_demo()
    campaign = Campaign.objects.get(system="fasttest")
    npcs = NPC.objects.filter(campaign=campaign)
    names = {npc.name for npc in npcs if not npc.stats}
    assert names == {"Wojownik (Warrior)", "Troll", "Goblin", "Smok (Dragon)"}


def test_the_fasttest_demo_has_one_npc_with_full_stats_like_a_players():
    seed_demo()
    campaign = Campaign.objects.get(system="fasttest")
    full = [npc for npc in NPC.objects.filter(campaign=campaign) if npc.stats]
    assert [npc.name for npc in full] == ["Kapitan straży (Guard captain)"]
    assert full[0].stats["attributes"]["BUDOWA"] == 6


def test_seeding_twice_changes_nothing():
    seed_demo()
    counts = (Campaign.objects.count(), Character.objects.count(), NPC.objects.count())
    seed_demo()
    assert (Campaign.objects.count(), Character.objects.count(), NPC.objects.count()) == counts


def test_a_demo_login_opens_the_home_page(client):
    seed_demo()
    assert client.login(username="ala", password=DEMO_PASSWORD)
    assert "Królestwo Zarith" in client.get("/").content.decode()


def test_the_demo_is_refused_outside_debug(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="only in DEBUG"):
        call_command("seed_demo")


def test_every_demo_campaign_has_a_random_table_that_rolls():
    from campaigns.systems import get_system
    from rolls.engine.tables import parse_table
    from rolls.tables.random_tables import rows_text

    for campaign in seed_demo():
        for table in campaign.random_tables.all():
            assert parse_table(table.dice, rows_text(table))[2] == []
    seed_demo()  # again: nothing doubled
    for campaign in seed_demo():
        system = get_system(campaign.system)
        assert campaign.random_tables.count() == 1 + len(table_rules(system).defaults)


def test_the_fasttest_demo_offers_its_table_after_an_eruption():
    from campaigns.systems import get_system

    purposes = {c: table_rules(get_system(c.system)).purposes for c in seed_demo()}
    fasttest = next(c for c, offered in purposes.items() if offered.get("emanation"))
    assert fasttest.random_tables.get().purpose == "emanation"
