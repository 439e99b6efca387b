"""A long evening in real browsers: the log shows its latest page, earlier entries load on
demand, and the live log and its replay after a reconnect stay gapless around them."""

from __future__ import annotations

import pytest

from rolls.log.reading import PAGE_SIZE
from tests.web.browser import demo_table, log_in
from tests.web.servers import app_env, manage
from tests.web.test_browser_table import (
    CAMPAIGN,
    entry,
    open_sheet,
    roll_budowa,
)

pytestmark = pytest.mark.browser

#: Two pages of the log and five entries more.
FILLED = 2 * PAGE_SIZE + 5

#: Run in a shell of the server's database: the session's log filled up to FILLED entries.
FILL = f"""
from campaigns.models import GameSession
from tests.web.long_log import long_log
session = GameSession.objects.open().get(campaign__name={CAMPAIGN!r})
player = session.campaign.memberships.exclude(user=session.campaign.gm).first().user
long_log(session, player, session.campaign.gm, {FILLED})
"""

SEQS = (
    "Array.from(document.querySelectorAll('#roll-log [data-entries] > li'))"
    ".map(li => +li.dataset.seq)"
)


@pytest.fixture
def evening(browser, tmp_path):  # noqa: F811 (the imported fixture)
    with demo_table(tmp_path) as base:
        gm = log_in(browser, base, "gm")
        gm.click(f"text={CAMPAIGN}")
        gm.click("text=Start a session")
        gm.wait_for_selector(".connection[data-connection-state='live']")
        manage(app_env(DATABASE_URL=f"sqlite:///{tmp_path / 'table.sqlite3'}"), "shell", "-c", FILL)
        ala = open_sheet(browser, base, "ala", "Brunhilda z Gór")
        bartek = open_sheet(browser, base, "bartek", "Zbyszko Cichy")
        yield ala, bartek


def load_earlier(page) -> None:
    """From the keyboard: the link focused, then Enter."""
    link = page.locator("#log-earlier a")
    link.focus()
    page.keyboard.press("Enter")


def test_the_log_shows_its_latest_page_and_a_link_to_the_earlier(evening):
    _, bartek = evening
    assert bartek.evaluate(SEQS) == list(range(FILLED, FILLED - PAGE_SIZE, -1))
    link = bartek.locator("#log-earlier a")
    assert link.inner_text() == f"Earlier entries (before #{FILLED - PAGE_SIZE + 1})"


def test_earlier_entries_load_below_and_the_focus_goes_to_the_first_of_them(evening):
    _, bartek = evening
    load_earlier(bartek)
    oldest = FILLED - 2 * PAGE_SIZE + 1
    bartek.wait_for_selector(f"#log-earlier a:has-text('before #{oldest}')")
    assert bartek.evaluate(SEQS) == list(range(FILLED, oldest - 1, -1))
    focused = bartek.evaluate("document.activeElement.dataset.seq")
    assert focused == str(FILLED - PAGE_SIZE)


def test_the_last_earlier_page_removes_the_link(evening):
    _, bartek = evening
    load_earlier(bartek)
    bartek.wait_for_selector(f"#log-earlier a:has-text('before #{FILLED - 2 * PAGE_SIZE + 1}')")
    load_earlier(bartek)
    bartek.wait_for_selector("#log-earlier:not(:has(a))", state="attached")
    assert bartek.evaluate(SEQS) == list(range(FILLED, 0, -1))


def test_after_earlier_entries_a_live_roll_and_a_reconnect_stay_gapless(evening):
    ala, bartek = evening
    load_earlier(bartek)
    bartek.wait_for_selector(f"#log-earlier a:has-text('before #{FILLED - 2 * PAGE_SIZE + 1}')")
    roll_budowa(ala)
    entry(bartek, FILLED + 1)
    bartek.evaluate("window.tableSocket.drop()")
    roll_budowa(ala)
    roll_budowa(ala)
    bartek.wait_for_selector(".connection[data-connection-state='live']", timeout=15_000)
    entry(bartek, FILLED + 3)
    expected = list(range(FILLED + 3, FILLED - 2 * PAGE_SIZE, -1))
    assert bartek.evaluate(SEQS) == expected
