"""Websocket routes. Each open page of a campaign holds one socket to its table."""

from django.urls import path

from rolls.live.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/campaigns/<int:campaign_id>/", TableConsumer.as_asgi()),
]
