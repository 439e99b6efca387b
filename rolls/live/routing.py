"""Websocket routes. Each open page of a campaign holds one socket to its table; a page of the
GM's read-only view of a player's table holds the view's (rolls.live.view_as)."""

from django.urls import path

from rolls.live.consumers import TableConsumer
from rolls.live.view_as import ViewAsConsumer

websocket_urlpatterns = [
    path("ws/campaigns/<int:campaign_id>/", TableConsumer.as_asgi()),
    path("ws/view/<int:campaign_id>/<int:user_id>/", ViewAsConsumer.as_asgi()),
]
