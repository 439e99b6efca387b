"""Discord's webhooks as the server talks to them: which URLs are accepted, and one request.

The server posts only to the origins ``settings.DISCORD_WEBHOOK_ORIGINS`` allows (Discord's own:
tests alone change it, to a stand-in on 127.0.0.1), never to an address the GM types, and it
follows no redirect: a webhook URL can never make the server reach into its own network.
"""

from __future__ import annotations

import http.client
import json
import re
import ssl
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

#: A webhook's path: ``/api[/v10]/webhooks/<id>/<token>``.
_PATH = re.compile(r"/api(?:/v\d{1,2})?/webhooks/(\d{1,25})/([A-Za-z0-9_-]{1,100})/?")
#: What the server waits for Discord's answer before it counts the request as failed.
TIMEOUT_SECONDS = 10
#: Discord refuses requests without a user agent of this shape.
USER_AGENT = "DiscordBot (https://github.com/the-table/the-table, 1)"


class BadWebhook(ValueError):
    """A URL that is not a Discord webhook the server may post to; the message says why."""


@dataclass(frozen=True)
class Webhook:
    """A checked webhook: where to connect and the path to post to."""

    scheme: str
    host: str
    port: int | None
    path: str

    @property
    def masked(self) -> str:
        """The URL as the GM may see it again: the host and the webhook's id, not its token."""
        webhook_id = _PATH.fullmatch(self.path).group(1)  # type: ignore[union-attr]
        return f"{self.host}/api/webhooks/{webhook_id}/…"


def check(url: str) -> Webhook:
    """The webhook ``url`` names, or ``BadWebhook`` saying what is wrong with it."""
    url = url.strip()
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise BadWebhook(_("This is not a web address.")) from error
    origin = f"{parts.scheme}://{parts.netloc}".lower()
    if origin not in settings.DISCORD_WEBHOOK_ORIGINS or parts.username or parts.password:
        raise BadWebhook(
            _("Only a Discord webhook can be connected: its address starts with %(origin)s.")
            % {"origin": f"{settings.DISCORD_WEBHOOK_ORIGINS[0]}/api/webhooks/"}
        )
    if parts.query or parts.fragment or not _PATH.fullmatch(parts.path):
        raise BadWebhook(
            _(
                "This address is not a webhook's: copy it whole from Discord (the channel's "
                "settings, Integrations, Webhooks, Copy Webhook URL)."
            )
        )
    return Webhook(parts.scheme, parts.hostname or "", port, parts.path.rstrip("/"))


@dataclass(frozen=True)
class Answer:
    """What Discord answered: its status, its JSON (``{}`` when none) and its headers."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str]


def request(webhook: Webhook, method: str, path: str, document: dict[str, Any]) -> Answer:
    """Send ``document`` to ``path`` (after the webhook's own), ``OSError`` when the network
    fails. No redirect is followed: a 3xx is an answer like any other."""
    connection: http.client.HTTPConnection
    if webhook.scheme == "https":
        connection = http.client.HTTPSConnection(
            webhook.host,
            webhook.port,
            timeout=TIMEOUT_SECONDS,
            context=ssl.create_default_context(),
        )
    else:
        connection = http.client.HTTPConnection(webhook.host, webhook.port, timeout=TIMEOUT_SECONDS)
    try:
        body = json.dumps(document, ensure_ascii=False).encode()
        headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT}
        connection.request(method, webhook.path + path, body=body, headers=headers)
        response = connection.getresponse()
        raw = response.read(1_000_000)
        return Answer(response.status, _json(raw), {k.lower(): v for k, v in response.getheaders()})
    except http.client.HTTPException as error:
        raise OSError(str(error)) from error
    finally:
        connection.close()


def _json(raw: bytes) -> dict[str, Any]:
    try:
        document = json.loads(raw or b"{}")
    except ValueError:
        return {}
    return document if isinstance(document, dict) else {}
