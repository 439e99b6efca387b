// What asks for the reader now, by a key that stays the same across refreshes ("call-12",
// "turn-3"): the [data-attention] cues, and a called test on the character whose panel is on
// the page, which the panel shows instead of a cue. attention.js marks the tab for it and
// access.js speaks it: one reading for both.
(function () {
  "use strict";
  if (window.tableAsking) return; // once per page, however often this script is included

  function asking() {
    const found = new Map();
    document.querySelectorAll("[data-attention]").forEach(function (el) { found.set(el.dataset.attention, el); });
    const pending = document.querySelector("#test-panel input[name=pending]");
    if (pending) found.set("call-" + pending.value, document.getElementById("test-panel-title"));
    return found;
  }

  // Its words, without the links and buttons that act on it.
  function said(el) {
    if (!el) return "";
    const copy = el.cloneNode(true);
    copy.querySelectorAll("a, button").forEach(function (part) { part.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  window.tableAsking = { asking: asking, said: said };
})();
