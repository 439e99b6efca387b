"""The in-memory channel layer of the embedded deployment, made cheap per message.

Channels' ``InMemoryChannelLayer`` walks every channel and every group membership of the process
on each ``group_send`` and each ``receive``: with 700 open pages that sweep was a quarter of
the server's CPU under load (README, "Performance"). Expiry only needs to happen eventually
(messages live 60 s, memberships a day), so here the sweep runs at most once a second.

It also deep-copies every message once per receiving channel, to mimic a layer that
serialises. Here each receiver gets its own copy of the top-level dict only: the table's
consumers never change what they receive (a test holds them to it), and a roll's payload
is many nested lists and dicts, so the deep copies were a tenth of the event loop's time.
"""

from __future__ import annotations

import asyncio
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

SWEEP_INTERVAL = 1.0  # seconds


class RationedInMemoryChannelLayer(InMemoryChannelLayer):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._next_sweep = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + SWEEP_INTERVAL
        super()._clean_expired()

    async def send(self, channel: str, message: dict) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        queue = self.channels.setdefault(channel, asyncio.Queue(maxsize=self.get_capacity(channel)))
        try:
            queue.put_nowait((time.time() + self.expiry, dict(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None
