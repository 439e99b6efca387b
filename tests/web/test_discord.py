"""The table's log in the group's Discord channel (issue 40 item 1), against a stand-in for Discord
served on 127.0.0.1 (tests/web/discord_standin.py): what is posted and what never is, in order and
batched, a struck entry edited, rate limits, errors and back-off, a deleted webhook, a restart
and two couriers at once, and the GM's page."""

from __future__ import annotations

import threading
import time
import uuid
from datetime import timedelta

import pytest
from django.db import OperationalError, connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaigns.sessions import end_session, start_session
from rolls.chat.actions import say
from rolls.discord import actions, courier, outbox, posts, webhook
from rolls.discord.models import DiscordBridge, DiscordPost
from rolls.models import Visibility
from rolls.strikes.actions import strike
from rolls.turns.fight import new_round, start_turn
from tests.web.discord_standin import WEBHOOK_PATH, serve
from tests.web.live import roll

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table("fasttest", characters=[("Brunhilda", {}), ("Ulryk", {})]),
]

SITE = "https://table.example/"


@pytest.fixture
def discord(settings):
    standin = serve()
    settings.DISCORD_WEBHOOK_ORIGINS = (*settings.DISCORD_WEBHOOK_ORIGINS, standin.origin)
    yield standin
    standin.server.shutdown()
    standin.server.server_close()


@pytest.fixture
def bridge(table, discord) -> DiscordBridge:
    """The table's bridge, connected, its test message delivered and forgotten."""
    connected = actions.connect(table.campaign, url=discord.url, language="en", site=SITE)
    deliver(connected)
    discord.messages.clear()
    discord.requests.clear()
    return connected


def deliver(bridge: DiscordBridge, owner: str = "test-courier") -> int:
    return courier.deliver(bridge.pk, owner)


def fresh(bridge: DiscordBridge) -> DiscordBridge:
    return DiscordBridge.objects.get(pk=bridge.pk)


def due_now(bridge: DiscordBridge) -> None:
    """What a courier's wait would reach: the moment the bridge may send again."""
    DiscordBridge.objects.filter(pk=bridge.pk).update(next_try_at=timezone.now())


def chat(table, user, text, **extra):
    line, _ = say(campaign=table.campaign, actor=user, text=text, key=uuid.uuid4(), **extra)
    return line


# --- Which addresses the server posts to ------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://discord.com/api/webhooks/1234567890/abc-DEF_123",
        "https://discord.com/api/v10/webhooks/1234567890/abc",
        "https://discordapp.com/api/webhooks/1/abc/",
        "https://canary.discord.com/api/webhooks/1/abc",
    ],
)
def test_a_webhook_of_discords_own_hosts_is_accepted(url):
    assert webhook.check(url).host.endswith(("discord.com", "discordapp.com"))


@pytest.mark.parametrize(
    "url",
    [
        "http://discord.com/api/webhooks/1/abc",
        "https://evil.example/api/webhooks/1/abc",
        "https://discord.com.evil.example/api/webhooks/1/abc",
        "https://discord.com@evil.example/api/webhooks/1/abc",
        "https://user:pw@discord.com/api/webhooks/1/abc",
        "https://discord.com:8443/api/webhooks/1/abc",
        "https://127.0.0.1/api/webhooks/1/abc",
        "https://[::1]/api/webhooks/1/abc",
        "https://169.254.169.254/latest/meta-data",
        "https://discord.com/api/webhooks/1/abc?thread_id=2",
        "https://discord.com/api/webhooks/1/abc#x",
        "https://discord.com/api/users/@me",
        "https://discord.com/api/webhooks/1/abc/../../../users",
        "javascript:alert(1)",
        "https://discord.com:99999999/api/webhooks/1/abc",
        "",
    ],
)
def test_any_other_address_is_refused_with_a_sentence(url):
    with pytest.raises(webhook.BadWebhook) as refused:
        webhook.check(url)
    assert str(refused.value).endswith(".")


def test_the_stand_in_is_refused_when_the_setting_does_not_allow_it(table, discord, settings):
    settings.DISCORD_WEBHOOK_ORIGINS = ("https://discord.com",)
    with pytest.raises(webhook.BadWebhook):
        actions.connect(table.campaign, url=discord.url, language="en", site=SITE)
    assert not DiscordBridge.objects.exists()


