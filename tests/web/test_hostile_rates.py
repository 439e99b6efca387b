"""What one user may ask of a shared server: rolls and replays per window (issue 23, 7).

Past the budget a roll is refused with 429 and a sentence, before anything is written, so it
may be sent again with the same key; a replay gets an error frame saying when to ask again.
The counts live in the cache every worker shares (Redis in the scale-out).
"""

from __future__ import annotations

import html
import os
import time
import types
import uuid

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings as django_settings
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from config import settings as config_settings
from rolls import limits
from rolls.models import Roll
from tests.web.live import roll, socket_for
from tests.web.test_after_roll import HX
from tests.web.test_quick_dice import quick

pytestmark = [pytest.mark.django_db, pytest.mark.table(characters=())]


@pytest.fixture(autouse=True)
def budgets(settings):
    """Small budgets, fresh counts: a test's user may have the pk of an earlier test's."""
    cache.clear()
    settings.ROLL_RATE_LIMIT = 3
    settings.REPLAY_ENTRY_LIMIT = 5
    settings.RATE_WINDOW_SECONDS = 3600  # the whole test in one window
    yield settings
    cache.clear()


def test_the_server_allows_fifty_rolls_and_ten_thousand_replayed_entries_per_ten_seconds():
    assert (config_settings.ROLL_RATE_LIMIT, config_settings.RATE_WINDOW_SECONDS) == (50, 10)
    assert config_settings.REPLAY_ENTRY_LIMIT == 10_000


