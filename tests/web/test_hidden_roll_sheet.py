"""What a GM's hidden roll on a player's character changes on the sheet shows; nothing else does.

Issue 11 item 2, our Decision (docs/security.md, "Who sees a roll"): the sheet always shows its
numbers, so a hidden roll's Rozmach, FUNT, spent dice or wounds show to the players; the GM is
told so next to the choice, before rolling hidden. The sheet's live update carries the character
alone: no label, no faces, no outcome of the roll that changed it.
"""

from __future__ import annotations

import json
import uuid

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.systems import all_systems
from rolls.models import Roll, Visibility
from sheets.models import Character
from sheets.systems import sheet_module
from tests.web.dice import deal
from tests.web.live import panel_url, seat, socket_for
from tests.web.test_panel_caerbannog import SHEET

NOTE = (
    "A hidden roll's effect on the sheet (Rozmach, FUNT, spent dice, wounds) still shows to the"
    " players."
)
NOTE_PL = "Skutek ukrytego rzutu na karcie postaci (Rozmach, FUNT, wydane kości, rany) gracze"
# Atletyka III is 3d10: one 10 is +1 Rozmach (RULES.md, "Momentum from dice").
FACES = (10, 9, 7)


@pytest.fixture
def caerbannog(make_table):
    """Morgana's table, her Rozmach set to the issue's 3 after the first scene reset it."""
    table = make_table("caerbannog", name="Caerbannog", characters=[("Morgana", SHEET)])
    table.hero.data["resources"]["rozmach"] = 3  # the 3 -> 4
    table.hero.save()
    return table


def hidden_roll(gm, hero, monkeypatch) -> Roll:
    """The GM's hidden Atletyka roll on the hero, through the panel, gaining 1 Rozmach."""
    deal(monkeypatch, *FACES)
    client = Client()
    client.force_login(gm)
    data = {"skill": "Atletyka", "visibility": Visibility.HIDDEN, "key": str(uuid.uuid4())}
    assert client.post(panel_url(hero, "test_roll"), data).status_code == 200
    monkeypatch.undo()
    return Roll.objects.get()


def shows_the_roll(body: str, roll: Roll) -> bool:
    return (
        roll.label in body
        or f'class="entry entry-redacted" id="roll-{roll.session_id}-{roll.seq}"' not in body
        or f"/rolls/{roll.pk}/" in body
        or '<span class="face">' in body
    )


# --- The GM is told before rolling hidden -------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("system", [system.key for system in all_systems()])
def test_the_gm_choosing_who_sees_a_roll_is_told_a_hidden_rolls_effect_on_the_sheet_shows(
    client, gm, player, system
):
    campaign = Campaign.objects.create(name="Table", system=system, gm=gm)
    seat(campaign, gm, player)
    data = sheet_module(system).default_data(campaign)
    hero = Character.objects.create(campaign=campaign, owner=player, name="Hero", data=data)
    client.force_login(gm)
    html = client.get(panel_url(hero)).content.decode()
    assert NOTE in html
    assert 'name="visibility" aria-describedby="visibility-note"' in html


@pytest.mark.django_db
def test_the_gm_rolling_a_test_they_called_is_told_too(
    caerbannog, client, gm, player, other_player
):
    campaign, hero = caerbannog.campaign, caerbannog.hero
    client.force_login(gm)
    client.post(reverse("call_test", args=[campaign.pk, hero.pk]), {"skill": "Jazda"})
    pending = hero.pending_tests.get()
    html = client.get(panel_url(hero), {"pending": pending.pk}).content.decode()
    assert "The GM calls for a test" in html
    assert NOTE in html


@pytest.mark.django_db
def test_the_note_reads_in_polish_on_a_polish_page(caerbannog, client, gm, player, other_player):
    hero = caerbannog.hero
    client.force_login(gm)
    html = client.get(panel_url(hero), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert NOTE_PL in html
    assert NOTE not in html


@pytest.mark.django_db
def test_a_player_who_cannot_roll_hidden_is_not_shown_the_note(
    caerbannog, client, gm, player, other_player
):
    hero = caerbannog.hero
    client.force_login(player)
    html = client.get(panel_url(hero), {"skill": "Atletyka"}).content.decode()
    assert "hidden (GM only)" not in html
    assert NOTE not in html


@pytest.mark.django_db
def test_the_gms_panel_after_a_hidden_roll_still_carries_the_note(
    caerbannog, client, gm, player, other_player, monkeypatch
):
    """The roll changed the sheet, so its answer is the whole panel again, note included."""
    hero = caerbannog.hero
    deal(monkeypatch, *FACES)
    client.force_login(gm)
    data = {"skill": "Atletyka", "visibility": Visibility.HIDDEN, "key": str(uuid.uuid4())}
    html = client.post(panel_url(hero, "test_roll"), data).content.decode()
    assert NOTE in html


# --- On the page: the sheet's numbers, nothing of the roll --------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("viewer", ["owner", "other player"])
def test_after_a_gms_hidden_roll_the_players_see_the_new_rozmach_and_nothing_of_the_roll(
    caerbannog, client, gm, player, other_player, monkeypatch, viewer
):
    campaign, hero = caerbannog.campaign, caerbannog.hero
    roll = hidden_roll(gm, hero, monkeypatch)
    client.force_login(player if viewer == "owner" else other_player)
    html = client.get(reverse("character_detail", args=[campaign.pk, hero.pk])).content.decode()
    assert "Rozmach now: 4 of 10." in html  # the Decision: the sheet's numbers show
    assert not shows_the_roll(html, roll)


@pytest.mark.django_db
def test_the_gm_sees_the_hidden_roll_on_the_sheet_page(
    caerbannog, client, gm, player, other_player, monkeypatch
):
    campaign, hero = caerbannog.campaign, caerbannog.hero
    roll = hidden_roll(gm, hero, monkeypatch)
    client.force_login(gm)
    html = client.get(reverse("character_detail", args=[campaign.pk, hero.pk])).content.decode()
    assert roll.label in html


# --- On the socket: the character alone ---------------------------------------------------------


async def _frames(socket) -> list[dict]:
    """Every frame the socket receives until it has been quiet for a second."""
    frames = []
    while not await socket.receive_nothing(timeout=1):
        frames.append(await socket.receive_json_from(timeout=3))
    return frames


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("viewer", ["owner", "other player"])
async def test_the_live_sheet_update_after_a_hidden_roll_carries_the_character_alone(
    caerbannog, gm, player, other_player, monkeypatch, viewer
):
    campaign, hero = caerbannog.campaign, caerbannog.hero
    user = player if viewer == "owner" else other_player
    socket = await sync_to_async(socket_for)(user, campaign)
    assert (await socket.connect())[0]
    session_id = await sync_to_async(lambda: campaign.sessions.get().pk)()
    await socket.send_json_to({"type": "since", "session": session_id, "seq": 0})
    assert [frame["type"] for frame in await _frames(socket)] == ["synced"]
    roll = await sync_to_async(hidden_roll)(gm, hero, monkeypatch)
    frames = await _frames(socket)
    await socket.disconnect()
    assert {"type": "sheet", "character": hero.pk} in frames
    [entry] = [frame for frame in frames if frame["type"] == "entry"]
    assert "A hidden roll was made." in entry["html"]
    text = json.dumps(frames, ensure_ascii=False)
    assert roll.label not in text
    assert '<span class="face">' not in text
    assert all(frame["type"] in ("sheet", "entry") for frame in frames)
