"""Fair dice in real browsers, over two evenings: the pages send their own nonce, the seed
reaches no page, frame or export before the session ends, and afterwards "Check the whole
session" finds every visible entry matching (quick rolls too, and the entries beyond the log's
first page), computed by the browser itself (Web Crypto); a check clicked as soon as it shows on
a slow connection is answered, and a face forged on the page is reported."""

from __future__ import annotations

import re

import pytest

from rolls.log.reading import PAGE_SIZE
from tests.web.browser import (
    FASTTEST,
    LIVE,
    demo_path,
    demo_table,
    entry,
    gm_at_table,
    open_sheet,
    roll_budowa,
    slow_network,
)
from tests.web.servers import app_env, manage

pytestmark = pytest.mark.browser
HEX64 = re.compile(r"\b[0-9a-f]{64}\b")

#: Run in a shell of the server's database: more real rolls than one page of the log shows.
MORE_THAN_A_PAGE = PAGE_SIZE + 3
ROLL_A_PAGE_AND_MORE = f"""
from campaigns.models import GameSession
from tests.web.live import roll
session = GameSession.objects.open().get(campaign__name={FASTTEST!r})
player = session.campaign.memberships.exclude(user=session.campaign.gm).first().user
for _ in range({MORE_THAN_A_PAGE}):
    roll(session, player)
"""


def listen(page, frames: list[str]) -> None:
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: frames.append(frame)))
    page.reload()  # from the first frame of a fresh socket
    page.wait_for_selector(LIVE)


def quick_roll(page, expression: str) -> None:
    page.fill("#quick-dice-expression", expression)
    page.click("#quick-dice button[type='submit']")
    page.wait_for_selector("#quick-dice .quick-rolled")


def checked_all(page) -> tuple[str | None, ...]:
    """Check the whole session on the page: how many entries matched, of how many, and whether
    the seed matched its commitment."""
    page.click("[data-fair-check-all]")
    out = page.locator("[data-fair-summary-out][data-total]")
    out.wait_for(timeout=30_000)
    return tuple(out.get_attribute(f"data-{name}") for name in ("matched", "total", "committed"))


def test_after_the_end_the_browser_checks_every_visible_entry_and_the_seed_never_showed_before(
    browser, tmp_path
):
    seen: list[str] = []  # every page, frame and export before the end
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, FASTTEST)
        session_url = gm.url
        ala = open_sheet(browser, base, "ala", FASTTEST, "Brunhilda z Gór")
        bartek = open_sheet(browser, base, "bartek", FASTTEST, "Zbyszko Cichy")
        for page in (gm, ala, bartek):
            listen(page, seen)
        roll_budowa(ala)
        roll_budowa(ala, visibility="secret")
        roll_budowa(bartek)
        dashboard = gm.context.new_page()
        dashboard.on("websocket", lambda ws: ws.on("framereceived", lambda f: seen.append(f)))
        dashboard.goto(f"{base}{demo_path(FASTTEST, page='dashboard/')}")
        dashboard.click(".npc-hand details summary >> nth=0")
        dashboard.click(".npc-hand details[open] button:has-text('Roll for the NPC')")
        for page in (gm, ala, bartek):
            entry(page, 4)
        # Quick rolls draw from the same fair stream, with the page's own nonce.
        quick_roll(ala, "4d6kh3+2")
        quick_roll(ala, "3d10!-d4")
        for page in (gm, ala, bartek):
            entry(page, 6)
        for page in (gm, ala, bartek, dashboard):
            seen.append(page.content())
        for page in (gm, ala, bartek):
            for fmt in ("json", "md", "csv"):
                seen.append(page.request.get(f"{session_url}log.{fmt}").text())
        # Every roll went out with a nonce of the page's own making.
        assert "nonce made by the server" not in gm.content()

        # A check clicked as soon as it shows on a slow connection is answered. (CI once
        # clicked "Check the dice" while fair-check.js was still on its way: the button was
        # there and did nothing. It shows only once the script that answers it has run.)
        gm.click("text=End the session")
        slow_network(gm, 800)
        gm.click("text=Yes, end the session")
        gm.click("[data-fair-check]")
        gm.wait_for_function(
            "() => document.querySelector('[data-fair-verdict]').textContent", timeout=10_000
        )
        assert "matches" in gm.inner_text("[data-fair-verdict]")
        slow_network(gm, 0)

        gm.wait_for_selector("[data-fair-check-all]")
        seed = gm.locator("[data-fair-seed-shown]").inner_text().strip()
        assert HEX64.fullmatch(seed)
        assert not [text for text in seen if seed in text]
        # A page open since before the end gets the published log live, check buttons included.
        ala.wait_for_selector("[data-fair-check-all]", timeout=10_000)

        for name, page, visible in (("gm", gm, 6), ("ala", ala, 5), ("bartek", bartek, 4)):
            page.goto(session_url)
            assert checked_all(page) == (str(visible), str(visible), "true"), name
            assert page.locator("[data-fair-result='mismatch']").count() == 0

        # What a log that lied about a die would look like: the first die shows another face.
        forged = gm.locator("li[data-nonce]").first
        verdict = forged.locator("[data-fair-verdict]")
        forged.evaluate(
            """li => {
                const drawn = JSON.parse(li.dataset.drawn);
                li.dataset.honest = li.dataset.drawn;
                drawn[0][1] = drawn[0][1] % drawn[0][0] + 1;
                li.dataset.drawn = JSON.stringify(drawn);
                li.querySelector("[data-fair-verdict]").textContent = "";
            }"""
        )
        forged.locator("[data-fair-check]").click()
        forged.locator("[data-fair-verdict]:not(:empty)").wait_for()
        assert "does NOT match" in verdict.inner_text()
        # A log that drew the die right but shows another face says so, in the page's words.
        forged.evaluate(
            """li => {
                li.dataset.drawn = li.dataset.honest;
                for (const die of li.querySelectorAll("li[data-sides]")) {
                    die.dataset.face = "99";
                }
                li.querySelector("[data-fair-verdict]").textContent = "";
            }"""
        )
        forged.locator("[data-fair-check]").click()
        forged.locator("[data-fair-verdict]:not(:empty)").wait_for()
        assert "drawn, but not shown in the entry" in verdict.inner_text()

        # The next evening: checking the whole session checks the entries beyond the log's
        # first page too.
        gm.goto(f"{base}{demo_path(FASTTEST)}")
        gm.click("text=Start a session")
        gm.wait_for_selector(LIVE)
        manage(app_env(DATABASE_URL=f"sqlite:///{tmp_path / 'table.sqlite3'}"), "shell", "-c",
               ROLL_A_PAGE_AND_MORE)  # fmt: skip
        gm.reload()
        gm.click("text=End the session")
        gm.click("text=Yes, end the session")
        gm.wait_for_selector("[data-fair-check-all]")
        assert gm.locator("#roll-log [data-entries] > li").count() == PAGE_SIZE
        total = str(MORE_THAN_A_PAGE)
        assert checked_all(gm)[:2] == (total, total)
        assert gm.locator("#log-earlier a").count() == 0
