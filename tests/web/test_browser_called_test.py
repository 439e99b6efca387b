"""A test the GM called, in real browsers: the GM's shaping stands against the player's page,
and the GM's card follows what the player is about to roll, then shows the roll."""

from __future__ import annotations

import re

import pytest

from tests.web.browser import demo_table, log_in
from tests.web.test_browser_table import CAMPAIGN, entry, open_sheet  # noqa: F401

pytestmark = pytest.mark.browser
HERO = "Brunhilda z Gór"


def gm_dashboard(browser, base):  # noqa: F811
    gm = log_in(browser, base, "gm")
    gm.click(f"text={CAMPAIGN}")
    gm.click("text=Start a session")
    gm.click(f"nav.crumbs >> text={CAMPAIGN}")
    gm.click("text=GM dashboard")
    gm.wait_for_selector(".connection[data-connection-state='live']")
    return gm


def call_zrecznosc_on_ice(gm, ala) -> None:
    """The issue's case: ZRĘCZNOŚĆ + SPRAWNOŚĆ, the GM adds 4 penalty dice for slippery ice."""
    card = gm.locator(".party-card", has_text=HERO)
    card.locator("summary", has_text="Call for a test").click()
    card.locator("select[name=attribute]").select_option("ZRĘCZNOŚĆ")
    card.locator("select[name=skill]").select_option("SPRAWNOŚĆ")
    card.locator("button", has_text="Call").click()
    gm.wait_for_selector(".pending-card")
    # The call's own event refreshes the GM's list once more: let it land before typing.
    ala.wait_for_selector("#test-panel .pending-note")
    gm.wait_for_timeout(500)
    gm.wait_for_load_state("networkidle")
    add = gm.locator(".pending-card form.add-dice")
    add.locator("input[name=amount]").fill("4")
    add.locator("select[name=kind]").select_option("penalty")
    add.locator("input[name=source]").fill("slippery ice")
    add.locator("button", has_text="Add").click()
    gm.wait_for_selector(".pending-card .gm-mods li:has-text('slippery ice')")
    ala.wait_for_selector("#test-panel .sources li:has-text('slippery ice')")


def test_a_player_cannot_add_bonus_dice_to_the_gms_circumstances(browser, tmp_path):  # noqa: F811
    with demo_table(tmp_path) as base:
        gm = gm_dashboard(browser, base)
        ala = open_sheet(browser, base, "ala", HERO)
        call_zrecznosc_on_ice(gm, ala)

        field = ala.locator("#test-panel #bonus_other")
        assert field.is_disabled()
        assert field.input_value() == "0"
        assert ala.locator("#test-panel #penalty_other").input_value() == "4"
        ala.locator("#test-panel").screenshot(path=str(tmp_path / "called-panel.png"))
        # A page that re-enables the field (or a forged request) still cannot add the dice.
        ala.evaluate("document.getElementById('bonus_other').disabled = false")
        field.fill("12")
        ala.wait_for_selector("#test-panel .roll-button:not([disabled])")
        ala.click("#test-panel .roll-button")
        text = entry(gm, 1).inner_text()
        assert "+4 penalty dice: slippery ice" in text
        assert "+12" not in text
        assert "circumstances" not in text


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


# The other four systems: the GM's fields are fixed on the page and a forged value does not count.
OTHER_SYSTEMS = [
    # campaign, character, call form choices, fixed fields, (field to forge, value)
    ("Sagi Północy (AST)", "Olaf", {}, ["#ast-hindrance", "#ast-hindrance-source"],
     ("#ast-hindrance", "7")),
    ("Moorcrest (T10)", "Astrid", {"attribute": "Styrka"},
     ["#t10-circumstance", "#t10-difficulty"], ("#t10-circumstance", "9")),
    ("Caerbannog 2026", "Julio", {"tested": "skill:Dociekliwość"},
     ["#cb-easing", "#cb-hindering", "#cb-modifier", "#cb-difficulty"], ("#cb-modifier", "17")),
    ("Pustkowia (2d6)", "Aoife", {"attribute": "Zręczność", "skill": "Skradanie"},
     ["#twod6-helpers", "#twod6-cap-raise", "#twod6-difficulty"], ("#twod6-cap-raise", "9")),
]  # fmt: skip


@pytest.mark.parametrize(("campaign", "hero", "call", "fixed", "forged"), OTHER_SYSTEMS)
def test_in_every_system_the_gms_fields_are_fixed_and_a_forged_value_does_not_count(
    browser,
    tmp_path,
    campaign,
    hero,
    call,
    fixed,
    forged,
):
    with demo_table(tmp_path) as base:
        gm = log_in(browser, base, "gm")
        gm.click(f"text={campaign}")
        gm.click("text=Start a session")
        gm.click(f"nav.crumbs >> text={campaign}")
        gm.click("text=GM dashboard")
        gm.wait_for_selector(".connection[data-connection-state='live']")
        player = log_in(browser, base, "ala")
        player.click(f"text={campaign}")
        player.click(f"text={hero}")
        player.wait_for_selector(".connection[data-connection-state='live']")

        # By its heading: a 2d6 call form lists the other characters as helpers.
        card = gm.locator(".party-card", has=gm.locator("h3 a", has_text=hero))
        card.locator("summary", has_text="Call for a test").click()
        for name, value in call.items():
            card.locator(f"select[name={name}]").select_option(value)
        card.locator("button", has_text="Call").click()
        player.wait_for_selector("#test-panel .pending-note")
        for selector in fixed:
            assert player.locator(f"#test-panel {selector}").is_disabled(), selector

        field, value = forged
        player.evaluate(
            "([selector, value]) => { const el = document.querySelector(selector);"
            " el.disabled = false; el.value = value; }",
            [f"#test-panel {field}", value],
        )
        player.wait_for_selector("#test-panel .roll-button:not([disabled])")
        player.click("#test-panel .roll-button")
        assert f"+{value}" not in entry(gm, 1).inner_text()
