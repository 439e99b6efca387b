"""Fair dice in real browsers: the pages send their own nonce, the seed reaches no page, frame or
export before the session ends, and afterwards "Check the whole session" finds every visible
entry matching, computed by the browser itself (Web Crypto)."""

from __future__ import annotations

import re

import pytest

from rolls.log.reading import PAGE_SIZE
from tests.web.browser import demo_table, log_in, slow_network
from tests.web.servers import app_env, manage
from tests.web.test_browser_table import CAMPAIGN, entry, open_sheet
from tests.web.test_browser_table import roll_budowa as roll

pytestmark = pytest.mark.browser
HEX64 = re.compile(r"\b[0-9a-f]{64}\b")


def listen(page, frames: list[str]) -> None:
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: frames.append(frame)))
    page.reload()  # from the first frame of a fresh socket
    page.wait_for_selector(".connection[data-connection-state='live']")


def test_after_the_end_the_browser_checks_every_visible_entry_and_the_seed_never_showed_before(
    browser, tmp_path
):
    seen: list[str] = []  # every page, frame and export before the end
    with demo_table(tmp_path) as base:
        gm = log_in(browser, base, "gm")
        gm.click(f"text={CAMPAIGN}")
        gm.click("text=Start a session")
        gm.wait_for_selector(".connection[data-connection-state='live']")
        session_url = gm.url
        ala = open_sheet(browser, base, "ala", "Brunhilda z Gór")
        bartek = open_sheet(browser, base, "bartek", "Zbyszko Cichy")
        for page in (gm, ala, bartek):
            listen(page, seen)
        roll(ala)
        roll(ala, visibility="secret")
        roll(bartek)
        dashboard = gm.context.new_page()
        dashboard.on("websocket", lambda ws: ws.on("framereceived", lambda f: seen.append(f)))
        dashboard.goto(session_url.split("/sessions/")[0] + "/dashboard/")
        dashboard.click(".npc-hand details summary >> nth=0")
        dashboard.click(".npc-hand details[open] button:has-text('Roll for the NPC')")
        for page in (gm, ala, bartek):
            entry(page, 4)
        for page in (gm, ala, bartek, dashboard):
            seen.append(page.content())
        for page in (gm, ala, bartek):
            for fmt in ("json", "md", "csv"):
                seen.append(page.request.get(f"{session_url}log.{fmt}").text())
        # Every roll went out with a nonce of the page's own making.
        assert "nonce made by the server" not in gm.content()

        gm.goto(session_url)
        gm.click("text=End the session")
        gm.click("text=Yes, end the session")
        gm.wait_for_selector("[data-fair-check-all]")
        seed = gm.locator("[data-fair-seed-shown]").inner_text().strip()
        assert HEX64.fullmatch(seed)
        assert not [text for text in seen if seed in text]
        # A page open since before the end gets the published log live, check buttons included.
        ala.wait_for_selector("[data-fair-check-all]", timeout=10_000)

        results = {}
        for name, page, visible in (("gm", gm, 4), ("ala", ala, 3), ("bartek", bartek, 2)):
            page.goto(session_url)
            page.click("[data-fair-check-all]")
            out = page.locator("[data-fair-summary-out][data-total]")
            out.wait_for(timeout=10_000)
            results[name] = (out.get_attribute("data-matched"), out.get_attribute("data-total"),
                             out.get_attribute("data-committed"))  # fmt: skip
            assert results[name] == (str(visible), str(visible), "true"), name
            assert page.locator("[data-fair-result='mismatch']").count() == 0
        print("screenshot:", tmp_path / "fair-check.png")


