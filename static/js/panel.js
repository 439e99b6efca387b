// The test panel beside a sheet: a click on a stat opens (or adjusts) the panel, the server
// renders it with exact odds, htmx keeps it current as choices change. A pending test called
// by the GM arrives over the table's socket (table.js) and opens here with a visible cue.
(function () {
  "use strict";

  function panelElement() { return document.getElementById("test-panel"); }

  function load(url, cue) {
    htmx.ajax("GET", url, { target: "#test-panel", swap: "outerHTML" }).then(function () {
      const panel = panelElement();
      if (!panel) return;
      if (cue) panel.classList.add("arrived");
      panel.focus({ preventScroll: false });
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

  // In an open panel, a click on another stat ticks it (a trait, a skill) or switches to it.
  function adjustOpenPanel(target) {
    const form = panelElement().querySelector("form");
    if (!form) return false;
    let changed = false;
    Object.keys(target).forEach(function (key) {
      form.querySelectorAll('input[name="' + key + '"]').forEach(function (input) {
        if (input.value === String(target[key]) || input.dataset.name === String(target[key])) {
          input.checked = input.type === "checkbox" ? !input.checked : true;
          changed = true;
        }
      });
    });
    if (changed) form.dispatchEvent(new Event("change", { bubbles: true }));
    return changed;
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest(".roll-target");
    const panel = panelElement();
    if (!button || !panel) return;
    let target;
    try { target = JSON.parse(button.dataset.roll || "{}"); } catch (e) { return; }
    if (adjustOpenPanel(target)) { panel.focus(); return; }
    load(panel.dataset.panelUrl + "?" + queryOf(target).toString(), false);
  });

  // --- Rolling: one click is one roll, a lost request says so, the result gets the focus ---
  // A second click within this time of the first is the same double click, not a new roll.
  const DOUBLE_CLICK_MS = 500;
  let inFlight = false;
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
  // roll is in flight and until the double-click window has passed: a click it would swallow
  // never lands on a button that looks ready.
  function applyGuard() {
    const button = document.querySelector("#test-panel .roll-button");
    if (!button) return;
    const left = guardUntil - performance.now();
    if (inFlight || left > 0) {
      setBusy(button, true);
      clearTimeout(guardTimer);
      if (!inFlight) guardTimer = setTimeout(applyGuard, left + 5);
    } else if (button.hasAttribute("aria-busy")) {
      setBusy(button, false);
    }
  }

  // Capture phase: the click is swallowed before htmx sees it on the button.
  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("#test-panel .roll-button");
    if (!button) return;
    const now = performance.now();
    if (inFlight || now < guardUntil) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    guardUntil = now + DOUBLE_CLICK_MS;
  }, true);

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!isRollRequest(event)) return;
    inFlight = true;
    applyGuard();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!isRollRequest(event)) return;
    inFlight = false;
    applyGuard();
    if (refreshAfterRoll) {
      refreshAfterRoll = false;
      const form = document.querySelector("#test-panel form");
      if (form) htmx.trigger(form, "change");
    }
  });

  // A choice changed while a roll is in flight: its re-rendered panel must not replace the one
  // the roll will answer into (htmx would put the result into the detached old panel, off the
  // screen). The update waits, and is asked for again once the roll has landed.
  let refreshAfterRoll = false;
  document.addEventListener("htmx:beforeSwap", function (event) {
    const elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!inFlight || !elt || !elt.matches || !elt.matches("#test-panel form")) return;
    event.detail.shouldSwap = false;
    refreshAfterRoll = true;
  });
  document.addEventListener("htmx:afterSwap", applyGuard);

  // A panel update asked for before a roll can arrive after its result: it must not wipe the
  // result from the screen. An update that brings no result keeps the one shown.
  let shownResult = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    shownResult = null;
    if (isRollRequest(event) || !target || target.id !== "test-panel") return;
    const slot = document.getElementById("test-panel-rolled");
    if (slot && slot.firstElementChild) shownResult = Array.from(slot.childNodes);
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!shownResult) return;
    const slot = document.getElementById("test-panel-rolled");
    if (slot && !slot.firstElementChild) slot.replaceChildren.apply(slot, shownResult);
    shownResult = null;
  });

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

  // The GM called for (or changed) a test on this character: show it at once.
  document.addEventListener("table:pending", function (event) {
    const panel = panelElement();
    const detail = event.detail;
    if (!panel || String(detail.character) !== panel.dataset.character) return;
    if (detail.draft) return; // the player's own choices changed, not the test (the GM's card)
    if (detail.status !== "open") {
      load(panel.dataset.panelUrl, false);
      return;
    }
    load(panel.dataset.panelUrl + "?pending=" + detail.pending, true);
  });
})();
