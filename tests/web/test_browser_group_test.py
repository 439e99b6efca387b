"""Caerbannog group tests gathered and rolled live, in three browsers: the GM and two players on
the group test screen, one group test after another, the last read on a phone's width."""

from __future__ import annotations

import pytest

from tests.web.browser import CAERBANNOG, LIVE, PHONE, demo_path, demo_table, log_in

pytestmark = pytest.mark.browser


def group_screen(browser, base, username):
    page = log_in(browser, base, username, path=demo_path(CAERBANNOG, page="group/"))
    page.wait_for_selector("#group-test")
    page.wait_for_selector(LIVE)  # the group page holds the table's log
    return page


def start(page, difficulty: str | None = None) -> None:
    """Ala starts a group test with Julio's Dociekliwość."""
    page.select_option("#group-initiator", label="Julio: Dociekliwość (d8)")
    if difficulty is not None:
        page.fill("#group-difficulty", difficulty)
    page.click("[data-start-group]")


def test_group_tests_are_gathered_offered_to_and_rolled_live_on_all_three_pages(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = group_screen(browser, base, "gm")
        ala = group_screen(browser, base, "ala")
        bartek = group_screen(browser, base, "bartek")

        # Ala starts it with Julio's Dociekliwość; the GM's and Bartek's pages show it at once.
        start(ala, difficulty="3")
        for page in (gm, bartek):
            page.wait_for_selector('#group-test h2:has-text("Julio\'s group test")')
            assert "Odds of success" in page.inner_text("#group-test")
        # The GM gathers Morgana; Ala and Bartek see her join, the odds change.
        alone = ala.inner_text("[data-odds-success]")
        gm.select_option("#group-helper", label="Morgana: Charyzma (d4)")
        gm.click("[data-add-helper]")
        for page in (ala, bartek):
            page.wait_for_selector("#group-test tr[data-member]:has-text('Morgana')")
        assert [r.inner_text() for r in ala.locator("tr[data-member] td:nth-child(3)").all()] == [
            "2d8",
            "1d4",
        ]
        assert ala.inner_text("[data-odds-success]") != alone
        # Bartek rolls Morgana's die (his page offers no button for Julio's dice).
        assert bartek.locator("[data-roll-member]").count() == 1
        bartek.click("[data-roll-member]")
        for page in (gm, ala):
            page.wait_for_selector("tr[data-member]:has-text('Morgana')[data-rolled='yes']")
        ala.click("[data-roll-member]")
        gm.wait_for_selector("[data-settle]")
        gm.click("[data-settle]")
        for page in (gm, ala, bartek):
            page.wait_for_selector("[data-group-result]")
            assert "Group test of Julio with Morgana" in page.inner_text("[data-group-result]")

        # The next one: Bartek offers Morgana as a helper and the GM takes it in live; her row
        # reaches every page, her offer gone from Bartek's.
        start(ala)
        bartek.wait_for_selector("[data-offer-help]")
        bartek.select_option("#group-offer", label="Morgana: Charyzma (d4)")
        bartek.click("[data-offer-help]")
        bartek.wait_for_selector("[data-my-offer]:has-text('waiting for the answer')")
        gm.wait_for_selector(".group-offered:has-text('Morgana offers to help')")
        gm.click("#group-test [data-accept-offer]")
        for page in (gm, ala, bartek):
            page.wait_for_selector("#group-test tr[data-member]:has-text('Morgana')")
        assert bartek.locator("[data-my-offer]").count() == 0
        assert "Offered to help" not in gm.inner_text("#group-test")

        # A half-filled re-roll survives another participant's roll: Bartek rolls Morgana's
        # die, starts a re-roll of it and is still typing its ability...
        bartek.wait_for_selector("[data-roll-member]")
        bartek.click("[data-roll-member]")
        ala.wait_for_selector("tr[data-member]:has-text('Morgana')[data-rolled='yes']")
        morgana = bartek.get_attribute("tr[data-member]:has-text('Morgana')", "data-member")
        bartek.click(f"#group-reroll-{morgana} summary")
        bartek.check(f"#group-reroll-{morgana}-die-0")
        bartek.fill(f"#group-reroll-{morgana}-ability", "Szczęś")
        # ...when Ala rolls Julio's dice: Bartek's section refreshes with Julio's faces.
        ala.click("[data-roll-member]")
        bartek.wait_for_selector("tr[data-member]:has-text('Julio')[data-rolled='yes']")
        bartek.wait_for_load_state("networkidle")
        assert bartek.locator(f"#group-reroll-{morgana}").get_attribute("open") is not None
        assert bartek.is_checked(f"#group-reroll-{morgana}-die-0")
        assert bartek.input_value(f"#group-reroll-{morgana}-ability") == "Szczęś"
        assert bartek.evaluate("document.activeElement.id") == f"group-reroll-{morgana}-ability"

        # On a phone the group page fits its width: the participants' table scrolls inside its
        # card, and the log sits below the test.
        ala.set_viewport_size(PHONE)
        assert ala.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        test, log = (ala.locator(s).bounding_box() for s in ("#group-test", "#roll-log"))
        assert log["y"] > test["y"] + test["height"] - 1
