"""HTTP for the one ASGI process: each request runs start to finish in one worker thread.

Django's own ASGI handler runs the middleware chain in async mode. With our middleware (all of
it synchronous at heart, WhiteNoise sync-only) a request then crosses between the event loop
and a thread a dozen times, starts a new thread, and opens a new database connection, because
connections belong to threads. On a table that also fans rolls out to hundreds of websockets
from that same event loop, every crossing waits behind the fan-out: a roll request measured
30 ms of CPU and up to seconds of latency under load (docs/performance.md).

Here the whole request (signals, middleware, view, response body) runs in one call on a small
pool of long-lived threads, exactly as under a WSGI server: one crossing in, one out, and each
thread keeps its database connection (``CONN_MAX_AGE``), checked and closed by Django's own
``request_started``/``request_finished`` handlers in that same thread. Websockets stay on the
event loop with Channels; an ``on_commit`` broadcast from a worker thread reaches the loop
through ``async_to_sync`` as before.

Every response of this app is small (pages, fragments, exports, static files), so a streaming
body is read to its end in the thread and sent in one message.

Follows Django 5.2.19: ``ThreadedASGIHandler.__init__`` is ``ASGIHandler.__init__`` with the
middleware loaded synchronously; ``handle`` and ``_respond`` do what ``ASGIHandler.handle`` does
(script prefix, ``request_started``, ``create_request``, the response, ``close()`` sending
``request_finished``) in one thread, without its disconnect watcher; ``_headers`` copies the
headers and cookies part of ``ASGIHandler.send_response``.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import HttpResponse
from django.urls import set_script_prefix

from config.overrides import follows


def _django(upstream: str, sha256: str):
    return follows(
        f"django.core.handlers.asgi.ASGIHandler.{upstream}",
        package="Django",
        version="5.2.19",
        sha256=sha256,
    )


class ThreadedASGIHandler(ASGIHandler):
    @_django("__init__", "41379d4f4b69f900b62a201a442d0721c965e26906a6a64f11c8b846bf3b3a38")
    def __init__(self, threads: int) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix="http")
        self._respond_in_thread = sync_to_async(
            self._respond, thread_sensitive=False, executor=self.executor
        )

    @_django("__call__", "f756809e9c9308dcccb78a301fccf09196e80cdc4745690f80384d09b69dd102")
    @_django("handle", "98faeb5bef800331e6a8002fbc96b30e4122a23438ae45a047190a531ea11323")
    async def handle(self, scope: dict[str, Any], receive, send) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        status, headers, body = await self._respond_in_thread(scope, body_file)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def _respond(self, scope: dict[str, Any], body_file) -> tuple[int, list, bytes]:
        """The WSGI life of a request, in this worker thread; returns what to send."""
        try:
            set_script_prefix(get_script_prefix(scope))
            signals.request_started.send(sender=self.__class__, scope=scope)
            request, response = self.create_request(scope, body_file)
            if request is not None:
                response = self.get_response(request)
            try:
                body = _body(response)
            finally:
                response.close()  # sends request_finished: this thread's connection is tidied
            return response.status_code, _headers(response), body
        finally:
            body_file.close()


def _body(response: HttpResponse) -> bytes:
    if response.streaming:
        return b"".join(response.streaming_content)
    return response.content


@_django("send_response", "77eda2b08689b44ee277c936092bde02e50f84727f7398480a127e7e9e1dad06")
def _headers(response: HttpResponse) -> list[tuple[bytes, bytes]]:
    """The headers and cookies as ASGI wants them (as Django's ``send_response`` builds them)."""
    headers = [
        (
            header.encode("ascii") if isinstance(header, str) else bytes(header),
            value.encode("latin1") if isinstance(value, str) else bytes(value),
        )
        for header, value in response.items()
    ]
    headers += [
        (b"Set-Cookie", cookie.output(header="").encode("ascii").strip())
        for cookie in response.cookies.values()
    ]
    return headers
