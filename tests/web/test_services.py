"""Smoke tests of the scale-out services: PostgreSQL through the ORM, Redis as channel layer."""

import asyncio

import pytest
from django.db import connection

from campaigns.models import Campaign


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_campaign_is_saved_and_read_back_on_postgresql(postgres_url, gm):
    assert connection.vendor == "postgresql"
    saved = Campaign.objects.create(name="Zażółć gęślą jaźń", system="fasttest", gm=gm)
    assert Campaign.objects.get(pk=saved.pk).name == "Zażółć gęślą jaźń"


@pytest.mark.redis
@pytest.mark.parametrize("layer", ["core", "pubsub"])
def test_a_message_travels_through_the_redis_channel_layer(redis_url, layer):
    from channels_redis.core import RedisChannelLayer
    from channels_redis.pubsub import RedisPubSubChannelLayer

    backend = {"core": RedisChannelLayer, "pubsub": RedisPubSubChannelLayer}[layer]

    async def round_trip():
        channel_layer = backend(hosts=[redis_url], prefix=f"smoke-{layer}")
        channel = await channel_layer.new_channel()
        await channel_layer.group_add("table-smoke", channel)
        await channel_layer.group_send("table-smoke", {"type": "roll.new", "seq": 1})
        message = await asyncio.wait_for(channel_layer.receive(channel), timeout=5)
        await channel_layer.group_discard("table-smoke", channel)
        if hasattr(channel_layer, "flush"):
            await channel_layer.flush()
        return message

    assert asyncio.run(round_trip()) == {"type": "roll.new", "seq": 1}