def test_a_bridge_saved_before_its_host_was_refused_stops_and_posts_nothing(
    table, bridge, discord, settings, player
):
    roll(table.session, player)
    settings.DISCORD_WEBHOOK_ORIGINS = ("https://discord.com",)
    deliver(bridge)
    assert discord.requests == []
    assert fresh(bridge).gone


# --- What is posted, and what never is ------------------------------------------------------------


def test_a_public_roll_is_posted_with_its_result_odds_dice_and_a_link_back(
    table, bridge, discord, player
):
    entry = roll(table.session, player, character=table.hero)
    assert deliver(bridge) == 1
    [sent] = discord.requests
    assert (sent.method, sent.path) == ("POST", WEBHOOK_PATH + "?wait=true")
    assert sent.body["allowed_mentions"] == {"parse": []}
    [embed] = sent.body["embeds"]
    assert embed["title"] == f"#{entry.seq} Brunhilda \\(rolled by player\\)".replace(
        "player", entry.actor.get_username()
    )
    assert "BUDOWA + WALKA" in embed["description"]
    assert "Odds: " in embed["description"]
    assert " %" in embed["description"]
    # Discord shows "d10:2": every ":" is escaped, so no text can spell an emoji or a link.
    assert f"d10\\:{entry.result['dice'][0]['face']}" in embed["description"]
    assert embed["url"] == (
        f"https://table.example/c/{table.campaign.pk}/sessions/{table.session.pk}/log/earlier/"
        f"?before={entry.seq + 1}#roll-{table.session.pk}-{entry.seq}"
    )
    assert embed["timestamp"] == entry.created_at.isoformat()


@pytest.mark.parametrize("visibility", [Visibility.SECRET, Visibility.HIDDEN])
def test_a_secret_or_hidden_roll_is_never_queued_nor_posted(
    table, bridge, discord, player, visibility
):
    roll(table.session, player, visibility=visibility)
    assert not DiscordPost.objects.filter(bridge=bridge, roll__isnull=False).exists()
    deliver(bridge)
    assert discord.requests == []


def test_whispers_and_lines_to_the_gm_are_never_posted_but_public_chat_is(
    table, bridge, discord, player, other_player, gm
):
    chat(table, player, "do wszystkich")
    chat(table, player, "tylko do MG", visibility=Visibility.SECRET)
    chat(table, player, "szept", visibility=Visibility.WHISPER, recipient=other_player)
    chat(table, gm, "notatka", visibility=Visibility.HIDDEN)
    deliver(bridge)
    said = "\n".join(embed["description"] for embed in discord.posted())
    assert "do wszystkich" in said
    assert not any(word in said for word in ("tylko do MG", "szept", "notatka"))
    assert len(discord.posted()) == 1


def test_a_public_line_with_a_roll_in_place_is_posted_with_its_result_written_in(
    table, bridge, discord, player
):
    line, _ = say(
        campaign=table.campaign, actor=player, text="Atakuję [[1d20+2]]!", key=uuid.uuid4(),
        inline=["1d20+2"],
    )  # fmt: skip
    total = line.result["answer"]["inline"][0]["total"]
    deliver(bridge)
    [embed] = discord.posted()
    assert embed["description"].startswith(f"Atakuję \\[\\[1d20+2 = {total}\\]\\]!")


def test_a_roll_of_real_dice_says_in_the_channel_who_typed_them(table, bridge, discord, player):
    from rolls.engine.typed import TypedDice

    roll(table.session, player, typed=True, rng=TypedDice([3, 5, 2]))
    deliver(bridge)
    [embed] = discord.posted()
    assert "*real dice, typed by player*" in embed["description"]


def test_a_sealed_roll_is_posted_only_once_revealed(table, bridge, discord, player):
    from rolls.actions import reveal

    sealed = roll(table.session, player, sealed_for=(player.pk,))
    deliver(bridge)
    assert discord.requests == []
    reveal([sealed])
    deliver(bridge)
    assert discord.titles() == [f"#{sealed.seq} {player.get_username()}"]


