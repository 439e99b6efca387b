"""A page past the socket cap tells its reader why it is not live, in a real browser."""

from __future__ import annotations

import pytest

from tests.web.browser import demo_table, log_in

pytestmark = pytest.mark.browser
CAMPAIGN = "Królestwo Zarith (FastTest)"
SHEET = "Brunhilda z Gór"


def test_a_page_past_the_users_socket_cap_says_so_and_the_first_stays_live(browser, tmp_path):
    with demo_table(tmp_path, SOCKETS_PER_USER="1") as base:
        first = log_in(browser, base, "ala")
        first.click(f"text={CAMPAIGN}")
        first.click(f"text={SHEET}")
        first.wait_for_selector(".connection[data-connection-state='live']")
        second = first.context.new_page()
        second.clock.install()  # the page's timers, to jump ahead of them (below)
        second.goto(first.url)
        state = second.wait_for_selector(".connection[data-connection-state='crowded']")
        assert "too many pages of this table open" in state.inner_text()
        assert first.query_selector(".connection[data-connection-state='live']")
        # Retrying soon cannot help: the refused page waits a minute or to be shown again. A
        # retry due within 55 s would run in the jump and set "connecting" as it starts.
        second.clock.fast_forward(55_000)
        assert second.evaluate("window.tableSocket.state()") == "crowded"


def test_a_refused_page_goes_live_when_shown_again_after_another_was_closed(browser, tmp_path):
    with demo_table(tmp_path, SOCKETS_PER_USER="1") as base:
        first = log_in(browser, base, "ala")
        first.click(f"text={CAMPAIGN}")
        first.click(f"text={SHEET}")
        first.wait_for_selector(".connection[data-connection-state='live']")
        second = first.context.new_page()
        second.goto(first.url)
        second.wait_for_selector(".connection[data-connection-state='crowded']")
        first.close()
        second.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        second.wait_for_selector(".connection[data-connection-state='live']", timeout=20_000)


def test_a_refused_page_takes_the_place_of_a_page_of_the_same_browser_that_closed(
    browser, tmp_path
):
    with demo_table(tmp_path, SOCKETS_PER_USER="1") as base:
        first = log_in(browser, base, "ala")
        first.click(f"text={CAMPAIGN}")
        first.click(f"text={SHEET}")
        first.wait_for_selector(".connection[data-connection-state='live']")
        second = first.context.new_page()
        second.goto(first.url)
        second.wait_for_selector(".connection[data-connection-state='crowded']")
        # As a person closes a tab: the page's unload handlers run (Playwright's plain close
        # may tear the page down without them).
        first.close(run_before_unload=True)
        # Not shown again, and long before the minute's retry: the closing page said so.
        second.wait_for_selector(".connection[data-connection-state='live']", timeout=20_000)
