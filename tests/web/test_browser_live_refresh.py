"""A live part of a page refreshes for every table event, however close the event comes to the
previous refresh: an event is never lost between one copy of the part and the next (the GM's
tests being shaped, a player's test panel); and a roll at the table costs the GM's dashboard
one request."""

from __future__ import annotations

import pytest

from tests.web.browser import (
    SHEET_CHANGED,
    T10,
    demo_table,
    gm_at_table,
    open_sheet,
    settled,
    until,
)

pytestmark = pytest.mark.browser

# The page counts the refresher's requests and which event each is for; the first answer is
# followed by a table event in the very next task, as a websocket message arriving then.
EVENT_RIGHT_AFTER_THE_SWAP = """() => {
  window.liveEvents = [];
  document.addEventListener("htmx:beforeRequest", function (event) {
    const config = event.detail.requestConfig;
    if (event.detail.elt.id === "live-parts") window.liveEvents.push(config.parameters.event);
  });
  document.addEventListener("htmx:afterRequest", function once(event) {
    if (event.detail.elt.id !== "live-parts") return;
    document.removeEventListener("htmx:afterRequest", once);
    setTimeout(function () {
      document.body.dispatchEvent(new CustomEvent("table:pending", {
        detail: { pending: 0, status: "rolled", revision: 1 }, bubbles: true }));
    }, 0);
  });
  document.body.dispatchEvent(new CustomEvent("table:sheet", { detail: {}, bubbles: true }));
}"""


def test_every_event_is_refreshed_in_its_turn_and_a_roll_costs_the_dashboard_one_request(
    browser, tmp_path
):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, T10, dashboard=True)
        ala = open_sheet(browser, base, "ala", T10, "Astrid")

        # An event arriving just after a refresh answered is refreshed in its turn.
        gm.evaluate(EVENT_RIGHT_AFTER_THE_SWAP)
        gm.wait_for_function("() => window.liveEvents.length >= 2", timeout=10000)
        assert gm.evaluate("window.liveEvents") == ["table:sheet", "table:pending"]

        # A refresh asked while the panel's choices are on their way is sent after their answer.
        ala.click("button.roll-target:has-text('Styrka')")
        ala.wait_for_selector("#test-panel .roll-button:not([disabled])")
        held = []

        def hold_the_first_post(route):  # while the character changes
            if route.request.method == "POST" and not held:
                held.append(route)
            else:
                route.continue_()

        ala.route("**/test/", hold_the_first_post)
        ala.evaluate("() => htmx.trigger(document.querySelector('form.panel-choices'), 'change')")
        ala.wait_for_function("() => document.querySelector('form.panel-choices.htmx-request')")
        # The sheet refreshes 300 ms after the event, the panel 200 ms after it: once the
        # sheet's request is out, the panel's refresh has been asked for.
        with ala.expect_request("**/paper/"):
            ala.evaluate(SHEET_CHANGED)
        until(lambda: held, ala)  # the held route reaches this test apart from the page's events
        with ala.expect_request(
            lambda request: (
                request.method == "POST" and request.headers.get("x-panel-refresh") == "1"
            ),
            timeout=5000,
        ):
            held[0].continue_()
        ala.unroute("**/test/")
        settled(ala)

        # A roll at the table costs the GM's dashboard one request.
        ala.wait_for_selector("#test-panel .roll-button:not([disabled])")
        sent = []
        gm.on("request", lambda request: sent.append(request.url))
        ala.click("#test-panel .roll-button")
        gm.wait_for_selector("#roll-log [data-entries] > li[data-seq]")
        settled(gm)  # the requests the entry set off (sent as it was shown) are answered
        assert len(sent) == 1
        assert "/dashboard/live/?event=table%3Aentry" in sent[0]