def test_what_members_type_can_neither_ping_nor_break_out_of_its_formatting(
    table, bridge, discord, player
):
    chat(table, player, "@everyone <@123> **bold** [link](https://evil.example) ||spoiler|| # head")
    deliver(bridge)
    [sent] = discord.requests
    assert sent.body["allowed_mentions"] == {"parse": []}
    text = sent.body["embeds"][0]["description"]
    assert text == (
        "\\@everyone \\<\\@123\\> \\*\\*bold\\*\\* \\[link\\]\\(https\\://evil.example\\) "
        "\\|\\|spoiler\\|\\| \\# head"
    )


def test_plain_text_keeps_every_character_and_escapes_each_markdown_one():
    assert posts.plain("a_b*c~d`e|f>g#h-i[j]k(l)m<n@o:p\\q") == (
        "a\\_b\\*c\\~d\\`e\\|f\\>g\\#h\\-i\\[j\\]k\\(l\\)m\\<n\\@o\\:p\\\\q"
    )
    assert posts.plain("two\nlines") == "two lines"


def test_the_posts_are_in_the_bridges_language_not_the_rollers(table, bridge, discord, player):
    DiscordBridge.objects.filter(pk=bridge.pk).update(language="pl")
    roll(table.session, player, character=table.hero)
    deliver(bridge)
    [embed] = discord.posted()
    assert "\nSzanse: " in embed["description"]
    assert "Odds" not in embed["description"]


def test_the_sessions_start_and_end_are_posted(table, bridge, discord):
    end_session(table.session)
    start_session(table.campaign, "Druga noc")
    deliver(bridge)
    titles = discord.titles()
    assert titles == [
        "The session has ended",
        f"Recap: {posts.plain(str(table.session))}",
        "The session has started",
    ]
    assert discord.posted()[2]["description"] == "Druga noc"


def test_the_recap_posted_at_the_end_counts_the_public_entries_alone(
    table, bridge, discord, player, other_player
):
    from tests.web.dice import Scripted

    roll(table.session, player, rng=Scripted(3, 6, 6))  # chance 6: a "yes, and"
    roll(table.session, other_player, visibility=Visibility.SECRET, rng=Scripted(1, 6, 6))
    chat(table, player, "[[1d6]]", visibility=Visibility.WHISPER, recipient=other_player,
         inline=["1d6"])  # fmt: skip
    deliver(bridge)
    discord.messages.clear()
    end_session(table.session)
    deliver(bridge)
    [_ended, recap] = discord.posted()
    assert recap["title"] == f"Recap: {posts.plain(str(table.session))}"
    assert recap["url"].endswith(f"/sessions/{table.session.pk}/recap/")
    said = recap["description"].split("\n")
    assert said[:2] == ["**player**", posts.plain("1 roll, 1 test: 1 success, 0 failures")]
    assert posts.plain("Criticals: 1; catastrophes: 0.") in said
    assert other_player.get_username() not in recap["description"]


def test_whose_turn_it_is_is_posted_and_a_hidden_npc_stays_unnamed(table, bridge, discord):
    from sheets.models import NPC

    new_round(table.session)
    start_turn(table.session, table.hero)
    npc = NPC.objects.create(campaign=table.campaign, name="Tajny Smok", traits=[])
    from rolls.turns.fight import mark, where

    locked, scene, last = where(table.session)
    mark(locked, scene, last, 1, None, npc)
    deliver(bridge)
    assert discord.titles() == [
        "Round 1 begins",
        "Round 1: Brunhilda's turn",
        "Round 1: an NPC's turn",
    ]
    assert "Smok" not in str(discord.requests[0].body)


# --- Order, batching, edits -----------------------------------------------------------------------


def test_entries_that_pile_up_go_in_order_ten_to_a_message(table, bridge, discord, player):
    made = [roll(table.session, player) for _ in range(12)]
    assert deliver(bridge) == 12
    assert [len(sent.body["embeds"]) for sent in discord.requests] == [10, 2]
    assert [title.split()[0] for title in discord.titles()] == [f"#{r.seq}" for r in made]
    assert DiscordPost.objects.filter(bridge=bridge, sent_at=None).count() == 0


