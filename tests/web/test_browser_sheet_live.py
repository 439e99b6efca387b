"""A sheet open in the browser follows a change made elsewhere at once, from its own endpoint,
morphed in: what its reader is typing, and a box they opened for editing, stay as they are."""

from __future__ import annotations

import pytest

from tests.web.test_browser_game_night import FASTTEST, base, open_sheet, run_session

pytestmark = pytest.mark.browser
__all__ = ["base"]  # the fixture, imported for this module's tests

HERO = "Brunhilda z Gór"
ONE_DIE = ".vitals div:has(dt:text-is('Experience dice')) dd:text-is('1')"
ON_THE_SHEET = "#section-experience .numbers div:has(dt:text-is('Experience dice')) dd:text-is('1')"


def give_an_experience_die(gm) -> None:
    card = gm.locator(".party-card", has_text=HERO)
    card.locator("button", has_text="+1 experience die").click()
    gm.wait_for_selector(f".party-card:has-text('{HERO}') {ONE_DIE}")


def test_a_change_made_elsewhere_shows_at_once_while_the_reader_keeps_typing(browser, base):
    gm = run_session(browser, base, FASTTEST, dashboard=True)
    ala = open_sheet(browser, base, "ala", FASTTEST, HERO)
    ala.fill("#id_wound_label", "cięcie w ramię")
    ala.focus("#id_wound_label")
    give_an_experience_die(gm)
    ala.wait_for_selector(ON_THE_SHEET)
    assert ala.input_value("#id_wound_label") == "cięcie w ramię"
    assert ala.evaluate("document.activeElement.id") == "id_wound_label"


def test_a_box_opened_for_editing_stays_open_with_what_was_typed_through_a_refresh(browser, base):
    gm = run_session(browser, base, FASTTEST, dashboard=True)
    ala = open_sheet(browser, base, "ala", FASTTEST, HERO)
    ala.click("#section-armor .edit-link")
    field = ala.locator("#section-armor.is-editing #id_armor")
    field.fill("7")
    ala.evaluate("document.activeElement.blur()")  # not even the focus keeps it
    give_an_experience_die(gm)
    ala.wait_for_selector(ON_THE_SHEET)
    assert ala.locator(".sheet-box.is-editing").count() == 1
    assert field.input_value() == "7"


def test_an_option_picked_and_not_yet_sent_stays_picked_through_a_refresh(browser, base):
    """CI once added a light wound where a heavy one was picked: the sheet's own save echoed
    back as a refresh, whose morph re-selected the list's first option (an untouched option
    the server marks as chosen) and so unpicked the one the reader had picked."""
    gm = run_session(browser, base, FASTTEST, dashboard=True)
    ala = open_sheet(browser, base, "ala", FASTTEST, HERO)
    ala.select_option("#id_wound_severity", "heavy")
    ala.evaluate("document.activeElement.blur()")
    give_an_experience_die(gm)
    ala.wait_for_selector(ON_THE_SHEET)
    assert ala.input_value("#id_wound_severity") == "heavy"
