"""Words in the reader's language, in real browsers (issue 13, items 16, 17 and 19).

An English-reading player and a Polish-reading GM at the Caerbannog demo table: the entry the
player rolls reaches the GM's page in Polish, live and after a reload; the panel's "How does this
test work?" opens its system's rules, in the reader's language.
"""

from __future__ import annotations

import pytest

from tests.web.browser import demo_table
from tests.web.browser import log_in as log_in_as

pytestmark = pytest.mark.browser
CAMPAIGN = "Caerbannog 2026"


@pytest.fixture
def table(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = log_in_as(browser, base, "gm", locale="pl-PL")
        gm.click(f"text={CAMPAIGN}")
        gm.click("button:has-text('Rozpocznij sesję')")
        gm.wait_for_selector(".connection[data-connection-state='live']")
        ala = log_in_as(browser, base, "ala", locale="en-GB")
        ala.click(f"text={CAMPAIGN}")
        ala.click("text=Julio")
        ala.wait_for_selector(".connection[data-connection-state='live']")
        yield base, gm, ala


def entry(page, seq: int):
    selector = f"#roll-log [data-entries] > li[data-seq='{seq}']"
    page.wait_for_selector(selector, timeout=10_000)
    return page.locator(selector)


def set_number(page, selector: str, value: str, shown: str) -> None:
    """Type a number into the panel and wait for its re-render to show ``shown``."""
    page.fill(selector, value)
    page.press(selector, "Tab")
    page.wait_for_selector(f"#test-panel .sources li:has-text('{shown}')")


def test_an_english_players_entry_reaches_a_polish_gm_in_polish(table, tmp_path):
    _, gm, ala = table
    ala.click("button.roll-target:has-text('Jazda')")
    ala.wait_for_selector("#test-panel form")
    set_number(ala, "#cb-easing", "1", "eased ×1, hindered ×0 → eased")
    set_number(ala, "#cb-hindering", "2", "eased ×1, hindered ×2 → hindered")
    ala.click("#test-panel .roll-button")
    mine = entry(ala, 1).inner_text()
    assert "Jazda II (3d8) vs 3" in mine
    assert "eased ×1, hindered ×2 → hindered" in mine

    live = entry(gm, 1).inner_text()
    assert "Jazda II (3d8) kontra 3" in live
    assert "ułatwienia ×1, utrudnienia ×2 → utrudnienie" in live
    for english in (" vs ", "eased", "hindered"):
        assert english not in live
    gm.screenshot(path=str(tmp_path / "gm-log-polish.png"), full_page=True)
    gm.reload()
    assert entry(gm, 1).inner_text() == live


def test_the_panel_says_how_its_test_works_in_the_readers_language(table, tmp_path):
    _, gm, ala = table
    ala.click("button.roll-target:has-text('Percepcja')")
    ala.wait_for_selector("#test-panel form")
    ala.locator("#test-panel").screenshot(path=str(tmp_path / "panel-with-rules-link.png"))
    with ala.context.expect_page() as opened:
        ala.click("#test-panel a:has-text('How does this test work?')")
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url.endswith("/rules/caerbannog/")
    assert "How a Caerbannog 2026 test works" in rules.locator("h1").inner_text()
    assert "Julio tests Dociekliwość II, three d8" in rules.locator(".rules-example").inner_text()
    # The panel stays as it was in its own tab: nothing the player chose is lost.
    assert ala.locator("#test-panel form").count() == 1

    gm.goto(rules.url)
    assert "Jak działa test w systemie Caerbannog 2026" in gm.locator("h1").inner_text()
    assert "Julio testuje Dociekliwość II, trzy d8" in gm.locator(".rules-example").inner_text()
    gm.set_viewport_size({"width": 360, "height": 740})
    gm.screenshot(path=str(tmp_path / "rules-phone-polish.png"), full_page=True)


def test_a_failed_test_and_its_heroic_effort_agree_on_what_it_costs(table, tmp_path):
    _, _, ala = table
    ala.click("button.roll-target:has-text('Jazda')")
    ala.wait_for_selector("#test-panel form")
    ala.select_option("#cb-difficulty", "trudny")
    ala.wait_for_selector("#test-panel .sources li:has-text('trudny')")
    offer = ala.locator("#test-panel .follow-up button:has-text('Heroic effort')")
    for seq in range(1, 20):  # Jazda II (3d8) against 5 fails about two times in three
        ala.click("#test-panel .roll-button")
        rolled = ala.locator(f"#test-panel .rolled .entry[data-seq='{seq}']")
        rolled.wait_for()
        if offer.count():
            break
    failed = rolled.inner_text()
    result = int(rolled.locator("dt:has-text('result') + dd").inner_text())
    cost = 1 - result
    assert "heroic effort cost" not in failed
    assert offer.inner_text() == f"Heroic effort: pay {cost} for exactly 1 success"
    ala.screenshot(path=str(tmp_path / "failed-caerbannog.png"), full_page=True)
    offer.click()
    heroic = ala.locator(f"#test-panel .rolled .entry[data-seq='{seq + 1}']")
    heroic.wait_for()
    assert heroic.locator("dt:has-text('heroic effort cost') + dd").inner_text() == str(cost)
    assert f"+{cost} heroic effort cost: paid with Wytrzymałość" in heroic.inner_text()


@pytest.fixture
def fasttest_table(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = log_in_as(browser, base, "gm", locale="pl-PL")
        gm.click("text=Królestwo Zarith (FastTest)")
        gm.click("button:has-text('Rozpocznij sesję')")
        gm.wait_for_selector(".connection[data-connection-state='live']")
        ala = log_in_as(browser, base, "ala", locale="en-GB")
        ala.click("text=Królestwo Zarith (FastTest)")
        ala.click("text=Brunhilda z Gór")
        ala.wait_for_selector(".connection[data-connection-state='live']")
        yield base, gm, ala


def test_one_wound_reads_in_the_singular_and_the_gm_card_spells_it_out(fasttest_table, tmp_path):
    base, gm, ala = fasttest_table
    ala.click("button.roll-target:has-text('BUDOWA')")
    # BUDOWA 7, no extra dice: Tak, i… is 7/10 × 1/6 = 11.67 %, rounded (it was cut to 11.6 %).
    best = ala.locator("#test-panel .odds-table tr:has-text('Tak, i…') .pct")
    best.wait_for()
    assert best.inner_text() == "11.7%"
    ala.fill("#id_wound_label", "cięcie")
    ala.select_option("#id_wound_severity", "light")
    ala.click("button:has-text('Add wound')")
    ala.wait_for_selector(".wound-list .wound--light")
    ala.click("button.roll-target:has-text('BUDOWA')")
    ala.wait_for_selector("#test-panel .sources li:has-text('+1 penalty die: wounds')")
    assert "1 penalty dice" not in ala.locator("#test-panel").inner_text()
    ala.click("#test-panel .roll-button")
    rolled = ala.locator("#test-panel .rolled .entry[data-seq='1']")
    rolled.wait_for()
    spoken = rolled.locator(".dice .visually-hidden").all_inner_texts()
    assert spoken
    assert not [text for text in spoken if "d10, d10" in text or "d6, d6" in text]
    assert [text for text in spoken if "(d10, kept" in text]

    gm.click("main a:has-text('Królestwo Zarith (FastTest)')")
    gm.click("text=Panel MG")
    card = gm.locator(".party-card:has-text('Brunhilda z Gór')")
    card.wait_for()
    assert "1× Lekka; 1 nieopatrzona" in card.inner_text()
    assert "1L" not in card.inner_text()
    card.screenshot(path=str(tmp_path / "party-card-polish.png"))
