"""Browser-test plumbing: the demo table served by uvicorn, and Debian's Chromium."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

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


@contextlib.contextmanager
def demo_table(tmp_path, stderr=None, **server_env: str) -> Iterator[str]:
    """The embedded default (SQLite, in-memory layer) with the demo table, on a free port.

    ``server_env`` sets more of the server's environment (``DEBUG="0"`` as `make run` serves,
    ``SOCKETS_PER_USER``...; the demo is seeded as `make run` seeds it, with the default DEBUG);
    ``stderr`` a file for the server's log.
    """
    env = app_env(DATABASE_URL=f"sqlite:///{tmp_path / 'table.sqlite3'}")
    manage(env, "migrate", "--no-input")
    manage(env, "seed_demo")
    with uvicorn(env | server_env, stderr=stderr) as base:
        yield base


def log_in(browser, base: str, username: str, width: int = 1280, height: int = 900):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", DEMO_PASSWORD)
    page.click("form button.primary")
    page.wait_for_url(f"{base}/")
    return page
