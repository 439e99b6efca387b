"""What one person may ask of a shared server: rolls and replays per user (issue 23, 7).

One player logged 141 quick rolls a second, and 20 sockets of one user replaying the whole log
four times a second doubled everyone's latency. So each user has a budget per window of
``RATE_WINDOW_SECONDS``: ``ROLL_RATE_LIMIT`` rolls (every endpoint that makes an entry by dice:
``ROLL_VIEWS``) and ``REPLAY_ENTRY_LIMIT`` entries replayed over their sockets. The counts live
in the cache every worker shares (Redis in the scale-out), raised and read in one atomic step
(``cache.incr``), like the sockets' leases (``rolls.live.socket_slots``), so two workers cannot both
spend the last of a budget.

A roll over its budget is refused before anything is read or written (429, a sentence in the
reader's language shown where the page shows its refusals), so nothing is lost: the page keeps
what was typed and the same request, with the same idempotency key, may be sent again. A replay
over its budget gets an error frame saying when to ask again (``retry``); the page asks then.

The budgets are far above what a table does (a roll every few seconds per player; a reconnect
replays at most a few hundred entries): 50 rolls and 10,000 replayed entries per 10 s.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from config.refusals import in_refusal_region

#: The URL names whose POST makes a roll: a test, a follow-up, quick dice, a table, an NPC's
#: test, an opposed NPC side, a group member's dice and their boost or re-roll, the GM's
#: magic die and experience die, the GM's follow-up of a free roll.
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


def too_fast(request: HttpRequest) -> HttpResponse:
    """The refusal of a roll over its budget: 429, shown where the page shows refusals."""
    message = _(
        "You are rolling faster than any table needs; nothing was rolled. Wait a few seconds "
        "and roll again."
    )
    seconds = max(1, round(seconds_to_next_window()))
    if request.htmx:
        response = in_refusal_region(message, 429)
    else:
        response = render(request, "429.html", {"message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response


class RollRateMiddleware:
    """Refuses a user's roll past ``ROLL_RATE_LIMIT`` in a window, before the view runs."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view, args, kwargs) -> HttpResponse | None:
        if request.method != "POST" or request.resolver_match.url_name not in ROLL_VIEWS:
            return None
        if not request.user.is_authenticated:
            return None  # the view answers the visitor (a login page or a 404)
        if spend("rolls", request.user.pk, 1, settings.ROLL_RATE_LIMIT):
            return None
        return too_fast(request)
