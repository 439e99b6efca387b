"""Open pages come back by themselves: a network back online, a restarted server, a tab shown
again, a socket that no longer answers (issue 37, item 5; the rule is static/js/table.js's, its
figures docs/performance.md's). One evening of the GM's and Ala's pages, their clocks in the
test's hands, and the server restarted twice under them."""

from __future__ import annotations

import time

import pytest

from tests.web.browser import (
    FASTTEST,
    LIVE,
    demo_table,
    demo_table_again,
    gm_at_table,
    open_sheet,
    until,
)

pytestmark = pytest.mark.browser
SHEET = "Brunhilda z Gór"
OFFLINE = ".connection[data-connection-state='offline']"
# The promise: every open page live again within 2 s of the server answering.
BACK_MS = 2000


def roll(page) -> str:
    """A roll from the page's sheet; its entry's seq."""
    page.click("button.roll-target:has-text('BUDOWA')")
    page.wait_for_selector("#test-panel .roll-button:not([disabled])")
    page.click("#test-panel .roll-button")
    return page.wait_for_selector("#test-panel .rolled .entry").get_attribute("data-seq")


def later(page, seconds: int, jumps: int = 1) -> None:
    """The page's clock moved on: each jump fires the retry then due, which fails (the server
    or the network is away), and the page counts the time away in its next delay."""
    for _ in range(jumps):
        page.clock.fast_forward(seconds * 1000)
        page.wait_for_selector(OFFLINE)


def test_open_pages_come_back_by_themselves_and_caught_up(browser, tmp_path):
    opened, silenced = [], []

    def through(ws) -> None:
        """The page's sockets, passed on to the server; a silenced one hears nothing more, as a
        socket the network went down under (the browser still thinks it open)."""
        server = ws.connect_to_server()
        server.on_message(lambda message: None if ws in silenced else ws.send(message))
        opened.append(ws)

    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, FASTTEST, dashboard=True)
        ala = open_sheet(browser, base, "ala", FASTTEST, SHEET)
        for page in (gm, ala):  # loaded again with its clock in the test's hands
            page.clock.install()
            page.reload()
            page.wait_for_selector(LIVE)

        # A page back online reconnects at once however long it was offline. Its socket is
        # closed first and the network goes after: Chromium's offline emulation holds back an
        # open socket's frames, its closing one too, and a socket closed offline says so only
        # after the 60 s closing handshake (the page read Live for the 30 s the test waited).
        ala.evaluate("window.tableSocket.drop()")  # its socket, lost with the network
        ala.wait_for_selector(OFFLINE)  # its retries wait for the page's clock, held
        ala.context.set_offline(True)
        # Ten minutes offline: its retries are now 15 to 30 s apart.
        later(ala, 30, jumps=20)
        ala.context.set_offline(False)
        ala.wait_for_selector(LIVE, timeout=5_000)

    # Open pages are live and caught up within 2 s of a restarted server answering. Stopped as
    # a deploy stops it (SIGTERM: uvicorn closes every socket with 1012), and away 10 s longer
    # than it takes here, as a deploy may be.
    for page in (gm, ala):
        page.wait_for_selector(OFFLINE)
        later(page, 10)
    # Meanwhile another server of the same data takes a roll the pages must catch up on.
    with demo_table_again(tmp_path) as other:
        bartek = open_sheet(browser, other, "bartek", FASTTEST, "Zbyszko Cichy")
        seq = roll(bartek)
        bartek.context.close()
    with demo_table_again(tmp_path, base):
        answered = time.monotonic()  # (it has answered a request, asked every 50 ms)
        for page in (gm, ala):
            left_ms = BACK_MS - 1000 * (time.monotonic() - answered)
            page.wait_for_selector(LIVE, timeout=max(1, left_ms))
        for page in (gm, ala):
            assert page.locator(f"[data-entries] > li[data-seq='{seq}']").count() == 1

    # A tab shown again reconnects at once however long its server was away.
    ala.wait_for_selector(OFFLINE)
    later(ala, 30, jumps=20)
    with demo_table_again(tmp_path, base):
        # As a tab shown again hears it (Playwright cannot hide one).
        ala.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        ala.wait_for_selector(LIVE, timeout=5_000)

        # A page back online replaces a socket that no longer answers.
        ala.route_web_socket("**/ws/campaigns/**", through)
        ala.reload()
        ala.wait_for_selector(LIVE)
        silenced.append(opened[-1])
        ala.evaluate("window.dispatchEvent(new Event('online'))")
        until(lambda: len(opened) == 2, ala)
        ala.wait_for_selector(LIVE)
