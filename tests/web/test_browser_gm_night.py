"""The GM's controls say no clearly, and the session's edges hold, in real browsers: a GM and
players in separate contexts on the demo table (issue 13, items 11-15, 18 and 20).

What the server accepts and refuses at the GM's card, in every system, and the words it says
them in, are web tests (tests/web/test_gm_controls.py; the wound under a combat test only,
test_combat_tests.py): here, what the pages do with it as the GM and the player watch."""

from __future__ import annotations

import pytest

from tests.web.browser import (
    FASTTEST,
    LIVE,
    T10,
    call_for,
    demo_path,
    demo_table,
    gm_at_table,
    log_in,
    open_sheet,
    session_path,
    settled,
)

pytestmark = pytest.mark.browser


def set_on_card(gm, control: str, value: str):
    card = gm.locator(".pending-card").first
    form = card.locator(f"form:has(input[name=op][value=set_{control}])")
    form.locator("input[name=value]").fill(value)
    form.locator("button[type=submit]").click()


def refreshed_tests(gm) -> None:
    """The tests being shaped are fetched again, as when a player's choices change."""
    with gm.expect_response(
        lambda response: "/dashboard/live/?event=table%3Apending" in response.url
    ):
        gm.evaluate(
            "() => document.body.dispatchEvent(new CustomEvent('table:pending',"
            " { detail: { pending: 0, draft: true } }))"
        )


def test_the_gms_card_refuses_keeps_what_is_typed_and_the_players_panel_follows_it(
    browser, tmp_path
):
    """Items 11 and 15: an impossible value is refused at the card and the player's Roll stays;
    the refusal and a value being typed survive a refresh of the tests; what the card takes
    reaches the player's panel; a test called off says so; a Roll that cannot be made looks
    disabled and says why."""
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, T10, dashboard=True)
        ala = open_sheet(browser, base, "ala", T10, "Astrid")
        call_for(gm, "Astrid", attribute="Styrka", skill="Svärd")
        ala.wait_for_selector("#test-panel .pending-note")

        # A T10 difficulty of 12 is refused at the card, and the player's roll stays.
        set_on_card(gm, "difficulty", "12")
        gm.wait_for_selector(".pending-card .card-refusal")
        assert "A T10 difficulty is a whole number from 4 to 10 (usually 7)." in gm.inner_text(
            ".pending-card .card-refusal"
        )
        assert "version 1" in gm.inner_text(".pending-card header")
        assert "—" not in gm.inner_text(".pending-card h3")
        assert ala.is_enabled("#test-panel .roll-button")
        assert "version 1" in ala.inner_text("#test-panel .pending-note")

        # The refusal stays through a refresh of the tests, with the value refused.
        gm.locator("body").click(position={"x": 1, "y": 1})  # focus leaves the card
        refreshed_tests(gm)
        settled(gm)
        assert "from 4 to 10" in gm.inner_text(".pending-card .card-refusal")
        assert gm.input_value(".pending-card input[id^=difficulty-]") == "12"

        # A value the GM is typing on the card survives a refresh of the tests.
        field = gm.locator(".pending-card input[id^=difficulty-]")
        field.fill("9")
        refreshed_tests(gm)
        settled(gm)  # the answer is in and swapped
        assert field.input_value() == "9"
        assert field.evaluate("field => field === document.activeElement")
        gm.locator(".pending-card form:has(input[value=set_difficulty]) button").click()
        gm.wait_for_selector(".pending-card header:has-text('version 2')")
        assert field.input_value() == "9"
        # ...and reaches the player's panel.
        ala.wait_for_selector("#test-panel .pending-note:has-text('version 2')")
        assert ala.input_value("#t10-difficulty") == "9"

        # The player is told when the GM calls the test off.
        gm.locator(".pending-card button", has_text="Call it off").click()
        ala.wait_for_selector("#test-panel .called-off")
        assert "The GM called off the test they called for." in ala.inner_text(
            "#test-panel .called-off"
        )
        assert ala.locator("#test-panel .pending-note").count() == 0
        assert ala.is_checked("#test-panel input[name=attribute][value='Styrka']")

        # A roll that cannot be made looks disabled and says why.
        ala.click("button.roll-target:has-text('Styrka')")
        ala.wait_for_selector("#test-panel:not(:has(.called-off)) .roll-button:not([disabled])")
        look = "getComputedStyle(document.querySelector('#test-panel .roll-button'))"
        enabled = ala.evaluate(f"[{look}.backgroundColor, {look}.cursor]")
        ala.fill("#t10-circumstance", "99")
        ala.press("#t10-circumstance", "Tab")
        ala.wait_for_selector("#test-panel .roll-button[disabled]")
        disabled = ala.evaluate(f"[{look}.backgroundColor, {look}.cursor]")
        assert disabled[0] != enabled[0]
        assert disabled[1] == "not-allowed"
        why = ala.inner_text("#roll-why")
        assert "Roll is off until this is settled:" in why
        assert "Circumstance dice must be a whole number" in why
        described = ala.get_attribute("#test-panel .roll-button", "aria-describedby")
        assert described == "roll-why"


# --- 14. Ending a session asks once, and every open page follows --------------------------------


def test_ending_the_session_asks_once_without_javascript_and_every_open_page_follows(
    browser, tmp_path
):
    with demo_table(tmp_path) as base:
        # The GM's browser runs no script: the session ends by links and forms alone.
        gm = log_in(browser, base, "gm", path=session_path(FASTTEST), javascript=False)

        ala = open_sheet(browser, base, "ala", FASTTEST, "Brunhilda z Gór")
        ala.click("button.roll-target:has-text('BUDOWA')")
        ala.wait_for_selector("#test-panel .roll-button")
        bartek = log_in(browser, base, "bartek", path=session_path(FASTTEST))
        bartek.wait_for_selector(LIVE)
        assert "Running since" in bartek.inner_text(".session-side")
        campaign_page = ala.context.new_page()  # the player's campaign page in another tab
        campaign_page.goto(f"{base}{demo_path(FASTTEST)}")
        campaign_page.wait_for_selector("#campaign-sessions a:has-text('Go to the table')")
        campaign_page.wait_for_selector(
            "#call-cues[data-connection-state='live']", state="attached"
        )

        gm.click("text=End the session")
        assert "End the session" in gm.inner_text("h1")
        assert ala.locator("text=Session running").count() == 1  # asked, nothing ended yet
        gm.click("text=Yes, end the session")
        assert "The session has ended." in gm.inner_text(".messages")

        ala.wait_for_selector("#roll-log:has-text('Last session (ended)')")
        ala.wait_for_selector("#test-panel .roll-button", state="detached")
        assert "No game session is running" in ala.inner_text("#test-panel")
        bartek.wait_for_selector(".session-side:has-text('Played on')")
        assert "Running since" not in bartek.inner_text(".session-side")
        campaign_page.wait_for_selector("#campaign-sessions:has-text('No session is running')")
        assert "Go to the table" not in campaign_page.inner_text("#campaign-sessions")


# Moved down to web tests (issue 26): the Markdown export of a secret roll is
# tests/web/test_export_markers.py; the app's 404 under `make run` is tests/web/test_make_run.py.
