"""Quick dice in real browsers: a player rolls an expression and every log shows it live."""

from __future__ import annotations

import pytest

from tests.web.test_browser_table import entry, table  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def quick_roll(page, expression: str, visibility: str = "public") -> None:
    page.fill("#quick-dice-expression", expression)
    page.select_option("#quick-dice select[name='visibility']", visibility)
    page.click("#quick-dice button[type='submit']")
    page.wait_for_selector("#quick-dice .quick-rolled, #quick-dice .form-errors")


def test_a_players_quick_roll_shows_live_in_every_log(table, tmp_path):  # noqa: F811
    gm, ala, bartek = table
    quick_roll(ala, "2d6+3")
    rolled = ala.inner_text("#quick-dice .quick-rolled")
    assert rolled.startswith("Rolled 2d6+3 = ")
    for page in (gm, ala, bartek):
        shown = entry(page, 1)
        assert "2d6+3" in shown.inner_text()
        assert shown.locator(".dice .die").count() == 2
        assert shown.get_attribute("data-nonce")  # checkable later
        assert "nonce made by the server" not in shown.inner_text()  # the page made it
    total = rolled.removeprefix("Rolled 2d6+3 = ").split(" ")[0]
    assert f"= {total}" in entry(bartek, 1).inner_text()
    ala.screenshot(path=str(tmp_path / "quick-dice-sheet.png"), full_page=True)
    gm.screenshot(path=str(tmp_path / "quick-dice-dashboard.png"), full_page=True)
    print(tmp_path)


def test_a_bad_expression_says_where_and_keeps_what_was_typed(table, tmp_path):  # noqa: F811
    _, ala, bartek = table
    quick_roll(ala, "2d6+x")
    assert "Cannot read “x” at position 5" in ala.inner_text("#quick-dice .form-errors")
    assert ala.input_value("#quick-dice-expression") == "2d6+x"
    assert bartek.locator("#roll-log [data-entries] > li").count() == 0
    ala.locator("#roll-log").screenshot(path=str(tmp_path / "quick-dice-error.png"))


def test_the_gms_hidden_quick_roll_shows_players_only_that_a_roll_was_made(table):  # noqa: F811
    gm, ala, bartek = table
    quick_roll(gm, "1d20+4", visibility="hidden")
    assert "1d20+4" in entry(gm, 1).inner_text()
    for page in (ala, bartek):
        assert "A hidden roll was made." in entry(page, 1).inner_text()
        assert "1d20+4" not in entry(page, 1).inner_text()


def test_after_the_end_the_browser_check_finds_quick_rolls_matching(table):  # noqa: F811
    gm, ala, _ = table
    quick_roll(ala, "4d6kh3+2")
    entry(ala, 1)
    quick_roll(ala, "3d10!-d4")
    entry(gm, 2)
    session_url = gm.url
    gm.click("text=End the session")
    gm.click("text=Yes, end the session")
    gm.wait_for_selector("[data-fair-check-all]")
    ala.goto(session_url)
    ala.click("[data-fair-check-all]")
    out = ala.locator("[data-fair-summary-out][data-total]")
    out.wait_for(timeout=10_000)
    assert (out.get_attribute("data-matched"), out.get_attribute("data-total")) == ("2", "2")
    assert out.get_attribute("data-committed") == "true"
    assert ala.locator("[data-fair-result='mismatch']").count() == 0
