"""Websocket routes. Each open page holds one socket; the table consumer is routed here."""

websocket_urlpatterns: list = []
