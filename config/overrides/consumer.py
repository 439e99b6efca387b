"""Channels' consumer dispatch without a database-connection check before every message.

Channels' ``AsyncConsumer.dispatch`` awaits ``aclose_old_connections()`` before each handler:
a trip to a thread and back per message a socket receives, so per delivered roll and per
socket, a seventh of the server's time under load (docs/performance.md). The table's
consumer reaches the database only through ``database_sync_to_async``, which closes old
connections itself in the thread that runs the query, so the check before every message buys
nothing there.

Follows channels 4.3.2: ``dispatch`` is ``AsyncConsumer.dispatch`` without its
``await aclose_old_connections()``.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name

from config.overrides import follows


class DispatchWithoutConnectionCheck:
    """Mixed in before an ``AsyncConsumer`` that reaches the database only in threads."""

    @follows(
        "channels.consumer.AsyncConsumer.dispatch",
        package="channels",
        version="4.3.2",
        sha256="39f34e7d4fb0f6552de4ade665b943fe78137379702af6b58c79a14c49a75520",
    )
    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
