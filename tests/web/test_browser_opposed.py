"""Opposed tests built and rolled live, in four browsers: the GM on the dashboard, both sides'
players and a third player, one opposed test after another.

FastTest's is built on the dashboard and both sides see it at once with their own odds. Then
Caerbannog's are settled in turn: both sides roll, the initiator re-rolls and reveals the final
result, then the opponent settles; and one revealed in turn (RULES.md 4.10, issue 25 item 4;
docs/rules-decisions.md, "Decisions taken for these tests"): the opponent rolls first and only
the GM's page and the opponent's show it; the initiator rolls, boosts and settles without it,
declaring heroic effort if it fails; then it appears whole on every page, live, with what became
of the declaration. Every page follows without a reload."""

from __future__ import annotations

import pytest

from tests.web.browser import (
    CAERBANNOG,
    FASTTEST,
    change_sheet,
    demo_path,
    demo_table,
    entry,
    gm_at_table,
    open_sheet,
    roll_panel,
    settled,
    visit,
)

pytestmark = pytest.mark.browser

REDACTED = "#roll-log [data-entries] > li.entry-redacted[data-seq='{seq}']"
WHOLE = "#roll-log [data-entries] > li.entry:not(.entry-redacted)[data-seq='{seq}']"


def start_opposed(gm, initiator: str, opponent: str, tested: str, against: str) -> None:
    """The GM builds an opposed test on the dashboard: ``tested`` (a select's name ending and
    its value) for the initiator against ``against`` for the opponent."""
    gm.eval_on_selector(
        ".opposed-start summary", "summary => { summary.parentElement.open = true; }"
    )
    form = gm.locator(".opposed-start form")
    field, value = tested.split("=")
    first = form.locator("fieldset", has_text="The initiator").locator(
        ".opposed-side", has_text=initiator
    )
    first.locator("input[type=radio]").check()
    first.locator(f"select[name$='-{field}']").select_option(value)
    field, value = against.split("=")
    second = form.locator("fieldset", has_text="The opponent").locator(
        ".opposed-side", has_text=opponent
    )
    second.locator("input[type=radio]").check()
    second.locator(f"select[name$='-{field}']").select_option(value)
    form.locator("button", has_text="Start the opposed test").click()
    gm.wait_for_selector(".opposed-tests .opposed-box")


