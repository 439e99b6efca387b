"""Who is at the table, in real browsers: the GM's dashboard sees a player arrive and leave."""

from __future__ import annotations

import pytest

from tests.web.browser import FASTTEST, demo_table, gm_at_table, open_sheet

pytestmark = pytest.mark.browser
ALA = "#presence li.presence-person:has-text('ala')"


def test_the_gms_dashboard_shows_a_player_arrive_then_away_then_gone(browser, tmp_path):
    # A short grace and away time, so the test sees every step within seconds.
    with demo_table(tmp_path, PRESENCE_GRACE_SECONDS="1", PRESENCE_AWAY_SECONDS="4") as base:
        gm = gm_at_table(browser, base, FASTTEST, dashboard=True)
        gm.wait_for_selector("#presence li.presence-person:has-text('gm')")
        assert gm.locator(ALA).count() == 0

        ala = open_sheet(browser, base, "ala", FASTTEST, "Brunhilda z Gór")
        gm.wait_for_selector(f"{ALA}[data-presence-state='here']")
        assert "Brunhilda z Gór" in gm.inner_text(ALA)
        assert "here" in gm.inner_text(ALA)
        # Read where it is, not spoken: the page's one live region says three things only.
        assert gm.get_attribute("#presence [data-presence-list]", "aria-live") is None

        ala.context.close()
        gm.wait_for_selector(f"{ALA}[data-presence-state='away']", timeout=10_000)
        assert "away" in gm.inner_text(ALA)
        gm.wait_for_selector(ALA, state="detached", timeout=10_000)
        assert "gm" in gm.inner_text("#presence")
