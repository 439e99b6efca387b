"""A call nobody misses (issue 28, item 3), in real browsers: the GM on the dashboard calls tests on
Ala's Brunhilda while Ala's page is in the background. Her page's title counts the calls she has
not seen, a notification comes only once she opted in, and her sound switch is remembered: one
evening of Ala's, on her campaign page and then on Brunhilda's sheet.

A background tab is played by the page itself: ``document.hidden`` is made to answer what the
test says, and ``visibilitychange`` is sent as the browser would."""

from __future__ import annotations

import pytest

from tests.web.browser import FASTTEST, demo_path, demo_table, gm_at_table, log_in, settled, visit

pytestmark = pytest.mark.browser

HERO = "Brunhilda z Gór"
TITLE = "Królestwo Zarith (FastTest) · The Table"

BACKGROUND = """
(() => {
  let hidden = false;
  Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(Document.prototype, "visibilityState", {
    configurable: true, get: () => (hidden ? "hidden" : "visible") });
  window.__setHidden = (value) => {
    hidden = value;
    document.dispatchEvent(new Event("visibilitychange"));
  };
})();
"""

# The browser's notifications, allowed for the site: each one made, and each request, recorded.
NOTIFICATIONS = """
window.__notified = []; window.__asked = 0;
window.Notification = class {
  constructor(title, options) {
    window.__notified.push({ title: title, tag: options && options.tag });
  }
  close() {}
};
window.Notification.permission = "granted";
window.Notification.requestPermission = () => {
  window.__asked += 1;
  return Promise.resolve("granted");
};
"""

# WebAudio without a speaker: each beep started is counted.
AUDIO = """
window.__beeps = 0;
window.AudioContext = class {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  resume() {}
  createOscillator() {
    const start = () => { window.__beeps += 1; };
    return { frequency: {}, connect: (node) => node, start: start, stop() {} };
  }
  createGain() {
    const gain = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
    return { gain: gain, connect: (node) => node };
  }
};
"""


def reloaded(page):
    page.reload()
    page.wait_for_selector("#call-cues[data-connection-state='live']", state="attached")
    page.wait_for_function("() => window.attention !== undefined")
    return page


def call(gm, ala, attribute: str) -> str:
    """The GM calls a test of ``attribute`` on Brunhilda; Ala's cues have refreshed: the key of
    the call in her page."""
    card = gm.locator(".party-card", has_text=HERO)
    details = card.locator("details.call")
    if details.get_attribute("open") is None:
        card.locator("summary", has_text="Call for a test").click()
    card.locator("select[name=attribute]").select_option(attribute)
    with gm.expect_response(lambda r: r.request.method == "POST" and "/call" in r.url):
        card.locator("button", has_text="Call").click()
    settled(gm)
    cue = ala.locator(f"#call-cues .call-cue:has-text('{attribute}')")
    cue.wait_for()
    return cue.get_attribute("data-attention")


def hide(page, hidden: bool = True) -> None:
    page.evaluate("value => window.__setHidden(value)", hidden)


def title_is(page, title: str) -> None:
    page.wait_for_function("title => document.title === title", arg=title)