def test_opposed_tests_are_built_settled_and_revealed_live_on_every_page(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, FASTTEST, dashboard=True)
        ala = open_sheet(browser, base, "ala", FASTTEST, "Brunhilda z Gór")
        bartek = open_sheet(browser, base, "bartek", FASTTEST, "Zbyszko Cichy")

        # FastTest: both players' pages show the opposed test at once, each with their own odds.
        start_opposed(
            gm, "Brunhilda z Gór", "Zbyszko Cichy", "attribute=BUDOWA", "attribute=ZRĘCZNOŚĆ"
        )
        assert "Odds of winning" in gm.inner_text(".opposed-tests .opposed-box")
        for page in (ala, bartek):
            page.wait_for_selector("#test-panel .opposed-box")
            assert "Brunhilda z Gór against Zbyszko Cichy" in page.inner_text(".opposed-box")
            assert "Your odds of winning" in page.inner_text(".opposed-box")
        ala.click("#test-panel .roll-button")
        # Bartek's page follows without a reload: Brunhilda's side has rolled.
        bartek.wait_for_selector("#test-panel .opposed-sides li:has-text('rolled, #1')")
        bartek.click("#test-panel .roll-button")
        for page in (gm, ala, bartek):
            assert "Opposed test (#1 against #2)" in entry(page, 3).inner_text()

        # Caerbannog: the initiator settles first, then the opponent.
        visit(gm, base, demo_path(CAERBANNOG, page="dashboard/"))
        visit(ala, base, demo_path(CAERBANNOG, "Julio"))
        visit(bartek, base, demo_path(CAERBANNOG, "Morgana"))
        duel = ("Julio", "Morgana", "tested=skill:Dociekliwość", "tested=skill:Ukrycie")
        start_opposed(gm, *duel)
        for page in (ala, bartek):
            page.wait_for_selector("#test-panel .opposed-box")
        roll_panel(ala)
        bartek.wait_for_selector("#test-panel .opposed-sides li:has-text('rolled, #1')")
        roll_panel(bartek)
        # Both have rolled: Julio's turn. His page offers the re-roll and "my result stands";
        # Morgana's page and the GM's say whose turn it is.
        ala.wait_for_selector("#test-panel .opposed-settle[data-turn='a'] .settle-button")
        bartek.wait_for_selector("#test-panel .opposed-settle[data-turn='a']")
        assert bartek.locator("#test-panel .settle-button").count() == 0
        assert "Julio settles their modifiers first" in bartek.inner_text(".opposed-settle")
        gm.wait_for_selector(".opposed-tests .opposed-settle[data-turn='a']")
        reroll = ala.locator(".opposed-follow-ups form.follow-up", has_text="Re-roll")
        reroll.locator("input[name='ability']").fill("Szczęście")
        reroll.locator("button[type=submit]").click()
        assert "Szczęście" in entry(ala, 3).inner_text()
        ala.wait_for_selector("#test-panel .opposed-settle[data-turn='a'] .settle-button")
        ala.click("#test-panel .settle-button")
        # Morgana's turn: her page follows, with Julio's final result (the re-roll, #3).
        bartek.wait_for_selector("#test-panel .opposed-settle[data-turn='b'] .settle-button")
        assert "Julio's final result is #3" in bartek.inner_text(".opposed-settle")
        ala.wait_for_selector("#test-panel .opposed-settle[data-turn='b']")
        assert ala.locator("#test-panel .settle-button").count() == 0
        assert ala.locator("#test-panel .opposed-follow-ups").count() == 0
        gm.wait_for_selector(".opposed-tests .opposed-settle[data-turn='b']")
        bartek.click("#test-panel .settle-button")
        for page in (gm, ala, bartek):
            assert "Opposed test (#3 against #2)" in entry(page, 4).inner_text()
        ala.wait_for_selector("#test-panel .opposed-settle", state="detached")

        # Revealed in turn. Julio has Rozmach to boost with, and nothing to pay heroic effort
        # with: whatever the dice, the declaration ends in a note.
        change_sheet(
            tmp_path,
            "Julio",
            lambda sheet: sheet["resources"].update(rozmach=2, wytrzymalosc=0, determinacja=0),
        )
        celina = open_sheet(browser, base, "celina", CAERBANNOG, "Tristan")
        start_opposed(gm, *duel)
        for page in (ala, bartek):
            page.wait_for_selector("#test-panel .opposed-box")
        # Morgana rolls first: her page and the GM's show it; Julio's and Tristan's do not.
        roll_panel(bartek)
        for page in (gm, bartek):
            page.wait_for_selector(WHOLE.format(seq=5))
        for page in (ala, celina):
            page.wait_for_selector(REDACTED.format(seq=5))
            assert "Morgana has rolled their side" in entry(page, 5).inner_text()
            assert entry(page, 5).locator(".die").count() == 0
        # Julio rolls and boosts without it: nothing of Morgana's roll on his page.
        roll_panel(ala)
        ala.wait_for_selector("#test-panel .opposed-settle[data-turn='a'] .settle-button")
        boost = ala.locator(".opposed-follow-ups form.follow-up", has_text="Boost")
        boost.locator("button[type=submit]").click()
        entry(ala, 7)
        settled(ala)
        assert ala.locator(REDACTED.format(seq=5)).count() == 1
        assert ala.locator("#test-panel .opposed-box .die").count() == 0
        ala.wait_for_selector("#test-panel .opposed-settle[data-turn='a'] .settle-button")
        # Heroic effort if it fails, declared blind as Julio settles (docs/rules-decisions.md).
        ala.check("#test-panel .opposed-declare input[name='declare']")
        ala.click("#test-panel .settle-button")
        # Revealed: every page shows Morgana's roll whole, without a reload, and the note of
        # the declaration priced against it; Morgana settles.
        for page in (ala, celina, gm, bartek):
            page.wait_for_selector(WHOLE.format(seq=5))
            assert entry(page, 5).locator(".die").count() == 3
            assert "Heroic effort declared before the reveal by Julio" in (
                entry(page, 8).inner_text()
            )
        bartek.wait_for_selector("#test-panel .opposed-settle[data-turn='b'] .settle-button")
        bartek.click("#test-panel .settle-button")
        for page in (gm, ala, bartek, celina):
            assert "Opposed test (#7 against #5)" in entry(page, 9).inner_text()