def test_a_forged_face_on_the_page_is_reported_as_a_mismatch(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = log_in(browser, base, "gm")
        gm.click(f"text={CAMPAIGN}")
        gm.click("text=Start a session")
        gm.wait_for_selector(".connection[data-connection-state='live']")
        ala = open_sheet(browser, base, "ala", "Brunhilda z Gór")
        roll(ala)
        gm.click("text=End the session")
        gm.click("text=Yes, end the session")
        gm.wait_for_selector("[data-fair-check-all]")
        # What a log that lied about a die would look like: the first die shows another face.
        gm.evaluate(
            """() => {
                const li = document.querySelector("li[data-nonce]");
                const drawn = JSON.parse(li.dataset.drawn);
                li.dataset.honest = li.dataset.drawn;
                drawn[0][1] = drawn[0][1] % drawn[0][0] + 1;
                li.dataset.drawn = JSON.stringify(drawn);
            }"""
        )
        gm.click("[data-fair-check]")
        verdict = gm.locator("[data-fair-verdict]")
        gm.wait_for_function("() => document.querySelector('[data-fair-verdict]').textContent")
        assert "does NOT match" in verdict.inner_text()
        # A log that drew the die right but shows another face says so, in the page's words.
        gm.evaluate(
            """() => {
                const li = document.querySelector("li[data-nonce]");
                li.dataset.drawn = li.dataset.honest;
                for (const die of li.querySelectorAll("li[data-sides]")) {
                    die.dataset.face = "99";
                }
                document.querySelector("[data-fair-verdict]").textContent = "";
            }"""
        )
        gm.click("[data-fair-check]")
        gm.wait_for_function("() => document.querySelector('[data-fair-verdict]').textContent")
        assert "drawn, but not shown in the entry" in verdict.inner_text()


def test_a_check_clicked_as_soon_as_it_shows_on_a_slow_connection_is_answered(browser, tmp_path):
    """CI once clicked "Check the dice" while fair-check.js was still on its way: the button was
    there and did nothing. It shows only once the script that answers it has run."""
    with demo_table(tmp_path) as base:
        gm = log_in(browser, base, "gm")
        gm.click(f"text={CAMPAIGN}")
        gm.click("text=Start a session")
        gm.wait_for_selector(".connection[data-connection-state='live']")
        roll(open_sheet(browser, base, "ala", "Brunhilda z Gór"))
        gm.click("text=End the session")
        slow_network(gm, 800)
        gm.click("text=Yes, end the session")
        gm.click("[data-fair-check]")
        gm.wait_for_function(
            "() => document.querySelector('[data-fair-verdict]').textContent", timeout=10_000
        )
        assert "matches" in gm.inner_text("[data-fair-verdict]")


#: Run in a shell of the server's database: more real rolls than one page of the log shows.
MORE_THAN_A_PAGE = PAGE_SIZE + 3
ROLL_A_PAGE_AND_MORE = f"""
from campaigns.models import GameSession
from tests.web.live import roll
session = GameSession.objects.open().get(campaign__name={CAMPAIGN!r})
player = session.campaign.memberships.exclude(user=session.campaign.gm).first().user
for _ in range({MORE_THAN_A_PAGE}):
    roll(session, player)
"""


def test_checking_the_whole_session_checks_the_entries_beyond_the_logs_first_page(
    browser, tmp_path
):
    with demo_table(tmp_path) as base:
        gm = log_in(browser, base, "gm")
        gm.click(f"text={CAMPAIGN}")
        gm.click("text=Start a session")
        gm.wait_for_selector(".connection[data-connection-state='live']")
        env = app_env(DATABASE_URL=f"sqlite:///{tmp_path / 'table.sqlite3'}")
        manage(env, "shell", "-c", ROLL_A_PAGE_AND_MORE)
        gm.reload()
        gm.click("text=End the session")
        gm.click("text=Yes, end the session")
        gm.wait_for_selector("[data-fair-check-all]")
        assert gm.locator("#roll-log [data-entries] > li").count() == PAGE_SIZE
        gm.click("[data-fair-check-all]")
        out = gm.locator("[data-fair-summary-out][data-total]")
        out.wait_for(timeout=30_000)
        total = str(MORE_THAN_A_PAGE)
        assert (out.get_attribute("data-matched"), out.get_attribute("data-total")) == (
            total,
            total,
        )
        assert gm.locator("#log-earlier a").count() == 0
