"""A live part of a page refreshes for every table event, however close the event comes to the
previous refresh: an event is never lost between one copy of the part and the next (the GM's
tests being shaped, a player's test panel)."""

from __future__ import annotations

import pytest

from tests.web.browser import demo_table
from tests.web.test_browser_gm_night import T10, start_and_open_dashboard
from tests.web.test_browser_table import browser  # noqa: F401

pytestmark = pytest.mark.browser

# The page counts its refreshes of the tests being shaped, and the first fresh copy swapped in
# is followed by a table event in the very next task, as a websocket message arriving then.
EVENT_RIGHT_AFTER_THE_SWAP = """() => {
  window.pendingFetches = 0;
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.target.id === "pending-tests") window.pendingFetches += 1;
  });
  document.addEventListener("htmx:afterSwap", function once(event) {
    if (event.detail.target.id !== "pending-tests") return;
    document.removeEventListener("htmx:afterSwap", once);
    setTimeout(function () {
      document.body.dispatchEvent(new CustomEvent("table:pending", {
        detail: { pending: 0, status: "rolled", revision: 1 }, bubbles: true }));
    }, 0);
  });
  document.body.dispatchEvent(new CustomEvent("table:sheet", { detail: {}, bubbles: true }));
}"""


def test_an_event_arriving_just_after_the_tests_being_shaped_were_swapped_in_fetches_them_again(
    browser,  # noqa: F811
    tmp_path,
):
    with demo_table(tmp_path) as base:
        gm = start_and_open_dashboard(browser, base, T10)
        gm.evaluate(EVENT_RIGHT_AFTER_THE_SWAP)
        gm.wait_for_function("() => window.pendingFetches >= 2", timeout=10000)
