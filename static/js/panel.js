// The test panel beside a sheet: a click on a stat opens (or adjusts) the panel, the server
// renders it with exact odds. Every request of the panel waits for the one before it
// (hx-sync="this:queue all" on #test-panel), answers are morphed in, and what the panel shows
// (a call that arrived, a result and what followed it) is rendered by the server
// (rolls/panels/views.py, _refreshed): no answer here is ever judged stale by hand.
(function () {
  "use strict";
  const phone = window.matchMedia("(max-width: 700px)");
  function panelElement() { return document.getElementById("test-panel"); }
  function choicesForm(panel) { return panel ? panel.querySelector("form.panel-choices") : null; }
  function character() { const panel = panelElement(); return panel ? panel.dataset.character : null; }
  // On a phone the panel sits below the sheet: bring its top (result, odds, Roll) on screen.
  function bringIntoView(panel) {
    panel.focus({ preventScroll: phone.matches });
    if (phone.matches) panel.scrollIntoView({ block: "start" });
  }

  // --- Which table event refreshes the panel (the dashboard's map: rolls/dashboard/live_parts.py) ---
  const REFRESHES = {
    "table:pending": function (d) {
      // Not the GM's card following this player's own choices (draft).
      return !d.draft && (String(d.character) === character() || String(d.other_character) === character());
    },
    "table:sheet": function (d) { return String(d.character) === character(); },
    "table:session": function () { return true; },
    // Whose turn it is and which round decide whether a reaction is offered (Caerbannog); a
    // new scene ends the fight, and what may follow a result of the scene before.
    "table:turn": function () { return true; },
    "table:scene": function () { return true; },
    "table:reconnect": function () { return true; },
    // An entry that follows the result shown (the GM read another white die of it, the options
    // after it were picked, the GM's counter-move), unless the panel shows it already (the
    // reader's own pick: its answer brought it).
    "table:entry": function (d) {
      const shown = document.querySelector("#test-panel-rolled .entries > li[data-seq]");
      if (document.querySelector('#test-panel [data-entry-seq="' + d.seq + '"]')) return false;
      return !!(shown && d.html && d.html.indexOf('data-parent-seq="' + shown.dataset.seq + '"') >= 0);
    },
  };
  function refresh() {
    const form = choicesForm(panelElement());
    const source = form || panelElement();
    if (!source) return;
    // The refresh only reads; the GM's read-only view, which refuses every POST, asks by GET.
    const method = document.querySelector("[data-view-as]") ? "GET" : "POST";
    htmx.ajax(method, panelElement().dataset.panelUrl, {
      source: source, target: "#test-panel", swap: "morph", headers: { "X-Panel-Refresh": "1" },
    }).catch(function () { /* said on the panel (live.js); the next event refreshes again */ });
  }
  // A call that arrives (or replaces the one shown) takes the focus, and on a phone the screen.
  function calledId() {
    const input = document.querySelector('#test-panel form.panel-choices input[name="pending"]');
    return input ? input.value : null;
  }
  let called = calledId();
  // A call already there when the page opens (rendered with it) takes them as well.
  if (called) bringIntoView(panelElement());
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!event.detail.target || event.detail.target.id !== "test-panel") return;
    const now = calledId();
    if (now && now !== called) bringIntoView(panelElement());
    called = now;
  });
  Object.keys(REFRESHES).forEach(function (name) {
    document.body.addEventListener(name, function (event) {
      if (panelElement() && REFRESHES[name](event.detail || {})) refresh();
    });
  });

  // --- A click on a stat ---
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
      inputs.forEach(function (input) { input.checked = input.type === "checkbox" ? !input.checked : true; });
      form.dispatchEvent(new Event("change", { bubbles: true }));
      bringIntoView(panel);
      return;
    }
    // A test the GM called stays until it is rolled or called off.
    if (form && form.querySelector('input[name="pending"]')) { bringIntoView(panel); return; }
    // A new test starts from that stat's defaults; only who sees it carries over.
    const query = new URLSearchParams();
    Object.keys(target).forEach(function (key) {
      [].concat(target[key]).forEach(function (v) { query.append(key, String(v)); });
    });
    const visibility = form && form.querySelector('[name="visibility"]');
    if (visibility) query.set("visibility", visibility.value);
    htmx.ajax("GET", panel.dataset.panelUrl + "?" + query.toString(), {
      source: panel, target: "#test-panel", swap: "morph",
    }).then(function () { bringIntoView(panelElement()); }, function () {
      window.sayNotSent(button, function () { button.click(); }); // at the stat clicked (live.js)
    });
  });

  // A button that moves a tested skill up or down keeps the focus on its fresh copy; where
  // that copy is off (the first moved up) on the row's other button. (Read as it is sent: the
  // morph gives the button that was clicked another row's attributes.)
  let keepFocus = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    const key = event.detail.elt.dataset && event.detail.elt.dataset.keepFocus;
    if (key) keepFocus = key;
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!event.detail.target || event.detail.target.id !== "test-panel") return;
    const key = keepFocus;
    keepFocus = null;
    const fresh = key && document.querySelector('#test-panel [data-keep-focus="' + CSS.escape(key) + '"]');
    const focusable = fresh && (fresh.disabled ? fresh.parentElement.querySelector("button:not([disabled])") : fresh);
    if (focusable) focusable.focus({ preventScroll: true });
  });

  // On a phone what may follow a fresh result (a re-roll, heroic effort) is folded under its
  // summary, so the result, the odds and Roll are on one screen.
  document.addEventListener("htmx:afterSettle", function () {
    document.querySelectorAll("#test-panel details.follow-ups:not([data-seen])").forEach(function (box) {
      box.dataset.seen = "true";
      if (phone.matches) box.open = false;
    });
  });

  // --- Rolling: one click is one roll, a lost request says so, the result gets the focus ---
  // A second click within this time of the first is the same double click, not a new roll;
  // while a roll is on its way (or waits its turn behind a change), clicks are swallowed.
  const DOUBLE_CLICK_MS = 500;
  let guardUntil = 0;
  let rolling = 0;
  function isRoll(elt) { return !!(elt && elt.closest && elt.closest("#test-panel .roll-button, #test-panel .follow-up")); }
  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("#test-panel .roll-button");
    if (!button) return;
    const now = performance.now();
    if (rolling || now < guardUntil) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    guardUntil = now + DOUBLE_CLICK_MS;
  }, true);
  // Whichever Roll button the panel shows is busy while a roll is in flight and until the
  // double-click window has passed: a click it would swallow never lands on a ready button.
  function applyGuard() {
    const button = document.querySelector("#test-panel .roll-button");
    if (!button) return;
    const left = guardUntil - performance.now();
    if (rolling || left > 0) {
      button.setAttribute("aria-busy", "true");
      button.disabled = true;
      if (!rolling) setTimeout(applyGuard, left + 5);
    } else if (button.hasAttribute("aria-busy")) {
      button.removeAttribute("aria-busy");
      button.disabled = button.dataset.notReady === "true";
    }
  }
  // Counted by request, not by element: a follow-up's form is gone from the panel its answer
  // morphed in, so by the time the request ends its element is no longer in the panel.
  const rolls = new WeakSet();
  const inFlight = new WeakSet();
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!isRoll(event.detail.elt)) return applyGuard();
    rolls.add(event.detail.xhr);
    inFlight.add(event.detail.xhr);
    rolling += 1;
    applyGuard();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (inFlight.delete(event.detail.xhr)) rolling -= 1;
    applyGuard();
  });
  document.addEventListener("htmx:afterSwap", applyGuard);

  // After a pick from the options under a result, what was picked (or why not) takes the focus:
  // the form that had it is gone from the panel its answer morphed in.
  const picks = new WeakSet();
  document.addEventListener("htmx:beforeRequest", function (event) {
    const elt = event.detail.elt;
    if (elt && elt.closest && elt.closest("#test-panel .roll-menu-form")) picks.add(event.detail.xhr);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!picks.has(event.detail.xhr)) return;
    const menu = document.getElementById("roll-menu");
    const target = (menu && menu.querySelector("[role=alert]")) || menu;
    if (target) target.focus({ preventScroll: false });
  });

  // After a roll the result (or the reason it was refused) takes the focus, not the page body.
  // On a phone it goes to the top of the screen, the odds and Roll below it: from the panel's
  // top, its heading pushed Roll off a 740-pixel screen when the result ran a line longer (an
  // AST roll read on the black die, one in six).
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!rolls.has(event.detail.xhr) || !event.detail.successful) return;
    const target = document.querySelector("#test-panel-refusal [role=alert]") ||
      document.querySelector("#test-panel .rolled");
    if (target) target.focus({ preventScroll: false });
    const shown = target || panelElement();
    if (shown && phone.matches) shown.scrollIntoView({ block: "start" });
  });
})();
