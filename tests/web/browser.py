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
import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path

from tests.web.servers import app_env, forked, manage, uvicorn

# Chromium heeds only the last --disable-features: Playwright's own (1.65, chromiumSwitches.ts),
# then ours. Each context is a window of its own, and each window preloaded the address bar's
# suggestion popup, a WebUI page in a renderer of its own that a headless test never shows:
# half of what a context cost (0.6 of 1.2 CPU-s a person's page, on a loaded machine).
PLAYWRIGHTS_DISABLED_FEATURES = (
    "AimEnabled,AvoidCorsURLLoaderRestartOnRedirect,AvoidUnnecessaryBeforeUnloadCheckSync,"
    "DestroyProfileOnBrowserClose,HttpsFirstBalancedModeAutoEnable,HttpsUpgrades,LensOverlay,"
    "MediaRouter,NetworkTimeServiceQuerying,OptimizationHints,PaintHolding,PreconnectToSearch,"
    "TcpPortRandomizationWin,ThirdPartyStoragePartitioning,"
    "msEdgeUpdateLaunchServicesPreferredVersion,msForceBrowserSignIn"
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=" + PLAYWRIGHTS_DISABLED_FEATURES
    + ",WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup",
]  # fmt: skip
DEMO_PASSWORD = "demo-table"


def check_disabled_features() -> None:
    """Fail if the Chromium this process launched keeps a feature Playwright turns off: its own
    list would otherwise be lost without a word to ours (a Playwright upgrade that adds one)."""
    kids: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            text = stat.read_text()
            kids.setdefault(int(text[text.rindex(")") + 2 :].split()[1]), []).append(
                int(stat.parent.name)
            )
    todo = [os.getpid()]
    while todo:
        pid = todo.pop()
        todo += kids.get(pid, [])
        with contextlib.suppress(OSError):
            args = Path(f"/proc/{pid}/cmdline").read_text().split("\0")
            lists = [arg.split("=", 1)[1].split(",") for arg in args
                     if arg.startswith("--disable-features=")]  # fmt: skip
            if "--remote-debugging-pipe" in args and set(lists[0]) - set(lists[-1]):
                raise RuntimeError(
                    f"Playwright also disables {sorted(set(lists[0]) - set(lists[-1]))}: add"
                    " them to PLAYWRIGHTS_DISABLED_FEATURES (tests/web/browser.py)"
                )


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


@functools.cache
def _demo_ids() -> tuple[dict[str, int], dict[tuple[str, str], int]]:
    """The demo's campaigns by name and characters by (campaign, name): every copy has them."""
    with contextlib.closing(sqlite3.connect(_seeded()[0])) as db:
        campaigns = dict(db.execute("SELECT name, id FROM campaigns_campaign"))
        characters = {
            (campaign, name): pk
            for campaign, name, pk in db.execute(
                "SELECT c.name, s.name, s.id FROM sheets_character s"
                " JOIN campaigns_campaign c ON c.id = s.campaign_id"
            )
        }
    return campaigns, characters


def demo_path(campaign: str, character: str | None = None, page: str = "") -> str:
    """The address of a demo campaign's page (``page``: "dashboard/", "settings/"...) or of
    one of its characters' sheets: a test opens it at once instead of clicking its way there."""
    campaigns, characters = _demo_ids()
    path = f"/c/{campaigns[campaign]}/"
    if character is not None:
        path += f"characters/{characters[campaign, character]}/"
    return path + page


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
    if not server_env:  # the embedded default as it is: forked, the app imported already
        server = forked(path, stderr=stderr)
    else:
        server = uvicorn(app_env(DATABASE_URL=f"sqlite:///{path}") | server_env, stderr=stderr)
    with _up_for_the_report(server) as base:
        yield base


@contextlib.contextmanager
def demo_table_again(tmp_path, base: str | None = None, **server_env: str) -> Iterator[str]:
    """The data of ``demo_table(tmp_path, **server_env)`` served by another server: at ``base``
    once the first has stopped (a restart, as a deploy does it), or on a port of its own beside
    it (another worker of the same data; embedded, the two share no channel layer)."""
    port = int(base.rsplit(":", 1)[1]) if base else None
    path = tmp_path / "table.sqlite3"
    if not server_env:
        server = forked(path, port=port)
    else:
        server = uvicorn(app_env(DATABASE_URL=f"sqlite:///{path}") | server_env, port=port)
    with _up_for_the_report(server) as again:
        yield again


