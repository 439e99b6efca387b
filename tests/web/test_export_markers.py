"""A session's exports say when each roll was made, who rolled it and who may see it: the GM's
copy marks secret and hidden rolls; a player's copy keeps them out."""

from __future__ import annotations

import csv
import io
import json
import re
import uuid
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from rolls.models import Roll
from sheets.models import Character
from tests.web.live import roll

pytestmark = [pytest.mark.django_db, pytest.mark.table(title="Noc pierwsza")]


def export(client, campaign, session, fmt: str) -> str:
    response = client.get(reverse("session_export", args=[campaign.pk, session.pk, fmt]))
    assert response.status_code == 200
    return response.content.decode()


def lines(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("- ")]


def at(entry: Roll, hour: int, minute: int, second: int) -> None:
    Roll.objects.filter(pk=entry.pk).update(
        created_at=datetime(2026, 12, 1, hour, minute, second, tzinfo=UTC)
    )


def test_each_markdown_line_has_the_time_of_the_roll(client, table, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    at(roll(session, player, character=hero), 20, 41, 3)
    client.force_login(player)
    assert lines(export(client, campaign, session, "md"))[0].startswith("- **#1** 20:41:03 ")


def test_the_markdown_heading_names_the_time_zone_of_the_times(client, table, player):
    campaign, session = table.campaign, table.session
    client.force_login(player)
    assert "times in UTC" in export(client, campaign, session, "md")


def test_a_markdown_line_names_the_character_and_the_player_who_rolled(client, table, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll(session, player, character=hero)
    client.force_login(player)
    assert "Brunhilda (rolled by player) — BUDOWA + WALKA" in export(
        client, campaign, session, "md"
    )


def test_the_gms_markdown_marks_secret_and_hidden_rolls(client, table, gm, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll(session, player, character=hero)
    roll(session, player, visibility="secret", character=hero)
    roll(session, gm, visibility="hidden")
    client.force_login(gm)
    public, secret, hidden = lines(export(client, campaign, session, "md"))
    assert "*[" not in public
    assert "*[secret: the roller and the GM]*" in secret
    assert "*[hidden: the GM only]*" in hidden
    assert "gm" in hidden  # the GM's copy shows the hidden roll whole, marked


def test_a_players_markdown_marks_their_own_secret_roll_and_redacts_the_hidden_one(
    client, table, gm, player
):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll(session, player, visibility="secret", character=hero)
    roll(session, gm, visibility="hidden")
    client.force_login(player)
    secret, hidden = lines(export(client, campaign, session, "md"))
    assert "*[secret: the roller and the GM]*" in secret
    assert re.fullmatch(r"- \*\*#2\*\* \d\d:\d\d:\d\d A hidden roll was made\.", hidden)


def test_the_polish_markdown_marks_visibility_in_polish(client, table, gm, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll(session, player, visibility="secret", character=hero)
    client.force_login(gm)
    client.cookies["django_language"] = "pl"
    markdown = export(client, campaign, session, "md")
    assert "*[tajny: rzucający i MG]*" in markdown
    assert "(rzucał player)" in markdown


def test_the_csv_has_the_time_the_roller_and_the_visibility_of_each_roll(client, table, gm):
    campaign, hero, session = table.campaign, table.hero, table.session
    at(roll(session, hero.owner, visibility="secret", character=hero), 20, 41, 3)
    client.force_login(gm)
    header, row = list(csv.reader(io.StringIO(export(client, campaign, session, "csv"))))
    record = dict(zip(header, row, strict=True))
    assert record["time"].startswith("2026-12-01T20:41:03")
    assert (record["character"], record["rolled_by"]) == ("Brunhilda", "player")
    assert record["visibility"] == "secret"


def test_the_json_has_the_time_the_roller_and_the_visibility_of_each_roll(client, table, gm):
    campaign, session = table.campaign, table.session
    roll(session, gm, visibility="hidden")
    client.force_login(gm)
    (entry,) = json.loads(export(client, campaign, session, "json"))["entries"]
    assert (entry["actor_name"], entry["visibility"]) == ("gm", "hidden")
    assert entry["created_at"]


def test_a_character_renamed_later_keeps_its_name_in_the_export(client, table, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll(session, player, character=hero)
    Character.objects.filter(pk=hero.pk).update(name="Inna")
    client.force_login(player)
    assert "Brunhilda (rolled by player)" in export(client, campaign, session, "md")


def say(client, table, text, **fields):
    url = reverse("say_line", args=[table.campaign.pk])
    data = {"text": text, "to": "all", "key": str(uuid.uuid4()), **fields}
    assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 200


def test_a_line_of_chat_in_markdown_is_by_its_member_as_in_the_log(client, table, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    client.force_login(player)
    say(client, table, "Witajcie!", speaker=f"c{hero.pk}")
    [line] = lines(export(client, campaign, session, "md"))
    assert "Brunhilda (by player) — " in line
    assert "rolled by" not in line


def test_a_line_to_the_gm_in_markdown_says_so_in_its_own_words_only(client, table, gm, player):
    campaign, session = table.campaign, table.session
    client.force_login(player)
    say(client, table, "Psst", to="gm")
    client.force_login(gm)
    [line] = lines(export(client, campaign, session, "md"))
    assert "to the GM: Psst" in line
    assert "*[" not in line  # not "secret: the roller and the GM"


def test_a_quick_rolls_total_is_a_number_in_the_csv(client, table, player):
    campaign, session = table.campaign, table.session
    client.force_login(player)
    client.post(
        reverse("quick_roll", args=[campaign.pk]),
        {"expression": "2d6", "key": str(uuid.uuid4())},
        HTTP_HX_REQUEST="true",
    )
    [row] = list(csv.DictReader(io.StringIO(export(client, campaign, session, "csv"))))
    assert row["outcome"] == str(Roll.objects.get().result["answer"]["total"])