def test_a_struck_entrys_post_is_edited_to_show_it_struck(table, bridge, discord, player, gm):
    first, _second = roll(table.session, player), roll(table.session, player)
    deliver(bridge)
    [message_id] = discord.messages
    strike(campaign=table.campaign, gm=gm, roll_id=first.pk, reason="zły rzut", key=uuid.uuid4())
    deliver(bridge)
    edit = next(sent for sent in discord.requests if sent.method == "PATCH")
    assert edit.path == f"{WEBHOOK_PATH}/messages/{message_id}"
    struck, standing = edit.body["embeds"]
    assert struck["description"].startswith("~~")
    assert "zły rzut" in struck["description"]
    assert struck["color"] == posts.STRUCK_COLOUR
    assert not standing["description"].startswith("~~")
    # The strike is an entry of the log too, posted after the edit.
    assert discord.titles()[-1].startswith("#3")


def test_an_entry_struck_before_its_post_left_is_posted_struck(table, bridge, discord, player, gm):
    first = roll(table.session, player)
    strike(campaign=table.campaign, gm=gm, roll_id=first.pk, reason="pomyłka", key=uuid.uuid4())
    deliver(bridge)
    assert discord.posted()[0]["description"].startswith("~~")
    assert [sent.method for sent in discord.requests] == ["POST", "PATCH"]


# --- What Discord answers ----------------------------------------------------------------------


def test_a_rate_limit_waits_as_long_as_discord_says_then_posts_everything_once(
    table, bridge, discord, player
):
    made = [roll(table.session, player) for _ in range(3)]
    for _ in range(4):  # a storm of 429s
        discord.then(429, {"message": "You are being rate limited.", "retry_after": 2.5})
    before = timezone.now()
    assert deliver(bridge) == 0
    after = timezone.now()
    waiting = fresh(bridge)
    wait = timedelta(seconds=2.5)
    assert before + wait <= waiting.next_try_at <= after + wait
    assert "2.5 s" in waiting.last_error
    assert deliver(bridge) == 0  # not before it may
    assert len(discord.requests) == 1
    for _ in range(4):
        due_now(bridge)
        deliver(bridge)
    assert [title.split()[0] for title in discord.titles()] == [f"#{r.seq}" for r in made]
    assert fresh(bridge).last_error == ""


def test_an_empty_rate_limit_bucket_waits_before_the_next_request(table, bridge, discord, player):
    roll(table.session, player)
    discord.then(200, {"id": "77"}, {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "4"})
    before = timezone.now()
    deliver(bridge)
    after = timezone.now()
    roll(table.session, player)
    deliver(bridge)
    assert len(discord.requests) == 1  # the second entry waits for the bucket to refill
    refill = timedelta(seconds=4)
    assert before + refill <= fresh(bridge).next_try_at <= after + refill
    due_now(bridge)
    deliver(bridge)
    assert len(discord.requests) == 2


def test_network_errors_back_off_longer_each_time_and_the_gm_sees_since_when_and_why(
    table, bridge, discord, player
):
    roll(table.session, player)
    discord.close_next(2)
    first = timezone.now()
    deliver(bridge)
    failing = fresh(bridge)
    assert failing.failures == 1
    assert first + timedelta(seconds=1) <= failing.next_try_at
    assert failing.failing_since is not None
    assert failing.last_error.startswith("Discord could not be reached")
    due_now(bridge)
    before = timezone.now()
    deliver(bridge)
    after = timezone.now()
    again = fresh(bridge)
    assert again.failures == 2
    assert again.failing_since == failing.failing_since
    # The second failure waits courier.backoff(2), two seconds: twice the first.
    assert before + timedelta(seconds=2) <= again.next_try_at <= after + timedelta(seconds=2)
    due_now(bridge)
    assert deliver(bridge) == 1
    healed = fresh(bridge)
    assert (healed.failures, healed.failing_since, healed.last_error) == (0, None, "")


def test_a_server_error_is_retried_and_the_entry_posted_once(table, bridge, discord, player):
    roll(table.session, player)
    discord.then(502, {"message": "Bad Gateway"})
    deliver(bridge)
    assert fresh(bridge).last_error == "Discord answered 502."
    due_now(bridge)
    deliver(bridge)
    assert len(discord.posted()) == 1


def test_the_back_off_doubles_up_to_five_minutes():
    assert [courier.backoff(n) for n in (1, 2, 3, 9, 10, 50)] == [1, 2, 4, 256, 300, 300]


