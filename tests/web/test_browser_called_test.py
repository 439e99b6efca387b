"""A test the GM called, in real browsers: the called test's panel is in the player's page as it
loads (issue 24, item 5), the GM's shaping stands against the player's page, and the GM's card
follows what the player is about to roll, then shows the roll."""

from __future__ import annotations

import re

import pytest

from tests.web.browser import FASTTEST, LIVE, demo_table, entry, gm_at_table, open_sheet, settled

pytestmark = pytest.mark.browser
HERO = "Brunhilda z Gór"


def test_a_called_test_loads_with_the_page_and_the_gms_card_follows_the_player_to_the_roll(
    browser, tmp_path
):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, FASTTEST, dashboard=True)
        ala = open_sheet(browser, base, "ala", FASTTEST, HERO)
        # The case: ZRĘCZNOŚĆ + SPRAWNOŚĆ, the GM adds 4 penalty dice for slippery ice.
        card = gm.locator(".party-card", has_text=HERO)
        card.locator("summary", has_text="Call for a test").click()
        card.locator("select[name=attribute]").select_option("ZRĘCZNOŚĆ")
        card.locator("select[name=skill]").select_option("SPRAWNOŚĆ")
        # The call's own event refreshes the GM's list once more: let it land before typing.
        with gm.expect_response(lambda r: "/dashboard/live/?event=table%3Apending" in r.url):
            card.locator("button", has_text="Call").click()
        settled(gm)
        gm.wait_for_selector(".pending-card")
        ala.wait_for_selector("#test-panel .pending-note")

        # A reloaded sheet shows the called test at once: no request may fill the panel after
        # the reload, what the page loads is all there is; no banner above it for the character.
        fetched = []
        panel = re.compile(r"/test/(\?|$)")
        ala.route(panel, lambda route: (fetched.append(1), route.abort()))
        ala.reload(wait_until="domcontentloaded")
        assert ala.locator("#test-panel .pending-note").is_visible()
        assert "The GM calls for a test" in ala.inner_text("#test-panel h2")
        ala.wait_for_selector(LIVE)
        assert ala.locator("#call-cues .call-cue").count() == 0
        assert not fetched
        ala.unroute(panel)

        add = gm.locator(".pending-card form.add-dice")
        add.locator("input[name=amount]").fill("4")
        add.locator("select[name=kind]").select_option("penalty")
        add.locator("input[name=source]").fill("slippery ice")
        add.locator("button", has_text="Add").click()
        gm.wait_for_selector(".pending-card .gm-mods li:has-text('slippery ice')")
        ala.wait_for_selector("#test-panel .sources li:has-text('slippery ice')")

        # The GM's card follows the player's choices, then shows the roll.
        pending = gm.locator(".pending-card")
        pending.locator(".pending-odds").wait_for()
        before = pending.locator(".pending-odds b").inner_text()
        ala.check("#test-panel input[name=trait][data-name='Rycerz królestwa']")
        ala.wait_for_selector("#test-panel .sources li:has-text('Rycerz królestwa')")
        players_odds = re.search(r"[\d.,]+ ?%", ala.inner_text(".success-chance")).group(0)
        gm.wait_for_selector(".pending-card .sources li:has-text('Rycerz królestwa')")
        assert pending.locator(".pending-odds b").inner_text() == players_odds
        assert players_odds != before
        ala.click("#test-panel .roll-button")
        seq = entry(gm, 1).get_attribute("data-seq")
        gm.wait_for_selector(f".pending-card.rolled [data-rolled-seq='{seq}']")
        assert "Rycerz królestwa" in gm.locator(".pending-card.rolled").inner_text()


# The GM's fields fixed on a called test and a forged value that does not count, in every
# system, are web tests (tests/web/test_called_test_is_the_gms.py): the page's disabled field and
# a forged request meet the same server.
