"""Who is at the table across two ASGI workers on PostgreSQL and Redis."""

from __future__ import annotations

import contextlib
import json

import pytest
from django.conf import global_settings
from django.db import connection
from django.urls import reverse
from websockets.sync.client import connect

from tests.web.servers import app_env, uvicorn
from tests.web.test_panel_fasttest import SHEET
from tests.web.test_scale_out import Browser

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def page_socket(stack, base: str, campaign_id: int, browser: Browser):
    """A socket as a page with the log opens it: one that shows who is at the table."""
    return stack.enter_context(
        connect(
            f"{base.replace('http', 'ws')}/ws/campaigns/{campaign_id}/?lang=en&presence=1",
            additional_headers={
                "Cookie": f"sessionid={browser.cookie('sessionid')}",
                "Origin": base,
            },  # fmt: skip
            open_timeout=10,
        )
    )


def presence_naming(ws, name: str, state: str) -> str:
    """The first presence frame that lists ``name`` in ``state``."""
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] != "presence":
            continue
        for item in message["html"].split("<li")[1:]:
            if f">{name}<" in item and f'data-presence-state="{state}"' in item:
                return item


def listed_on(browser: Browser, path: str) -> str:
    page = browser.opener.open(f"{browser.base}{path}").read().decode()
    start = page.index("data-presence-list")
    return page[start : page.index("</ul>", start)]


def row_of(listed: str, name: str) -> str:
    return next(item for item in listed.split("<li")[1:] if f">{name}<" in item)


@pytest.mark.django_db(transaction=True)
def test_a_socket_on_one_worker_shows_on_a_page_and_socket_of_the_other(
    make_table, postgres_url, redis_url, settings, gm, player, other_player
):
    # The servers hash passwords the real way; the test's fast hasher is unknown to them.
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS
    for user in (gm, player):
        user.set_password("a-long-test-password")
        user.save()
    table = make_table(title="Noc pierwsza")
    campaign, hero = table.campaign, table.hero
    hero.data = SHEET
    hero.save()
    db = connection.settings_dict
    env = app_env(
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}",
        REDIS_URL=redis_url,
        PRESENCE_GRACE_SECONDS="30",
    )
    dashboard = reverse("dashboard", args=[campaign.pk])
    with uvicorn(env) as first, uvicorn(env) as second, contextlib.ExitStack() as stack:
        the_gm = Browser(second, "gm", "a-long-test-password")
        the_player = Browser(first, "player", "a-long-test-password")
        assert ">player<" not in listed_on(the_gm, dashboard)
        watching = page_socket(stack, second, campaign.pk, the_gm)
        presence_naming(watching, "gm", "here")

        with connect(
            f"{first.replace('http', 'ws')}/ws/campaigns/{campaign.pk}/?lang=en&presence=1",
            additional_headers={
                "Cookie": f"sessionid={the_player.cookie('sessionid')}",
                "Origin": first,
            },  # fmt: skip
            open_timeout=10,
        ):
            arrived = presence_naming(watching, "player", "here")
            assert "Brunhilda" in arrived
            assert "data-away-in" not in arrived
            listed = listed_on(the_gm, dashboard)
            assert ">player<" in listed
            assert "Brunhilda" in listed
            assert ">other<" not in listed  # a member with no page open
        # Closed on the first worker: the second hears it, still here for the grace.
        left = presence_naming(watching, "player", "here")
        assert 'data-away-in="' in left
        row = row_of(listed_on(the_gm, dashboard), "player")
        assert 'data-presence-state="here"' in row
        assert 'data-away-in="' in row
