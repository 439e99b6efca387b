"""Table pages that open at once are let in a few dozen at a time, in the order they came.

After a restart every open page comes back within a second (static/js/table.js). Let in all
at once, each page's login, membership check and place interleave with every other's on the
one event loop and the one database thread, so each page is live only once nearly all are: of
700 pages, half were back 4.1 s after the server answered and the last after 5.2 s (medians of
six restarts). Let in ``AT_ONCE`` at a time, in the order they came, they are back one after
another: half within 2.3 s, the last after 4.4 s, for less CPU (docs/performance.md). Eight at
a time left the server idle between a page's trips to the database thread: the last page came
later than with no turns at all.

A page holds its turn until the app accepts or refuses its socket (or fails), which is the
server's own work: a page that never speaks cannot keep the others waiting. A page waiting for
its turn costs a connection and nothing else; the browser waits for the handshake.
"""

from __future__ import annotations

import asyncio

AT_ONCE = 32


class Arrivals:
    """ASGI middleware of the table's websockets: at most ``at_once`` opening at a time."""

    def __init__(self, application, at_once: int = AT_ONCE) -> None:
        self.application = application
        self.at_once = at_once
        self.turns: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None

    def _turns(self) -> asyncio.Semaphore:
        # One per event loop (the tests run one per test); a server runs one.
        loop = asyncio.get_running_loop()
        if self.turns is None or self.turns[0] is not loop:
            self.turns = (loop, asyncio.Semaphore(self.at_once))
        return self.turns[1]

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.application(scope, receive, send)
        turns = self._turns()
        await turns.acquire()
        held = True

        def give_up() -> None:
            nonlocal held
            if held:
                held = False
                turns.release()

        async def answer(message) -> None:
            if message["type"] in ("websocket.accept", "websocket.close"):
                give_up()
            await send(message)

        try:
            return await self.application(scope, receive, answer)
        finally:
            give_up()
