"""A live part of a page refreshes for every table event, however close the event comes to the
previous refresh: an event is never lost between one copy of the part and the next (the GM's
tests being shaped, a player's test panel)."""

from __future__ import annotations

import pytest

from tests.web.browser import demo_table, settled, until
from tests.web.test_browser_gm_night import T10, open_sheet, start_and_open_dashboard

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

# The panel's character changed (a roll spent a resource): the panel refreshes itself.
SHEET_CHANGED = """() => {
  const character = Number(document.getElementById("test-panel").dataset.character);
  const event = new CustomEvent("table:sheet", { detail: { character }, bubbles: true });
  document.body.dispatchEvent(event);
}"""


def test_an_event_arriving_just_after_a_refresh_answered_is_refreshed_in_its_turn(
    browser,
    tmp_path,
):
    with demo_table(tmp_path) as base:
        gm = start_and_open_dashboard(browser, base, T10)
        gm.evaluate(EVENT_RIGHT_AFTER_THE_SWAP)
        gm.wait_for_function("() => window.liveEvents.length >= 2", timeout=10000)
        assert gm.evaluate("window.liveEvents") == ["table:sheet", "table:pending"]


def test_a_refresh_asked_while_the_panels_choices_are_on_their_way_is_sent_after_their_answer(
    browser,
    tmp_path,
):
    with demo_table(tmp_path) as base:
        start_and_open_dashboard(browser, base, T10)
        ala = open_sheet(browser, base, "ala", T10, "Astrid")
        ala.click("button.roll-target:has-text('Styrka')")
        ala.wait_for_selector("#test-panel .roll-button:not([disabled])")

        # The answer to a change of the choices is held back while the character changes.
        held = []

        def hold_the_first_post(route):
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


def test_a_roll_at_the_table_costs_the_gms_dashboard_one_request(browser, tmp_path):  # noqa: F811
    with demo_table(tmp_path) as base:
        gm = start_and_open_dashboard(browser, base, T10)
        ala = open_sheet(browser, base, "ala", T10, "Astrid")
        ala.click("button.roll-target:has-text('Styrka')")
        ala.wait_for_selector("#test-panel .roll-button:not([disabled])")
        sent = []
        gm.on("request", lambda request: sent.append(request.url))
        ala.click("#test-panel .roll-button")
        gm.wait_for_selector("#roll-log [data-entries] > li[data-seq]")
        settled(gm)  # the requests the entry set off (sent as it was shown) are answered
        assert len(sent) == 1
        assert "/dashboard/live/?event=table%3Aentry" in sent[0]
