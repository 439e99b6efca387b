"""Shared fixtures: the people at a table, and access to the real services and browser.

A test that needs PostgreSQL, Redis or Chromium skips with a reason where they are absent; with
REQUIRE_SERVICES=1 (set by .ci/run) the same absence fails the test instead, so CI cannot pass
by skipping them.
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.utils import translation

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"
CHROMIUM = "/usr/bin/chromium"


def pytest_configure(config):
    """Under pytest-xdist each worker has a Redis of its own: a database number (a worker's
    ``cache.clear()`` empties only its own) and a channel prefix (pub/sub channels ignore the
    database number), so no worker hears another's tables. pytest-django already gives each
    worker its own PostgreSQL test database, and tests/web/servers.py its own ports."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    url = os.environ.get("REDIS_URL")
    if not worker or not url:
        return
    from django.conf import settings

    from config.env import cache_from_url, channel_layer_from_url

    number = 1 + int(worker.removeprefix("gw")) % 15  # database 0 is a run without workers'
    os.environ["REDIS_URL"] = urlunsplit(urlsplit(url)._replace(path=f"/{number}"))
    os.environ["REDIS_CHANNEL_PREFIX"] = f"asgi-{worker}"
    settings.CACHES = {"default": cache_from_url(os.environ["REDIS_URL"])}
    settings.CHANNEL_LAYERS = {"default": channel_layer_from_url(os.environ["REDIS_URL"])}


