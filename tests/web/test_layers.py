"""The embedded deployment's in-memory channel layer: cheap per message, still expiring."""

import pytest
from channels.layers import InMemoryChannelLayer

from config.overrides import layers
from config.overrides.layers import RationedInMemoryChannelLayer

pytestmark = pytest.mark.asyncio


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(layers.time, "monotonic", clock)
    return clock


@pytest.fixture
def sweeps(monkeypatch):
    counted = []
    sweep = InMemoryChannelLayer._clean_expired

    def counting(self):
        counted.append(1)
        sweep(self)

    monkeypatch.setattr(InMemoryChannelLayer, "_clean_expired", counting)
    return counted


async def test_the_expiry_sweep_runs_at_most_once_a_second(clock, sweeps):
    layer = RationedInMemoryChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("table", channel)
    for _ in range(50):
        await layer.group_send("table", {"type": "table.roll"})
        await layer.receive(channel)
    assert len(sweeps) == 1
    clock.now += layers.SWEEP_INTERVAL
    await layer.group_send("table", {"type": "table.roll"})
    assert len(sweeps) == 2


async def test_an_expired_message_is_dropped_by_the_next_sweep(clock):
    layer = RationedInMemoryChannelLayer(expiry=0)
    gone = await layer.new_channel()
    await layer.group_add("table", gone)
    await layer.send(gone, {"type": "table.roll"})
    clock.now += layers.SWEEP_INTERVAL
    await layer.group_send("other-table", {"type": "table.roll"})
    assert gone not in layer.channels
    assert gone not in layer.groups.get("table", {})


async def test_every_receiver_gets_its_own_event(clock):
    layer = RationedInMemoryChannelLayer()
    first, second = await layer.new_channel(), await layer.new_channel()
    for channel in (first, second):
        await layer.group_add("table", channel)
    await layer.group_send("table", {"type": "table.roll", "seq": 1})
    received = await layer.receive(first)
    received["seq"] = 99
    assert (await layer.receive(second))["seq"] == 1


async def test_a_full_channel_drops_the_group_message_like_channels_does(clock):
    layer = RationedInMemoryChannelLayer(capacity=1)
    channel = await layer.new_channel()
    await layer.group_add("table", channel)
    await layer.group_send("table", {"type": "table.roll", "seq": 1})
    await layer.group_send("table", {"type": "table.roll", "seq": 2})
    assert (await layer.receive(channel))["seq"] == 1
    assert channel not in layer.channels
