"""Played by ear and by keyboard (issue 41, item 3): a player answers a called test, rolls and
says a line with the keyboard alone (``page.keyboard``, never a click), and the page's one
polite live region says what a screen reader would hear, each thing once."""

from __future__ import annotations

import pytest

from tests.web.browser import (
    FASTTEST,
    LIVE,
    call_for,
    demo_path,
    demo_table,
    entry,
    gm_at_table,
    open_sheet,
    session_path,
    settled,
    visit,
)

pytestmark = pytest.mark.browser
HERO = "Brunhilda z Gór"

# Everything the live region is given to say, in order, kept by the test (the region itself
# keeps only its last three lines).
HEAR = """() => {
  window.__heard = [];
  new MutationObserver(records => records.forEach(record => record.addedNodes.forEach(
    node => window.__heard.push(node.textContent)))).observe(
      document.querySelector("[data-announcer]"), { childList: true });
}"""


def heard(page) -> list[str]:
    return page.evaluate("() => window.__heard")


def hears(page, text: str) -> None:
    page.wait_for_function("text => window.__heard.some(said => said.includes(text))", arg=text)


def tab_to(page, selector: str) -> None:
    """Press Tab until the focus is on ``selector`` (at most 60 times), as a person tabs on."""
    for _press in range(60):
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def focused(page) -> str:
    return page.evaluate("() => document.activeElement.id")


def test_a_called_test_a_roll_and_a_line_of_chat_by_keyboard_alone_are_each_heard_once(
    browser, tmp_path
):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, FASTTEST, dashboard=True)
        ala = open_sheet(browser, base, "ala", FASTTEST, HERO)
        ala.evaluate(HEAR)

        # The GM calls: the player hears it, and the focus is in the panel, ready to roll.
        call_for(gm, HERO, attribute="ZRĘCZNOŚĆ")
        hears(ala, f"The GM calls for a test: {HERO}")
        ala.wait_for_function("document.activeElement.id === 'test-panel'")
        panel = ala.get_by_role("region", name=f"The GM calls for a test: {HERO}")
        assert 'button "Roll"' in panel.aria_snapshot()
        assert panel.get_by_role("button", name="Roll").get_attribute("aria-keyshortcuts") == "r"

        # r rolls the called test; the new entry is heard once, in a sentence.
        ala.keyboard.press("r")
        said = entry(ala, 1)
        hears(ala, f"{HERO} rolled ZRĘCZNOŚĆ 5")
        assert "ZRĘCZNOŚĆ 5" in said.inner_text()

        # The call is over once the panel has heard so (a table event refreshes it).
        ala.wait_for_selector("#test-panel input[name=pending]", state="detached")
        settled(ala)
        # s goes to the sheet's first stat; Enter opens its test, Space ticks a skill, r rolls.
        ala.keyboard.press("s")
        assert ala.evaluate("document.activeElement.matches('button.roll-target')")
        assert "BUDOWA" in ala.evaluate("document.activeElement.textContent")
        ala.keyboard.press("Enter")
        ala.wait_for_selector("#test-panel input[name=attribute][value='BUDOWA']:checked")
        ala.wait_for_function("document.activeElement.id === 'test-panel'")
        settled(ala)
        tab_to(ala, "#test-panel input[name=skill]")
        while not ala.is_checked("#test-panel input[name=skill][value='WALKA']"):
            ala.keyboard.press("ArrowDown")
        settled(ala)  # the panel's odds for the choice are in, the choice kept
        assert ala.is_checked("#test-panel input[name=skill][value='WALKA']")
        ala.wait_for_selector("#test-panel .roll-button:not([disabled])")
        ala.keyboard.press("r")
        rolled = entry(ala, 2)
        hears(ala, f"{HERO} rolled BUDOWA")
        assert "WALKA" in rolled.inner_text()

        # c goes to the chat: the line typed is sent with Enter and heard as said.
        ala.keyboard.press("c")
        assert focused(ala) == "say-text"
        ala.keyboard.type("Dobry wieczór")
        ala.keyboard.press("Enter")
        entry(ala, 3)
        hears(ala, "Dobry wieczór")
        # Keys typed into a field are the field's: "c" and "l" above went into the line.
        assert ala.locator("[data-entries] > li[data-seq='3'] .chat-text").inner_text() == (
            "Dobry wieczór"
        )

        # Escape leaves the field; then l goes to the log, which a screen reader reads by its name.
        ala.keyboard.press("Escape")
        ala.keyboard.press("l")
        assert focused(ala) == "roll-log"
        assert ala.get_by_role("region", name="Roll log").is_visible()

        # A cut connection, the parts' refresh after it, a morph of the sheet: nothing is
        # said again.
        ala.evaluate("window.tableSocket.drop()")
        ala.wait_for_selector(LIVE)
        settled(ala)
        ala.evaluate(
            "document.body.dispatchEvent(new CustomEvent('table:sheet',"
            " { detail: { character: Number(document.getElementById('test-panel')"
            ".dataset.character) }, bubbles: true }))"
        )
        settled(ala)
        ala.wait_for_selector(LIVE)
        said = heard(ala)
        assert len([text for text in said if "ZRĘCZNOŚĆ 5" in text]) == 1
        assert len([text for text in said if "Dobry wieczór" in text]) == 1
        assert len([text for text in said if "rolled BUDOWA" in text]) == 1
        assert len([text for text in said if "The GM calls" in text]) == 1


def test_question_mark_lists_the_shortcuts_in_a_dialog_that_escape_closes(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, FASTTEST)
        gm.keyboard.press("?")
        dialog = gm.get_by_role("dialog", name="Keyboard shortcuts")
        dialog.wait_for()
        assert "to the GM dashboard" in dialog.inner_text()
        assert "roll the test in the panel" in dialog.inner_text()
        # Modal: the rest of the page is out of reach while it is open, its keys too.
        gm.keyboard.press("l")
        assert gm.evaluate("document.activeElement.closest('dialog') !== null")
        gm.keyboard.press("Escape")
        dialog.wait_for(state="hidden")
        # Its button is shown when the keyboard reaches it, as the skip link is.
        hint = gm.locator(".keys-hint")  # clipped to a pixel, its button in it
        assert hint.bounding_box()["width"] <= 1
        tab_to(gm, "[data-keys-open]")
        assert hint.bounding_box()["width"] > 100
        gm.keyboard.press("g")
        gm.wait_for_url(f"{base}{demo_path(FASTTEST, page='dashboard/')}")


def test_a_players_turn_is_heard_once_and_the_players_list_has_no_dashboard_key(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, FASTTEST, dashboard=True)
        ala = visit(open_sheet(browser, base, "ala", FASTTEST, HERO), base, session_path(FASTTEST))
        ala.evaluate(HEAR)
        order = gm.locator("#turn-order")
        order.locator("summary").click()
        for field in order.locator(".order-fields input").all():
            field.fill("")
        order.get_by_label(HERO).fill("20")
        order.locator("button", has_text="Set the order").click()
        order.locator("button", has_text="Next turn").click()
        hears(ala, "Your turn!")
        ala.locator(".turn-bar__yours").wait_for()
        settled(ala)
        assert heard(ala) == ["Your turn!"]
        ala.keyboard.press("?")
        listed = ala.get_by_role("dialog", name="Keyboard shortcuts").inner_text()
        assert "to the test panel" in listed
        assert "dashboard" not in listed