def test_a_roll_past_the_users_budget_is_refused_with_429_and_rolls_nothing(client, table, player):
    client.force_login(player)
    answers = [quick(client, table.campaign).status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    assert Roll.objects.count() == 3


def test_the_refusal_says_why_in_the_page_region_for_it_and_leaves_the_form_alone(
    client, table, player
):
    client.force_login(player)
    for _ in range(3):
        quick(client, table.campaign)
    response = quick(client, table.campaign)
    assert "You are rolling faster than any table needs" in response.content.decode()
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#request-refusal", "innerHTML")
    assert int(response["Retry-After"]) >= 1


def test_a_plain_post_past_the_budget_gets_a_page_saying_why(client, table, player):
    client.force_login(player)
    for _ in range(3):
        quick(client, table.campaign)
    response = quick(client, table.campaign, headers={})
    assert response.status_code == 429
    assert "<title>Too fast" in response.content.decode()


def test_a_polish_reader_is_refused_in_polish(client, table, player):
    client.force_login(player)
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "pl"
    for _ in range(3):
        quick(client, table.campaign)
    with translation.override("pl"):
        expected = translation.gettext(
            "You are rolling faster than any table needs; nothing was rolled. Wait a few "
            "seconds and roll again."
        )
    assert not expected.startswith("You are rolling")
    assert expected in quick(client, table.campaign).content.decode()


def test_the_refused_roll_is_made_once_sent_again_in_the_next_window(
    client, table, player, budgets, monkeypatch
):
    client.force_login(player)
    for _ in range(3):
        quick(client, table.campaign)
    key = str(uuid.uuid4())
    assert quick(client, table.campaign, key=key).status_code == 429
    # The next window, on the limits' own clock: an hour on, as the budget's window is an hour.
    an_hour_on = time.time() + budgets.RATE_WINDOW_SECONDS
    monkeypatch.setattr(limits, "time", types.SimpleNamespace(time=lambda: an_hour_on))
    assert quick(client, table.campaign, key=key).status_code == 200
    assert Roll.objects.filter(idempotency_key=key).count() == 1


def test_one_users_budget_is_not_another_users(client, table, player, other_player):
    client.force_login(player)
    for _ in range(4):
        quick(client, table.campaign)
    client.force_login(other_player)
    assert quick(client, table.campaign).status_code == 200


def test_a_test_panels_roll_counts_against_the_same_budget(client, make_table, player):
    table = make_table()
    client.force_login(player)
    for _ in range(3):
        quick(client, table.campaign)
    url = reverse("test_roll", args=[table.campaign.pk, table.hero.pk])
    data = {"attribute": "BUDOWA", "key": str(uuid.uuid4())}
    assert client.post(url, data, **HX).status_code == 429


def test_pages_that_only_read_are_not_counted(client, table, player):
    client.force_login(player)
    for _ in range(10):
        client.get(reverse("session_log", args=[table.campaign.pk]))
    assert quick(client, table.campaign).status_code == 200


def test_every_roll_view_is_a_url_of_the_app():
    from django.urls import NoReverseMatch, get_resolver

    names = {name for name in get_resolver().reverse_dict if isinstance(name, str)}
    assert names >= limits.ROLL_VIEWS, limits.ROLL_VIEWS - names
    with pytest.raises(NoReverseMatch):
        reverse("no-such-roll-view")


@pytest.mark.redis
def test_the_roll_budget_is_counted_in_redis_across_workers(settings, redis_url, player):
    """Two workers' caches are one Redis: rolls counted by one are spent for the other."""
    settings.CACHES = {
        "default": {
            "BACKEND": "config.overrides.cache.SharedPoolRedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": f"table-rates-test-{os.getpid()}-{time.time_ns()}",
        }
    }
    spent = [limits.spend("rolls", player.pk, 1, 3) for _ in range(4)]
    assert spent == [True, True, True, False]
    assert limits.spent("rolls", player.pk) == 4


# Replays over the socket --------------------------------------------------------------------


async def replayed(user, campaign, session):
    """One page's replay from the start: the entries and the frame that ended it."""
    socket = await sync_to_async(socket_for)(user, campaign)
    connected, _ = await socket.connect()
    assert connected
    await socket.send_json_to({"type": "since", "session": session.pk, "seq": 0})
    entries = []
    while (frame := await socket.receive_json_from(timeout=3))["type"] == "entry":
        entries.append(frame)
    await socket.disconnect()
    return entries, frame


@pytest.mark.django_db(transaction=True)
async def test_a_replay_past_the_users_budget_is_answered_with_when_to_ask_again(table, player):
    for _ in range(3):
        await sync_to_async(roll)(table.session, player)
    first = await replayed(player, table.campaign, table.session)
    second = await replayed(player, table.campaign, table.session)
    assert (len(first[0]), first[1]["type"]) == (3, "synced")
    assert (second[0], second[1]["type"]) == ([], "error")
    assert second[1]["retry"] >= 1


@pytest.mark.django_db(transaction=True)
async def test_a_replay_with_nothing_to_send_costs_nothing(table, player):
    for _ in range(3):
        await sync_to_async(roll)(table.session, player)
    await replayed(player, table.campaign, table.session)
    socket = await sync_to_async(socket_for)(player, table.campaign)
    await socket.connect()
    await socket.send_json_to({"type": "since", "session": table.session.pk, "seq": 3})
    assert (await socket.receive_json_from(timeout=3))["type"] == "synced"
    await socket.disconnect()


# What one request may write, and every POST's budget (issue 37) -----------------------------


def battle(make_table, npcs: int, characters: int = 2):
    """A table with ``characters`` and ``npcs`` and an order form giving every one of them dice."""
    table = make_table(
        characters=[(f"Hero {i}", {}) for i in range(characters)],
        npcs=[(f"Goblin {i}", []) for i in range(npcs)],
    )
    given = {f"character-{c.pk}": "1d20" for c in table.characters}
    given |= {f"npc-{npc.pk}": "1d20" for npc in table.npcs}
    return table, given | {"key": str(uuid.uuid4())}


def order(client, table, data):
    client.force_login(table.gm)
    return client.post(reverse("turn_order", args=[table.campaign.pk]), data, **HX)


def test_a_gm_rolls_initiative_for_twenty_npcs_and_the_party_in_one_click(
    client, make_table, budgets
):
    budgets.ROLL_RATE_LIMIT = 50  # the server's own
    table, data = battle(make_table, npcs=20)
    assert order(client, table, data).status_code == 200
    assert Roll.objects.filter(session=table.session).count() == 22


def test_a_turn_orders_dice_spend_the_budget_entry_by_entry(client, make_table):
    table, data = battle(make_table, npcs=1)  # three dice: the budget's three entries
    assert order(client, table, data).status_code == 200
    assert quick(client, table.campaign).status_code == 429
    assert Roll.objects.count() == 3


def test_a_turn_order_with_more_dice_than_the_budget_holds_rolls_none_of_them(client, make_table):
    table, data = battle(make_table, npcs=2)  # four dice, three left
    response = order(client, table, data)
    assert response.status_code == 429
    assert "You are rolling faster than any table needs" in response.content.decode()
    assert not Roll.objects.exists()


def test_no_more_than_forty_combatants_are_given_dice_at_once(client, make_table, budgets):
    budgets.ROLL_RATE_LIMIT = 1000
    table, data = battle(make_table, npcs=39)
    response = order(client, table, data)
    assert response.status_code == 422
    assert "at most 40 combatants at once (41 were given dice)" in html.unescape(
        response.content.decode()
    )
    assert not Roll.objects.exists()


def test_an_entry_written_past_the_budget_takes_its_whole_request_back(client, make_table):
    """A log entry spends the budget where it is written, whatever view writes it: a line of
    chat past it is refused and nothing of it stays."""
    table = make_table(characters=())
    client.force_login(table.players[0])
    for _ in range(3):
        quick(client, table.campaign)
    url = reverse("say_line", args=[table.campaign.pk])
    response = client.post(url, {"text": "hej", "to": "all", "key": str(uuid.uuid4())}, **HX)
    assert response.status_code == 429
    assert Roll.objects.count() == 3


def test_the_budget_is_spent_by_the_user_whose_request_writes_not_by_a_direct_call(table, player):
    """Outside a request (the demo's seed, a management command) nothing is charged."""
    for _ in range(5):
        roll(table.session, player)
    assert limits.spent("rolls", player.pk) == 0


def test_a_campaign_holds_at_most_two_hundred_npcs(client, make_table, monkeypatch):
    from sheets import actions as sheet_actions

    monkeypatch.setattr(sheet_actions, "NPCS_PER_CAMPAIGN", 3)
    table = make_table(characters=(), npcs=[("Goblin", [])])
    client.force_login(table.gm)
    url = reverse("npc_quick_create", args=[table.campaign.pk])
    response = client.post(url, {"text": "Orc: big\nOgre: bigger\nTroll: biggest"}, **HX)
    assert "A campaign holds at most 3 NPCs and this one has 1, so 2 more fit" in (
        html.unescape(response.content.decode())
    )
    assert table.campaign.npcs.count() == 1
    client.post(url, {"text": "Orc: big\nOgre: bigger"}, **HX)
    assert table.campaign.npcs.count() == 3


def test_the_server_holds_two_hundred_npcs_a_campaign_and_forty_dice_an_order():
    from rolls.turns.views import ROLLED_AT_ONCE
    from sheets.actions import NPCS_PER_CAMPAIGN

    assert (NPCS_PER_CAMPAIGN, ROLLED_AT_ONCE) == (200, 40)


def test_the_full_npc_form_refuses_one_npc_too_many_keeping_what_was_typed(
    client, make_table, monkeypatch
):
    from sheets import actions as sheet_actions

    monkeypatch.setattr(sheet_actions, "NPCS_PER_CAMPAIGN", 1)
    table = make_table(characters=(), npcs=[("Goblin", [])])
    client.force_login(table.gm)
    data = {"name": "Ogr", "notes": "", "traits-TOTAL_FORMS": "1", "traits-INITIAL_FORMS": "0",
            "traits-0-name": "wielki", "traits-0-dice": "3"}  # fmt: skip
    response = client.post(reverse("npc_create", args=[table.campaign.pk]), data)
    assert "A campaign holds at most 1 NPCs" in html.unescape(response.content.decode())
    assert 'value="Ogr"' in response.content.decode()
    assert table.campaign.npcs.count() == 1


@pytest.fixture
def post_budget(budgets):
    budgets.POST_RATE_LIMIT = 3
    budgets.ROLL_RATE_LIMIT = 1000
    return budgets


def test_every_post_of_a_member_spends_the_request_budget(client, table, player, post_budget):
    client.force_login(player)
    url = reverse("say_line", args=[table.campaign.pk])
    answers = [
        client.post(url, {"text": "hej", "to": "all", "key": str(uuid.uuid4())}, **HX).status_code
        for _ in range(4)
    ]
    assert answers == [200, 200, 200, 429]
    assert Roll.objects.count() == 3


def test_a_post_past_the_budget_says_why_and_writes_nothing(client, table, player, post_budget):
    client.force_login(player)
    for _ in range(3):
        quick(client, table.campaign)
    response = quick(client, table.campaign)
    assert "You are sending faster than any table needs; nothing was done." in (
        response.content.decode()
    )
    assert response["HX-Retarget"] == "#request-refusal"
    assert Roll.objects.count() == 3


def test_a_post_past_the_budget_is_refused_before_its_body_is_read(table, player, post_budget):
    """Before CSRF's check, which reads the body: a forged or 60 KB post costs no more."""
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    url = reverse("say_line", args=[table.campaign.pk])
    answers = [client.post(url, {"text": "x" * 60_000}).status_code for _ in range(4)]
    assert answers == [403, 403, 403, 429]


def test_reading_pages_spends_nothing_of_the_request_budget(client, table, player, post_budget):
    client.force_login(player)
    for _ in range(5):
        client.get(reverse("session_log", args=[table.campaign.pk]))
    assert quick(client, table.campaign).status_code == 200


def test_a_visitors_posts_are_not_counted_against_anyone(client, table, player, post_budget):
    for _ in range(5):
        client.post(reverse("login"), {"username": "player", "password": "wrong"})
    client.force_login(player)
    assert quick(client, table.campaign).status_code == 200


def test_the_server_allows_a_hundred_and_twenty_posts_per_ten_seconds():
    assert config_settings.POST_RATE_LIMIT == 120


def test_an_order_with_too_many_dice_is_refused_before_the_combatants_are_read(
    client, make_table, budgets, django_assert_max_num_queries
):
    """Counted from what was posted: a flood of such orders cost 28 ms each when the form read
    and parsed every combatant first (bench/flood.py)."""
    budgets.ROLL_RATE_LIMIT = 1000
    table, data = battle(make_table, npcs=39)
    client.force_login(table.gm)
    url = reverse("turn_order", args=[table.campaign.pk])
    with django_assert_max_num_queries(3):  # the login, its user, the campaign
        response = client.post(url, data, **HX)
    assert (response.status_code, response["HX-Retarget"]) == (422, "#request-refusal")
