"""Game night in real browsers (issue 13, items 5 to 9): every page plays and nothing goes stale.

The GM and each player in their own browser context, on the demo table served live, each
person's page going on from one step of the evening to the next.
"""

from __future__ import annotations

import pytest

from tests.web.browser import (
    AST,
    CAERBANNOG,
    FASTTEST,
    LIVE,
    PHONE,
    T10,
    TWOD6,
    at_rest,
    click_stat,
    demo_path,
    demo_table,
    entry,
    gm_at_table,
    hold_first,
    log_in,
    panel_change,
    session_path,
    settled,
    until,
    visit,
)

pytestmark = pytest.mark.browser


def person(page):
    page.context.set_default_timeout(10_000)
    return page


def roll(page) -> None:
    page.wait_for_selector("#test-panel .roll-button:not([disabled])")
    page.click("#test-panel .roll-button")
    page.wait_for_selector("#test-panel .rolled .entry")


def in_view(page, selector: str) -> bool:
    """Whether the element is wholly inside the viewport, as the reader sees it now."""
    return page.evaluate(
        """selector => {
            const box = document.querySelector(selector).getBoundingClientRect();
            return box.top >= 0 && box.left >= 0
                && box.bottom <= innerHeight && box.right <= innerWidth;
        }""",
        selector,
    )


# --- 5 and 8: the table page plays, a call reaches every open page, the numbers follow -----------


def test_the_table_page_plays_a_gm_call_reaches_every_open_page_and_the_numbers_follow(
    browser, tmp_path
):
    with demo_table(tmp_path) as base:
        gm = person(gm_at_table(browser, base, FASTTEST, dashboard=True))
        ala = person(log_in(browser, base, "ala"))
        # The table page shows the player's character with its panel, and rolls.
        ala.click(f"text={FASTTEST}")
        campaign_page = ala.url
        ala.click("text=Go to the table")
        ala.wait_for_selector(LIVE)
        assert "Brunhilda z Gór" in ala.inner_text("[data-live-sheet]")
        click_stat(ala, "BUDOWA", "input[name=attribute][value='BUDOWA']")
        roll(ala)
        assert "BUDOWA 7" in entry(ala, 1).inner_text()

        # A GM's call shows on every open page of the player and moves the focus to the panel.
        elsewhere = ala.context.new_page()
        elsewhere.goto(campaign_page)
        elsewhere.wait_for_selector(
            "[data-call-cue][data-connection-state='live']", state="attached"
        )
        card = gm.locator(".party-card", has_text="Brunhilda z Gór")
        card.locator("summary", has_text="Call for a test").click()
        card.locator("select[name=attribute]").select_option("ZRĘCZNOŚĆ")
        card.locator("button", has_text="Call").click()
        cue = elsewhere.locator("[data-call-cue] .call-cue")
        cue.wait_for(state="visible")
        assert "Brunhilda z Gór" in cue.inner_text()
        ala.wait_for_selector("#test-panel .pending-note")
        ala.wait_for_function(
            "document.activeElement && document.activeElement.id === 'test-panel'"
        )
        elsewhere.click("[data-call-cue] .call-cue a")
        elsewhere.wait_for_selector("#test-panel .pending-note")
        # The call's end reaches the page as a table event, and the panel refreshes after it.
        with ala.expect_request(lambda request: request.headers.get("x-panel-refresh") == "1"):
            ala.click("#test-panel .roll-button")
        ala.wait_for_selector("#test-panel .rolled .entry")
        settled(ala)
        assert "ZRĘCZNOŚĆ 5" in ala.inner_text("#test-panel .rolled .entry")

        # The player's panel and sheet show an experience die the GM gives.
        visit(ala, base, demo_path(FASTTEST, "Brunhilda z Gór"))
        click_stat(ala, "BUDOWA", "input[name=attribute][value='BUDOWA']")
        click_stat(ala, "WALKA", "input[name=skill][value='WALKA']")
        assert "(you have 0)" in ala.inner_text("#test-panel")
        card.locator("button", has_text="+1 experience die").click()
        ala.wait_for_selector("#test-panel label[for=experience]:has-text('(you have 1)')")
        assert ala.is_checked("#test-panel input[name=skill][value='WALKA']")
        dice = ".vitals div:has(dt:text-is('Experience dice')) dd:text-is('1')"
        gm.wait_for_selector(f".party-card:has-text('Brunhilda z Gór') {dice}")


