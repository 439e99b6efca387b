"""Helpers for the live-table tests: seating a table, rolling on it, and socket clients (the table
itself comes from the ``make_table`` fixture, tests/web/conftest.py)."""

from __future__ import annotations

import uuid

from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from campaigns.models import Membership
from config.asgi import application
from rolls import actions

FASTTEST_TEST = {"attribute": 5, "skills": [1], "bonus": 1, "penalty": 0}


def roll(session, actor, visibility="public", key=None, **extra):
    rng = extra.pop("rng", None)
    created, _ = actions.record_roll(
        actions.RollSpec(
            session=session,
            actor=actor,
            system="fasttest",
            params=FASTTEST_TEST,
            key=key or uuid.uuid4(),
            label="BUDOWA + WALKA",
            visibility=visibility,
            **extra,
        ),
        rng=rng,
    )
    return created


def socket_for(
    user, campaign, origin: bytes = b"http://localhost", lang: str = "en", path: str = ""
):
    """A websocket communicator logged in as ``user`` (None: anonymous), of the table's socket
    or of the one at ``path`` (the GM's view of a player's table: ``/ws/view/<c>/<u>/``)."""
    # Here, not at the top: channels.testing imports daphne, a dev requirement only, and the
    # rolling helpers of this module serve bench/pages.py after a plain ``make install``.
    from channels.testing import WebsocketCommunicator

    headers = [(b"host", b"localhost")]  # where a page of http://localhost opens it
    if origin is not None:
        headers.append((b"origin", origin))
    if user is not None:
        client = Client()
        client.force_login(user)
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return WebsocketCommunicator(
        application, f"{path or f'/ws/campaigns/{campaign.pk}/'}?lang={lang}", headers=headers
    )


async def connected(user, campaign):
    """A socket of ``user``'s page of the table, connected."""
    socket = await sync_to_async(socket_for)(user, campaign)
    ok, _ = await socket.connect()
    assert ok
    return socket


async def close_code(socket) -> int:
    """The close that ends the socket, skipping what was on its way before it."""
    while True:
        message = await socket.receive_output(timeout=3)
        if message["type"] == "websocket.close":
            return message["code"]


async def sync(socket, session, seq=0) -> list[dict]:
    """Ask for the entries after ``seq``: the frames the replay sends, up to "synced"."""
    await socket.send_json_to({"type": "since", "session": session.pk, "seq": seq})
    frames = []
    while True:
        frame = await socket.receive_json_from(timeout=3)
        if frame["type"] == "synced":
            return frames
        frames.append(frame)


async def frame_of(socket, kind: str, seq: int) -> dict:
    """The next frame of ``kind`` for entry ``seq`` (other frames of the table are skipped)."""
    while True:
        frame = await socket.receive_json_from(timeout=3)
        if frame["type"] == kind and frame.get("seq") == seq:
            return frame


def panel_url(hero, name: str = "test_panel") -> str:
    """The test panel of a character (or, with ``name``, its roll endpoint)."""
    return reverse(name, args=[hero.campaign_id, hero.pk])


def seat(campaign, gm, *players) -> None:
    """Make ``gm`` the campaign's GM member and each of ``players`` a player in it."""
    Membership.objects.create(campaign=campaign, user=gm, role=Membership.Role.GM)
    for player in players:
        Membership.objects.create(campaign=campaign, user=player)
