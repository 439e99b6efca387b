"""The live sections of a page refresh from small endpoints of their own, each answering with
that section alone, under the same access checks as the page it comes from."""

import re
from html import unescape

import pytest
from django.urls import reverse

from campaigns.sessions import end_session, new_scene
from sheets.models import NPC
from tests.web.test_after_roll import zarith

pytestmark = [pytest.mark.django_db, pytest.mark.table(**zarith())]

HX = {"HTTP_HX_REQUEST": "true"}


def _opening_tag(html: str, part: str) -> str:
    tag = re.search(rf'<[a-z]+[^>]*id="{part}"[^>]*>', html)
    assert tag, part
    return unescape(tag.group(0))


def _attribute(tag: str, name: str) -> str:
    found = re.search(rf'{name}="([^"]*)"', tag)
    assert found, name
    return found.group(1)


def test_the_sheet_refreshes_from_its_own_endpoint_on_its_characters_change(client, table, player):
    campaign, hero = table.campaign, table.hero
    client.force_login(player)
    page = client.get(reverse("character_detail", args=[campaign.pk, hero.pk])).content.decode()
    tag = _opening_tag(page, f"paper-{hero.pk}")
    assert f"table:sheet[String(detail.character)==='{hero.pk}'] from:body" in _attribute(
        tag, "hx-trigger"
    )
    paper = client.get(_attribute(tag, "hx-get"), **HX).content.decode()
    assert re.match(rf'\s*<article[^>]*data-live-sheet="{hero.pk}"', paper)
    assert "<html" not in paper
    assert hero.name in paper


def test_the_table_page_refreshes_the_sheet_from_the_same_endpoint(client, table, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    client.force_login(player)
    page = client.get(reverse("session_detail", args=[campaign.pk, session.pk])).content.decode()
    tag = _opening_tag(page, f"paper-{hero.pk}")
    assert _attribute(tag, "hx-get") == reverse("character_paper", args=[campaign.pk, hero.pk])


def test_the_session_side_follows_a_new_scene(client, table, player):
    campaign, session = table.campaign, table.session
    client.force_login(player)
    side = reverse("session_side", args=[campaign.pk, session.pk])
    new_scene(session, "Most nad przepaścią")
    html = client.get(side, **HX).content.decode()
    assert re.match(r'\s*<aside[^>]*id="session-side"', html)
    assert "Most nad przepaścią" in html


def test_an_npcs_test_form_shows_once_a_session_runs(client, table, gm):
    campaign, session = table.campaign, table.session
    npc = NPC.objects.create(
        campaign=campaign, name="Troll", traits=[{"name": "wielki", "dice": 3}]
    )
    client.force_login(gm)
    dashboard = client.get(reverse("dashboard", args=[campaign.pk])).content.decode()
    tag = _opening_tag(dashboard, f"npc-roll-{npc.pk}")
    assert "table:session from:body" in _attribute(tag, "hx-trigger")
    box = _attribute(tag, "hx-get")
    assert (
        f'action="{reverse("npc_roll", args=[campaign.pk, npc.pk])}"'
        in client.get(box, **HX).content.decode()
    )
    end_session(session)
    html = client.get(box, **HX).content.decode()
    assert re.match(rf'\s*<div[^>]*id="npc-roll-{npc.pk}"', html)
    assert 'name="key"' not in html
