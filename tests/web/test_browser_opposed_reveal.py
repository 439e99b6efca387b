"""A Caerbannog opposed test revealed in turn, in four browsers (the GM, both sides' players and
a third player): the opponent rolls first and only the GM's page and the opponent's show it;
the initiator rolls, boosts and settles without it; then it appears whole on every page, live
(RULES.md 4.10, issue 25 item 4)."""

from __future__ import annotations

import contextlib
import json
import sqlite3

import pytest

from tests.web.browser import demo_table, settled
from tests.web.test_browser_opposed_settle import start_duel
from tests.web.test_browser_table import entry  # noqa: F401
from tests.web.test_browser_wrong_today import (
    CAERBANNOG,
    open_caerbannog_sheet,
    roll_panel,
    start_session,
)

pytestmark = pytest.mark.browser

REDACTED = "#roll-log [data-entries] > li.entry-redacted[data-seq='{seq}']"
WHOLE = "#roll-log [data-entries] > li.entry:not(.entry-redacted)[data-seq='{seq}']"


def give_rozmach(tmp_path, name: str, rozmach: int) -> None:
    """Julio starts the scene with Rozmach to boost with (the session's first scene emptied
    the pool): written into the served demo's database as the GM would on the sheet."""
    path = tmp_path / "table.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        pk, data = db.execute(
            "SELECT id, data FROM sheets_character WHERE name = ?", [name]
        ).fetchone()
        sheet = json.loads(data)
        sheet["resources"]["rozmach"] = rozmach
        db.execute("UPDATE sheets_character SET data = ? WHERE id = ?", [json.dumps(sheet), pk])


def test_the_opponents_roll_reaches_the_other_pages_only_once_the_initiator_settles(
    browser, tmp_path
):
    with demo_table(tmp_path) as base:
        gm = start_session(browser, base, CAERBANNOG)
        give_rozmach(tmp_path, "Julio", 2)
        ala = open_caerbannog_sheet(browser, base, "ala", "Julio")
        bartek = open_caerbannog_sheet(browser, base, "bartek", "Morgana")
        celina = open_caerbannog_sheet(browser, base, "celina", "Tristan")
        start_duel(gm)
        for page in (ala, bartek):
            page.wait_for_selector("#test-panel .opposed-box")

        # Morgana rolls first: her page and the GM's show it; Julio's and Tristan's do not.
        roll_panel(bartek)
        for page in (gm, bartek):
            page.wait_for_selector(WHOLE.format(seq=1))
        for page in (ala, celina):
            page.wait_for_selector(REDACTED.format(seq=1))
            assert "Morgana has rolled their side" in entry(page, 1).inner_text()
            assert entry(page, 1).locator(".die").count() == 0

        # Julio rolls and boosts without it: nothing of Morgana's roll on his page.
        roll_panel(ala)
        ala.wait_for_selector("#test-panel .opposed-settle[data-turn='a'] .settle-button")
        boost = ala.locator(".opposed-follow-ups form.follow-up", has_text="Boost")
        boost.locator("button[type=submit]").click()
        entry(ala, 3)
        settled(ala)
        assert ala.locator(REDACTED.format(seq=1)).count() == 1
        assert ala.locator("#test-panel .opposed-box .die").count() == 0
        ala.wait_for_selector("#test-panel .opposed-settle[data-turn='a'] .settle-button")
        ala.click("#test-panel .settle-button")

        # Revealed: every page shows Morgana's roll whole, without a reload; Morgana settles.
        for page in (ala, celina, gm, bartek):
            page.wait_for_selector(WHOLE.format(seq=1))
            assert entry(page, 1).locator(".die").count() == 3
        bartek.wait_for_selector("#test-panel .opposed-settle[data-turn='b'] .settle-button")
        bartek.click("#test-panel .settle-button")
        for page in (gm, ala, bartek, celina):
            assert "Opposed test (#3 against #1)" in entry(page, 4).inner_text()
