"""The table's chat in real browsers: the GM on the dashboard and three players on their sheets,
through one evening's talk.

A line arrives live in every log that may read it, a whisper only in its reader's and the GM's,
a line's roll in place ([[1d20+2]]) reaches another player with its result and shows its dice on
keyboard focus, the box is usable by keyboard alone (the up arrow brings back the last line),
"rolls only" hides the lines (live ones too), a refused
line keeps what was typed, with the reason, and a line the GM strikes shows struck in every open
log at once, with who and why.
"""

from __future__ import annotations

import pytest

from tests.web.browser import FASTTEST, demo_table, gm_at_table, open_sheet, settled

pytestmark = pytest.mark.browser

LINES = "#roll-log [data-entries] > li[data-kind='chat']"
EVERYONE = "to everyone"


def line(page, text: str):
    """The chat line of the log holding ``text``, once it is in the page (shown or not)."""
    found = page.locator(LINES, has_text=text)
    found.wait_for(state="attached", timeout=30_000)
    return found


def say(page, text: str, to: str | None = None) -> None:
    """Write ``text`` in the box, to ``to`` (an option's label), and send it."""
    page.fill("#say-text", text)
    if to is not None:
        page.select_option("#say-to", label=to)
    with page.expect_response(sent_line):
        page.click("#say button[type=submit]")
    settled(page)


def sent_line(response) -> bool:
    return response.request.method == "POST" and response.url.endswith("/chat/")


def not_reloaded(page) -> bool:
    return page.evaluate("window.__notReloaded === true")


def lines(page) -> int:
    return page.locator(LINES).count()


