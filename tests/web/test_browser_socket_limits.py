"""A page past the socket cap tells its reader why it is not live, and takes a place once one is
free: in a real browser whose user may hold one table page (SOCKETS_PER_USER=1)."""

from __future__ import annotations

import pytest

from tests.web.browser import FASTTEST, LIVE, demo_table, open_sheet

pytestmark = pytest.mark.browser
SHEET = "Brunhilda z Gór"
CROWDED = ".connection[data-connection-state='crowded']"


def test_a_page_past_the_cap_says_so_and_takes_a_place_once_one_is_free(browser, tmp_path):
    with demo_table(tmp_path, SOCKETS_PER_USER="1") as base:
        first = open_sheet(browser, base, "ala", FASTTEST, SHEET)

        # A page past the user's socket cap says so, and the first stays live.
        second = first.context.new_page()
        second.clock.install()  # the page's timers, to jump ahead of them (below)
        second.goto(first.url)
        state = second.wait_for_selector(CROWDED)
        assert "too many pages of this table open" in state.inner_text()
        assert first.query_selector(LIVE)
        # Retrying soon cannot help: the refused page waits a minute or to be shown again. A
        # retry due within 55 s would run in the jump and set "connecting" as it starts.
        second.clock.fast_forward(55_000)
        assert second.evaluate("window.tableSocket.state()") == "crowded"

        # A refused page takes the place of a page of the same browser that closed: as a person
        # closes a tab, the page's unload handlers run (Playwright's plain close may tear the
        # page down without them). Not shown again, and long before the minute's retry: the
        # closing page said so.
        first.close(run_before_unload=True)
        second.wait_for_selector(LIVE, timeout=20_000)

        # A refused page goes live when shown again after another was closed.
        third = second.context.new_page()
        third.goto(second.url)
        third.wait_for_selector(CROWDED)
        second.close()
        third.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        third.wait_for_selector(LIVE, timeout=20_000)
