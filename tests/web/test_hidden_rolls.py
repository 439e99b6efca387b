"""A GM's hidden roll on a player's character reaches nobody but the GM through any answer.

Issue 11 item 1: the error answer of a follow-up (a bad key, an unknown kind) showed the whole
hidden entry to the character's owner. Every answer that shows a roll now goes through the log's
rule (``rolls.log.reading.entry_for``), and a follow-up of a roll the requester may not see is a 404
before anything else is checked. The last test walks every URL pattern of ``rolls.urls``, so an
endpoint added later is checked too (or fails, asking how to fill its new URL parameter).
"""

from __future__ import annotations

import copy
import json
import re
import uuid
from dataclasses import dataclass
from html import escape

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign
from rolls import actions
from rolls import urls as roll_urls
from rolls.labels import KIND_LABELS
from rolls.models import PendingTest, Roll, Visibility
from sheets.models import NPC, Character
from tests.web.dice import deal
from tests.web.hostile import url_arguments, url_names, walk
from tests.web.live import panel_url
from tests.web.test_after_roll import CASTER, SPELL, zarith
from tests.web.test_opposed import caerbannog_duel, roll_side
from tests.web.test_panel_caerbannog import SHEET

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
# The GM's hidden rolls: a skill of 3d10 and, through a called test, one of 3d8. Faces above 4
# are theirs alone: every roll the players make here is Charyzma, 3d4.
HIDDEN_FACES = {"Atletyka": (10, 9, 7), "Jazda": (8, 6, 5)}
PLAYERS_SKILL = "Charyzma"


@dataclass
class Table:
    campaign: Campaign
    hero: Character
    npc: NPC
    session_id: int
    hidden: Roll  # the GM's hidden roll from the panel on the hero's sheet
    called: Roll  # the GM's hidden roll of a test the GM called on the hero
    pending: PendingTest
    opposed_id: int = 1  # none: the opposed endpoints must still not leak


def scripted(monkeypatch, faces):
    deal(monkeypatch, *faces)


def gm_rolls_hidden(client, hero, skill, **extra) -> Roll:
    response = client.post(
        panel_url(hero, "test_roll"),
        {"skill": skill, "visibility": Visibility.HIDDEN, "key": str(uuid.uuid4()), **extra},
    )
    assert response.status_code == 200, response.content.decode()[:500]
    return Roll.objects.order_by("-seq").first()


@pytest.fixture
def table(make_table, gm, monkeypatch) -> Table:
    seated = make_table(
        "caerbannog", name="Caerbannog", characters=[("Morgana", SHEET)], npcs=[("Troll", [])]
    )
    campaign, hero, npc, session = seated.campaign, seated.hero, seated.npc, seated.session
    gm_client = seated.client(gm)
    with monkeypatch.context() as patch:
        scripted(patch, HIDDEN_FACES["Atletyka"])
        hidden = gm_rolls_hidden(gm_client, hero, "Atletyka")
        gm_client.post(reverse("call_test", args=[campaign.pk, hero.pk]), {"skill": "Jazda"})
        pending = PendingTest.objects.get(character=hero)
        scripted(patch, HIDDEN_FACES["Jazda"])
        called = gm_rolls_hidden(
            gm_client, hero, "Jazda", pending=pending.pk, revision=pending.revision
        )
    pending.refresh_from_db()
    assert (hidden.visibility, called.visibility) == (Visibility.HIDDEN, Visibility.HIDDEN)
    assert pending.roll_id == called.pk
    return Table(campaign, hero, npc, session.pk, hidden, called, pending)


def leaks(body: str, table: Table) -> list[str]:
    """What of the hidden rolls this answer shows; an empty list when nothing."""
    found = []
    # The language switch of every full page (the app's own 404 included) returns to the URL the
    # requester asked for: that echoes what they typed, not what the roll holds.
    body = re.sub(r'<input type="hidden" name="next" value="[^"]*">', "", body)
    for roll in (table.hidden, table.called):
        anchor = f'id="roll-{roll.session_id}-{roll.seq}"'
        if body.count(anchor) != body.count(f'class="entry entry-redacted" {anchor}'):
            found.append(f"the whole entry #{roll.seq}")
        if roll.label in body or escape(roll.label) in body:
            found.append(f"the label {roll.label!r}")
        if f"/rolls/{roll.pk}/" in body:
            found.append(f"a follow-up of #{roll.seq} (with its faces)")
        if json.dumps(roll.faces) in body:
            found.append(f"the faces {roll.faces} of #{roll.seq}")
    faces = [int(face) for face in re.findall(r'class="face">(\d+)<', body)]
    if any(face > 4 for face in faces):
        found.append(f"a face of a GM's hidden roll among {faces}")
    if "rolled by gm" in body:
        found.append("an entry rolled by the GM")
    return found


