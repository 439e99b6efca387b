"""Scale-out: two ASGI worker processes on PostgreSQL and Redis act as one table."""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import re
import urllib.parse
import urllib.request
import uuid

import pytest
from django.conf import global_settings
from django.db import connection
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from campaigns.sessions import new_scene
from rolls.live.consumers import CLOSE_NOT_A_MEMBER
from tests.web.servers import app_env, uvicorn
from tests.web.test_panel_fasttest import SHEET

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


class Browser:
    """A logged-in HTTP client with cookies, like a page would have."""

    def __init__(self, base: str, username: str, password: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        page = self.opener.open(f"{base}/accounts/login/").read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        self.post("/accounts/login/", {"username": username, "password": password,
                                       "csrfmiddlewaretoken": token})  # fmt: skip

    def cookie(self, name: str) -> str:
        return next(c.value for c in self.jar if c.name == name)

    def post(self, path: str, form: dict) -> str:
        request = urllib.request.Request(
            f"{self.base}{path}",
            data=urllib.parse.urlencode(form, doseq=True).encode(),
            headers={"X-CSRFToken": self.cookie("csrftoken")},
        )
        return self.opener.open(request).read().decode()


def open_socket(stack, base: str, campaign_id: int, session_cookie: str, session_id: int):
    ws = stack.enter_context(
        connect(
            f"{base.replace('http', 'ws')}/ws/campaigns/{campaign_id}/?lang=en",
            additional_headers={"Cookie": f"sessionid={session_cookie}", "Origin": base},
            open_timeout=10,
        )
    )
    ws.send(json.dumps({"type": "since", "session": session_id, "seq": 0}))
    while json.loads(ws.recv(timeout=10))["type"] != "synced":
        pass
    return ws


def read_until_closed(ws) -> None:
    while True:
        ws.recv(timeout=10)


def next_entry(ws) -> dict:
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] == "entry":
            return message


@contextlib.contextmanager
def two_workers(make_table, redis_url, settings, users, layer: str):
    """A FastTest table with a scene, served by two workers on PostgreSQL and Redis: yields the
    table and the two workers' base URLs; each of ``users`` can log in to them."""
    # The servers hash passwords the real way; the test's fast hasher is unknown to them.
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS
    for user in users:
        user.set_password("a-long-test-password")
        user.save()
    table = make_table(title="Noc pierwsza")
    table.hero.data = SHEET
    table.hero.save()
    new_scene(table.session)
    db = connection.settings_dict
    env = app_env(
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}",
        REDIS_URL=redis_url,
        REDIS_CHANNEL_LAYER=layer,
    )
    with uvicorn(env) as first, uvicorn(env) as second:
        yield table, first, second


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("layer", ["pubsub", "core"])
def test_a_roll_through_one_worker_reaches_sockets_on_both(
    make_table, postgres_url, redis_url, settings, gm, player, other_player, layer
):
    users = (player, other_player)
    with (
        two_workers(make_table, redis_url, settings, users, layer) as (table, first, second),
        contextlib.ExitStack() as stack,
    ):
        campaign, hero, session = table.campaign, table.hero, table.session
        roller = Browser(first, "player", "a-long-test-password")
        watcher = Browser(second, "other", "a-long-test-password")
        on_first = open_socket(stack, first, campaign.pk, roller.cookie("sessionid"), session.pk)
        on_second = open_socket(stack, second, campaign.pk, watcher.cookie("sessionid"), session.pk)
        roller.post(
            f"/c/{campaign.pk}/characters/{hero.pk}/test/roll/",
            {"attribute": "BUDOWA", "skill": "WALKA", "key": str(uuid.uuid4())},
        )
        seen = [next_entry(on_first), next_entry(on_second)]
    assert [entry["seq"] for entry in seen] == [1, 1]
    assert all("BUDOWA 7 + WALKA +2" in entry["html"] for entry in seen)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("layer", ["pubsub", "core"])
def test_a_player_removed_through_one_worker_has_their_page_on_the_other_closed(
    make_table, postgres_url, redis_url, settings, gm, player, layer
):
    with (
        two_workers(make_table, redis_url, settings, (gm, player), layer) as (table, first, second),
        contextlib.ExitStack() as stack,
    ):
        campaign, session = table.campaign, table.session
        removed = Browser(first, "player", "a-long-test-password")
        page = open_socket(stack, first, campaign.pk, removed.cookie("sessionid"), session.pk)
        Browser(second, "gm", "a-long-test-password").post(
            f"/c/{campaign.pk}/players/{player.pk}/remove/", {}
        )
        with pytest.raises(ConnectionClosed) as closed:
            read_until_closed(page)
    assert closed.value.rcvd.code == CLOSE_NOT_A_MEMBER