def test_an_evenings_talk_reaches_whom_it_may_and_the_gm_strikes_a_line(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, FASTTEST, dashboard=True)
        ala = open_sheet(browser, base, "ala", FASTTEST, "Brunhilda z Gór")
        bartek = open_sheet(browser, base, "bartek", FASTTEST, "Zbyszko Cichy")
        celina = open_sheet(browser, base, "celina", FASTTEST, "Wiedźma Jaga")
        for page in (gm, ala, bartek, celina):
            # Gone if the page were loaded again: what arrives after, arrives live.
            page.evaluate("window.__notReloaded = true")

        # A player's line to everyone arrives live in another player's log and the GM's.
        say(ala, "Witajcie, drużyno!")
        assert "Sent (#" in ala.inner_text("#say .said")
        for page in (bartek, gm):
            shown = line(page, "Witajcie, drużyno!")
            assert shown.is_visible()
            assert shown.locator(".who").inner_text() == "ala"
            assert shown.locator(".chat-text").inner_text() == "Witajcie, drużyno!"
            assert shown.locator(".badge").count() == 0  # to everyone: no badge
            assert not_reloaded(page)

        # A whisper reaches its reader and the GM live, and never a third player.
        say(ala, "Nie ufaj mu.", to="whisper to bartek")
        for page in (bartek, gm):
            whisper = line(page, "Nie ufaj mu.")
            assert "whisper to bartek" in whisper.locator(".badge").inner_text()
            assert not_reloaded(page)
        # A later line to everyone reaches Celina: the whisper, sent before it, never did.
        say(ala, "A teraz do wszystkich.", to=EVERYONE)
        line(celina, "A teraz do wszystkich.")
        assert not_reloaded(celina)
        assert "Nie ufaj mu." not in celina.content()
        assert lines(celina) == 2  # the two lines to everyone

        # A line with a roll in it reaches another player's log with the result in place; its
        # dice show on keyboard focus, and a whisper's roll never reaches a third player.
        say(ala, "Atakuję: [[1d20+2]]!")
        rolled = line(bartek, "Atakuję:").locator(".inline-roll")
        total = int(rolled.locator(".inline-total").inner_text())
        assert 3 <= total <= 22
        said = line(bartek, "Atakuję:").locator(".chat-text").inner_text()
        assert said.startswith(f"Atakuję: {total}")
        rolled.focus()
        tip = rolled.locator(".inline-dice")
        assert tip.bounding_box()["width"] > 50  # shown on focus, not the hidden 1 px
        assert f"1d20+2: {total - 2}" in tip.inner_text()
        say(ala, "/w bartek Tajny rzut [[d20]]")
        line(bartek, "Tajny rzut")
        say(ala, "Po tajnym rzucie.")
        line(celina, "Po tajnym rzucie.")
        assert "Tajny rzut" not in celina.content()
        assert lines(celina) == 4  # the two before, the roll's line and the one after

        # A line is written and sent by keyboard alone.
        before = lines(ala)
        ala.focus("#say-text")
        ala.keyboard.press("Tab")
        assert ala.evaluate("document.activeElement.id") == "say-to"
        ala.keyboard.press("ArrowDown")  # "to everyone" → "to the GM only"
        assert ala.input_value("#say-to") == "gm"
        ala.keyboard.press("Shift+Tab")
        assert ala.evaluate("document.activeElement.id") == "say-text"
        for text in ("Mam plan.", "I drugi."):
            ala.keyboard.type(text)
            with ala.expect_response(sent_line):
                ala.keyboard.press("Enter")
            settled(ala)
            line(ala, text)
            # The box is empty and ready for the next line, to the same people.
            assert ala.input_value("#say-text") == ""
            assert ala.evaluate("document.activeElement.id") == "say-text"
            assert ala.input_value("#say-to") == "gm"
        assert lines(ala) == before + 2
        # The up arrow in the empty box brings back the last line sent, to read or send again.
        ala.keyboard.press("ArrowUp")
        assert ala.input_value("#say-text") == "I drugi."
        ala.fill("#say-text", "")
        assert "to the GM" in line(ala, "I drugi.").locator(".badge").inner_text()
        assert "Mam plan." not in bartek.content()

        # "Rolls only" hides the chat lines, those arriving live too; "everything" shows them.
        say(ala, "Przed rzutem.", to=EVERYONE)
        ala.fill("#quick-dice-expression", "2d6")
        ala.click("#quick-dice button[type=submit]")
        roll = bartek.locator("#roll-log [data-entries] > li[data-kind='quick']")
        roll.wait_for(timeout=30_000)
        earlier = line(bartek, "Przed rzutem.")
        assert earlier.is_visible()
        bartek.check("[data-log-rolls-only]")
        assert earlier.is_hidden()
        assert roll.is_visible()
        say(ala, "Po zaznaczeniu.")
        after = line(bartek, "Po zaznaczeniu.")
        assert after.is_hidden()
        assert roll.is_visible()
        bartek.check("input[name='log-shows'][value='all']")
        assert earlier.is_visible()
        assert after.is_visible()
        assert roll.is_visible()

        # A refused line shows the reason in the box and keeps the text; nothing was sent.
        for text, reason in (
            ("x" * 401, "A line holds at most 400 characters"),
            ("Dzwonek\x07 w tekście", "control character"),
        ):
            said, heard = lines(ala), lines(bartek)
            # Set as a script would (past the input's maxlength, a character no keyboard types).
            ala.evaluate("text => { document.getElementById('say-text').value = text; }", text)
            with ala.expect_response(sent_line) as sent:
                ala.click("#say button[type=submit]")
            assert sent.value.status == 422
            settled(ala)
            alert = ala.locator("#say [role=alert]")
            assert reason in alert.inner_text()
            # What was typed stays, but the character the rule refuses (config/text.py).
            assert ala.input_value("#say-text") == text.replace("\x07", "")
            assert ala.get_attribute("#say-text", "aria-invalid") == "true"
            assert lines(ala) == said
            # A line to everyone after it is the next Bartek reads.
            say(ala, f"Poprawione: {reason}.")
            line(bartek, f"Poprawione: {reason}.")
            assert lines(bartek) == heard + 1

        # The GM strikes a line from the dashboard's box: every open log shows it struck at
        # once, with who and why, without a reload.
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