def test_challenge_points_the_gm_spends_drop_on_the_dashboard_and_the_session_page(
    browser, tmp_path
):
    with demo_table(tmp_path) as base:
        gm = person(gm_at_table(browser, base, AST, dashboard=True))
        session_page = gm.context.new_page()
        visit(session_page, base, session_path(AST))
        assert "3 challenge points" in gm.inner_text(".dash-head")
        card = gm.locator(".party-card", has_text="Olaf")
        card.locator("summary", has_text="Call for a test").click()
        card.locator("button", has_text="Call").click()
        gm.wait_for_selector(".pending-card")
        gm.wait_for_load_state("networkidle")  # the call's own refresh of the card is in
        gm.fill(".pending-card input[name=value][id^=challenge]", "2")
        gm.click(".pending-card form:has(input[id^=challenge]) button")
        gm.wait_for_selector(".dash-head:has-text('1 challenge point (')")
        session_page.wait_for_selector(".scenes:has-text('1 challenge point (')")


# --- 6 and 7: a new stat starts from its own defaults; typing survives the panel's refresh -------


def test_a_new_stat_starts_from_its_defaults_and_what_is_typed_or_ticked_survives_a_refresh(
    browser, tmp_path
):
    with demo_table(tmp_path) as base:
        ala = person(log_in(browser, base, "ala", path=demo_path(FASTTEST, "Brunhilda z Gór")))
        ala.wait_for_selector(LIVE)
        # A click on another attribute after a roll keeps only who sees it.
        click_stat(ala, "ZRĘCZNOŚĆ", "input[name=attribute][value='ZRĘCZNOŚĆ']")
        click_stat(ala, "SPRAWNOŚĆ", "input[name=skill][value='SPRAWNOŚĆ']")
        click_stat(ala, "szermierka", "input[name=trait][data-name='szermierka']")
        ala.select_option("#visibility", "secret")
        roll(ala)
        click_stat(ala, "UMYSŁ", "input[name=attribute][value='UMYSŁ']")
        assert not ala.is_checked("#test-panel input[name=skill][value='SPRAWNOŚĆ']")
        assert not ala.is_checked("#test-panel input[name=trait][data-name='szermierka']")
        assert ala.input_value("#visibility") == "secret"

        # A box ticked while the panel refreshes stays ticked and counts.
        click_stat(ala, "BUDOWA", "input[name=attribute][value='BUDOWA']")
        held = hold_first(ala, panel_change)
        ala.check("#test-panel input[name=trait][data-name='Rycerz królestwa']")
        until(lambda: held, ala)  # the refresh for the first box is on its way, and held
        ala.check("#test-panel input[name=trait][data-name='szermierka']")
        # The second waits for the first's answer, as htmx queues it: not sent yet.
        assert ala.evaluate("window.__inFlight.size") == 1
        held[0].continue_()
        ala.wait_for_selector("#test-panel .odds .sources li:has-text('szermierka')")
        assert ala.is_checked("#test-panel input[name=trait][data-name='Rycerz królestwa']")
        assert ala.is_checked("#test-panel input[name=trait][data-name='szermierka']")
        assert "Rycerz królestwa" in ala.inner_text("#test-panel .odds .sources")
        ala.unroute(panel_change)

        # A 2d6 Charyzma test keeps nothing of the shooting test before.
        visit(ala, base, demo_path(TWOD6, "Aoife"))
        click_stat(ala, "Strzelanie", "input[name=skill][value='Strzelanie']")
        click_stat(ala, "Zręczność", "input[name=attribute][value='Zręczność']")
        click_stat(ala, "Czujna", "input[name=advantage][value='Czujna']")
        usual = ala.input_value("#twod6-difficulty")
        ala.fill("#twod6-difficulty", "20")
        ala.press("#twod6-difficulty", "Tab")
        ala.wait_for_selector("#test-panel #twod6-difficulty[value='20']")
        click_stat(ala, "Charyzma", "input[name=attribute][value='Charyzma']")
        assert not ala.is_checked("#test-panel input[name=skill][value='Strzelanie']")
        assert not ala.is_checked("#test-panel input[name=advantage][value='Czujna']")
        assert ala.input_value("#twod6-difficulty") == usual

        # Text typed while the panel refreshes reaches the log whole.
        visit(ala, base, demo_path(T10, "Astrid"))
        click_stat(ala, "Styrka", "input[name=attribute][value='Styrka']")
        ala.fill("#t10-circumstance", "3")
        ala.press("#t10-circumstance", "Tab")
        ala.keyboard.type("ritual of blood", delay=40)
        assert ala.input_value("#t10-circumstance-source") == "ritual of blood"
        roll(ala)
        assert "ritual of blood" in entry(ala, 1).inner_text()


