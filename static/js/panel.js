// The test panel beside a sheet: a click on a stat opens (or adjusts) the panel, the server
// renders it with exact odds, htmx keeps it current as choices change. A pending test called
// by the GM arrives over the table's socket (table.js) and opens here with a visible cue.
(function () {
  "use strict";
  const phone = window.matchMedia("(max-width: 700px)");
  function panelElement() { return document.getElementById("test-panel"); }
  // The panel's own choices: after a roll the result's follow-up forms (a re-roll) come first.
  function choicesForm(panel) { return panel ? panel.querySelector("form.panel-choices") : null; }
  // On a phone the panel sits below the sheet: bring its top (result, odds, Roll) on screen.
  function bringIntoView(panel) {
    if (phone.matches) panel.scrollIntoView({ block: "start" });
  }
  function load(url, cue) {
    htmx.ajax("GET", url, { target: "#test-panel", swap: "outerHTML" }).then(function () {
      const panel = panelElement();
      if (!panel) return;
      if (cue) panel.classList.add("arrived");
      panel.focus({ preventScroll: phone.matches });
      bringIntoView(panel);
    });
  }
  function queryOf(target) {
    const params = new URLSearchParams();
    Object.keys(target).forEach(function (key) {
      const value = target[key];
      (Array.isArray(value) ? value : [value]).forEach(function (v) { params.append(key, String(v)); });
    });
    return params;
  }
  function matching(form, key, value) {
    return Array.from(form.querySelectorAll('input[name="' + key + '"]')).filter(function (input) {
      return input.value === String(value) || input.dataset.name === String(value);
    });
  }
  // The inputs a click on a stat ticks in the open panel, or null when the click starts a new
  // test: after a roll, on a stat the GM fixed, or on a stat that would replace a choice made
  // (another attribute, another skill). Only filling an empty slot or toggling a box adds.
  function additions(form, panel, target) {
    if (panel.querySelector("#test-panel-rolled .rolled")) return null;
    const inputs = [];
    for (const key of Object.keys(target)) {
      if (!form.querySelector('input[name="' + key + '"]')) continue; // not a choice (a value)
      const found = matching(form, key, target[key]);
      if (!found.length) return null;
      for (const input of found) {
        if (input.disabled) return null;
        if (input.type === "radio") {
          const chosen = form.querySelector('input[name="' + key + '"]:checked');
          if (chosen && chosen !== input && chosen.value !== "") return null;
        }
        inputs.push(input);
      }
    }
    return inputs.length ? inputs : null;
  }
  document.addEventListener("click", function (event) {
    const button = event.target.closest(".roll-target");
    const panel = panelElement();
    if (!button || !panel) return;
    let target;
    try { target = JSON.parse(button.dataset.roll || "{}"); } catch (e) { return; }
    const form = choicesForm(panel);
    const inputs = form ? additions(form, panel, target) : null;
    if (inputs) {
      let changed = false;
      inputs.forEach(function (input) {
        if (input.type === "checkbox") { input.checked = !input.checked; changed = true; }
        else if (!input.checked) { input.checked = true; changed = true; }
      });
      if (changed) form.dispatchEvent(new Event("change", { bubbles: true }));
      panel.focus({ preventScroll: phone.matches });
      bringIntoView(panel);
      return;
    }
    if (form && form.querySelector('input[name="pending"]')) {
      // A test the GM called stays until it is rolled or called off.
      panel.focus({ preventScroll: phone.matches });
      bringIntoView(panel);
      return;
    }
    // A new test starts from that stat's defaults; only who sees it carries over.
    const query = queryOf(target);
    const visibility = form && form.querySelector('[name="visibility"]');
    if (visibility) query.set("visibility", visibility.value);
    load(panel.dataset.panelUrl + "?" + query.toString(), false);
  });

  // The panel is re-rendered whole after each change; whatever is being typed in it meanwhile
  // (a source after Tab, a number) is put back into the fresh field with its caret, and sent
  // on leaving the field if the server has not seen it yet.
  let typing = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    typing = null;
    const target = event.detail.target;
    const active = document.activeElement;
    if (!target || target.id !== "test-panel" || !active || !active.id || !target.contains(active)) return;
    if (!["INPUT", "TEXTAREA"].includes(active.tagName) || ["radio", "checkbox"].includes(active.type)) return;
    let start = null, end = null;
    try { start = active.selectionStart; end = active.selectionEnd; } catch (e) { /* number */ }
    typing = { id: active.id, value: active.value, start: start, end: end };
  });
  document.addEventListener("htmx:afterSwap", function () {
    const kept = typing;
    typing = null;
    if (!kept) return;
    const field = document.getElementById(kept.id);
    if (!field || field.value === kept.value) return;
    const rendered = field.value;
    field.value = kept.value;
    if (document.activeElement !== field) field.focus({ preventScroll: true });
    try { if (kept.start !== null) field.setSelectionRange(kept.start, kept.end); } catch (e) { /* number */ }
    let sent = false;
    field.addEventListener("change", function () { sent = true; }, { once: true });
    field.addEventListener("blur", function () {
      if (!sent && field.value !== rendered) field.dispatchEvent(new Event("change", { bubbles: true }));
    }, { once: true });
  });

  // A choice made while the panel's refresh is on its way (a second box ticked before the first
  // answer came back) is not lost: htmx queues its refresh on the form the first answer would
  // replace, and drops it once that form is gone. So an answer sent before the latest choice is
  // not swapped in; the queued refresh, which sends every choice made, brings the panel.
  let lastChoiceAt = 0;
  document.addEventListener("change", function (event) {
    if (event.target.closest && event.target.closest("#test-panel form.panel-choices")) {
      lastChoiceAt = event.timeStamp;
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    const detail = event.detail;
    const elt = detail.requestConfig && detail.requestConfig.elt;
    if (!detail.target || detail.target.id !== "test-panel" || !elt || !elt.matches) return;
    if (!elt.matches("form.panel-choices") || !detail.xhr.panelSentAt) return;
    if (lastChoiceAt > detail.xhr.panelSentAt) detail.shouldSwap = false;
  });

  // A button that re-renders the panel (moving a tested skill up or down) keeps the focus on
  // its fresh copy; where that copy is off (the first moved up) on the row's other button.
  document.addEventListener("htmx:afterSwap", function (event) {
    const config = event.detail.requestConfig;
    const key = config && config.elt && config.elt.dataset && config.elt.dataset.keepFocus;
    if (!key || !event.detail.target || event.detail.target.id !== "test-panel") return;
    const fresh = document.querySelector('#test-panel [data-keep-focus="' + CSS.escape(key) + '"]');
    if (!fresh) return;
    const focusable = fresh.disabled ? fresh.parentElement.querySelector("button:not([disabled])") : fresh;
    if (focusable) focusable.focus({ preventScroll: true });
  });

  // A roll's result stays on the panel until the player changes a choice after seeing it: a
  // refresh sent before the result arrived, or one because the sheet changed, leaves it. A
  // refresh answering while a roll is on its way (the change sent on leaving a field as Roll
  // is clicked) is not swapped in: it would replace the panel the roll's answer goes to. The
  // panel is refreshed once the roll has answered.
  let resultShownAt = 0;
  let keptResult = null;
  const rolling = new Set(); // the XHRs of rolls on their way
  let refreshAfterRoll = false;
  function isRoll(elt) { return !!(elt && elt.closest && elt.closest(".roll-button, .follow-up")); }
  // A refresh asked for while a request of the panel's choices is on its way (a change, an
  // earlier refresh) would be queued by htmx on the choices form, which that request's answer
  // replaces: htmx drops the queued request, and the panel keeps an answer read before what it
  // was told (an opposed test's turn before the settle). It is sent once that answer is in.
  const choosing = new Set(); // the XHRs sent from the panel's choices form
  let refreshAfterChoices = false;
  document.addEventListener("htmx:beforeRequest", function (event) {
    const elt = event.detail.elt;
    if (!elt || !elt.matches || !elt.matches("#test-panel form.panel-choices")) return;
    const xhr = event.detail.xhr;
    choosing.add(xhr);
    xhr.addEventListener("loadend", function () {
      choosing.delete(xhr);
      if (refreshAfterChoices && !choosing.size) { refreshAfterChoices = false; refreshPanel(); }
    });
  });
  function refreshPanel() {
    if (choosing.size) { refreshAfterChoices = true; return; }
    const panel = panelElement();
    const form = choicesForm(panel);
    if (!form) return;
    htmx.ajax("POST", panel.dataset.panelUrl, {
      source: form, target: "#test-panel", swap: "outerHTML", headers: { "X-Panel-Refresh": "1" },
    });
  }
  document.addEventListener("htmx:beforeSend", function (event) {
    event.detail.xhr.panelSentAt = performance.now();
  });
  // The panel never goes back in time: requests from different parts (a stat's click, a
  // change of the choices, the GM's call arriving, a refresh because the sheet changed) run
  // side by side, and an answer to one sent before the panel now shown was asked for is older
  // than what it shows (the GM's penalty dice would vanish behind the call's first version).
  // A roll's own answer is the roll's result and always goes in.
  let shownSentAt = 0;
  document.addEventListener("htmx:beforeSwap", function (event) {
    const detail = event.detail;
    if (!detail.target || detail.target.id !== "test-panel" || rolling.has(detail.xhr)) return;
    if (detail.xhr.panelSentAt !== undefined && detail.xhr.panelSentAt < shownSentAt) {
      detail.shouldSwap = false;
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    const detail = event.detail;
    if (!detail.target || detail.target.id !== "test-panel" || !detail.xhr) return;
    if (detail.xhr.panelSentAt > shownSentAt) shownSentAt = detail.xhr.panelSentAt;
  });
  // The one tracker of rolls in flight (a Roll, a follow-up): from the request until the XHR's
  // own loadend, which fires after htmx swapped the answer in, whatever the answer was.
  document.addEventListener("htmx:beforeRequest", function (event) {
    const xhr = event.detail.xhr;
    if (!isRoll(event.detail.elt)) return;
    rolling.add(xhr);
    applyGuard();
    xhr.addEventListener("loadend", function () {
      rolling.delete(xhr);
      applyGuard();
      const panel = panelElement();
      if (panel && panel.querySelector("#test-panel-rolled .rolled")) {
        resultShownAt = performance.now();
        bringIntoView(panel); // on a phone: the result, with the odds and Roll below it
      }
      if (refreshAfterRoll && !rolling.size) { refreshAfterRoll = false; refreshPanel(); }
    });
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    keptResult = null;
    const detail = event.detail;
    // (detail.elt is the target here; the XHR says whether this is a roll's own answer.)
    if (!detail.target || detail.target.id !== "test-panel" || rolling.has(detail.xhr)) return;
    if (rolling.size) { detail.shouldSwap = false; refreshAfterRoll = true; return; }
    const shown = document.querySelector("#test-panel-rolled");
    if (!shown || !shown.querySelector(".rolled")) return;
    const refresh = detail.requestConfig && detail.requestConfig.headers["X-Panel-Refresh"];
    if (refresh || detail.xhr.panelSentAt < resultShownAt) keptResult = shown;
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!keptResult) return;
    const fresh = document.querySelector("#test-panel-rolled");
    if (fresh && fresh !== keptResult) fresh.replaceWith(keptResult);
    keptResult = null;
  });

  // A fresh panel takes the old one's place on screen, and a result that had the focus keeps
  // it. A roll that changes the sheet (AST's FUNT, Caerbannog's Rozmach) refreshes the panel
  // once more: while old and new panel were both in the page, the browser's scroll anchoring
  // held on to what lies below them and jumped a panel's height down, off the result, and the
  // focus fell back to the page body.
  let steady = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    steady = null;
    const detail = event.detail;
    if (!detail.shouldSwap || !detail.target || detail.target.id !== "test-panel") return;
    const active = document.activeElement;
    steady = {
      top: detail.target.getBoundingClientRect().top,
      result: !!(active && active.closest && active.closest("#test-panel-rolled .rolled")),
    };
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    const kept = steady;
    steady = null;
    const panel = panelElement();
    const target = event.detail.target;
    if (!kept || !panel || !target || target.id !== "test-panel") return;
    window.scrollBy(0, panel.getBoundingClientRect().top - kept.top);
    const shown = panel.querySelector("#test-panel-rolled .rolled");
    if (kept.result && shown && document.activeElement === document.body) {
      shown.focus({ preventScroll: true });
    }
  });

  // On a phone what may follow a fresh result (a re-roll, heroic effort) is folded under its
  // summary, so the result, the odds and Roll are on one screen; a result kept through a
  // refresh keeps whatever the player opened.
  document.addEventListener("htmx:afterSwap", function () {
    document.querySelectorAll("#test-panel details.follow-ups:not([data-seen])").forEach(function (box) {
      box.dataset.seen = "true";
      if (phone.matches) box.open = false;
    });
  });

  // --- Rolling: one click is one roll, a lost request says so, the result gets the focus ---
  // A second click within this time of the first is the same double click, not a new roll.
  const DOUBLE_CLICK_MS = 500;
  let guardUntil = 0;
  let guardTimer = null;

  function isRollRequest(event) {
    const elt = event.detail && event.detail.requestConfig && event.detail.requestConfig.elt;
    return !!(elt && elt.classList && elt.classList.contains("roll-button"));
  }

  function setBusy(button, busy) {
    if (busy) {
      button.setAttribute("aria-busy", "true");
      button.disabled = true;
    } else {
      button.removeAttribute("aria-busy");
      button.disabled = button.dataset.notReady === "true";
    }
  }

  // Whichever Roll button the panel shows now (a re-render brings a new one) is busy while a
  // roll (or a follow-up) is in flight and until the double-click window has passed: a click it would swallow
  // never lands on a button that looks ready.
  function applyGuard() {
    const button = document.querySelector("#test-panel .roll-button");
    if (!button) return;
    const left = guardUntil - performance.now();
    if (rolling.size || left > 0) {
      setBusy(button, true);
      clearTimeout(guardTimer);
      if (!rolling.size) guardTimer = setTimeout(applyGuard, left + 5);
    } else if (button.hasAttribute("aria-busy")) {
      setBusy(button, false);
    }
  }

  // Capture phase: the click is swallowed before htmx sees it on the button.
  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("#test-panel .roll-button");
    if (!button) return;
    const now = performance.now();
    if (rolling.size || now < guardUntil) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    guardUntil = now + DOUBLE_CLICK_MS;
  }, true);

  document.addEventListener("htmx:afterSwap", applyGuard);

  // The roll did not go out (no connection) or got no answer: say so, and offer to send the
  // very same request again. Its idempotency key is unchanged (nothing was swapped), so a roll
  // that did reach the server is answered with that roll, never made twice.
  function rollNotSent(event) {
    if (!isRollRequest(event)) return;
    const slot = document.getElementById("test-panel-refusal");
    const template = document.getElementById("roll-not-sent");
    if (!slot || !template) return;
    slot.replaceChildren(template.content.cloneNode(true));
    const again = slot.querySelector("[data-roll-again]");
    if (again) again.focus();
  }
  document.addEventListener("htmx:sendError", rollNotSent);
  document.addEventListener("htmx:timeout", rollNotSent);
  document.addEventListener("htmx:responseError", rollNotSent);
  document.addEventListener("click", function (event) {
    const again = event.target.closest && event.target.closest("#test-panel [data-roll-again]");
    if (!again) return;
    const button = document.querySelector("#test-panel .roll-button");
    if (button && !button.disabled) button.click();
  });

  // After a roll the result (or the reason it was refused) takes the focus, not the page body.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!isRollRequest(event) || !event.detail.successful) return;
    const target = document.querySelector("#test-panel-refusal [role=alert]") ||
      document.querySelector("#test-panel .rolled");
    if (target) target.focus({ preventScroll: false });
  });

  // A test the GM called before this page opened is shown at once.
  const initial = panelElement();
  if (initial && initial.dataset.pending) {
    load(initial.dataset.panelUrl + "?pending=" + initial.dataset.pending, true);
  }

  // A session started or ended: the panel again with the same choices (Roll opens or closes).
  document.addEventListener("table:session", function () {
    const form = choicesForm(panelElement());
    if (form) htmx.trigger(form, "change");
  });

  // The GM called for (or changed) a test on this character: show it at once.
  document.addEventListener("table:pending", function (event) {
    const panel = panelElement();
    const detail = event.detail;
    if (!panel || String(detail.character) !== panel.dataset.character) return;
    if (detail.draft) return; // the player's own choices changed, not the test (the GM's card)
    if (detail.status === "cancelled") {
      // Called off: the panel says so (and keeps the stat, as a free test).
      load(panel.dataset.panelUrl + "?called_off=" + detail.pending, true);
      return;
    }
    if (detail.status !== "open") {
      // Rolled here: the panel shows its result (the roll's own answer), which stays.
      if (panel.querySelector("#test-panel-rolled .rolled")) refreshPanel();
      else load(panel.dataset.panelUrl, false);
      return;
    }
    load(panel.dataset.panelUrl + "?pending=" + detail.pending, true);
  });

  // Where this character's panel is, the panel itself shows the GM's call: its cue is not
  // repeated above the page (rolls/_call_cue.html).
  document.addEventListener("htmx:afterSwap", function (event) {
    const cues = event.detail.target;
    const panel = panelElement();
    if (!cues || cues.id !== "call-cues" || !panel) return;
    cues.querySelectorAll('.call-cue[data-character="' + panel.dataset.character + '"]')
      .forEach(function (cue) { cue.hidden = true; });
  });

  // An entry that follows the result shown, made by someone else (the GM reading another
  // white die of a hindered AST test), takes its place there, live: the result is where the
  // test stands now, and what was offered after the old entry can no longer be done.
  document.addEventListener("table:entry", function (event) {
    const shown = document.querySelector("#test-panel-rolled .rolled");
    const message = event.detail;
    if (!shown || !message || !message.html) return;
    const current = shown.querySelector(".entries > li[data-seq]");
    const template = document.createElement("template");
    template.innerHTML = message.html.trim();
    const next = template.content.firstElementChild;
    if (!current || !next || !next.dataset.parentSeq) return;
    // A note that follows it (a condition the roll ended) is the log's; the result stays.
    if (next.classList.contains("note-entry")) return;
    if (next.dataset.parentSeq !== current.dataset.seq) return;
    if (next.dataset.session !== current.dataset.session) return;
    current.replaceWith(next);
    shown.querySelectorAll(".follow-ups, form.follow-up").forEach(function (form) { form.remove(); });
  });

  // The character changed (the GM gave an experience die, a roll spent FUNT): the panel's
  // numbers follow, with the choices kept and the last result left where it is.
  let refreshTimer = null;
  document.addEventListener("table:sheet", function (event) {
    const panel = panelElement();
    if (!panel || String(event.detail.character) !== panel.dataset.character) return;
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(function () {
      refreshPanel();
    }, 200);
  });
})();
