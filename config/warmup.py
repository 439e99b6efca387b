"""What a fresh server would otherwise do on its first requests, done once as it starts.

Django compiles a template the first time it is rendered, loads a language's translations (and
imports its number formats) the first time the language is used, and builds its URL resolver
on the first reverse; the first roll after a start paid for all of it (25 to 52 ms against a
warm roll's 5 to 10: docs/performance.md). ``warm_up()`` (config/asgi.py) compiles every
template of the project's own template directories (``DIRS``) into the cached loader, loads
each language's catalog and formats, reads the app's stored words in every language
(``campaigns.stored_text``: 1.5 ms on the first roll's label) and builds the resolver. It
touches no database and no cache, so importing the ASGI application stays possible without
either, and it starts no thread (the browser tests' zygote forks the imported application).

``connect()`` then runs as the server starts serving (the ASGI lifespan's startup): each worker
thread opens its database connection and its cache's, and the channel layer its own. The first
roll otherwise opened them (1 ms on SQLite, 4 to 8 ms for PostgreSQL, and Redis' on top). A
database or cache that does not answer yet only leaves them to the first request, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import TypeVar

from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.template import engines
from django.urls import get_resolver
from django.utils import formats, translation

from campaigns import stored_text
from campaigns.systems import all_systems
from rolls.discord.courier import Courier

logger = logging.getLogger(__name__)
T = TypeVar("T")


def warm_up() -> int:
    """Compile the templates, load the translations and the URLs; the templates compiled."""
    compiled = 0
    for engine in engines.all():
        for folder in getattr(engine, "dirs", ()):
            for path in sorted(Path(folder).rglob("*.html")):
                engine.get_template(path.relative_to(folder).as_posix())
                compiled += 1
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Rolled")
            # Each language's number formats are a module imported on first use.
            formats.localize(1.5)
    get_resolver().reverse_dict  # noqa: B018 (built on first use)
    all_systems()
    stored_text.as_read("warm-up")  # its messages in every language, read on first use
    return compiled


def lifespan(threads: Executor, count: int):
    """The ASGI lifespan app of a server whose ``count`` worker threads are ``threads``: as the
    server starts, they connect (``connect``), and the Discord bridge's courier starts
    (rolls.discord.courier: it delivers what the table posts to the group's channel)."""

    async def app(scope, receive, send) -> None:
        courier = None
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await connect(threads, count)
                courier = Courier().start() if settings.DISCORD_COURIER else None
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if courier is not None:
                    await asyncio.to_thread(courier.stop)
                await send({"type": "lifespan.shutdown.complete"})
                return

    return app


async def connect(threads: Executor, count: int) -> None:
    """Open each of the ``count`` worker threads' connections, and the channel layer's."""
    opened = each_thread(threads, count, _open)
    await asyncio.gather(*(asyncio.wrap_future(done) for done in opened))
    try:
        await get_channel_layer().group_send("warm-up", {"type": "warm.up"})
    except Exception:  # Redis not answering yet: the first broadcast connects
        logger.warning("the channel layer could not be reached as the server started")


def each_thread(threads: Executor, count: int, work: Callable[[], T]) -> list[Future[T]]:
    """Run ``work`` once on each of the pool's ``count`` threads: every task waits for all the
    others, so no thread takes two (a pool starts a thread for a task while none is idle)."""
    together = threading.Barrier(count, timeout=10)

    def one() -> T:
        with contextlib.suppress(threading.BrokenBarrierError):  # one slow to start: go on
            together.wait()
        return work()

    return [threads.submit(one) for _ in range(count)]


def _open() -> None:
    try:
        connection.ensure_connection()
        cache.get("warm-up")
    except Exception:  # the database or cache not answering yet: the first request connects
        logger.warning("could not connect as the server started", exc_info=True)
