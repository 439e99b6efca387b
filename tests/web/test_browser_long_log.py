"""A long evening in real browsers: the log shows its latest page, earlier entries load on
demand, and the live log and its replay after a reconnect stay gapless around them."""

from __future__ import annotations

import pytest

from rolls.log.reading import PAGE_SIZE
from tests.web.browser import FASTTEST, demo_table, entry, open_sheet, roll_budowa
from tests.web.servers import app_env, manage

pytestmark = pytest.mark.browser

#: Two pages of the log and five entries more.
FILLED = 2 * PAGE_SIZE + 5

#: Run in a shell of the server's database: the session's log filled up to FILLED entries.
FILL = f"""
from campaigns.models import GameSession
from tests.web.long_log import long_log
session = GameSession.objects.open().get(campaign__name={FASTTEST!r})
player = session.campaign.memberships.exclude(user=session.campaign.gm).first().user
long_log(session, player, session.campaign.gm, {FILLED})
"""

SEQS = (
    "Array.from(document.querySelectorAll('#roll-log [data-entries] > li'))"
    ".map(li => +li.dataset.seq)"
)


def load_earlier(page) -> None:
    """From the keyboard: the link focused, then Enter."""
    link = page.locator("#log-earlier a")
    link.focus()
    page.keyboard.press("Enter")


def test_the_log_shows_its_latest_page_loads_earlier_ones_and_stays_gapless(browser, tmp_path):
    with demo_table(tmp_path) as base:
        manage(app_env(DATABASE_URL=f"sqlite:///{tmp_path / 'table.sqlite3'}"), "shell", "-c", FILL)
        ala = open_sheet(browser, base, "ala", FASTTEST, "Brunhilda z Gór")
        bartek = open_sheet(browser, base, "bartek", FASTTEST, "Zbyszko Cichy")

        # The log shows its latest page and a link to the earlier.
        assert bartek.evaluate(SEQS) == list(range(FILLED, FILLED - PAGE_SIZE, -1))
        link = bartek.locator("#log-earlier a")
        assert link.inner_text() == f"Earlier entries (before #{FILLED - PAGE_SIZE + 1})"

        # Earlier entries load below and the focus goes to the first of them.
        load_earlier(bartek)
        oldest = FILLED - 2 * PAGE_SIZE + 1
        bartek.wait_for_selector(f"#log-earlier a:has-text('before #{oldest}')")
        assert bartek.evaluate(SEQS) == list(range(FILLED, oldest - 1, -1))
        focused = bartek.evaluate("document.activeElement.dataset.seq")
        assert focused == str(FILLED - PAGE_SIZE)

        # After earlier entries, a live roll and a reconnect stay gapless.
        roll_budowa(ala)
        entry(bartek, FILLED + 1)
        bartek.evaluate("window.tableSocket.drop()")
        roll_budowa(ala)
        roll_budowa(ala)
        bartek.wait_for_selector(".connection[data-connection-state='live']", timeout=15_000)
        entry(bartek, FILLED + 3)
        assert bartek.evaluate(SEQS) == list(range(FILLED + 3, oldest - 1, -1))

        # The last earlier page removes the link.
        load_earlier(bartek)
        bartek.wait_for_selector("#log-earlier:not(:has(a))", state="attached")
        assert bartek.evaluate(SEQS) == list(range(FILLED + 3, 0, -1))
