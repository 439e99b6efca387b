"""With ROLLS_OVER_SOCKET a sheet's Roll goes over the page's socket (rolls/live/writes.py,
static/js/table.js), answered as over HTTP; whatever the socket loses goes over HTTP with the
same key, so every roll arrives once."""

from __future__ import annotations

import pytest

from tests.web.browser import demo_table, open_sheet, start_session
from tests.web.test_browser_table import CAMPAIGN, entry, roll_budowa

pytestmark = pytest.mark.browser
ROLLS_POSTED = "**/test/roll/"


def _table(browser, base):
    gm = start_session(browser, base, CAMPAIGN)
    ala = open_sheet(browser, base, "ala", CAMPAIGN, "Brunhilda z Gór")
    posted: list[str] = []
    ala.on("request", lambda r: posted.append(r.url) if r.url.endswith("/test/roll/") else None)
    return gm, ala, posted


def cut_at_the_roll(page, heard: bool) -> None:
    """The page's socket closes as its roll frame leaves: before the server hears it, or (heard)
    just after, so that the server rolls and its answer is lost."""
    page.evaluate(
        """heard => {
            const send = WebSocket.prototype.send;
            WebSocket.prototype.send = function (data) {
                const roll = JSON.parse(data).type === "roll";
                if (!roll || heard) send.call(this, data);
                if (roll) setTimeout(() => this.close(), 0);
            };
        }""",
        heard,
    )


def _entries(page) -> int:
    return page.locator("#roll-log [data-entries] > li[data-seq]").count()


def test_a_roll_goes_over_the_socket_and_reaches_every_page(browser, tmp_path):
    with demo_table(tmp_path, ROLLS_OVER_SOCKET="1") as base:
        gm, ala, posted = _table(browser, base)
        roll_budowa(ala)
        assert "BUDOWA 7" in ala.inner_text("#test-panel .rolled")
        assert "BUDOWA 7" in entry(gm, 1).inner_text()
        assert posted == []  # nothing went over HTTP
        roll_budowa(ala)  # a fresh key came with the answer: a second roll, not the first again
        assert "BUDOWA 7" in entry(gm, 2).inner_text()
        assert posted == []


def test_without_the_switch_a_roll_is_posted(browser, tmp_path):
    with demo_table(tmp_path, ROLLS_OVER_SOCKET="0") as base:
        gm, ala, posted = _table(browser, base)
        roll_budowa(ala)
        assert "BUDOWA 7" in entry(gm, 1).inner_text()
        assert len(posted) == 1


@pytest.mark.parametrize(
    "heard", [False, True], ids=["lost before the server hears it", "its answer lost"]
)
def test_a_roll_the_socket_loses_is_sent_over_http_and_rolled_once(browser, tmp_path, heard):
    with demo_table(tmp_path, ROLLS_OVER_SOCKET="1") as base:
        gm, ala, posted = _table(browser, base)
        # The page gives up on the socket (it closes) and sends the same request, key and all,
        # over HTTP: a roll the server made is the answer, never a second one.
        cut_at_the_roll(ala, heard=heard)
        roll_budowa(ala)
        assert len(posted) == 1
        assert "BUDOWA 7" in entry(gm, 1).inner_text()
        ala.wait_for_selector("#roll-log [data-entries] > li[data-seq='1']")
        assert _entries(gm) == 1
        assert _entries(ala) == 1
        assert ala.get_attribute("#test-panel .rolled .entry", "data-seq") == "1"
