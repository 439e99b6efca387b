"""Which pages may open the table's websocket: the rule Django's CSRF check uses for HTTP.

A websocket carries no CSRF token; its ``Origin`` header says which page opened it. Channels'
``AllowedHostsOriginValidator`` compared the Origin's host alone with ``ALLOWED_HOSTS``, so a
page on another port or scheme of the same host (another app on ``http://localhost:9000``)
passed (issue 23, 7). Here the Origin must be the socket's own origin (the scheme it was opened
with, ``ws`` for ``http`` and ``wss`` for ``https``, and the ``Host`` it was sent to, port
included) or one of ``CSRF_TRUSTED_ORIGINS`` (``https://*.example.org`` for subdomains), as
``CsrfViewMiddleware._origin_verified`` has it; and the host must be one ``ALLOWED_HOSTS``
names. A socket without an Origin is refused: browsers always send one.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

_HTTP = {"ws": "http", "wss": "https", "http": "http", "https": "https"}
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` with the scheme's default port filled in; None if unreadable."""
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port or _DEFAULT_PORTS.get(scheme)
    except ValueError:
        return None
    if not parts.hostname or port is None:
        return None
    return scheme, parts.hostname, port


def _allowed_hosts() -> list[str]:
    # As Django's HttpRequest.get_host: with DEBUG and no ALLOWED_HOSTS, the local host names.
    if settings.DEBUG and not settings.ALLOWED_HOSTS:
        return [".localhost", "127.0.0.1", "[::1]"]
    return settings.ALLOWED_HOSTS


def origin_allowed(origin: str | None, scheme: str, host: str | None) -> bool:
    """Whether a socket opened with ``scheme`` to ``host`` (its Host header) by a page of
    ``origin`` may go on."""
    if not origin or origin == "null":
        return False
    parts = urlsplit(origin)
    found = _origin(parts.scheme, parts.netloc) if parts.scheme in _DEFAULT_PORTS else None
    if found is None or not validate_host(found[1], _allowed_hosts()):
        return False
    own = bool(host) and validate_host(split_domain_port(host)[0], _allowed_hosts())
    if own and found == _origin(_HTTP.get(scheme, ""), host):
        return True
    return any(_trusted(found, trusted) for trusted in settings.CSRF_TRUSTED_ORIGINS)


def _trusted(found: tuple[str, str, int], trusted: str) -> bool:
    parts = urlsplit(trusted)
    scheme, host, port = found
    if parts.scheme != scheme:
        return False
    netloc = parts.netloc
    wanted_port = _DEFAULT_PORTS[scheme]
    if ":" in netloc.rsplit("]", 1)[-1]:
        netloc, _, raw_port = netloc.rpartition(":")
        if not raw_port.isdigit():
            return False
        wanted_port = int(raw_port)
    if port != wanted_port:
        return False
    if netloc.startswith("*."):
        return is_same_domain(host, netloc[1:])
    return host == netloc.strip("[]").lower()


def header(scope: dict, name: bytes) -> str:
    """The ASGI scope's header ``name`` (lower case), "" if it has none. A header sent twice
    reads as its values joined by commas, as Django's ASGIRequest reads it: an Origin sent twice
    is then no origin at all, whichever of the two came last."""
    return ",".join(
        value.decode("latin-1") for key, value in scope.get("headers", ()) if key == name
    )


class SameOriginValidator:
    """ASGI middleware: a websocket whose Origin is not this site's (``origin_allowed``) is
    refused before the handshake (a 403 to the browser)."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            origin, host = header(scope, b"origin"), header(scope, b"host")
            if not origin_allowed(origin, scope.get("scheme", "ws"), host):
                return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