def missing(reason: str) -> None:
    """Skip for want of a service, or fail when CI requires it."""
    if REQUIRE_SERVICES:
        pytest.fail(f"REQUIRE_SERVICES is set but {reason}", pytrace=False)
    pytest.skip(reason)


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture
def postgres_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        missing("DATABASE_URL does not point at PostgreSQL (set it to run this test)")
    if not _reachable(parts.hostname or "127.0.0.1", parts.port or 5432):
        missing(f"PostgreSQL at {parts.hostname}:{parts.port or 5432} is not reachable")
    return url


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get("REDIS_URL", "")
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        missing("REDIS_URL does not point at Redis (set it to run this test)")
    if not _reachable(parts.hostname or "127.0.0.1", parts.port or 6379):
        missing(f"Redis at {parts.hostname}:{parts.port or 6379} is not reachable")
    return url


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not os.path.exists(CHROMIUM):
        missing(f"Debian's Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    return CHROMIUM


@pytest.fixture(scope="session")
def _chromium(chromium_path):
    """One Chromium for the whole run of this process (launching one costs about 1.5 s).

    Playwright's sync API keeps an event loop running in this thread from here on, and Django
    refuses database calls beside a running loop: so the browser tests run after every other
    test of the process (``pytest_collection_modifyitems`` below), and this closes last."""
    from playwright.sync_api import sync_playwright

    from tests.web.browser import CHROMIUM_ARGS, check_disabled_features

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        check_disabled_features()
        # A browser test that also reads the test database (tests/web/test_sheets.py) does so
        # from this thread, where the loop is Playwright's, not code of ours awaiting anything.
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        yield chromium
        chromium.close()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def browser(_chromium):
    """Chromium for one test: every context (a person's browser) the test opens is closed
    after it, so no page, cookie or socket outlives its test; so is a server the test failed
    in, kept up until its failure was reported (tests/web/browser.py, ``after_the_report``)."""
    from tests.web import browser as plumbing

    plumbing.after_the_report = []
    yield _chromium
    stops, plumbing.after_the_report = plumbing.after_the_report, None
    for stop in stops:
        stop()
    for context in list(_chromium.contexts):
        context.close()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """The browser tests last (after pytest-django's own order of the rest): see ``_chromium``.
    pytest-xdist hands out tests in this order, so each worker runs its share of the browser
    tests after all of its other tests, too. ``--order`` reverses or shuffles the rest first."""
    order = config.getoption("--order")
    if order == "reverse":
        items.reverse()
    elif order.startswith("shuffle"):
        import random

        seed = order.partition(":")[2] or str(random.randrange(10**6))
        print(f"\n--order shuffle:{seed}")
        random.Random(seed).shuffle(items)
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture
def make_user(django_user_model):
    def make(username: str, password: str = "a-long-test-password"):
        return django_user_model.objects.create_user(username=username, password=password)

    return make


@pytest.fixture
def gm(make_user):
    return make_user("gm")


@pytest.fixture
def player(make_user):
    return make_user("player")


@pytest.fixture
def other_player(make_user):
    return make_user("other")


@pytest.fixture
def outsider(make_user):
    return make_user("outsider")


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # The real hasher costs ~0.3 s per user on this machine; tests create many users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _rolls_as_fast_as_a_test_needs(settings):
    # The suite rolls and replays far faster than any table (a loop of rolls as one user);
    # tests/web/test_hostile_rates.py holds the server's own limits (rolls/limits.py).
    settings.ROLL_RATE_LIMIT = settings.REPLAY_ENTRY_LIMIT = settings.CHAT_RATE_LIMIT = 10**9
    settings.POST_RATE_LIMIT = 10**9


@pytest.fixture(autouse=True)
def _nothing_a_test_leaves_reaches_the_next():
    """What a test leaves in its worker's process, undone after it, so that no test passes or
    fails by what ran before it (``--order reverse`` / ``--order shuffle`` show it):

    - the language: Django's LocaleMiddleware activates a request's language in the thread and
      leaves it active, so a test after one that asked for a Polish page built its messages
      outside a request in Polish (CI failed so, in test_panel_forms);
    - the cache: the users' budgets (rolls/limits.py) and sockets' places are counted there by
      user and campaign id, and ids come round again as each test's rows are rolled back (a
      module's crawl met a roll budget spent by the tests before it);
    - the in-memory channel layer: groups named by those same ids.
    """
    yield
    translation.deactivate()
    from django.core.cache import cache

    cache.clear()
    _empty_in_memory_channel_layers()


def _empty_in_memory_channel_layers() -> None:
    from channels.layers import InMemoryChannelLayer, channel_layers

    for layer in channel_layers.backends.values():
        if isinstance(layer, InMemoryChannelLayer):
            layer.channels.clear()
            layer.groups.clear()


def pytest_addoption(parser):
    parser.addoption(
        "--order",
        default="",
        help="run the tests in 'reverse' or 'shuffle[:seed]' order (the browser tests still last),"
        " to show that none depends on what ran before it",
    )


@pytest.fixture
def running(table, player, client):
    """The module's ``table`` (tests/web/conftest.py) with a session running and its player
    logged in."""
    from campaigns.sessions import start_session

    table.session = start_session(table.campaign)
    client.force_login(player)
    return table


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database, and before it is dropped, no connection left open in another thread.

    Connections outlive requests by design (``CONN_MAX_AGE``); the consumers' database calls
    run on asgiref's one shared thread, which would otherwise keep PostgreSQL from dropping
    the test database.
    """
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    SyncToAsync.single_thread_executor.submit(connections.close_all).result()
    with django_db_blocker.unblock():
        _end_other_sessions_of_the_test_database()


def _end_other_sessions_of_the_test_database() -> None:
    """On PostgreSQL, end every other session still open on the test database: the servers a
    test started (tests/web/servers.py; they connect as they start) were stopped, but the
    database may not yet have ended their sessions when it is asked to drop the database."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    connection.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed browser test reports what each of its pages showed when it failed (the panel,
    the connection, the refusal), so a failure seen only in CI's log can still be read."""
    report = yield
    browser = item.funcargs.get("browser") if hasattr(item, "funcargs") else None
    if report.when != "call" or not report.failed or browser is None:
        return report
    try:
        for number, context in enumerate(browser.contexts):
            for page in context.pages:
                shown = page.evaluate(
                    """() => ["#test-panel", ".connection", "#test-panel-refusal"].map(s => {
                        const el = document.querySelector(s);
                        return s + ": " + (el ? el.innerText.slice(0, 1500) : "(none)");
                    }).join("\\n")"""
                )
                report.sections.append((f"page of context {number}: {page.url}", shown))
    except Exception as error:  # a closed or crashed page: the failure itself is what counts
        report.sections.append(("pages", f"could not be read: {error!r}"))
    return report