# --- The follow-up of a hidden roll ------------------------------------------------------------


def follow_up(table: Table, kind: str, roll: Roll | None = None) -> str:
    roll = roll or table.hidden
    return reverse("test_follow_up", args=[table.campaign.pk, table.hero.pk, roll.pk, kind])


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("reroll", {"key": "x"}),  # the 400
        ("no-such-kind", {"key": str(uuid.uuid4())}),  # the 409
        ("reroll", {"key": str(uuid.uuid4())}),  # a follow-up the GM is offered
        ("boost", {"key": str(uuid.uuid4())}),
        ("heroic", {"key": str(uuid.uuid4()), "resource": "determinacja"}),
    ],
)
def test_a_follow_up_of_the_gms_hidden_roll_is_a_404_to_the_characters_owner(
    client, table, player, kind, data
):
    client.force_login(player)
    response = client.post(follow_up(table, kind), data, **HX)
    assert response.status_code == 404
    assert leaks(response.content.decode(), table) == []
    assert Roll.objects.count() == 2


def test_a_follow_up_of_a_hidden_called_test_is_a_404_to_the_characters_owner(
    client, table, player
):
    client.force_login(player)
    response = client.post(follow_up(table, "reroll", table.called), {"key": "x"})
    assert response.status_code == 404
    assert leaks(response.content.decode(), table) == []


def test_the_gm_still_follows_up_their_hidden_roll_and_it_stays_hidden(client, table, gm):
    client.force_login(gm)
    # The called test is the character's latest roll: only that one may still be re-rolled.
    data = {"key": str(uuid.uuid4()), "ability": "Szczęściarz"}
    response = client.post(follow_up(table, "reroll", table.called), data)
    assert response.status_code == 200
    reroll = Roll.objects.get(parent=table.called)
    assert (reroll.kind, reroll.visibility) == ("reroll", Visibility.HIDDEN)


def test_the_gms_bad_follow_up_request_still_shows_the_gm_the_roll(client, table, gm):
    client.force_login(gm)
    response = client.post(follow_up(table, "reroll"), {"key": "x"})
    assert response.status_code == 400
    assert table.hidden.label in response.content.decode()


def test_a_players_bad_follow_up_of_their_own_secret_roll_still_shows_it_to_them(
    client, table, player
):
    client.force_login(player)
    client.post(
        panel_url(table.hero, "test_roll"),
        {"skill": PLAYERS_SKILL, "visibility": Visibility.SECRET, "key": str(uuid.uuid4())},
    )
    secret = Roll.objects.get(visibility=Visibility.SECRET)
    response = client.post(follow_up(table, "no-such-kind", secret), {"key": str(uuid.uuid4())})
    assert response.status_code == 409
    assert secret.label in response.content.decode()


@pytest.mark.parametrize("key", ["x", str(uuid.uuid4())], ids=["malformed key", "good key"])
def test_the_magic_die_after_the_gms_hidden_spell_is_a_404_to_the_casters_owner(
    client, make_table, gm, player, key
):
    table = make_table(**zarith(hero=CASTER))
    campaign, caster, session = table.campaign, table.hero, table.session
    spell, _ = actions.record_roll(
        actions.RollSpec(
            session=session,
            actor=gm,
            system="fasttest",
            params={"attribute": 7},
            key=uuid.uuid4(),
            label=SPELL,
            character=caster,
            visibility=Visibility.HIDDEN,
        )
    )
    client.force_login(player)
    url = reverse("test_follow_up", args=[campaign.pk, caster.pk, spell.pk, "magic_die"])
    response = client.post(url, {"key": key})
    caster.refresh_from_db()
    assert response.status_code == 404
    assert "DUCH 7" not in response.content.decode()
    assert (Roll.objects.count(), caster.data["magic_die"]) == (1, 10)


# --- An opposed test's side the GM rolled hidden -------------------------------------------------


