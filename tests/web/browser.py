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
# and the tests that type it still log in through the form. Then the demo is kept as it is
# (``sessions=False``), and a session started in each campaign, as the GM does it: most tests
# play in one, and a page the GM opened only to start it cost a browser context.
_SESSIONS = """
import contextlib, json, sqlite3
from django.contrib.auth import get_user_model
from django.db import connection
from campaigns.models import Campaign
from campaigns.sessions import start_session
from tests.web.browser import logged_in_session
logins = {user.username: logged_in_session(user) for user in get_user_model().objects.all()}
connection.ensure_connection()
with contextlib.closing(sqlite3.connect(%r)) as kept:
    connection.connection.backup(kept)
running = {campaign.name: start_session(campaign).pk for campaign in Campaign.objects.all()}
print(json.dumps({"logins": logins, "running": running}))
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
def _seeded() -> dict:
    """This process's demo database, migrated and seeded as `make run` does it (``plain``), the
    same with a session running in each campaign (``running``, and the ids of those sessions),
    and the session key of each of its users (``logins``)."""
    folder = Path(tempfile.mkdtemp(prefix="demo-table-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    running, plain = folder / "running.sqlite3", folder / "plain.sqlite3"
    env = app_env(DATABASE_URL=f"sqlite:///{running}")
    manage(env, "migrate", "--no-input")
    manage(env, "seed_demo")
    made = manage(env, "shell", "--no-imports", "-v", "0", "-c", _SESSIONS % str(plain)).stdout
    seeded = json.loads(made.strip().splitlines()[-1])
    return {
        "plain": plain,
        "running": running,
        "sessions": seeded["running"],
        "logins": seeded["logins"],
    }


@functools.cache
def _demo_ids() -> tuple[dict[str, int], dict[tuple[str, str], int]]:
    """The demo's campaigns by name and characters by (campaign, name): every copy has them."""
    with contextlib.closing(sqlite3.connect(_seeded()["plain"])) as db:
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


def session_path(campaign: str) -> str:
    """The address of the session running in a demo campaign (``demo_table``'s default)."""
    return demo_path(campaign, page=f"sessions/{_seeded()['sessions'][campaign]}/")


def _copy_of_the_demo(path: Path, sessions: bool) -> None:
    # SQLite's own backup: a consistent copy whatever journal the database keeps.
    template = _seeded()["running" if sessions else "plain"]
    with (
        contextlib.closing(sqlite3.connect(template)) as source,
        contextlib.closing(sqlite3.connect(path)) as copy,
    ):
        source.backup(copy)


@contextlib.contextmanager
def demo_table(tmp_path, stderr=None, sessions: bool = True, **server_env: str) -> Iterator[str]:
    """The embedded default (SQLite, in-memory layer) with the demo table, on a free port, a
    session running in each campaign (``sessions=False``: none, as the demo is seeded).

    ``server_env`` sets more of the server's environment (``DEBUG="0"`` as `make run` serves,
    ``SOCKETS_PER_USER``...; the demo is seeded as `make run` seeds it, with the default DEBUG);
    ``stderr`` a file for the server's log. Each call serves a fresh copy of the demo.
    """
    path = tmp_path / "table.sqlite3"
    if path.exists():  # a second table in one test
        path = tmp_path / f"table-{len(list(tmp_path.glob('table*.sqlite3')))}.sqlite3"
    _copy_of_the_demo(path, sessions)
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


def panel_change(url: str) -> bool:
    """A request of a test panel for its choices (a change, a refresh): its URL ends /test/."""
    return url.endswith("/test/")


def hold_first(page, matching) -> list:
    """Holds the page's next request ``matching`` (a route's URL matcher) until the test lets it
    go (``held[0].continue_()``); those after it pass until ``page.unroute(matching)``."""
    held: list = []

    def hold(route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(matching, hold)
    return held


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
    javascript: bool = True,
    scripts: tuple[str, ...] = (),
):
    """A new browser context of ``username``, logged in (the demo's session), on the home page
    (or ``path``). ``locale``: the language the reader's browser asks for (Accept-Language);
    ``scripts``: run in every page it loads, before the page's own."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        java_script_enabled=javascript,
        **({"locale": locale} if locale else {}),
    )
    context.add_cookies(
        [{"name": "sessionid", "value": _seeded()["logins"][username], "url": base}]
    )
    for script in (_IN_FLIGHT, *scripts):
        context.add_init_script(script)
    page = context.new_page()
    page.goto(f"{base}{path}")
    return page


def open_sheet(browser, base: str, username: str, campaign: str, character: str, **options):
    """``username``'s page of ``character``'s sheet, its socket live."""
    page = log_in(browser, base, username, path=demo_path(campaign, character), **options)
    page.wait_for_selector(LIVE)
    return page


def gm_at_table(browser, base: str, campaign: str, dashboard: bool = False, **options):
    """The GM's page of the session running in ``campaign``, or of its dashboard, live."""
    path = demo_path(campaign, page="dashboard/") if dashboard else session_path(campaign)
    gm = log_in(browser, base, "gm", path=path, **options)
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