def test_the_title_counts_unseen_calls_and_a_notification_or_a_beep_comes_once_opted_in(
    browser, tmp_path
):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, FASTTEST, dashboard=True)
        ala = log_in(browser, base, "ala", path=demo_path(FASTTEST),
                     scripts=(BACKGROUND, NOTIFICATIONS, AUDIO))  # fmt: skip
        ala.wait_for_selector("#call-cues[data-connection-state='live']", state="attached")
        ala.wait_for_function("() => window.attention !== undefined")

        # The title counts the calls made while the page is away.
        assert ala.title() == TITLE
        # Not opted in: the switches are there, the sound off.
        assert ala.locator("[data-attention-controls]").is_visible()
        assert not ala.locator("[data-attention-sound]").is_checked()
        hide(ala)
        first = call(gm, ala, "ZRĘCZNOŚĆ")
        title_is(ala, f"(1) {TITLE}")
        second = call(gm, ala, "BUDOWA")  # the first is called off: this one is new
        assert first != second
        assert second.startswith("call-")
        title_is(ala, f"(2) {TITLE}")
        hide(ala, False)
        assert ala.title() == TITLE
        # The call that came while away pulses once the page is back.
        assert "attention-new" in ala.locator("#call-cues .call-cue").get_attribute("class")

        # A call already on the page when it loads is not new.
        reloaded(ala)
        assert ala.locator("#call-cues .call-cue").count() == 1
        hide(ala)
        # The GM shapes the test: Ala's cues refresh with the same call in them.
        add = gm.locator(".pending-card form.add-dice")
        add.locator("input[name=amount]").fill("2")
        add.locator("input[name=source]").fill("fog")
        with ala.expect_response(lambda r: "/calls/" in r.url):
            add.locator("button", has_text="Add").click()
        settled(ala)
        assert ala.title() == TITLE
        call(gm, ala, "ZRĘCZNOŚĆ")
        title_is(ala, f"(1) {TITLE}")
        hide(ala, False)

        # A notification comes only once the player opted in.
        button = ala.get_by_role("button", name="Notify me when the GM calls")
        assert button.get_attribute("aria-pressed") == "false"
        assert ala.evaluate("window.__asked") == 0  # never asked on load
        hide(ala)
        call(gm, ala, "BUDOWA")
        title_is(ala, f"(1) {TITLE}")
        assert ala.evaluate("window.__notified") == []
        hide(ala, False)
        button.focus()
        ala.keyboard.press("Enter")
        ala.wait_for_selector("[data-attention-notify][aria-pressed='true']")
        assert ala.evaluate("window.__asked") == 1
        assert ala.locator("[data-attention-state]").inner_text() == "Notifications are on."
        hide(ala)
        key = call(gm, ala, "ZRĘCZNOŚĆ")
        title_is(ala, f"(1) {TITLE}")
        notified = ala.evaluate("window.__notified")
        assert len(notified) == 1
        assert notified[0]["tag"] == key
        assert "The GM calls for a test: Brunhilda z Gór" in notified[0]["title"]
        assert "ZRĘCZNOŚĆ" in notified[0]["title"]
        assert "Go to the test" not in notified[0]["title"]
        # The choice is remembered; pressed again, it is off.
        reloaded(ala)
        assert button.get_attribute("aria-pressed") == "true"
        button.click()
        assert button.get_attribute("aria-pressed") == "false"
        assert ala.evaluate("window.__asked") == 0

        # The sound switch is off at first, beeps when on, and survives a reload.
        sound = ala.get_by_role("switch", name="Sound")
        assert not sound.is_checked()
        hide(ala)
        call(gm, ala, "BUDOWA")
        title_is(ala, f"(1) {TITLE}")
        assert ala.evaluate("window.__beeps") == 0  # muted
        hide(ala, False)
        sound.check()
        assert ala.evaluate("window.__beeps") == 1  # switched on: one beep to hear it
        reloaded(ala)
        assert sound.is_checked()
        hide(ala)
        call(gm, ala, "ZRĘCZNOŚĆ")
        title_is(ala, f"(1) {TITLE}")
        assert ala.evaluate("window.__beeps") == 1
        hide(ala, False)
        sound.uncheck()
        reloaded(ala)
        assert not sound.is_checked()

        # A call on the character whose sheet is open counts too.
        visit(ala, base, demo_path(FASTTEST, HERO))
        ala.wait_for_function("() => window.attention !== undefined")
        sheet_title = ala.title()
        hide(ala)
        card = gm.locator(".party-card", has_text=HERO)
        card.locator("select[name=attribute]").select_option("BUDOWA")
        card.locator("button", has_text="Call").click()
        # No cue above this sheet: the call is in its test panel, and that counts.
        ala.wait_for_selector("#test-panel .pending-note")
        ala.wait_for_function("() => document.title.startsWith('(1) ')")
        assert ala.title() == f"(1) {sheet_title}"
        assert ala.locator("#call-cues .call-cue").count() == 0
