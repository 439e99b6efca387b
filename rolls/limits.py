"""What one person may ask of a shared server: requests, log entries and replays per user (issues
23, 7 and 37).

One player logged 141 quick rolls a second; 20 sockets of one user replaying the whole log four
times a second doubled everyone's latency; one GM's turn order rolled 300 NPCs' dice per request
(6,600 entries in 10 s, another table's rolls 100 times slower); one account sending refused forms
and 60 KB imports 80 times a second kept a core busy. So each user has budgets per window of
``RATE_WINDOW_SECONDS``, counted in the cache every worker shares (Redis in the scale-out) and
raised and read in one atomic step (``cache.incr``), like the sockets' leases
(``rolls.live.socket_slots``), so two workers cannot both spend the last of one:

- ``POST_RATE_LIMIT`` requests that write (every POST of a member), spent before anything else is
  read, the request's body included (``RateMiddleware``): a flood is refused for the price of a
  cache increment, whatever it sends.
- ``ROLL_RATE_LIMIT`` log entries (a roll, a note, a line of chat), spent entry by entry where
  every entry is written (``rolls.actions.record_roll`` calls ``charge_entry``), so no view can
  write more than its user's budget, however many entries one request makes. A view that makes
  entries by dice (``ROLL_VIEWS``) is refused before it runs once the budget is spent.
- ``REPLAY_ENTRY_LIMIT`` entries replayed over the user's sockets.

A request over its budget is refused before anything is written, or everything it wrote is rolled
back with its transaction (429, a sentence in the reader's language shown where the page shows
its refusals), so nothing is lost: the page keeps what was typed and the same request, with the
same idempotency key, may be sent again. A replay over its budget gets an error frame saying when
to ask again (``retry``); the page asks then.

The budgets are far above what a table does (a click every few seconds per person; a GM's turn
order for twenty NPCs and the party; a reconnect replays at most a few hundred entries): 120
requests, 50 entries and 10,000 replayed entries per 10 s.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from config.refusals import in_refusal_region

#: The URL names whose POST makes entries by dice, refused before the view runs once the entries
#: budget is spent: a test, a follow-up, quick dice, a table, an NPC's test, an opposed NPC side,
#: a group member's dice and their boost or re-roll, the GM's magic die and experience die, the
#: GM's follow-up of a free roll, the turn order's dice, the boost of an NPC's roll. (Every
#: other entry is charged where it is written, ``charge_entry``.)
ROLL_VIEWS = frozenset(
    {
        "test_roll",
        "test_follow_up",
        "follow_rolled_test",
        "gm_follow_free_roll",
        "quick_roll",
        "npc_roll",
        "dashboard_quick_npc",
        "random_table_roll",
        "opposed_npc_roll",
        "group_roll",
        "group_boost",
        "group_reroll",
        "gm_magic_die",
        "roll_experience_die",
        "turn_order",
        "caerbannog_npc_boost",
    }
)


def _window(now: float | None = None) -> int:
    return int((time.time() if now is None else now) // settings.RATE_WINDOW_SECONDS)


def spend(kind: str, user_id: int, amount: int, budget: int, now: float | None = None) -> bool:
    """Spend ``amount`` of the user's ``kind`` budget in this window; False when over it.

    An attempt over the budget still counts: a client that keeps trying gains nothing by it.
    """
    key = f"rate:{kind}:{user_id}:{_window(now)}"
    timeout = 2 * settings.RATE_WINDOW_SECONDS
    if cache.add(key, amount, timeout):
        return amount <= budget
    try:
        return cache.incr(key, amount) <= budget
    except ValueError:  # expired between add and incr: a new window
        cache.add(key, amount, timeout)
        return amount <= budget


def spent(kind: str, user_id: int, now: float | None = None) -> int:
    """How much of the user's ``kind`` budget this window has used (0 for none)."""
    return int(cache.get(f"rate:{kind}:{user_id}:{_window(now)}") or 0)


def seconds_to_next_window(now: float | None = None) -> float:
    now = time.time() if now is None else now
    return (_window(now) + 1) * settings.RATE_WINDOW_SECONDS - now


class TooFast(Exception):
    """A request wrote more log entries than its user's budget holds: everything it wrote goes
    with its transaction, and ``RateMiddleware`` answers it as ``too_fast``."""


#: The user whose request is running, whose budget each entry written spends (None outside a
#: request: the demo's seed, a test's direct call of an action, a management command).
_writer: ContextVar[int | None] = ContextVar("writer", default=None)


@contextmanager
def entries_charged_to(user_id: int) -> Iterator[None]:
    """While the block runs, every log entry written spends ``user_id``'s entries budget."""
    token = _writer.set(user_id)
    try:
        yield
    finally:
        _writer.reset(token)


def charge_entry() -> None:
    """One log entry is being written: spend one of the requesting user's entries budget, or
    raise ``TooFast`` (the caller's transaction then writes nothing)."""
    user_id = _writer.get()
    if user_id is not None and not spend("rolls", user_id, 1, settings.ROLL_RATE_LIMIT):
        raise TooFast


def entries_left(user_id: int) -> int:
    """How many entries the user may still write in this window."""
    return max(0, settings.ROLL_RATE_LIMIT - spent("rolls", user_id))


def too_fast(request: HttpRequest) -> HttpResponse:
    """The refusal of log entries over their budget: 429, shown where the page shows refusals."""
    message = _(
        "You are rolling faster than any table needs; nothing was rolled. Wait a few seconds "
        "and roll again."
    )
    return refused(request, message)


def too_many_requests(request: HttpRequest) -> HttpResponse:
    """The refusal of a POST over its user's budget: 429, before anything else is read."""
    message = _(
        "You are sending faster than any table needs; nothing was done. Wait a few seconds and "
        "try again."
    )
    return refused(request, message)


def refused(request: HttpRequest, message: str) -> HttpResponse:
    """A request over one of its user's budgets: 429 with ``message``, where the page shows
    refusals (what was typed stays), saying when to try again."""
    seconds = max(1, round(seconds_to_next_window()))
    if request.htmx:
        response = in_refusal_region(message, 429)
    else:
        response = render(request, "429.html", {"message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def refusal_before_view(request: HttpRequest, url_name: str | None) -> HttpResponse | None:
    """A view that makes entries by dice is refused before it runs once the budget is spent."""
    if url_name in ROLL_VIEWS and not entries_left(request.user.pk):
        return too_fast(request)
    return None


class RateMiddleware:
    """Every POST of a logged-in user spends one of ``POST_RATE_LIMIT`` before anything else is
    read (this runs before any middleware's ``process_view``, so before CSRF's check reads the
    body); while the view runs, every entry it writes spends the user's entries budget
    (``charge_entry``), and a view of ``ROLL_VIEWS`` is refused at once when that is spent."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "POST" or not request.user.is_authenticated:
            return self.get_response(request)  # a visitor's POST: the view answers (a login)
        if not spend("posts", request.user.pk, 1, settings.POST_RATE_LIMIT):
            return too_many_requests(request)
        with entries_charged_to(request.user.pk):
            return self.get_response(request)

    def process_view(self, request: HttpRequest, view, args, kwargs) -> HttpResponse | None:
        if request.method != "POST" or not request.user.is_authenticated:
            return None
        return refusal_before_view(request, request.resolver_match.url_name)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, TooFast):
            return too_fast(request)
        return None