# What the tests do at the demo table -----------------------------------------------------------

FASTTEST = "Królestwo Zarith (FastTest)"
AST = "Sagi Północy (AST)"
T10 = "Moorcrest (T10)"
TWOD6 = "Pustkowia (2d6)"
CAERBANNOG = "Caerbannog 2026"
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 768}


def visit(page, base: str, path: str):
    """The person's page goes on to ``path`` (a page of the table: its socket live), as a
    person follows a link: cheaper than another browser for the next step of a story."""
    page.goto(f"{base}{path}")
    page.wait_for_selector(LIVE)
    return page


def entry(page, seq: int):
    """The log's entry ``seq``, once the page shows it."""
    selector = f"#roll-log [data-entries] > li[data-seq='{seq}']"
    # As long as any other wait: on a loaded machine (CI runs the suite in one process beside
    # the server and Chromium) an entry has been seen to take more than 10 s to arrive.
    page.wait_for_selector(selector, timeout=30_000)
    return page.locator(selector)


def roll_panel(page) -> None:
    """Press the test panel's Roll once it may be pressed."""
    page.wait_for_selector("#test-panel .roll-button:not([disabled])")
    page.click("#test-panel .roll-button")


def click_stat(page, name: str, checked: str) -> None:
    """Click a stat on the sheet and wait until the panel shows ``checked`` ticked and the
    server's answer is in (the click sent it at once). A fill while the panel is being
    replaced would select the old field's text and type into the fresh one after its number
    (15 becomes 1520): a person sees the panel change; a test waits for it."""
    page.click(f"button.roll-target:has-text('{name}')")
    page.wait_for_selector(f"#test-panel {checked}:checked")
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def call_for(gm, character: str, combat: bool = False, **fields: str):
    """Call for a test on ``character``'s party card; the called test's card on the dashboard."""
    # By its heading: a 2d6 call form lists the other characters as helpers.
    card = gm.locator(".party-card", has=gm.locator("h3 a", has_text=character))
    card.locator("details.call").evaluate("details => { details.open = true; }")
    for name, value in fields.items():
        card.locator(f"select[name={name}]").select_option(value)
    if combat:
        card.locator("input[name=combat]").check()
    # A rolled card stays until the next call for its character, and the card of a test just
    # rolled may still show as open until the dashboard hears of the roll: the call has arrived
    # when an open card shows that was not there before.
    before = card_ids(gm)
    card.locator("button", has_text="Call").click()
    return new_open_card(gm, before)


def card_ids(gm) -> list[str]:
    """The ids of the pending tests' cards the dashboard shows now."""
    return gm.eval_on_selector_all(".pending-card", "cards => cards.map(card => card.id)")


def new_open_card(gm, before: list[str]):
    """The card of a test called since ``before`` was read, once the dashboard shows it."""
    found = gm.wait_for_function(
        """ids => { const card = Array.from(document.querySelectorAll('.pending-card:not(.rolled)'))
            .find(card => !ids.includes(card.id)); return card ? card.id : false; }""",
        arg=before,
    )
    return gm.locator(f"#{found.json_value()}")


def roll_budowa(page, visibility: str = "public") -> None:
    """Roll BUDOWA from the sheet's panel (opened if need be), seen by ``visibility``."""
    if not page.query_selector("#test-panel form"):
        page.click("button.roll-target:has-text('BUDOWA')")
        page.wait_for_selector("#test-panel form")
    # Choosing re-renders the panel (its odds); a Roll sent before that answer came back had its
    # own answer replaced by the late panel on a busy machine, so wait for it first.
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/test/")):
        page.select_option("#visibility", visibility)
    page.wait_for_selector("#test-panel .roll-button:not([disabled])")
    shown = "(document.querySelector('#test-panel .rolled .entry') || {dataset: {}}).dataset.seq"
    before = page.evaluate(shown)
    page.click("#test-panel .roll-button")
    # Each roll is a new entry: the same one again would mean the panel sent a spent key.
    page.wait_for_function(f"before => {shown} && {shown} !== before", arg=before)


# The panel's character changed (a roll spent a resource): the panel refreshes itself.
SHEET_CHANGED = """() => {
  const character = Number(document.getElementById("test-panel").dataset.character);
  const event = new CustomEvent("table:sheet", { detail: { character }, bubbles: true });
  document.body.dispatchEvent(event);
}"""


def change_sheet(tmp_path, character: str, change) -> None:
    """``change(data)`` made to a demo character's sheet in the served copy of the demo, as the
    GM would make it on the sheet (no page of it is open yet): cheaper than a shell of the app."""
    path = tmp_path / "table.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        pk, data = db.execute(
            "SELECT id, data FROM sheets_character WHERE name = ?", [character]
        ).fetchone()
        sheet = json.loads(data)
        change(sheet)
        db.execute("UPDATE sheets_character SET data = ? WHERE id = ?", [json.dumps(sheet), pk])