#: While a browser test runs (``browser`` in tests/conftest.py): what to stop once its failure
#: has been reported. A server stopped as the failure left its ``with`` had every page say
#: "Offline — reconnecting…" by the time the report read them (issue 38: a timeout in CI was
#: read as both pages having lost their sockets); kept up until the test's teardown, the report
#: reads each page as it was when the test failed.
after_the_report: list | None = None


@contextlib.contextmanager
def _up_for_the_report(server) -> Iterator[str]:
    stack = contextlib.ExitStack()
    try:
        yield stack.enter_context(server)
    except BaseException:
        if after_the_report is not None:
            after_the_report.append(stack.pop_all().close)
        raise
    finally:
        stack.close()


# In every page a test opens: the htmx requests sent and not yet answered (their answer swapped
# in). A request htmx queues behind another (hx-sync) is sent in the same task that ends the
# one before it, so "none in flight" also means none queued.
_IN_FLIGHT = """
window.__inFlight = new Set();
document.addEventListener("htmx:beforeRequest", (event) => {
  const xhr = event.detail.xhr;
  window.__inFlight.add(xhr);
  xhr.addEventListener("loadend", () => window.__inFlight.delete(xhr));
});
"""


def settled(page, timeout: float = 10_000) -> None:
    """Wait until the page has no htmx request on its way: what a click, a typed field or a
    table event (handled as it arrives) set off has been answered and swapped in."""
    page.wait_for_function("() => window.__inFlight.size === 0", timeout=timeout)


def until(condition, page, timeout: float = 10) -> None:
    """Wait until ``condition()`` holds of what Playwright has told this test (a route it
    holds, a request it saw): each look lets it deliver what the browser has sent since."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {condition}")
        page.evaluate("0")


def at_rest(page, selector: str) -> None:
    """Wait until ``selector`` has stayed where it is on screen for three frames (a scroll that
    brought it into view has ended)."""
    page.wait_for_function(
        """selector => new Promise(done => {
            let last = "", same = 0;
            (function frame() {
                const element = document.querySelector(selector);  // (a refresh may swap it)
                const box = element && element.getBoundingClientRect();
                const now = box ? box.top + ":" + box.left : "";
                same = now && now === last ? same + 1 : 0;
                last = now;
                if (same >= 3) done(true); else requestAnimationFrame(frame);
            })();
        })""",
        arg=selector,
    )


LIVE = ".connection[data-connection-state='live']"


def log_in(
    browser,
    base: str,
    username: str,
    width: int = 1280,
    height: int = 900,
    locale: str | None = None,
    path: str = "/",
):
    """A new browser context of ``username``, logged in (the demo's session), on the home page
    (or ``path``). ``locale``: the language the reader's browser asks for (Accept-Language)."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, **({"locale": locale} if locale else {})
    )
    context.add_cookies([{"name": "sessionid", "value": _seeded()[1][username], "url": base}])
    context.add_init_script(_IN_FLIGHT)
    page = context.new_page()
    page.goto(f"{base}{path}")
    return page


def open_sheet(browser, base: str, username: str, campaign: str, character: str, **size):
    """``username``'s page of ``character``'s sheet, its socket live."""
    page = log_in(browser, base, username, path=demo_path(campaign, character), **size)
    page.wait_for_selector(LIVE)
    return page


def start_session(browser, base: str, campaign: str, dashboard: bool = False, **size):
    """The GM starts a session of ``campaign`` and stays on its page, or opens the dashboard."""
    gm = log_in(browser, base, "gm", path=demo_path(campaign), **size)
    gm.click("text=Start a session")
    gm.wait_for_selector(LIVE)
    if dashboard:
        gm.goto(f"{base}{demo_path(campaign, page='dashboard/')}")
        gm.wait_for_selector(LIVE)
    return gm


def slow_network(page, latency_ms: int) -> None:
    """Every request of the page takes ``latency_ms`` longer, as on a phone's poor connection:
    a page's deferred scripts then arrive well after its HTML is on screen."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1},
    )
