"""The lease arithmetic behind the socket caps, on a clock the tests set (``now``)."""

from __future__ import annotations

import uuid

import pytest
from django.core.cache import cache

from rolls.live import socket_slots
from rolls.live.socket_slots import Lease, release, renew, take

PERIOD = 30


@pytest.fixture(autouse=True)
def period(settings):
    settings.SOCKET_LEASE_SECONDS = PERIOD


@pytest.fixture
def scope():
    return f"user:{uuid.uuid4()}"


def count(scope: str, now: float) -> int:
    return cache.get(socket_slots._key(scope, int(now // PERIOD)), 0)


def test_a_lease_counts_in_this_period_and_the_next(scope):
    lease = take({scope: 5}, now=0)
    assert isinstance(lease, Lease)
    assert (count(scope, 0), count(scope, PERIOD), count(scope, 2 * PERIOD)) == (1, 1, 0)


def test_a_full_scope_is_named_and_its_count_left_as_it_was(scope):
    take({scope: 1}, now=0)
    assert take({scope: 1}, now=1) == scope
    assert count(scope, 1) == 1


def test_a_refusal_in_the_second_scope_gives_back_the_first(scope):
    table = f"table:{uuid.uuid4()}"
    take({table: 1}, now=0)
    assert take({scope: 5, table: 1}, now=1) == table
    assert count(scope, 1) == 0


def test_a_renewal_carries_the_lease_into_the_period_after(scope):
    lease = take({scope: 5}, now=0)
    renew(lease, now=PERIOD + 3)
    assert (count(scope, 2 * PERIOD), lease.upto) == (1, 2)


def test_a_late_renewal_counts_the_current_period_too(scope):
    lease = take({scope: 5}, now=0)
    renew(lease, now=3 * PERIOD + 1)  # two renewals were missed
    assert (count(scope, 3 * PERIOD), count(scope, 4 * PERIOD)) == (1, 1)


def test_a_renewal_twice_in_a_period_counts_once(scope):
    lease = take({scope: 5}, now=0)
    renew(lease, now=PERIOD + 1)
    renew(lease, now=PERIOD + 2)
    assert count(scope, 2 * PERIOD) == 1


def test_a_release_gives_back_every_period_the_lease_reached(scope):
    lease = take({scope: 5}, now=0)
    renew(lease, now=PERIOD + 1)
    release(lease, now=PERIOD + 2)
    assert (count(scope, PERIOD), count(scope, 2 * PERIOD)) == (0, 0)


def test_a_lease_that_is_never_renewed_is_gone_two_periods_later(scope):
    take({scope: 1}, now=0)
    assert take({scope: 1}, now=2 * PERIOD) != scope


def test_a_release_after_the_counters_expired_is_harmless(scope):
    lease = take({scope: 5}, now=0)
    cache.delete_many([socket_slots._key(scope, period) for period in (0, 1)])
    release(lease, now=1)
    assert count(scope, 1) == 0
