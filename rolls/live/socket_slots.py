"""How many table sockets a user and a table hold open, counted in the cache every worker shares.

The count must hold across worker processes (Redis in the scale-out, the one process's cache
embedded) and must forget the sockets of a worker that was killed without closing them. So a
socket does not hold a permanent "+1" but a lease: time is cut into periods of
``SOCKET_LEASE_SECONDS``, each with its own counter, and a socket counts in the current period
and the next. Once a period it renews itself into the one after (``renew``); closing gives its
counts back (``release``). A socket whose worker died stops renewing and drops out of the count
within two periods; the counters themselves expire soon after their period.

A counter is raised first and read in the same atomic step (``incr``), so two pages opening at
once on two workers cannot both take the last slot.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache


@dataclass
class Lease:
    """One socket's place in the counts: which counters, and the last period it renewed into."""

    scopes: tuple[str, ...]
    upto: int


def period_seconds() -> float:
    return settings.SOCKET_LEASE_SECONDS


def _period(now: float) -> int:
    return int(now // period_seconds())


def _key(scope: str, period: int) -> str:
    return f"table-sockets:{scope}:{period}"


def _incr(key: str) -> int:
    # A counter outlives its period by two more: long enough to be read and given back.
    timeout = max(2, round(3 * period_seconds()))
    for _attempt in range(3):
        if cache.add(key, 1, timeout):
            return 1
        try:
            return cache.incr(key)
        except ValueError:  # expired between add and incr: start it again
            continue
    return cache.incr(key)


def _decr(key: str) -> None:
    with contextlib.suppress(ValueError):  # already expired: nothing left to give back
        cache.decr(key)


def take(caps: dict[str, int], now: float | None = None) -> Lease | str:
    """A lease in every scope of ``caps`` (scope -> most sockets), or the first scope that is full.

    A refusal gives back whatever it raised, so it leaves the counts as they were.
    """
    period = _period(time.time() if now is None else now)
    raised: list[str] = []
    for scope, cap in caps.items():
        raised.append(scope)
        if _incr(_key(scope, period)) > cap:
            for done in raised:
                _decr(_key(done, period))
            return scope
    for scope in caps:
        _incr(_key(scope, period + 1))
    return Lease(scopes=tuple(caps), upto=period + 1)


def renew(lease: Lease, now: float | None = None) -> None:
    """Count the lease in the next period as well (and in this one, if a renewal came late)."""
    period = _period(time.time() if now is None else now)
    for later in range(max(lease.upto + 1, period), period + 2):
        for scope in lease.scopes:
            _incr(_key(scope, later))
        lease.upto = later


def release(lease: Lease, now: float | None = None) -> None:
    """Give back the counts of this period and of those the lease renewed into ahead of time."""
    period = _period(time.time() if now is None else now)
    for later in range(period, lease.upto + 1):
        for scope in lease.scopes:
            _decr(_key(scope, later))
    lease.upto = period - 1


def seconds_to_next_period(now: float | None = None) -> float:
    now = time.time() if now is None else now
    return (_period(now) + 1) * period_seconds() - now


def counts(scopes: list[str], now: float | None = None) -> dict[str, int]:
    """How many sockets hold a lease in each scope in this period (0 for none), in one read."""
    period = _period(time.time() if now is None else now)
    found = cache.get_many([_key(scope, period) for scope in scopes])
    return {scope: int(found.get(_key(scope, period)) or 0) for scope in scopes}