@pytest.fixture
def hidden_side(client, make_table, gm, other_player, monkeypatch):
    """A Caerbannog opposed test, settled in turn: the GM rolled Ala's side (Julio's Atletyka,
    3d10) hidden, Bartek rolled his in public; Julio's side is to settle first."""
    duel = make_table(
        "caerbannog",
        characters=[("Ala", copy.deepcopy(SHEET)), ("Bartek", copy.deepcopy(SHEET))],
        npcs=[("Troll", [])],
    )
    opposed = caerbannog_duel(client, gm, duel)
    side = opposed.initiator
    with monkeypatch.context() as patch:
        scripted(patch, HIDDEN_FACES["Atletyka"])
        client.force_login(gm)
        form = {"pending": side.pk, "revision": side.revision, "visibility": Visibility.HIDDEN}
        response = client.post(panel_url(side.character, "test_roll"), form | {"key": uuid.uuid4()})
        assert response.status_code == 200
        scripted(patch, (3, 2, 1))
        roll_side(client, other_player, opposed.opponent)
    return opposed


@pytest.fixture
def opposed_table(hidden_side) -> Table:
    """The walk's table with the opposed test of ``hidden_side``: its hidden side is the roll."""
    hidden = Roll.objects.get(visibility=Visibility.HIDDEN)
    pending, session = hidden_side.initiator, hidden_side.session
    npc = NPC.objects.get(campaign=session.campaign)
    return Table(
        session.campaign, pending.character, npc, session.pk, hidden, hidden, pending,
        opposed_id=hidden_side.pk,
    )  # fmt: skip


def test_the_owner_of_a_side_the_gm_rolled_hidden_is_offered_no_follow_up_of_it(
    client, player, hidden_side
):
    """The settling box offered the owner a re-roll of the hidden roll, its dice listed."""
    hidden = Roll.objects.get(visibility=Visibility.HIDDEN)
    client.force_login(player)
    body = client.get(panel_url(hidden_side.initiator.character)).content.decode()
    assert "Both sides have rolled." in body
    assert f"/rolls/{hidden.pk}/" not in body
    assert "d10: 10" not in body
    assert "My result stands" not in body


def test_the_owner_cannot_settle_a_side_the_gm_rolled_hidden(client, player, hidden_side):
    campaign_id = hidden_side.session.campaign_id
    client.force_login(player)
    url = reverse("opposed_settle", args=[campaign_id, hidden_side.pk])
    response = client.post(url, {"side": "a"}, **HX)
    assert "The GM rolled this side hidden; the GM settles it." in response.content.decode()
    hidden_side.refresh_from_db()
    assert not hidden_side.initiator_settled


def test_the_gm_settles_the_side_they_rolled_hidden_and_is_offered_its_follow_ups(
    client, gm, hidden_side
):
    hidden = Roll.objects.get(visibility=Visibility.HIDDEN)
    client.force_login(gm)
    body = client.get(panel_url(hidden_side.initiator.character)).content.decode()
    assert f"/rolls/{hidden.pk}/reroll/" in body
    url = reverse("opposed_settle", args=[hidden_side.session.campaign_id, hidden_side.pk])
    assert client.post(url, {"side": "a"}, **HX).status_code == 200
    hidden_side.refresh_from_db()
    assert hidden_side.initiator_settled


# --- A roll answer that would be a hidden roll -------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_roll_request_with_the_key_of_a_hidden_roll_answers_with_it_redacted(
    client, table, player, htmx
):
    """A repeated key answers with the roll it made; one the requester may not see, redacted."""
    client.force_login(player)
    data = {"skill": PLAYERS_SKILL, "key": str(table.hidden.idempotency_key)}
    response = client.post(panel_url(table.hero, "test_roll"), data, **(HX if htmx else {}))
    body = response.content.decode()
    assert "A hidden roll was made." in body
    assert leaks(body, table) == []
    assert Roll.objects.count() == 2


# --- Every endpoint of rolls.urls, every viewer but the GM, good and bad input -----------------


