"""One click is one roll, a roll that did not go out says so, and the result gets the focus:
a player's Roll button in a real browser, with the GM and another player at the table."""

from __future__ import annotations

import pytest

from tests.web.browser import settled, until
from tests.web.test_browser_table import entry, open_sheet, table  # noqa: F401

pytestmark = pytest.mark.browser

ROLL = "#test-panel .roll-button"
ROLL_ROUTE = "**/test/roll/"
ENTRIES = "#roll-log [data-entries] > li"


def open_budowa(page) -> None:
    page.click("button.roll-target:has-text('BUDOWA')")
    page.wait_for_selector(f"{ROLL}:not([disabled])")


def entries(page) -> int:
    return page.locator(ENTRIES).count()


def test_a_double_click_on_roll_makes_one_roll(table):  # noqa: F811
    _, ala, bartek = table
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


def test_a_deliberate_second_click_once_the_result_shows_is_a_second_roll(table):  # noqa: F811
    _, ala, bartek = table
    open_budowa(ala)
    ala.click(ROLL)
    ala.wait_for_selector("#test-panel .rolled .entry[data-seq='1']")
    ala.click(ROLL)  # waits, as a person would, until the button is no longer busy
    ala.wait_for_selector("#test-panel .rolled .entry[data-seq='2']")
    entry(bartek, 2)
    assert entries(bartek) == 2


def test_the_roll_button_is_busy_and_disabled_while_the_roll_is_in_flight(table):  # noqa: F811
    _, ala, _ = table
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
    ala.wait_for_selector("#test-panel .rolled .entry")
    assert ["true", True] in ala.evaluate("window.seenBusy")
    ala.wait_for_selector(f"{ROLL}:not([disabled]):not([aria-busy])")
    assert ala.evaluate("getComputedStyle(document.querySelector('#test-panel .roll-button'))"
                        ".opacity") == "1"  # fmt: skip


def test_a_roll_with_no_connection_says_so_and_sending_it_again_rolls_once(table):  # noqa: F811
    _, ala, bartek = table
    open_budowa(ala)
    keys = watch_rolls(ala)
    ala.route(ROLL_ROUTE, lambda route: route.abort("internetdisconnected"))
    ala.click(ROLL)
    alert = ala.locator("#test-panel-refusal [role=alert]")
    alert.wait_for()
    assert "did not reach the table" in alert.inner_text()
    assert entries(bartek) == 0
    ala.unroute(ROLL_ROUTE)
    ready_to_roll(ala)
    ala.click("#test-panel [data-roll-again]")
    entry(bartek, 1)
    ala.wait_for_selector("#test-panel .rolled .entry[data-seq='1']")
    assert len(keys) == 2
    assert keys[0] == keys[1]  # the same idempotency key, sent again
    assert ala.locator("#test-panel-refusal [role=alert]").count() == 0


def test_a_roll_whose_answer_was_lost_is_not_made_twice_when_sent_again(table):  # noqa: F811
    _, ala, bartek = table
    open_budowa(ala)

    def reach_the_server_then_lose_the_answer(route):
        route.fetch()  # the server rolls
        route.abort("connectionreset")

    keys = watch_rolls(ala)
    ala.route(ROLL_ROUTE, reach_the_server_then_lose_the_answer)
    ala.click(ROLL)
    ala.locator("#test-panel-refusal [role=alert]").wait_for()
    entry(bartek, 1)
    ala.unroute(ROLL_ROUTE)
    ready_to_roll(ala)
    ala.click("#test-panel [data-roll-again]")
    ala.wait_for_selector("#test-panel .rolled .entry[data-seq='1']")
    settled(ala)
    assert len(keys) == 2
    assert keys[0] == keys[1]  # the same roll asked for again, answered with the first
    assert entries(ala) == 1
    assert entries(bartek) == 1


def test_after_a_roll_the_focus_moves_to_the_result(table):  # noqa: F811
    _, ala, _ = table
    open_budowa(ala)
    ala.focus(ROLL)
    ala.keyboard.press("Enter")
    ala.wait_for_selector("#test-panel .rolled .entry")
    ala.wait_for_function("document.activeElement.closest('#test-panel .rolled') !== null")
    assert "BUDOWA" in ala.evaluate("document.activeElement.innerText")


def test_a_roll_clicked_while_a_change_is_on_its_way_waits_for_it_and_rolls_it(table):  # noqa: F811
    _, ala, _ = table
    open_budowa(ala)
    held = []
    ala.route(lambda url: url.endswith("/test/"), lambda route: held.append(route))
    ala.check("#test-panel input[name=trait][data-name='Rycerz królestwa']")
    ala.click(ROLL)
    # The roll waits its turn (hx-sync): the held change is the only request on its way.
    assert ala.evaluate("window.__inFlight.size") == 1
    until(lambda: held, ala)
    assert entries(ala) == 0
    held[0].continue_()
    ala.wait_for_selector("#test-panel .rolled .entry[data-seq='1']")
    assert "Rycerz królestwa" in ala.inner_text("#test-panel .rolled .entry[data-seq='1']")


def test_a_choice_changed_while_the_roll_is_in_flight_does_not_hide_its_result(table):  # noqa: F811
    _, ala, _ = table
    open_budowa(ala)
    held = []
    ala.route(ROLL_ROUTE, lambda route: held.append(route))
    ala.click(ROLL)
    ala.wait_for_function("() => document.querySelector('#test-panel .roll-button[aria-busy]')")
    # The button is busy as htmx sends; the held route reaches this test a moment later.
    until(lambda: held, ala)
    ala.check("#test-panel input[name=trait][data-name='Rycerz królestwa']")
    held[0].continue_()
    # The change is sent once the roll has answered, and its answer keeps the result.
    ala.wait_for_selector("#test-panel .odds .sources li:has-text('Rycerz królestwa')")
    assert ala.locator("#test-panel .rolled .entry[data-seq='1']").count() == 1
    assert ala.is_checked("#test-panel input[name=trait][data-name='Rycerz królestwa']")