# --- 9: the phone ---------------------------------------------------------------------------------


def test_on_a_phone_the_odds_roll_and_result_stay_on_screen_as_the_sheet_changes(browser, tmp_path):
    """AST gains FUNT, Caerbannog counts Rozmach: the sheet and the panel refresh after the roll,
    and neither moves the result off screen nor takes its focus; the re-rolls offered after it
    are folded, so Roll is on screen too."""
    with demo_table(tmp_path) as base:
        ala = person(
            log_in(browser, base, "ala", path=demo_path(FASTTEST, "Brunhilda z Gór"), **PHONE)
        )
        ala.wait_for_selector(LIVE)
        click_stat(ala, "BUDOWA", "input[name=attribute][value='BUDOWA']")
        at_rest(ala, "#test-panel .odds")  # any scrolling has ended
        assert in_view(ala, "#test-panel .odds")
        assert in_view(ala, "#test-panel .roll-button")
        roll(ala)
        at_rest(ala, "#test-panel .rolled .entry")
        assert in_view(ala, "#test-panel .rolled .entry")
        assert in_view(ala, "#test-panel .odds")
        assert in_view(ala, "#test-panel .roll-button")

        for campaign, hero, stat, checked in (
            (AST, "Olaf", "Ciało: silny", "input[name=item][data-name='Ciało: silny']"),
            (CAERBANNOG, "Julio", "Jazda", "input[name=skill][value='Jazda']"),
        ):
            visit(ala, base, demo_path(campaign, hero))
            click_stat(ala, stat, checked)
            with ala.expect_response(lambda response: response.url.endswith("/paper/")):
                roll(ala)  # the sheet's own refresh follows the roll
            settled(ala)
            at_rest(ala, "#test-panel .rolled .entry")
            # The result at the top of the screen, the odds and Roll below it: from the panel's
            # top, Roll went off screen when the result ran a line longer.
            rolled_top = "document.querySelector('#test-panel .rolled').getBoundingClientRect().top"
            assert abs(ala.evaluate(rolled_top)) < 1
            assert in_view(ala, "#test-panel .rolled .entry"), campaign
            assert in_view(ala, "#test-panel .roll-button"), campaign
            assert ala.evaluate("document.activeElement.closest('#test-panel .rolled') !== null")
            # What may follow the roll (a re-roll) is folded under its summary, a tap away.
            assert not ala.locator("#test-panel .follow-ups form").first.is_visible()
            ala.click("#test-panel .follow-ups summary")
            assert ala.locator("#test-panel .follow-ups form").first.is_visible()


def test_on_a_phone_the_dashboard_fits_with_the_npc_lists_folded(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = person(gm_at_table(browser, base, FASTTEST, dashboard=True, **PHONE))
        assert gm.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert not gm.locator(".npc-hand summary", has_text="Troll").is_visible()
        assert in_view(gm, ".party-card .call summary")
        gm.click(".npc-hand > summary")
        assert gm.locator(".npc-hand summary", has_text="Troll").is_visible()
