"""A test the GM called, in real browsers: the GM's shaping stands against the player's page,
and the GM's card follows what the player is about to roll, then shows the roll."""

from __future__ import annotations

import re

import pytest

from tests.web.browser import demo_table, settled, start_session
from tests.web.test_browser_table import CAMPAIGN, entry, open_sheet  # noqa: F401

pytestmark = pytest.mark.browser
HERO = "Brunhilda z Gór"


def gm_dashboard(browser, base):  # noqa: F811
    return start_session(browser, base, CAMPAIGN, dashboard=True)


def call_zrecznosc_on_ice(gm, ala) -> None:
    """The issue's case: ZRĘCZNOŚĆ + SPRAWNOŚĆ, the GM adds 4 penalty dice for slippery ice."""
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
    add = gm.locator(".pending-card form.add-dice")
    add.locator("input[name=amount]").fill("4")
    add.locator("select[name=kind]").select_option("penalty")
    add.locator("input[name=source]").fill("slippery ice")
    add.locator("button", has_text="Add").click()
    gm.wait_for_selector(".pending-card .gm-mods li:has-text('slippery ice')")
    ala.wait_for_selector("#test-panel .sources li:has-text('slippery ice')")


def test_the_gms_card_follows_the_players_choices_then_shows_the_roll(browser, tmp_path):  # noqa: F811
    with demo_table(tmp_path) as base:
        gm = gm_dashboard(browser, base)
        ala = open_sheet(browser, base, "ala", HERO)
        call_zrecznosc_on_ice(gm, ala)
        card = gm.locator(".pending-card")
        card.locator(".pending-odds").wait_for()
        before = card.locator(".pending-odds b").inner_text()

        ala.check("#test-panel input[name=trait][data-name='Rycerz królestwa']")
        ala.wait_for_selector("#test-panel .sources li:has-text('Rycerz królestwa')")
        players_odds = re.search(r"[\d.,]+ ?%", ala.inner_text(".success-chance")).group(0)
        gm.wait_for_selector(".pending-card .sources li:has-text('Rycerz królestwa')")
        assert card.locator(".pending-odds b").inner_text() == players_odds
        assert players_odds != before

        ala.click("#test-panel .roll-button")
        seq = entry(gm, 1).get_attribute("data-seq")
        gm.wait_for_selector(f".pending-card.rolled [data-rolled-seq='{seq}']")
        assert "Rycerz królestwa" in gm.locator(".pending-card.rolled").inner_text()
        gm.screenshot(path=str(tmp_path / "gm-card-rolled.png"), full_page=True)


# The GM's fields fixed on a called test and a forged value that does not count, in every
# system, are web tests (tests/web/test_called_test_is_the_gms.py): the page's disabled field and
# a forged request meet the same server.
