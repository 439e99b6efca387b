"""The in-memory channel layer of the embedded deployment, made cheap per message.

Channels' ``InMemoryChannelLayer`` walks every channel and every group membership of the process
on each ``group_send`` and each ``receive``: with 700 open pages that sweep was a quarter of
the server's CPU under load (docs/performance.md). Expiry only needs to happen eventually
(messages live 60 s, memberships a day), so here the sweep runs at most once a second.

It also deep-copies every message once per receiving channel, to mimic a layer that
serialises. Here each receiver gets its own copy of the top-level dict only: the table's
consumers never change what they receive (a test holds them to it), and a roll's payload
is many nested lists and dicts, so the deep copies were a tenth of the event loop's time.

Follows channels 4.3.2: ``_clean_expired`` wraps ``InMemoryChannelLayer._clean_expired`` (and
rations the sweep that ``receive`` and ``group_send`` run first); ``send`` is a copy of
``InMemoryChannelLayer.send`` with ``dict(message)`` for its ``deepcopy(message)``, reached
from ``group_send`` once per receiving channel.
"""

from __future__ import annotations

import asyncio
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

from config.overrides import follows

SWEEP_INTERVAL = 1.0  # seconds


class RationedInMemoryChannelLayer(InMemoryChannelLayer):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._next_sweep = 0.0

    @follows(
        "channels.layers.InMemoryChannelLayer._clean_expired",
        package="channels",
        version="4.3.2",
        sha256="604032dae1cc01d27a51d5b8faf45286c8881a14ce6f0abab7438087568ba6b6",
    )
    @follows(
        "channels.layers.InMemoryChannelLayer.receive",
        package="channels",
        version="4.3.2",
        sha256="e615f8ae40b60e128f833fd812180fb01587cb5067705cb46fdfedae55851c03",
    )
    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + SWEEP_INTERVAL
        super()._clean_expired()

    @follows(
        "channels.layers.InMemoryChannelLayer.send",
        package="channels",
        version="4.3.2",
        sha256="a4dab1cd8aff886ec3763192f62126736e59801b4a3661f20db47e92651323e1",
    )
    @follows(
        "channels.layers.InMemoryChannelLayer.group_send",
        package="channels",
        version="4.3.2",
        sha256="693c3172deb6431bc7f4995484071ccc24a03eaf0f6c783fe3e0349fe2a7c6d7",
    )
    async def send(self, channel: str, message: dict) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        queue = self.channels.setdefault(channel, asyncio.Queue(maxsize=self.get_capacity(channel)))
        try:
            queue.put_nowait((time.time() + self.expiry, dict(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None
