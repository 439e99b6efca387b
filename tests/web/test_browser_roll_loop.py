"""One click is one roll, a roll that did not go out says so, and the result gets the focus:
a player's Roll button in a real browser, roll after roll, with another player at the table."""

from __future__ import annotations

import pytest

from tests.web.browser import (
    FASTTEST,
    demo_table,
    entry,
    hold_first,
    open_sheet,
    panel_change,
    settled,
    until,
)

pytestmark = pytest.mark.browser

ROLL = "#test-panel .roll-button"
ROLL_ROUTE = "**/test/roll/"
ENTRIES = "#roll-log [data-entries] > li"


def open_budowa(page) -> None:
    """A new test of BUDOWA (after a roll, a click on a stat starts one), ready to roll."""
    page.click("button.roll-target:has-text('BUDOWA')")
    page.wait_for_selector("#test-panel:not(:has(.rolled)) .roll-button:not([disabled])")


def entries(page) -> int:
    return page.locator(ENTRIES).count()


def watch_rolls(page) -> list[str]:
    """The idempotency key of every roll the page sends, as it sends it."""
    keys: list[str] = []
    page.on(
        "request",
        lambda request: (
            keys.append(request.post_data_json["key"])
            if request.url.endswith("/test/roll/")
            else None
        ),
    )
    return keys


def ready_to_roll(page) -> None:
    """Roll is no longer busy (its double-click window has passed): a click on it rolls."""
    page.wait_for_selector(f"{ROLL}:not([disabled]):not([aria-busy])")


def test_one_click_is_one_roll_a_lost_roll_says_so_and_the_result_gets_the_focus(browser, tmp_path):
    with demo_table(tmp_path) as base:
        ala = open_sheet(browser, base, "ala", FASTTEST, "Brunhilda z Gór")
        bartek = open_sheet(browser, base, "bartek", FASTTEST, "Zbyszko Cichy")

        # A double click on Roll makes one roll.
        open_budowa(ala)
        rolls = watch_rolls(ala)
        ala.locator(ROLL).scroll_into_view_if_needed()
        box = ala.locator(ROLL).bounding_box()
        ala.mouse.dblclick(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        entry(bartek, 1)
        settled(ala)  # a second roll, sent with the first or queued behind it, is answered too
        assert len(rolls) == 1
        assert entries(bartek) == 1
        assert entries(ala) == 1

        # A deliberate second click once the result shows is a second roll.
        open_budowa(ala)
        ala.click(ROLL)
        ala.wait_for_selector("#test-panel .rolled .entry[data-seq='2']")
        ala.click(ROLL)  # waits, as a person would, until the button is no longer busy
        ala.wait_for_selector("#test-panel .rolled .entry[data-seq='3']")
        entry(bartek, 3)
        assert entries(bartek) == 3

        # The Roll button is busy and disabled while the roll is in flight.
        open_budowa(ala)
        ala.evaluate(
            """() => {
            window.seenBusy = [];
            const button = document.querySelector('#test-panel .roll-button');
            new MutationObserver(() => window.seenBusy.push(
                [button.getAttribute('aria-busy'), button.disabled])).observe(
                button, {attributes: true});
        }"""
        )
        ala.click(ROLL)
        ala.wait_for_selector("#test-panel .rolled .entry[data-seq='4']")
        assert ["true", True] in ala.evaluate("window.seenBusy")
        ala.wait_for_selector(f"{ROLL}:not([disabled]):not([aria-busy])")
        assert ala.evaluate("getComputedStyle(document.querySelector('#test-panel .roll-button'))"
                            ".opacity") == "1"  # fmt: skip

        # A roll with no connection says so, and sending it again rolls once.
        open_budowa(ala)
        keys = watch_rolls(ala)
        ala.route(ROLL_ROUTE, lambda route: route.abort("internetdisconnected"))
        ala.click(ROLL)
        alert = ala.locator("#test-panel-refusal [role=alert]")
        alert.wait_for()
        assert "did not reach the table" in alert.inner_text()
        assert entries(bartek) == 4
        ala.unroute(ROLL_ROUTE)
        ready_to_roll(ala)
        ala.click("#test-panel [data-roll-again]")
        entry(bartek, 5)
        ala.wait_for_selector("#test-panel .rolled .entry[data-seq='5']")
        assert len(keys) == 2
        assert keys[0] == keys[1]  # the same idempotency key, sent again
        assert ala.locator("#test-panel-refusal [role=alert]").count() == 0

        # A roll whose answer was lost is not made twice when sent again.
        open_budowa(ala)

        def reach_the_server_then_lose_the_answer(route):
            route.fetch()  # the server rolls
            route.abort("connectionreset")

        keys = watch_rolls(ala)
        ala.route(ROLL_ROUTE, reach_the_server_then_lose_the_answer)
        ala.click(ROLL)
        ala.locator("#test-panel-refusal [role=alert]").wait_for()
        entry(bartek, 6)
        ala.unroute(ROLL_ROUTE)
        ready_to_roll(ala)
        ala.click("#test-panel [data-roll-again]")
        ala.wait_for_selector("#test-panel .rolled .entry[data-seq='6']")
        settled(ala)
        assert len(keys) == 2
        assert keys[0] == keys[1]  # the same roll asked for again, answered with the first
        assert entries(ala) == 6
        assert entries(bartek) == 6

        # After a roll the focus moves to the result.
        open_budowa(ala)
        ala.focus(ROLL)
        ala.keyboard.press("Enter")
        ala.wait_for_selector("#test-panel .rolled .entry[data-seq='7']")
        ala.wait_for_function("document.activeElement.closest('#test-panel .rolled') !== null")
        assert "BUDOWA" in ala.evaluate("document.activeElement.innerText")

        # A roll clicked while a change is on its way waits for it and rolls it.
        open_budowa(ala)
        held = hold_first(ala, panel_change)
        ala.check("#test-panel input[name=trait][data-name='Rycerz królestwa']")
        ala.click(ROLL)
        # The roll waits its turn (hx-sync): the held change is the only request on its way.
        assert ala.evaluate("window.__inFlight.size") == 1
        until(lambda: held, ala)
        assert entries(ala) == 7
        held[0].continue_()
        ala.wait_for_selector("#test-panel .rolled .entry[data-seq='8']")
        assert "Rycerz królestwa" in ala.inner_text("#test-panel .rolled .entry[data-seq='8']")
        ala.unroute(panel_change)

        # A choice changed while the roll is in flight does not hide its result.
        open_budowa(ala)
        held = hold_first(ala, ROLL_ROUTE)
        ala.click(ROLL)
        ala.wait_for_function("() => document.querySelector('#test-panel .roll-button[aria-busy]')")
        # The button is busy as htmx sends; the held route reaches this test a moment later.
        until(lambda: held, ala)
        ala.check("#test-panel input[name=trait][data-name='Rycerz królestwa']")
        held[0].continue_()
        # The change is sent once the roll has answered, and its answer keeps the result.
        ala.wait_for_selector("#test-panel .odds .sources li:has-text('Rycerz królestwa')")
        assert ala.locator("#test-panel .rolled .entry[data-seq='9']").count() == 1
        assert ala.is_checked("#test-panel input[name=trait][data-name='Rycerz królestwa']")
