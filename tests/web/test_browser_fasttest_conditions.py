"""Issue 15 for FastTest in real browsers (the GM and a player in separate contexts): a wound
test read "unconscious" shows on the player's sheet and on the GM's party card without a
reload. The demo table rolls fair dice, so the GM makes failure all but certain with twenty
penalty dice (a success would need all 21 d10s at or under the chance) and the round is played
again when a fight happens to leave a wound that is not tested for consciousness."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.browser import (
    FASTTEST,
    call_for,
    card_ids,
    demo_table,
    gm_at_table,
    new_open_card,
    open_sheet,
)

pytestmark = pytest.mark.browser

HERO = "Brunhilda z Gór"
UNCONSCIOUS = "unconscious (nieprzytomny)"
#: Rounds of fight and wound test before giving up: each ends unconscious with a chance of
#: about 0.78 (the fight's one d10 above 2, 0.8; its worst d6 of 21 a 6, "no, and…": a light
#: weapon's wound one step up to heavy; the wound test then fails), so eight miss 1 in 150,000.
ROUNDS = 8


def penalty_on(card, dice: int = 20) -> None:
    form = card.locator("form.add-dice")
    form.locator("input[name=amount]").fill(str(dice))
    form.locator("select[name=kind]").select_option("penalty")
    form.locator("input[name=source]").fill("ciemność")
    form.locator("button[type=submit]").click()


def penalty_dice_as_d6(card) -> None:
    """The GM's split (RULES.md's Decision): every penalty die a d6, so the fight's worst d6
    of 21 all but surely shows a 6 ("no, and…")."""
    form = card.locator("form:has(input[name=op][value=set_extra_d10])")
    form.locator("input[name=value]").fill("0")
    form.locator("button[type=submit]").click()


def roll_the_called_test(ala, version: int) -> None:
    """Roll the test the GM called once the GM's last change (``version``) is on the panel.

    The panel of the test rolled before shows its result and its own last version until the
    next call arrives: only a panel with no result yet is the new call's."""
    ala.wait_for_selector(
        f"#test-panel:not(:has(.rolled)) .pending-note:has-text('version {version}')"
    )
    ala.wait_for_selector("#test-panel .sources li:has-text('+20 penalty dice: ciemność')")
    ala.wait_for_selector("#test-panel .roll-button:not([disabled])")
    before = ala.locator("#roll-log .entry").count()
    ala.click("#test-panel .roll-button")
    ala.wait_for_function(
        "n => document.querySelectorAll('#roll-log .entry').length > n", arg=before
    )


def new_item(gm, before: list[str]) -> str:
    """The id of what the dashboard offers after a roll made since ``before`` was read."""
    found = gm.wait_for_function(
        """ids => { const item = Array.from(document.querySelectorAll('.after-item'))
            .find(item => !ids.includes(item.id)); return item ? item.id : false; }""",
        arg=before,
    )
    return found.json_value()


def test_a_wound_test_read_unconscious_shows_on_the_sheet_and_the_party_card_live(
    browser, tmp_path
):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, FASTTEST, dashboard=True)
        ala = open_sheet(browser, base, "ala", FASTTEST, HERO)
        for page in (gm, ala):
            page.context.set_default_timeout(10_000)
        card = gm.locator(".party-card", has=gm.locator("h3 a", has_text=HERO))
        for page in (gm, ala):
            page.evaluate("() => { window.notReloaded = true; }")
        for _round in range(ROUNDS):
            # A fight of UMYSŁ 4 + TECHNIKA −2 (chance 2) under 20 penalty dice, all d6.
            fight = call_for(gm, HERO, combat=True, attribute="UMYSŁ", skill="TECHNIKA")
            penalty_on(fight)
            fight.locator("input[name=op][value=set_extra_d10]").wait_for(state="attached")
            penalty_dice_as_d6(fight)
            offered = gm.eval_on_selector_all(".after-item", "items => items.map(item => item.id)")
            roll_the_called_test(ala, version=3)
            item = gm.locator(f"#{new_item(gm, offered)}")
            item.locator(".wound-form").wait_for()
            if "Tak" in item.locator(".after-outcome").inner_text():
                continue  # the one d10 came at or under 2: Brunhilda won this fight

            # The GM applies the wound of the enemy's light weapon ("no, and…": heavy).
            item.locator("select[name=enemy_weapon]").select_option("light")
            before = card_ids(gm)
            item.locator("button", has_text="Apply the wound").click()
            item.locator(".wound-form").wait_for(state="detached")

            # The wound test (Brunhilda wears armor: even a light wound is tested), made a failure.
            # Its versions: 1 the call, 2 the armor's bonus die (added as it is called), 3 the GM's
            # penalty dice. Waiting for 2 passed only while the page happened to show the
            # in-between state; a loaded CI machine went from 1 to 3 in one refresh.
            penalty_on(new_open_card(gm, before))
            roll_the_called_test(ala, version=3)
            state = card.locator(".card-conditions .condition", has_text=UNCONSCIOUS)
            try:
                state.wait_for(timeout=3000)  # it arrives live, if this round left it
                break
            except PlaywrightTimeout:
                continue
        else:
            pytest.fail("no wound test read “unconscious” in the rounds")

        # Neither page was reloaded: both followed the table's socket.
        assert all(page.evaluate("() => window.notReloaded === true") for page in (gm, ala))
        card.locator(".card-conditions .condition", has_text=UNCONSCIOUS).wait_for()
        ala.locator("#sheet-conditions .condition", has_text=UNCONSCIOUS).wait_for()
        ala.locator("#sheet-conditions button.roll-target", has_text="DUCH + SPRAWNOŚĆ").wait_for()
        for page in (gm, ala):
            page.locator("#roll-log .entry.condition", has_text=UNCONSCIOUS).wait_for()