def test_a_deleted_webhook_stops_the_bridge_with_a_message_to_the_gm(
    client, table, bridge, discord, player, gm
):
    roll(table.session, player)
    discord.then(404, {"message": "Unknown Webhook", "code": 10015})
    deliver(bridge)
    stopped = fresh(bridge)
    assert stopped.gone
    assert "no longer exists (404)" in stopped.last_error
    roll(table.session, player)
    due_now(bridge)
    deliver(bridge)
    assert len(discord.requests) == 1  # nothing more is tried
    client.force_login(gm)
    page = client.get(reverse("discord_bridge", args=[table.campaign.pk])).content.decode()
    assert "stopped" in page
    assert "no longer exists (404)" in page


def test_a_post_discord_refuses_is_dropped_with_its_reason_and_the_rest_go_on(
    table, bridge, discord, player
):
    made = [roll(table.session, player) for _ in range(3)]
    discord.then(400, {"message": "Invalid Form Body", "code": 50035})  # the batch
    discord.then(200, {"id": "501"})  # then each alone: the first goes
    discord.then(400, {"message": "Invalid Form Body", "code": 50035})  # the second does not
    assert deliver(bridge) == 2
    dropped = DiscordPost.objects.get(bridge=bridge, roll=made[1])
    assert dropped.dropped == "Discord refused it: Invalid Form Body"
    assert DiscordPost.objects.filter(bridge=bridge, sent_at=None, dropped="").count() == 0


# --- Restarts and several couriers ------------------------------------------------------------


def test_a_courier_that_died_holding_the_bridge_is_replaced_once_its_lease_runs_out(
    table, bridge, discord, player
):
    made = [roll(table.session, player) for _ in range(3)]
    DiscordBridge.objects.filter(pk=bridge.pk).update(
        lease_owner="dead-process", lease_until=timezone.now() + timedelta(seconds=30)
    )
    assert deliver(bridge, "restarted") == 0  # its lease still holds
    DiscordBridge.objects.filter(pk=bridge.pk).update(lease_until=timezone.now())
    assert deliver(bridge, "restarted") == 3
    assert [title.split()[0] for title in discord.titles()] == [f"#{r.seq}" for r in made]


