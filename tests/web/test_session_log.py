"""Sessions, scenes and the log pages: what each viewer sees, and the exports."""

import csv
import io
import json
import re

import pytest
from django.urls import reverse

from campaigns.models import GameSession
from rolls.models import Roll
from tests.web.live import roll

pytestmark = [pytest.mark.django_db, pytest.mark.table(title="Noc pierwsza")]


def export(client, campaign, session, fmt):
    return client.get(reverse("session_export", args=[campaign.pk, session.pk, fmt]))


def test_the_gm_starts_a_session_from_a_button(make_table, client, gm, player, other_player):
    table = make_table(title="Noc pierwsza")
    campaign, session = table.campaign, table.session
    client.force_login(gm)
    client.post(reverse("session_end", args=[campaign.pk, session.pk]), {"confirm": "yes"})
    response = client.post(reverse("session_start", args=[campaign.pk]), {"title": "Noc druga"})
    assert response.status_code == 302
    assert GameSession.objects.open().get(campaign=campaign).title == "Noc druga"


def test_the_session_page_shows_the_log_newest_first(client, table, player):
    campaign, session = table.campaign, table.session
    for _ in range(3):
        roll(session, player)
    client.force_login(player)
    html = client.get(reverse("session_detail", args=[campaign.pk, session.pk])).content.decode()
    assert html.index('data-seq="3"') < html.index('data-seq="2"') < html.index('data-seq="1"')


def test_the_log_page_runs_the_same_queries_for_3_or_30_rolls(
    client, table, player, django_assert_max_num_queries
):
    campaign, session = table.campaign, table.session
    client.force_login(player)
    url = reverse("session_log", args=[campaign.pk])
    for _ in range(3):
        roll(session, player)
    with django_assert_max_num_queries(8) as few:
        client.get(url)
    for _ in range(27):
        roll(session, player)
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(url)


def test_another_players_secret_roll_shows_as_hidden_on_the_page(
    client, table, player, other_player
):
    campaign, session = table.campaign, table.session
    secret = roll(session, player, visibility="secret")
    client.force_login(other_player)
    html = client.get(reverse("session_detail", args=[campaign.pk, session.pk])).content.decode()
    assert "A hidden roll was made." in html
    assert secret.label not in html


def test_exports_apply_visibility(client, table, player, other_player, gm):
    campaign, session = table.campaign, table.session
    roll(session, player)
    roll(session, gm, visibility="hidden")
    client.force_login(other_player)
    document = json.loads(export(client, campaign, session, "json").content)
    assert [entry["redacted"] for entry in document["entries"]] == [False, True]
    assert "faces" not in document["entries"][1]


def test_the_markdown_export_reads_as_a_log(client, table, player):
    campaign, session = table.campaign, table.session
    roll(session, player)
    client.force_login(player)
    response = export(client, campaign, session, "md")
    assert response["Content-Type"].startswith("text/markdown")
    assert re.search(
        r"^- \*\*#1\*\* \d\d:\d\d:\d\d player — BUDOWA \+ WALKA: \*\*",
        response.content.decode(),
        re.M,
    )


def test_the_csv_export_has_one_row_per_entry(client, table, player, gm):
    campaign, session = table.campaign, table.session
    roll(session, player)
    roll(session, gm, visibility="hidden")
    client.force_login(gm)
    rows = list(csv.reader(io.StringIO(export(client, campaign, session, "csv").content.decode())))
    assert [row[0] for row in rows] == ["seq", "1", "2"]
    assert rows[2][2] == "hidden"


def test_entries_are_kept_when_a_character_is_deleted(table, player):
    hero, session = table.hero, table.session
    roll(session, player, character=hero)
    hero.delete()
    assert Roll.objects.get().character_name == "Brunhilda"


def test_the_campaign_page_offers_the_gm_to_start_a_session(
    make_table, client, gm, player, other_player
):
    table = make_table(title="Noc pierwsza")
    campaign, session = table.campaign, table.session
    client.force_login(gm)
    client.post(reverse("session_end", args=[campaign.pk, session.pk]), {"confirm": "yes"})
    html = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert reverse("session_start", args=[campaign.pk]) in html


def test_the_campaign_page_leads_players_to_the_running_session(client, table, player):
    campaign, session = table.campaign, table.session
    client.force_login(player)
    html = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert reverse("session_detail", args=[campaign.pk, session.pk]) in html
    assert reverse("session_start", args=[campaign.pk]) not in html


def test_the_sheet_page_shows_the_running_sessions_log(client, table, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll(session, player, character=hero)
    client.force_login(player)
    html = client.get(reverse("character_detail", args=[campaign.pk, hero.pk])).content.decode()
    assert 'id="roll-log"' in html
    assert f'id="roll-{session.pk}-1"' in html
