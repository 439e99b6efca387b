"""`make run`, as a newcomer types it: it serves a login page that the demo logins open."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.web.servers import free_port

ROOT = Path(__file__).resolve().parents[2]


def wait_for(url: str, process: subprocess.Popen, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"make run exited with {process.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"{url} did not answer within {seconds} s")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """`make run` on a free port with a fresh SQLite file and the in-memory layer, once for the
    module (its tests only read): its base URL and what it has printed so far."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path_factory.mktemp('make-run') / 'table.sqlite3'}"
    process = subprocess.Popen(
        ["make", "run", f"PORT={port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    printed: list[str] = []
    threading.Thread(target=lambda: printed.extend(process.stdout), daemon=True).start()
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(f"{base}/accounts/login/", process)
        yield base, printed
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def logged_in(base: str, username: str) -> tuple[urllib.request.OpenerDirector, str]:
    """A cookie-keeping opener logged in as a demo login, and the home page it lands on."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    login_page = opener.open(f"{base}/accounts/login/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login_page).group(1)
    form = urllib.parse.urlencode(
        {"username": username, "password": "demo-table", "csrfmiddlewaretoken": token}
    ).encode()
    home = opener.open(urllib.request.Request(f"{base}/accounts/login/", data=form)).read()
    return opener, home.decode()


def test_make_run_serves_a_login_page_that_a_demo_login_opens(served):
    base, _ = served
    _, home = logged_in(base, "gm")
    assert "Caerbannog 2026" in home


def test_a_player_opening_a_gm_page_under_make_run_gets_the_apps_404_not_the_url_list(served):
    base, _ = served
    opener, home = logged_in(base, "ala")
    campaign = re.search(r'href="(/c/\d+/)"', home).group(1)
    with pytest.raises(urllib.error.HTTPError) as refused:
        opener.open(f"{base}{campaign}dashboard/")
    body = refused.value.read().decode()
    assert refused.value.code == 404
    assert "Page not found" in body
    assert "URLconf" not in body
    assert 'href="/static/css/app.css"' in body  # the app's own page, with its look


def test_make_run_serves_the_static_files_with_debug_off(served):
    base, _ = served
    with urllib.request.urlopen(f"{base}/static/css/app.css") as answer:
        assert answer.status == 200
        assert b".site-header" in answer.read()


def test_make_run_prints_the_url_and_the_demo_logins(served):
    base, printed = served
    expected = [f"{base}/", "Demo logins: gm, ala, bartek, celina (password: demo-table)"]
    # Printed before the server starts; the reader thread may still be passing it on.
    deadline = time.monotonic() + 10
    while not all(line in "".join(printed) for line in expected) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(line in "".join(printed) for line in expected), "".join(printed)