def test_what_was_queued_before_a_restart_is_delivered_after_it(table, bridge, discord, player):
    made = [roll(table.session, player) for _ in range(15)]
    discord.then(200, {"id": "900"})
    discord.close_next()  # the process "dies" on its second message
    deliver(bridge)
    assert DiscordPost.objects.filter(bridge=bridge, sent_at=None).count() == 5
    due_now(bridge)
    courier.deliver_due("another-process")
    assert DiscordPost.objects.filter(bridge=bridge, sent_at=None).count() == 0
    sent = [embed["title"].split()[0] for r in discord.requests for embed in r.body["embeds"]]
    # Ten in the first message; the five of the lost one are sent again after the restart.
    assert [len(r.body["embeds"]) for r in discord.requests] == [10, 5, 5]
    assert sent[:10] + sent[-5:] == [f"#{r.seq}" for r in made]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_couriers_at_once_never_post_one_entry_twice(table, discord, player, postgres_url):
    # Several workers share PostgreSQL (the embedded SQLite has one process, one courier).
    bridge = actions.connect(table.campaign, url=discord.url, language="en", site=SITE)
    made = [roll(table.session, player) for _ in range(40)]
    start = threading.Barrier(2)

    def run(owner: str) -> None:
        start.wait()
        try:
            for _ in range(50):
                courier.deliver_due(owner)
                if not DiscordPost.objects.filter(bridge=bridge, sent_at=None).exists():
                    return
        finally:
            connection.close()

    workers = [threading.Thread(target=run, args=(f"worker-{n}",)) for n in (1, 2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    titles = [title.split()[0] for title in discord.titles() if title.startswith("#")]
    assert titles == [f"#{r.seq}" for r in made]


@pytest.mark.django_db(transaction=True)
def test_the_courier_thread_posts_a_committed_roll_without_waiting_for_its_poll(
    table, discord, player, monkeypatch
):
    actions.connect(table.campaign, url=discord.url, language="en", site=SITE)
    monkeypatch.setattr(courier, "POLL_SECONDS", 60.0)
    running = courier.Courier().start()
    try:
        # Its first round done, the courier waits for a wake: the roll meets no delivery under
        # way (in-memory SQLite's shared cache refuses a write beside another at once).
        _wait_for(lambda: discord.titles() == ["The Table is connected"] and running.rounds)
        entry = roll(table.session, player)
        _wait_for(lambda: len(discord.titles()) == 2)
    finally:
        running.stop()
    assert discord.titles()[1].startswith(f"#{entry.seq} ")
    assert not running.thread.is_alive()


def test_a_courier_that_meets_an_error_tries_again_soon_not_after_a_whole_poll(monkeypatch):
    calls = []

    def busy_then_fine(owner):
        calls.append(time.monotonic())
        if len(calls) == 1:
            raise OperationalError("database table is locked")
        running.stopping.set()  # one round after the error is enough: as ``stop()`` does
        outbox.queued.set()

    monkeypatch.setattr(courier, "deliver_due", busy_then_fine)
    monkeypatch.setattr(courier, "POLL_SECONDS", 60.0)
    running = courier.Courier()
    running.start().thread.join(timeout=10)  # its own thread, as the server runs it
    outbox.queued.clear()
    assert len(calls) == 2
    assert calls[1] - calls[0] < 1.0


def _wait_for(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the courier did not deliver in time"
        time.sleep(0.02)


# --- What a roll pays -------------------------------------------------------------------------


def test_a_roll_at_a_table_without_a_bridge_costs_no_statement_more(table, player):
    with CaptureQueriesContext(connection) as public:
        roll(table.session, player)
    with CaptureQueriesContext(connection) as hidden:
        roll(table.session, player, visibility=Visibility.HIDDEN)
    assert not [q for q in public.captured_queries if "rolls_discordpost" in q["sql"]]
    assert len(public.captured_queries) == len(hidden.captured_queries)
    assert not DiscordPost.objects.exists()


def test_a_public_roll_at_a_table_with_a_bridge_costs_one_insert_more(table, bridge, player):
    with CaptureQueriesContext(connection) as public:
        roll(table.session, player)
    with CaptureQueriesContext(connection) as hidden:
        roll(table.session, player, visibility=Visibility.HIDDEN)
    queued = [q["sql"] for q in public.captured_queries if "rolls_discordpost" in q["sql"]]
    assert len(queued) == 1
    assert queued[0].startswith("INSERT")
    assert len(public.captured_queries) == len(hidden.captured_queries) + 1


def test_a_rolled_back_roll_posts_nothing(table, bridge, discord, player):
    from django.db import transaction

    def roll_then_fail() -> None:
        with transaction.atomic():
            roll(table.session, player)
            raise RuntimeError("the request failed after the roll")

    with pytest.raises(RuntimeError):
        roll_then_fail()
    deliver(bridge)
    assert discord.requests == []


# --- The GM's page ----------------------------------------------------------------------------


def page_of(table) -> str:
    return reverse("discord_bridge", args=[table.campaign.pk])


def test_the_gm_connects_a_webhook_and_the_channel_gets_a_test_message(client, table, discord, gm):
    client.force_login(gm)
    response = client.post(page_of(table), {"url": discord.url, "language": "pl"}, follow=True)
    assert response.status_code == 200
    bridge = DiscordBridge.objects.get(campaign=table.campaign)
    assert (bridge.language, bridge.site, bridge.active) == ("pl", "http://testserver/", True)
    deliver(bridge)
    assert discord.titles() == ["Stół jest połączony"]  # in the language the GM chose
    assert "Stół" in discord.posted()[0]["description"]


def test_the_webhooks_token_is_never_shown_again_once_saved(client, table, bridge, gm):
    client.force_login(gm)
    page = client.get(page_of(table)).content.decode()
    assert "T0KEN" not in page
    assert "127.0.0.1" in page
    assert "1234567890" in page


def test_an_address_that_is_no_discord_webhook_is_refused_where_it_was_typed(client, table, gm):
    client.force_login(gm)
    typed = "https://evil.example/api/webhooks/1/abc"
    response = client.post(page_of(table), {"url": typed, "language": "en"})
    assert response.status_code == 422
    page = response.content.decode()
    assert "Only a Discord webhook can be connected" in page
    assert f'value="{typed}"' in page  # nothing lost of what was typed
    assert not DiscordBridge.objects.exists()


@pytest.mark.parametrize("who", ["player", "outsider"])
def test_no_one_but_the_gm_reaches_the_page_or_its_writes(client, table, bridge, who, request):
    client.force_login(request.getfixturevalue(who))
    assert client.get(page_of(table)).status_code == 404
    assert client.post(page_of(table), {"do": "remove"}).status_code == 404
    assert client.post(page_of(table), {"url": "https://discord.com/api/webhooks/1/x",
                                        "language": "en"}).status_code == 404  # fmt: skip
    state = reverse("discord_state", args=[table.campaign.pk])
    assert client.get(state).status_code == 404
    assert DiscordBridge.objects.get(pk=bridge.pk).webhook_url == bridge.webhook_url


def test_the_gm_of_another_table_cannot_reach_this_ones_bridge(
    client, table, bridge, make_table, make_user
):
    other_gm = make_user("inny-mg")
    make_table(gm=other_gm, players=1, characters=())
    client.force_login(other_gm)
    assert client.get(page_of(table)).status_code == 404
    assert client.post(page_of(table), {"do": "off"}).status_code == 404
    assert fresh(bridge).active


def test_a_forged_action_is_refused_and_changes_nothing(client, table, bridge, gm):
    client.force_login(gm)
    response = client.post(page_of(table), {"do": "explode"})
    assert response.status_code == 400
    assert "malformed" in response.content.decode()
    assert fresh(bridge).active


def test_switched_off_nothing_is_queued_and_what_waited_is_dropped(
    client, table, bridge, discord, gm, player
):
    roll(table.session, player)
    client.force_login(gm)
    client.post(page_of(table), {"do": "off"})
    roll(table.session, player)
    assert DiscordPost.objects.filter(bridge=bridge, sent_at=None, dropped="").count() == 0
    deliver(bridge)
    assert discord.requests == []
    client.post(page_of(table), {"do": "on"})
    entry = roll(table.session, player)
    deliver(bridge)
    assert discord.titles() == [f"#{entry.seq} {player.get_username()}"]


def test_a_second_test_message_waits_for_the_first(client, table, bridge, gm):
    client.force_login(gm)
    client.post(page_of(table), {"do": "test"})
    page = client.post(page_of(table), {"do": "test"}, follow=True).content.decode()
    assert "already on its way" in page
    assert DiscordPost.objects.filter(bridge=bridge, kind="test", sent_at=None).count() == 1


def test_connecting_again_while_the_test_message_waits_queues_no_second_one(
    client, table, discord, gm
):
    client.force_login(gm)
    for _ in range(3):
        client.post(page_of(table), {"url": discord.url, "language": "en"})
    assert DiscordPost.objects.filter(kind="test", sent_at=None).count() == 1


def test_a_test_without_a_bridge_or_while_it_is_off_is_refused_with_a_sentence(client, table, gm):
    client.force_login(gm)
    response = client.post(page_of(table), {"do": "test"})
    assert response.status_code == 409
    assert "Connect a webhook first" in response.content.decode()


def test_disconnecting_removes_the_webhook_and_its_queue(client, table, bridge, gm, player):
    roll(table.session, player)
    client.force_login(gm)
    client.post(page_of(table), {"do": "remove"})
    assert not DiscordBridge.objects.exists()
    assert not DiscordPost.objects.exists()


def test_a_new_webhook_pasted_after_discord_deleted_the_old_one_starts_again(
    client, table, bridge, discord, gm, player
):
    DiscordBridge.objects.filter(pk=bridge.pk).update(gone=True, last_error="gone")
    client.force_login(gm)
    client.post(page_of(table), {"url": discord.url, "language": "en"})
    again = fresh(bridge)
    assert (again.gone, again.last_error) == (False, "")
    deliver(again)
    assert discord.titles() == ["The Table is connected"]


def test_the_state_shows_what_waits_and_refreshes_itself_only_while_posts_wait(
    client, table, bridge, gm, player
):
    client.force_login(gm)
    state = reverse("discord_state", args=[table.campaign.pk])
    assert "hx-trigger" not in client.get(state).content.decode()
    roll(table.session, player)
    waiting = client.get(state).content.decode()
    assert "1 post" in waiting
    assert 'hx-trigger="every 3s"' in waiting


def test_the_settings_page_links_to_the_discord_page(client, table, gm):
    client.force_login(gm)
    settings_page = client.get(reverse("campaign_settings", args=[table.campaign.pk]))
    assert page_of(table) in settings_page.content.decode()
