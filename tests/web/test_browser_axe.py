"""Every page of the demo table passes axe-core's audit with no serious or critical violation
(issue 41, item 3): one server, one walk, as the GM, as a player and as a visitor.

The pages are audited as people see them during a game night: the log with an entry in it, a
test panel open after a click on a stat, a test the GM called showing on the player's sheet and
on the dashboard. ``AXE_REPORT=file.json`` keeps every violation of every page, of every impact,
for the before-and-after report (``python -m tests.web.axe BEFORE.json AFTER.json``).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3

import pytest

from tests.web import axe
from tests.web.browser import (
    _IN_FLIGHT,
    AST,
    CAERBANNOG,
    FASTTEST,
    PHONE,
    T10,
    TWOD6,
    _seeded,
    call_for,
    click_stat,
    demo_path,
    demo_table,
    log_in,
    roll_budowa,
    session_path,
    settled,
)

pytestmark = pytest.mark.browser

SYSTEMS = {FASTTEST: "fasttest", AST: "ast", T10: "t10", TWOD6: "twod6", CAERBANNOG: "caerbannog"}


def _first(sql: str, *args) -> str | int:
    with contextlib.closing(sqlite3.connect(_seeded()["plain"])) as db:
        return db.execute(sql, args).fetchone()[0]


def players_character(campaign: str, username: str) -> str:
    """The name of ``username``'s character in a demo campaign."""
    return str(
        _first(
            "SELECT s.name FROM sheets_character s JOIN campaigns_campaign c"
            " ON c.id = s.campaign_id JOIN auth_user u ON u.id = s.owner_id"
            " WHERE c.name = ? AND u.username = ?",
            campaign,
            username,
        )
    )


def viewed_as(campaign: str, username: str, path: str) -> str:
    """``path`` of a demo campaign as its GM sees it through ``username``'s eyes
    (campaigns/view_as.py)."""
    player = _first("SELECT id FROM auth_user WHERE username = ?", username)
    return f"/view/{demo_path(campaign).split('/')[2]}/{player}{path}"


def first_npc(campaign: str) -> int:
    return int(
        _first(
            "SELECT n.id FROM sheets_npc n JOIN campaigns_campaign c ON c.id = n.campaign_id"
            " WHERE c.name = ? ORDER BY n.id",
            campaign,
        )
    )


class Walk:
    """Each page the walk opens, audited as it is shown, under a name for the report."""

    def __init__(self, base: str) -> None:
        self.base, self.found = base, {}

    def open(self, page, name: str, path: str) -> None:
        page.goto(f"{self.base}{path}")
        page.wait_for_load_state("load")
        settled(page)
        self.audit(page, name)

    def audit(self, page, name: str) -> None:
        self.found[name] = axe.audit(page)


