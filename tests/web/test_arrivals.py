"""Pages that open at once are let in a few at a time, in the order they came (config/arrivals.py):
after a restart, half of 700 returning pages were live in about half the time."""

from __future__ import annotations

import asyncio

import pytest

from config import asgi
from config.arrivals import Arrivals

SOCKET = {"type": "websocket", "path": "/ws/campaigns/1/"}


class Pages:
    """An app whose sockets each wait to be answered by the test: who is in, in what order."""

    def __init__(self) -> None:
        self.inside: list[int] = []
        self.came_in: list[int] = []
        self.answers: dict[int, asyncio.Future] = {}

    async def __call__(self, scope, receive, send) -> None:
        page = scope["page"]
        self.inside.append(page)
        self.came_in.append(page)
        self.answers[page] = asyncio.get_running_loop().create_future()
        try:
            answer = await self.answers[page]
            if answer == "fail":
                raise RuntimeError("the app failed")
            if answer:
                await send({"type": f"websocket.{answer}"})
                await asyncio.Future()  # the socket's life, until the test ends it
        finally:
            self.inside.remove(page)

    def answer(self, page: int, how: str | None) -> None:
        self.answers[page].set_result(how)


async def opening(arrivals: Arrivals, count: int) -> list[asyncio.Task]:
    """``count`` pages opening one after the other, each waiting for its turn or let in."""
    sent: list[dict] = []

    async def send(message) -> None:
        sent.append(message)

    tasks = []
    for page in range(count):
        tasks.append(asyncio.create_task(arrivals(SOCKET | {"page": page}, None, send)))
        await asyncio.sleep(0)  # in this order
    await asyncio.sleep(0)
    return tasks


async def settled() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_pages_opening_at_once_are_let_in_so_many_at_a_time_in_the_order_they_came():
    pages = Pages()
    tasks = await opening(Arrivals(pages, at_once=2), 5)
    assert pages.inside == [0, 1]
    pages.answer(1, "accept")
    await settled()
    assert pages.came_in == [0, 1, 2]
    pages.answer(0, "accept")
    pages.answer(2, "accept")
    await settled()
    assert pages.came_in == [0, 1, 2, 3, 4]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


@pytest.mark.parametrize("how", ["accept", "close", "fail", None])
async def test_a_page_gives_up_its_turn_once_accepted_refused_or_its_app_ended(how):
    pages = Pages()
    tasks = await opening(Arrivals(pages, at_once=1), 2)
    assert pages.came_in == [0]
    pages.answer(0, how)
    await settled()
    assert pages.came_in == [0, 1]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def test_an_accepted_page_stays_open_after_its_turn():
    pages = Pages()
    tasks = await opening(Arrivals(pages, at_once=1), 1)
    pages.answer(0, "accept")
    await settled()
    assert pages.inside == [0]
    tasks[0].cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def test_the_table_sockets_are_let_in_in_turn_once_their_origin_is_checked():
    checked = asgi.application.application_mapping["websocket"]
    assert isinstance(checked.application, Arrivals)
