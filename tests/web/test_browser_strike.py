"""The GM's correction in real browsers: the GM strikes an entry from the dashboard's box and
every open log shows it struck at once, with who and why, without a reload."""

from __future__ import annotations

import pytest

from tests.web.browser import demo_table, settled, start_session
from tests.web.test_browser_chat import line, not_reloaded, say
from tests.web.test_browser_table import CAMPAIGN, open_sheet

pytestmark = pytest.mark.browser


@pytest.fixture
def table(browser, tmp_path):
    """The GM's dashboard and the sheets of Ala and Bartek, every socket live."""
    with demo_table(tmp_path) as base:
        gm = start_session(browser, base, CAMPAIGN, dashboard=True)
        ala = open_sheet(browser, base, "ala", "Brunhilda z Gór")
        bartek = open_sheet(browser, base, "bartek", "Zbyszko Cichy")
        for page in (gm, ala, bartek):
            page.evaluate("window.__notReloaded = true")
        yield gm, ala, bartek


def test_a_struck_line_shows_struck_in_every_open_log_at_once(table):
    gm, ala, bartek = table
    say(ala, "To nie powinno zostać.")
    line(bartek, "To nie powinno zostać.")
    line(gm, "To nie powinno zostać.")
    # The box lists the line once its refresh came with the entry.
    box = gm.locator("#strike-box")
    box.locator("summary").click()
    option = box.locator("select[name=roll] option", has_text="To nie powinno zostać.")
    option.wait_for(state="attached", timeout=30_000)
    box.locator("select[name=roll]").select_option(option.get_attribute("value"))
    box.locator("input[name=reason]").fill("nie na temat")
    with gm.expect_response(lambda r: r.request.method == "POST" and "/strike/" in r.url):
        box.locator("button[type=submit]").click()
    settled(gm)
    for page in (ala, bartek, gm):
        struck = page.locator("#roll-log li.entry.is-struck", has_text="To nie powinno zostać.")
        struck.wait_for(timeout=30_000)
        assert "nie na temat" in struck.inner_text()
        assert not_reloaded(page)
