"""A stand-in for Discord's webhooks, served on 127.0.0.1 by the tests (the bridge may post there
only because the ``discord`` fixture adds its origin to ``DISCORD_WEBHOOK_ORIGINS``).

It keeps every request it was sent (``requests``) and every message it took (``messages``, by
id), and answers as the test scripts it: ``then(status, body, headers)`` queues answers that are
given one a request before the usual 200 (with the message and its new id); ``close_next(n)``
drops the next n connections unanswered, as a network that fails does."""

from __future__ import annotations

import itertools
import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

WEBHOOK_PATH = "/api/webhooks/1234567890/T0KEN-abc_def"


@dataclass
class Sent:
    method: str
    path: str
    body: dict[str, Any]


@dataclass
class Discord:
    server: ThreadingHTTPServer
    requests: list[Sent] = field(default_factory=list)
    messages: dict[str, dict[str, Any]] = field(default_factory=dict)
    answers: deque = field(default_factory=deque)
    lock: threading.Lock = field(default_factory=threading.Lock)
    ids: itertools.count = field(default_factory=lambda: itertools.count(1000))

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def url(self) -> str:
        return self.origin + WEBHOOK_PATH

    def then(self, status: int, body: dict | None = None, headers: dict | None = None) -> None:
        self.answers.append((status, body or {}, headers or {}))

    def close_next(self, count: int = 1) -> None:
        for _ in range(count):
            self.answers.append(("close", {}, {}))

    def posted(self) -> list[dict[str, Any]]:
        """The embeds of every message taken, in order, each with its message's id."""
        return [
            {**embed, "message": message_id}
            for message_id, message in self.messages.items()
            for embed in message["embeds"]
        ]

    def titles(self) -> list[str]:
        return [embed["title"] for embed in self.posted()]

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else {}
        with self.lock:
            self.requests.append(Sent(handler.command, handler.path, body))
            scripted = self.answers.popleft() if self.answers else None
            if scripted is None:
                status, reply, headers = self._take(handler, body)
            else:
                status, reply, headers = scripted
        if status == "close":
            handler.close_connection = True
            handler.connection.close()
            return
        payload = json.dumps(reply).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(payload)))
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(payload)

    def _take(self, handler: BaseHTTPRequestHandler, body: dict) -> tuple[int, dict, dict]:
        path = handler.path.split("?")[0]
        if not path.startswith(WEBHOOK_PATH):
            return 404, {"message": "Unknown Webhook", "code": 10015}, {}
        if handler.command == "POST" and path == WEBHOOK_PATH:
            message_id = str(next(self.ids))
            self.messages[message_id] = body
            return 200, {"id": message_id, **body}, {}
        if handler.command == "PATCH" and "/messages/" in path:
            message_id = path.rsplit("/", 1)[1]
            if message_id not in self.messages:
                return 404, {"message": "Unknown Message", "code": 10008}, {}
            self.messages[message_id] = body
            return 200, {"id": message_id, **body}, {}
        return 405, {"message": "405: Method Not Allowed"}, {}


def serve() -> Discord:
    discord: Discord

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            discord.answer(self)

        do_PATCH = do_POST

        def log_message(self, *args) -> None:  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    discord = Discord(server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return discord
