"""Writes a page may send over the socket it holds instead of HTTP (DESIGN.md, "What a client
may say on the socket"): a roll from a test panel. The frame is handled by the very view that
answers its HTTP twin, so the same Django form validates it, the same action records it with
the same permission check, revision and idempotency key, and the roller gets the same rendered
part; only HTTP's envelope is left out (the request line, the middleware, a new session read).

What stands where HTTP's checks stand:

- CSRF: the socket's handshake passed the Origin check (``config.origins``), and a frame can
  only come from the page that opened it.
- The login: the socket's session is read again for every write (``auth.get_user`` on a fresh
  session store: a cache read, and the user's row, as every HTTP request does), so a user who
  logged out, or whose password changed, writes nothing more through a socket opened before.
- The roll rate (``rolls.limits``): counted before the view runs, from one budget with HTTP.

A write names its HTTP twin by URL name (``KINDS``), and the view is found as HTTP finds it,
by resolving that URL: the live socket comes before the features in rolls' order
(tests/test_app_order.py), so it imports none of their views. ``settings.ROLLS_OVER_SOCKET``
switches the path on for pages and the consumer.
"""

from __future__ import annotations

import dataclasses
from concurrent.futures import Executor

from django.conf import settings
from django.contrib import auth
from django.db import close_old_connections
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.urls import ResolverMatch, resolve, reverse
from django.utils import translation
from django_htmx.middleware import HtmxDetails

from campaigns.live import session_of
from rolls import limits


@dataclasses.dataclass(frozen=True)
class Write:
    """A page's write as the socket received it: which table, by whom, in which language."""

    campaign_id: int
    session_key: str | None
    language: str
    target: int  # the object the write is for (a roll: the character)
    form: str  # the form's fields, urlencoded as the page's form would post them
    host: str


@dataclasses.dataclass(frozen=True)
class Answer:
    """What the page does with the answer: htmx's status, body and swap, as over HTTP."""

    status: int
    html: str
    retarget: str | None = None
    reswap: str | None = None

    def frame(self, ref: int) -> dict:
        return {
            "type": "answer",
            "ref": ref,
            "status": self.status,
            "html": self.html,
            "retarget": self.retarget,
            "reswap": self.reswap,
        }


# The process's worker threads, where its HTTP requests run (config/asgi.py gives them): a write
# runs there too, so both keep to HTTP_THREADS database connections, opened as the server starts.
# Unset (a consumer without the ASGI application around it), the loop's default threads.
threads: Executor | None = None


def use_threads(executor: Executor) -> None:
    global threads
    threads = executor


#: What a page may send over its socket: kind -> the URL name of its HTTP twin.
KINDS = {"roll": "test_roll"}


def accepts(kind: object) -> bool:
    return settings.ROLLS_OVER_SOCKET and kind in KINDS


def handle(kind: str, write: Write) -> Answer:
    """Answer ``write`` as its HTTP twin would answer the same form from the same page (on a
    worker thread, whose database connection is checked before and after, as a request's is)."""
    close_old_connections()
    try:
        return _handle(kind, write)
    finally:
        close_old_connections()


def _handle(kind: str, write: Write) -> Answer:
    path = reverse(KINDS[kind], args=[write.campaign_id, write.target])
    match = resolve(path)  # the view and its arguments, as for the same POST over HTTP
    request = _request(write, path, match)
    if not request.user.is_authenticated:
        return Answer(401, "")  # the page's login ended: the page reloads to its login
    with translation.override(write.language):
        # What RateMiddleware does for HTTP, from the same budgets.
        if not limits.spend("posts", request.user.pk, 1, settings.POST_RATE_LIMIT):
            return _answer(limits.too_many_requests(request))
        if refused := limits.refusal_before_view(request, match.url_name):
            return _answer(refused)
        try:
            with limits.entries_charged_to(request.user.pk):
                return _answer(match.func(request, *match.args, **match.kwargs))
        except limits.TooFast:
            return _answer(limits.too_fast(request))
        except Http404:
            return Answer(404, "")


def _request(write: Write, path: str, match: ResolverMatch) -> HttpRequest:
    request = HttpRequest()
    request.method = "POST"
    request.path = request.path_info = path
    request.META = {
        "REQUEST_METHOD": "POST",
        "HTTP_HOST": write.host,
        "HTTP_HX_REQUEST": "true",
        "HTTP_ACCEPT_LANGUAGE": write.language,
    }
    request.POST = QueryDict(write.form)
    request.LANGUAGE_CODE = write.language
    request.htmx = HtmxDetails(request)
    request.resolver_match = match
    request.session = session_of(write.session_key)
    request.user = auth.get_user(request)
    return request


def _answer(response: HttpResponse) -> Answer:
    return Answer(
        status=response.status_code,
        html=response.content.decode(),
        retarget=response.get("HX-Retarget"),
        reswap=response.get("HX-Reswap"),
    )
