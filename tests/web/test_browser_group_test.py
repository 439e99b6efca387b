"""A Caerbannog group test gathered and rolled live, in three browsers: the GM and two players."""

from __future__ import annotations

import pytest

from tests.web.browser import demo_table, log_in

pytestmark = pytest.mark.browser

CAMPAIGN = "Caerbannog 2026"
#: The group page holds the table's log: its socket says the page is live.
LIVE = ".connection[data-connection-state='live']"


def group_screen(browser, base, username):  # noqa: F811
    page = log_in(browser, base, username)
    page.click(f"text={CAMPAIGN}")
    page.click("text=Start a group test")
    page.wait_for_selector("#group-test")
    page.wait_for_selector(LIVE)
    return page


def gm_on_the_group_screen(browser, base):  # noqa: F811
    """The GM starts a session of the campaign and opens its group test screen."""
    gm = log_in(browser, base, "gm")
    gm.click(f"text={CAMPAIGN}")
    gm.click("text=Start a session")
    gm.click(f"nav.crumbs >> text={CAMPAIGN}")
    gm.click("text=Start a group test")
    gm.wait_for_selector(LIVE)
    return gm


def test_a_group_test_is_gathered_and_rolled_live_on_all_three_pages(browser, tmp_path):  # noqa: F811
    with demo_table(tmp_path) as base:
        gm = gm_on_the_group_screen(browser, base)
        ala = group_screen(browser, base, "ala")
        bartek = group_screen(browser, base, "bartek")

        # Ala starts it with Julio's Dociekliwość; the GM's and Bartek's pages show it at once.
        ala.select_option("#group-initiator", label="Julio: Dociekliwość (d8)")
        ala.fill("#group-difficulty", "3")
        ala.click("[data-start-group]")
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


def test_a_half_filled_re_roll_survives_another_participants_roll(browser, tmp_path):  # noqa: F811
    with demo_table(tmp_path) as base:
        gm = log_in(browser, base, "gm")
        gm.click(f"text={CAMPAIGN}")
        gm.click("text=Start a session")
        ala = group_screen(browser, base, "ala")
        bartek = group_screen(browser, base, "bartek")
        ala.select_option("#group-initiator", label="Julio: Dociekliwość (d8)")
        ala.click("[data-start-group]")
        bartek.wait_for_selector('#group-test h2:has-text("Julio\'s group test")')
        ala.select_option("#group-helper", label="Morgana: Charyzma (d4)")
        ala.click("[data-add-helper]")
        bartek.wait_for_selector("[data-roll-member]")
        bartek.click("[data-roll-member]")
        ala.wait_for_selector("tr[data-member]:has-text('Morgana')[data-rolled='yes']")

        # Bartek starts a re-roll of Morgana's die and is still typing its ability...
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


def test_a_player_offers_a_helper_and_the_gm_takes_it_in_live(browser, tmp_path):  # noqa: F811
    """Bartek offers Morgana on Julio's group test; the GM's page asks for an answer, the GM
    accepts, and Morgana's row reaches every page, with her offer gone from Bartek's."""
    with demo_table(tmp_path) as base:
        gm = gm_on_the_group_screen(browser, base)
        ala = group_screen(browser, base, "ala")
        bartek = group_screen(browser, base, "bartek")
        ala.select_option("#group-initiator", label="Julio: Dociekliwość (d8)")
        ala.click("[data-start-group]")
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


def test_on_a_phone_the_group_page_fits_its_width(browser, tmp_path):  # noqa: F811
    """The participants' table scrolls inside its card, and the log sits below the test."""
    with demo_table(tmp_path) as base:
        gm = log_in(browser, base, "gm")
        gm.click(f"text={CAMPAIGN}")
        gm.click("text=Start a session")
        ala = log_in(browser, base, "ala", width=360, height=740)
        ala.click(f"text={CAMPAIGN}")
        ala.click("text=Start a group test")
        ala.wait_for_selector(LIVE)
        ala.select_option("#group-initiator", label="Julio: Dociekliwość (d8)")
        ala.click("[data-start-group]")
        ala.wait_for_selector("#group-test tr[data-member]")
        assert ala.evaluate("document.documentElement.scrollWidth") <= 360
        test, log = (ala.locator(s).bounding_box() for s in ("#group-test", "#roll-log"))
        assert log["y"] > test["y"] + test["height"] - 1
