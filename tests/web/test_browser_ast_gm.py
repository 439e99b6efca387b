"""AST at the GM's card, in real browsers: the GM hinders a called test while the player watches
the odds change, then reads another white die of the hindered roll, and the player's page shows
that reading at once (its log and its result); and the GM reads another die of a player's own
hindered test from the dashboard's box, the player watching."""

from __future__ import annotations

import re

import pytest

from tests.web.browser import AST, demo_table, entry, gm_at_table, open_sheet

pytestmark = pytest.mark.browser
HERO = "Olaf"
ITEMS = [
    "Ciało: silny",
    "Umysł: sprytny",
    "walka toporem",
    "orientacja w terenie",
    "ostry topór",
    "bogato zdobiona skórznia",
]


def players_odds(page) -> str:
    return re.search(r"[\d.,<>]+ ?%", page.inner_text("#test-panel .success-chance")).group(0)


def test_the_gm_hinders_a_called_test_and_reads_another_die_of_it_and_of_a_free_test(
    browser, tmp_path
):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, AST, dashboard=True)
        ala = open_sheet(browser, base, "ala", AST, HERO)
        assert "No player's roll waits for your choice." in gm.inner_text("#gm-readings")

        card = gm.locator(".party-card", has_text=HERO)
        card.locator("summary", has_text="Call for a test").click()
        card.locator("button", has_text="Call").click()
        ala.wait_for_selector("#test-panel .pending-note")
        for count, name in enumerate(ITEMS, start=1):
            ala.check(f"#test-panel input[name=item][data-name='{name}']")
            ala.wait_for_selector(f"#test-panel .sources li:has-text('+{count} white d')")
            # The GM's card follows each choice (one at a time: a refresh of the card asked
            # for while the previous one is on its way is dropped by htmx).
            gm.wait_for_selector(f".pending-card .sources li:has-text('+{count} white d')")
        before = players_odds(ala)
        pending = gm.locator(".pending-card")
        assert pending.locator(".pending-odds b").inner_text() == before

        # The GM hinders the test: the player's odds change on their page, without a reload.
        gm.wait_for_load_state("networkidle")
        hinder = gm.locator(".pending-card form.add-dice", has=gm.locator("[value=hindrance]"))
        hinder.locator("input[name=amount]").fill("20")
        hinder.locator("input[name=source]").fill("lawina")
        hinder.locator("button", has_text="Add").click()
        gm.wait_for_selector(".pending-card .gm-mods li:has-text('lawina')")
        ala.wait_for_selector("#test-panel .sources li:has-text('lawina')")
        after = players_odds(ala)
        assert after != before
        assert "+20 temporary hindrances (test level): lawina" in ala.inner_text("#test-panel")
        gm.wait_for_selector(f".pending-card .pending-odds b:has-text('{after}')")

        # Level 21 and more against six white dice: hindered whatever the black die shows.
        ala.wait_for_selector("#test-panel .roll-button:not([disabled])")
        ala.click("#test-panel .roll-button")
        assert "hindered" in entry(gm, 1).inner_text()
        ala.wait_for_selector("#test-panel-rolled li[data-seq='1']")
        choose = gm.locator(".pending-card.rolled form.gm-follow-up")
        choose.wait_for()
        assert "Hindered: you choose the white die read" in choose.inner_text()
        choose.locator("input[name=choice]").last.check()  # the best face offered
        choose.locator("button", has_text="Read this die instead").click()

        reading = entry(ala, 2).inner_text()
        assert "white die chosen by the GM → #1" in reading
        gm.wait_for_selector(".pending-card.rolled [data-latest-seq='2']")
        assert gm.locator(".pending-card.rolled form.gm-follow-up").count() == 0
        # The player's result is the GM's reading now, and nothing is offered after the old one.
        ala.wait_for_selector("#test-panel-rolled li[data-seq='2']")
        assert ala.locator("#test-panel-rolled form.follow-up").count() == 0

        # Ala rolls on her own, every item ticked against a level of 21 and more: hindered.
        ala.click("button.roll-target:has-text('Ciało: silny')")
        ala.wait_for_selector("#test-panel:not(:has(.rolled)) form")
        for count, name in enumerate(ITEMS[1:], start=2):
            ala.check(f"#test-panel input[name=item][data-name='{name}']")
            ala.wait_for_selector(f"#test-panel .sources li:has-text('+{count} white d')")
        with ala.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/test/")):
            ala.fill("#ast-hindrance", "20")
            ala.press("#ast-hindrance", "Tab")
        ala.wait_for_selector("#test-panel .roll-button:not([disabled])")
        ala.click("#test-panel .roll-button")
        assert "hindered" in entry(ala, 3).inner_text()

        # The GM's box shows the roll live, read with the worst die, the other faces offered.
        box = gm.locator("#gm-readings article.gm-reading")
        box.wait_for()
        assert "Hindered: you choose the white die read" in box.inner_text()
        box.locator("input[name=choice]").last.check()  # the best face offered
        box.locator("button", has_text="Read this die instead").click()

        reading = entry(ala, 4).inner_text()
        assert "white die chosen by the GM → #3" in reading
        assert "read by the GM's choice: white die" in reading
        gm.wait_for_selector("#gm-readings:has-text('No player\\'s roll waits for your choice.')")
        assert "white die chosen by the GM → #3" in entry(gm, 4).inner_text()
