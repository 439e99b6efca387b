// Played by ear and by keyboard (templates/rolls/_keys.html): the page's one polite live region,
// and the table's keyboard shortcuts. The region speaks three things, each once: a new entry of
// the log (by its seq; never the entries a (re)connect replays, nor a part a refresh morphs), a
// test the GM calls for on the reader's character, and the reader's turn (by the key of what
// asks for them, data-attention, that stays the same across refreshes).
(function () {
  "use strict";
  const region = document.querySelector("[data-announcer]");
  if (!region || window.tableVoice) return; // once per page, however often this is included

  function say(text) {
    if (!text) return;
    const line = document.createElement("p");
    line.textContent = text;
    region.append(line); // an addition, spoken once; the oldest go so the region stays short
    while (region.children.length > 3) region.firstElementChild.remove();
  }
  function words(el) { return el ? el.textContent.replace(/\s+/g, " ").trim() : ""; }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, name) { return values[name] || ""; });
  }

  // An entry in a sentence: who rolled what and the outcome; a line of chat as it was said.
  function sentence(li) {
    if (li.querySelector(".redacted")) return words(li.querySelector(".redacted"));
    const who = words(li.querySelector(".who"));
    const chat = li.querySelector(".chat-text");
    if (chat) return fill(region.dataset.saidLine, { who: who, text: words(chat) });
    const what = words(li.querySelector(".what")) || words(li.querySelector(".kind"));
    const outcome = words(li.querySelector(".outcome"));
    if (!outcome) return fill(region.dataset.saidLine, { who: who, text: what });
    return fill(region.dataset.saidRoll, { who: who, what: what, outcome: outcome });
  }

  let lastSeq = 0;
  document.querySelectorAll("[data-entries] > li[data-seq]").forEach(function (li) {
    lastSeq = Math.max(lastSeq, parseInt(li.dataset.seq, 10));
  });
  document.body.addEventListener("table:entry", function (event) {
    const message = event.detail;
    if (message.seq <= lastSeq) return;
    lastSeq = message.seq;
    if (message.replayed) return;
    const li = document.querySelector('[data-entries] > li[data-seq="' + message.seq + '"]');
    if (li) say(sentence(li));
  });

  // What asks for the reader (static/js/asking.js): a call's cue, a called test in the panel,
  // the turn bar's "Your turn!". There at load, it is not news.
  const asking = window.tableAsking.asking;
  const seen = new Set(asking().keys());
  function look() {
    asking().forEach(function (el, key) {
      if (seen.has(key)) return;
      seen.add(key);
      say(key.startsWith("turn-") ? region.dataset.saidTurn : window.tableAsking.said(el));
    });
  }
  document.addEventListener("htmx:afterSettle", look);

  // The shortcuts: a letter, not while the reader types in a field, nor with Ctrl, Alt or Meta.
  const dialog = document.querySelector("[data-keys]");
  // A box or a radio button takes no letters: a key pressed on one is a shortcut.
  const NO_TEXT = /^(checkbox|radio|button|submit|reset|range|color|file|image)$/;
  function typing(el) {
    if (!el) return false;
    if (el.tagName === "INPUT") return !NO_TEXT.test(el.type);
    return el.isContentEditable || /^(TEXTAREA|SELECT)$/.test(el.tagName);
  }
  function focus(el) {
    if (!el) return;
    if (!el.matches("a[href], button, input, select, textarea, [tabindex]")) el.setAttribute("tabindex", "-1");
    el.focus();
  }
  const keys = {
    "?": function () { dialog.showModal(); },
    p: function () { focus(document.getElementById("test-panel") || document.querySelector(".roll-target")); },
    s: function () { focus(document.querySelector(".roll-target")); },
    r: function () {
      const roll = document.querySelector("#test-panel .roll-button:not([disabled])");
      if (roll) roll.click();
    },
    c: function () { focus(document.getElementById("say-text")); },
    l: function () { focus(document.getElementById("roll-log")); },
    g: function () { if (dialog.dataset.dashboard) location.assign(dialog.dataset.dashboard); },
  };
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.altKey || event.metaKey || event.defaultPrevented) return;
    // Escape leaves a text field (not a list, whose Escape closes it), so the keys work again.
    if (event.key === "Escape" && !dialog.open && event.target.matches("input, textarea")) {
      event.target.blur();
      return;
    }
    if (dialog.open || typing(event.target) || !keys[event.key]) return;
    event.preventDefault();
    keys[event.key]();
  });
  document.querySelectorAll("[data-keys-open]").forEach(function (button) {
    button.addEventListener("click", function () { dialog.showModal(); });
  });
  window.tableVoice = { said: function () { return Array.from(region.children, words); } };
})();
