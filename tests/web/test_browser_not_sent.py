"""Every control that talks to the server says so when the server cannot be reached, and offers
to send the very same request again (issue 24, item 6): nothing is lost and no page error."""

from __future__ import annotations

import pytest

from tests.web.browser import T10, demo_table, gm_at_table, open_sheet

pytestmark = pytest.mark.browser
NOT_SENT = ".send-failed:has-text('Not sent')"


def cut_off(page) -> None:
    """The server stops answering this page's requests (the socket aside)."""
    page.route("**/c/**", lambda route: route.abort("connectionrefused"))


def page_errors(page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def test_a_stat_clicked_while_the_server_is_unreachable_says_so_and_opens_when_sent_again(
    browser, tmp_path
):
    with demo_table(tmp_path) as base:
        ala = open_sheet(browser, base, "ala", T10, "Astrid")
        errors = page_errors(ala)
        cut_off(ala)
        ala.click("button.roll-target:has-text('Styrka')")
        ala.wait_for_selector(NOT_SENT)
        assert ala.locator("#test-panel .roll-button").count() == 0
        ala.unroute("**/c/**")
        ala.click(f"{NOT_SENT} button:has-text('Send again')")
        ala.wait_for_selector("#test-panel .roll-button:not([disabled])")
        assert ala.locator(NOT_SENT).count() == 0
        assert errors == []


def test_the_gms_quick_dice_not_sent_say_so_and_are_rolled_once_when_sent_again(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, T10, dashboard=True)
        errors = page_errors(gm)
        gm.fill("#quick-dice-expression", "1d20")
        cut_off(gm)
        gm.click("#quick-dice button[type='submit']")
        gm.wait_for_selector(NOT_SENT)
        assert gm.locator("#roll-log [data-entries] > li[data-seq]").count() == 0
        gm.unroute("**/c/**")
        gm.click(f"{NOT_SENT} button:has-text('Send again')")
        gm.wait_for_selector("#roll-log [data-entries] > li[data-seq='1']")
        assert "(#1)" in gm.inner_text("#quick-dice .quick-rolled")  # the first roll of the log
        assert errors == []
