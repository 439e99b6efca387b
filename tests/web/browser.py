"""Browser-test plumbing: the demo table served by uvicorn, and Debian's Chromium.

Expensive things once per test process (STYLE.md, "Tests"): the demo table is migrated and
seeded once, with a logged-in session for each demo user, and each test serves a copy of it
(tens of milliseconds, where migrating and seeding took seconds); Chromium is launched once
(``browser`` in tests/conftest.py) and each test opens its own contexts in it.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import json
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path

from tests.web.servers import app_env, manage, uvicorn

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DEMO_PASSWORD = "demo-table"

# A logged-in session for every user of the demo, made in the seeded database: a page opens
# with its cookie instead of typing the password, which the server checks the slow way on
# purpose (PBKDF2, about half a second a login on this machine). tests/web/test_accounts.py
# and the tests that type it still log in through the form.
_SESSIONS = """
import json
from django.contrib.auth import get_user_model
from tests.web.browser import logged_in_session
users = get_user_model().objects.all()
print(json.dumps({user.username: logged_in_session(user) for user in users}))
"""


def logged_in_session(user) -> str:
    """The key of a new session in which ``user`` is logged in, as a login would make it."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


@functools.cache
def _seeded() -> tuple[Path, dict[str, str]]:
    """This process's demo database, migrated and seeded as `make run` does it, and the
    session key of each of its users."""
    folder = Path(tempfile.mkdtemp(prefix="demo-table-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "demo.sqlite3"
    env = app_env(DATABASE_URL=f"sqlite:///{path}")
    manage(env, "migrate", "--no-input")
    manage(env, "seed_demo")
    made = manage(env, "shell", "--no-imports", "-v", "0", "-c", _SESSIONS).stdout
    sessions = json.loads(made.strip().splitlines()[-1])
    return path, sessions


def _copy_of_the_demo(path: Path) -> None:
    # SQLite's own backup: a consistent copy whatever journal the database keeps.
    template, _ = _seeded()
    with (
        contextlib.closing(sqlite3.connect(template)) as source,
        contextlib.closing(sqlite3.connect(path)) as copy,
    ):
        source.backup(copy)


@contextlib.contextmanager
def demo_table(tmp_path, stderr=None, **server_env: str) -> Iterator[str]:
    """The embedded default (SQLite, in-memory layer) with the demo table, on a free port.

    ``server_env`` sets more of the server's environment (``DEBUG="0"`` as `make run` serves,
    ``SOCKETS_PER_USER``...; the demo is seeded as `make run` seeds it, with the default DEBUG);
    ``stderr`` a file for the server's log. Each call serves a fresh copy of the demo.
    """
    path = tmp_path / "table.sqlite3"
    if path.exists():  # a second table in one test
        path = tmp_path / f"table-{len(list(tmp_path.glob('table*.sqlite3')))}.sqlite3"
    _copy_of_the_demo(path)
    env = app_env(DATABASE_URL=f"sqlite:///{path}")
    with uvicorn(env | server_env, stderr=stderr) as base:
        yield base


def log_in(
    browser,
    base: str,
    username: str,
    width: int = 1280,
    height: int = 900,
    locale: str | None = None,
):
    """A new browser context of ``username``, logged in (the demo's session), on the home page.
    ``locale``: the language the reader's browser asks for (Accept-Language)."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, **({"locale": locale} if locale else {})
    )
    context.add_cookies([{"name": "sessionid", "value": _seeded()[1][username], "url": base}])
    page = context.new_page()
    page.goto(f"{base}/")
    return page