def _fill(name: str, table: Table) -> list[dict]:
    """Every set of URL arguments worth trying on URL ``name``: its hidden rolls, each kind."""
    values = {
        "campaign_id": [table.campaign.pk],
        "session_id": [table.session_id],
        "pending_id": [table.pending.pk],
        "roll_id": [table.hidden.pk, table.called.pk],
        "kind": [*KIND_LABELS, "no-such-kind"],
        "fmt": ["md", "csv", "json"],
        # An opposed test's NPC side (rolls.opposed): none here, the endpoint must still not leak.
        "opposed_id": [table.opposed_id],
        # A group test (rolls.group): none here either; its endpoints must refuse, not leak.
        "group_id": [1],
        # A condition (rolls.conditions): none here; clearing one must refuse, not leak.
        "condition_id": [1],
        # A pinned test (rolls.saved): none here; taking one away must refuse, not leak.
        "saved_id": [1],
        # A wound on the sheet (FastTest's System.urls): the sheet's wound tracker must not leak.
        "index": [0],
        "pk": [table.npc.pk if name in ("npc_roll", "npc_roll_box") else table.hero.pk],
    }
    return url_arguments(name, values)


def _requests(table: Table) -> list[tuple[str, dict, dict]]:
    """(method, data, headers): nothing, a malformed key, well-formed input of every form the
    rolls app has, a forged "hidden", a called test, and the very key of a hidden roll."""
    good = {
        "key": str(uuid.uuid4()),
        "skill": PLAYERS_SKILL,
        "visibility": Visibility.PUBLIC,
        "die": "0",
        "resource": "determinacja",
        "op": "set_difficulty",
        "value": "3",
        "title": "A scene",
        "amount": "1",
        "reason": "well played",
        "character": str(table.hero.pk),
        "player_weapon": "hand",
        "enemy_weapon": "hand",
        "text": "Goblin 2",
        "side": "a",
    }
    posts = [
        {},
        {"key": "x"},
        good,
        good | {"key": str(uuid.uuid4()), "visibility": Visibility.HIDDEN},
        {"key": str(uuid.uuid4()), "pending": str(table.pending.pk), "revision": "1"},
        {"key": str(table.hidden.idempotency_key), "skill": PLAYERS_SKILL},
    ]
    gets = [{}, {"skill": "Atletyka", "pending": str(table.pending.pk)}]
    return (
        [("get", data, {}) for data in gets]
        + [("post", data, {}) for data in posts]
        + [("post", data, HX) for data in posts]
    )


def test_the_walk_sends_each_request_an_answer_reads_and_one_of_those_it_does_not(
    table, player, outsider
):
    """``walk``'s shortcut, on the roll view: the owner's answers read every posted form, the
    outsider's (refused at the campaign's door) and a GET (refused by the method) none; and
    each request meets the same table."""
    url = panel_url(table.hero, "test_roll")
    asked = _requests(table)
    sent = {}
    for user in (player, outsider):
        client = Client()
        client.force_login(user)
        sent[user] = [
            (method, response.status_code) for method, _data, response in walk(client, url, asked)
        ]
    assert len(asked) == 14
    assert sent[player][0] == ("get", 405)
    assert len(sent[player]) == 13
    assert sent[outsider] == [("get", 405), ("post", 404), ("post", 404)]
    assert Roll.objects.count() == 2


VIEWERS = ["owner", "other player", "outsider", "anonymous"]
#: The tables walked: a GM's hidden roll and hidden called test on one sheet; an opposed test
#: whose side the GM rolled hidden, waiting for that side to settle.
WALKED = {"hidden rolls": "table", "opposed side": "opposed_table"}


@pytest.mark.parametrize("walked", WALKED)
def test_no_answer_of_any_roll_endpoint_shows_a_hidden_roll_to_anyone_but_the_gm(
    request, walked, player, other_player, outsider
):
    """Every URL of ``rolls.urls`` with every set of its arguments, as every viewer, each
    request meeting the same table (``walk``)."""
    table = request.getfixturevalue(WALKED[walked])
    users = {"owner": player, "other player": other_player, "outsider": outsider}
    found = []
    for viewer in VIEWERS:
        client = Client()
        if viewer in users:
            client.force_login(users[viewer])
        for name in url_names(roll_urls.urlpatterns):
            for kwargs in _fill(name, table):
                url = reverse(name, kwargs=kwargs)
                for method, data, response in walk(client, url, _requests(table)):
                    where = f"{viewer}: {method.upper()} {url} {data} -> {response.status_code}"
                    found += [f"{where}: {leak}" for leak in leaks(response.text, table)]
                    if name == "test_follow_up" and viewer in users and method == "post":
                        found += [] if response.status_code == 404 else [f"{where}: not a 404"]
    assert not found, f"{len(found)} found, the first:\n" + "\n".join(found[:40])