def test_every_page_of_the_demo_table_has_no_serious_or_critical_violation(browser, tmp_path):
    with demo_table(tmp_path) as base:
        walk = Walk(base)
        visitor = browser.new_context()
        visitor.add_init_script(_IN_FLIGHT)
        visitor = visitor.new_page()
        walk.open(visitor, "login", "/accounts/login/")
        walk.open(visitor, "signup", "/accounts/signup/")
        walk.open(visitor, "rules index", "/rules/")
        for system in SYSTEMS.values():
            walk.open(visitor, f"rules {system}", f"/rules/{system}/")

        gm = log_in(browser, base, "gm")
        ala = log_in(browser, base, "ala")
        phone = log_in(browser, base, "ala", **PHONE)
        gm_phone = log_in(browser, base, "gm", **PHONE)
        polish = log_in(browser, base, "gm", locale="pl-PL")
        walk.audit(gm, "home (GM)")
        walk.audit(ala, "home (player)")
        walk.open(gm, "campaign (GM)", demo_path(FASTTEST))
        walk.open(ala, "campaign (player)", demo_path(FASTTEST))
        walk.open(gm, "settings", demo_path(FASTTEST, page="settings/"))
        walk.open(gm, "new campaign", "/c/new/")
        walk.open(gm, "password change", "/accounts/password/")
        walk.open(gm, "new character", demo_path(FASTTEST, page="characters/new/"))
        walk.open(gm, "import a character", demo_path(FASTTEST, page="characters/import/"))
        walk.open(gm, "Discord", demo_path(FASTTEST, page="discord/"))
        walk.open(gm, "NPCs", demo_path(FASTTEST, page="npcs/"))
        walk.open(gm, "NPC new", demo_path(FASTTEST, page="npcs/new/"))
        walk.open(gm, "NPC edit", demo_path(FASTTEST, page=f"npcs/{first_npc(FASTTEST)}/edit/"))
        for campaign, system in SYSTEMS.items():
            name = players_character(campaign, "ala")
            walk.open(ala, f"sheet {system} (player)", demo_path(campaign, name))
            walk.open(gm, f"dashboard {system}", demo_path(campaign, page="dashboard/"))
            walk.open(gm, f"sheet {system} (GM)", demo_path(campaign, name))
        walk.open(gm, "group test", demo_path(CAERBANNOG, page="group/"))
        for page in ("", "settings/", "dashboard/"):  # in Polish too: the words, the page's lang
            walk.open(polish, f"campaign {page or 'page'} (Polish)", demo_path(FASTTEST, page=page))
        walk.open(polish, "sheet fasttest (GM, Polish)", demo_path(FASTTEST, "Brunhilda z Gór"))
        walk.open(polish, "rules fasttest (Polish)", "/rules/fasttest/")
        walk.open(phone, "sheet fasttest (player, phone)", demo_path(FASTTEST, "Brunhilda z Gór"))
        walk.open(phone, "table (player, phone)", session_path(FASTTEST))
        walk.open(gm_phone, "dashboard fasttest (phone)", demo_path(FASTTEST, page="dashboard/"))

        # A game night: a roll in the log, a panel open, a called test showing.
        walk.open(ala, "table (player)", session_path(FASTTEST))
        click_stat(ala, "BUDOWA", "input[name=attribute][value='BUDOWA']")
        walk.audit(ala, "table, panel open (player)")
        roll_budowa(ala)
        walk.audit(ala, "table, after a roll (player)")
        ala.locator("#main").focus()
        ala.keyboard.press("?")
        ala.get_by_role("dialog").wait_for()
        walk.audit(ala, "table, the keyboard shortcuts (player)")
        ala.keyboard.press("Escape")
        walk.open(gm, "table (GM)", session_path(FASTTEST))
        walk.open(gm, "dashboard fasttest, after a roll", demo_path(FASTTEST, page="dashboard/"))
        card = gm.locator(".party-card", has=gm.locator("h3 a", has_text="Zbyszko Cichy"))
        card.locator("details.call summary").click()
        walk.audit(gm, "dashboard fasttest, a call form open")
        call_for(gm, "Brunhilda z Gór", attribute="ZRĘCZNOŚĆ")
        settled(gm)
        walk.audit(gm, "dashboard fasttest, a called test")
        ala.goto(f"{base}{demo_path(FASTTEST, 'Brunhilda z Gór')}")
        ala.wait_for_selector("#test-panel .pending-note")
        walk.audit(ala, "sheet fasttest, a called test (player)")
        session = session_path(FASTTEST)
        walk.open(gm, "session stats", f"{session}stats/")
        walk.open(gm, "log, earlier page", f"{session}log/earlier/?before=2")
        walk.open(gm, "recap (GM)", f"{session}recap/")
        walk.open(ala, "recap (player)", f"{session}recap/")
        walk.open(phone, "recap (player, phone)", f"{session}recap/")
        as_ala = viewed_as(FASTTEST, "ala", session)
        walk.open(gm, "table, viewed as a player", as_ala)
        walk.open(gm_phone, "table, viewed as a player (phone)", as_ala)
        sheet = demo_path(FASTTEST, "Brunhilda z Gór")
        walk.open(gm, "sheet, viewed as a player", viewed_as(FASTTEST, "ala", sheet))

    if os.environ.get("AXE_REPORT"):
        axe.save(walk.found, os.environ["AXE_REPORT"])
    failing = {where: axe.failing(violations) for where, violations in walk.found.items()}
    assert not any(failing.values()), "\n" + axe.readable(walk.found)
