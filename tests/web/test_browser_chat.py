"""The table's chat in real browsers: the GM on the dashboard and three players on their sheets.

A line arrives live in every log that may read it, a whisper only in its reader's and the GM's,
the box is usable by keyboard alone, "rolls only" hides the lines (live ones too) and a refused
line keeps what was typed, with the reason.
"""

from __future__ import annotations

import pytest

from tests.web.browser import demo_table, settled, start_session
from tests.web.test_browser_table import CAMPAIGN, open_sheet

pytestmark = pytest.mark.browser

LINES = "#roll-log [data-entries] > li[data-kind='chat']"


@pytest.fixture
def table(browser, tmp_path):
    """The GM's dashboard and the sheets of Ala, Bartek and Celina, every socket live."""
    with demo_table(tmp_path) as base:
        gm = start_session(browser, base, CAMPAIGN, dashboard=True)
        ala = open_sheet(browser, base, "ala", "Brunhilda z Gór")
        bartek = open_sheet(browser, base, "bartek", "Zbyszko Cichy")
        celina = open_sheet(browser, base, "celina", "Wiedźma Jaga")
        for page in (gm, ala, bartek, celina):
            # Gone if the page were loaded again: what arrives after, arrives live.
            page.evaluate("window.__notReloaded = true")
        yield gm, ala, bartek, celina


def line(page, text: str):
    """The chat line of the log holding ``text``, once it is in the page (shown or not)."""
    found = page.locator(LINES, has_text=text)
    found.wait_for(state="attached", timeout=30_000)
    return found


def say(page, text: str, to: str | None = None, speaker: str | None = None) -> None:
    """Write ``text`` in the box, to ``to`` (an option's label), as ``speaker``, and send it."""
    page.fill("#say-text", text)
    if to is not None:
        page.select_option("#say-to", label=to)
    if speaker is not None:
        page.select_option("#say-speaker", label=speaker)
    with page.expect_response(sent_line):
        page.click("#say button[type=submit]")
    settled(page)


def sent_line(response) -> bool:
    return response.request.method == "POST" and response.url.endswith("/chat/")


def not_reloaded(page) -> bool:
    return page.evaluate("window.__notReloaded === true")


def test_a_players_line_to_everyone_arrives_live_in_another_players_log_and_the_gms(table):
    gm, ala, bartek, _ = table
    say(ala, "Witajcie, drużyno!")
    assert "Sent (#" in ala.inner_text("#say .said")
    for page in (bartek, gm):
        shown = line(page, "Witajcie, drużyno!")
        assert shown.is_visible()
        assert shown.locator(".who").inner_text() == "ala"
        assert shown.locator(".chat-text").inner_text() == "Witajcie, drużyno!"
        assert shown.locator(".badge").count() == 0  # to everyone: no badge
        assert not_reloaded(page)


def test_a_whisper_reaches_its_reader_and_the_gm_live_and_never_a_third_player(table):
    gm, ala, bartek, celina = table
    say(ala, "Nie ufaj mu.", to="whisper to bartek")
    for page in (bartek, gm):
        whisper = line(page, "Nie ufaj mu.")
        assert "whisper to bartek" in whisper.locator(".badge").inner_text()
        assert not_reloaded(page)
    # A later line to everyone reaches Celina: the whisper, sent before it, never did.
    say(ala, "A teraz do wszystkich.", to="to everyone")
    line(celina, "A teraz do wszystkich.")
    assert not_reloaded(celina)
    assert "Nie ufaj mu." not in celina.content()
    assert celina.locator(LINES).count() == 1


def test_a_line_is_written_and_sent_by_keyboard_alone(table):
    _, ala, bartek, _ = table
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
    assert ala.locator(LINES).count() == 2
    assert "to the GM" in line(ala, "I drugi.").locator(".badge").inner_text()
    assert "Mam plan." not in bartek.content()


def test_rolls_only_hides_the_chat_lines_arriving_live_too_and_everything_shows_them(table):
    _, ala, bartek, _ = table
    say(ala, "Przed rzutem.")
    ala.fill("#quick-dice-expression", "2d6")
    ala.click("#quick-dice button[type=submit]")
    roll = bartek.locator("#roll-log [data-entries] > li[data-kind='quick']")
    roll.wait_for(timeout=30_000)
    before = line(bartek, "Przed rzutem.")
    assert before.is_visible()

    bartek.check("[data-log-rolls-only]")
    assert before.is_hidden()
    assert roll.is_visible()
    say(ala, "Po zaznaczeniu.")
    after = line(bartek, "Po zaznaczeniu.")
    assert after.is_hidden()
    assert roll.is_visible()

    bartek.check("input[name='log-shows'][value='all']")
    assert before.is_visible()
    assert after.is_visible()
    assert roll.is_visible()


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("x" * 401, "A line holds at most 400 characters"),
        ("Dzwonek\x07 w tekście", "control character"),
    ],
    ids=["too-long", "control-character"],
)
def test_a_refused_line_shows_the_reason_in_the_box_and_keeps_the_text(table, text, reason):
    _, ala, bartek, _ = table
    # Set as a script would (past the input's maxlength, a character no keyboard types).
    ala.evaluate("text => { document.getElementById('say-text').value = text; }", text)
    with ala.expect_response(sent_line) as sent:
        ala.click("#say button[type=submit]")
    assert sent.value.status == 422
    settled(ala)
    alert = ala.locator("#say [role=alert]")
    assert reason in alert.inner_text()
    assert ala.input_value("#say-text") == text
    assert ala.get_attribute("#say-text", "aria-invalid") == "true"
    assert ala.locator(LINES).count() == 0
    # Nothing was sent: a line to everyone after it is the first Bartek reads.
    say(ala, "Poprawione.")
    line(bartek, "Poprawione.")
    assert bartek.locator(LINES).count() == 1
