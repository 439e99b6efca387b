"""The Redis cache keeps one client, and so one connection pool, per process."""

import contextvars
import threading

from config.overrides.cache import SharedPoolRedisCache

URL = "redis://127.0.0.1:6379/0"


def test_backends_built_for_different_requests_share_one_client():
    first = SharedPoolRedisCache(URL, {})
    built = []
    # A request runs in a copy of the context on a worker thread, and builds its own backend.
    thread = threading.Thread(
        target=contextvars.copy_context().run,
        args=(lambda: built.append(SharedPoolRedisCache(URL, {})._cache),),
    )
    thread.start()
    thread.join()
    assert built == [first._cache]


def test_another_server_gets_its_own_client():
    assert (
        SharedPoolRedisCache(URL, {})._cache
        is not SharedPoolRedisCache("redis://127.0.0.1:6379/1", {})._cache
    )
