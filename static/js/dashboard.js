// The GM's dashboard stays current: a pending test changed or rolled, a roll landed, a sheet
// changed -> fetch the affected part again (server-rendered, so the page never guesses).
(function () {
  "use strict";
  const root = document.querySelector("[data-dashboard]");
  if (!root) return;
  const timers = {};
  // One-handed on a phone: the NPC lists start folded (the hand, an NPC picked for a test).
  if (window.matchMedia("(max-width: 700px)").matches) {
    document.querySelectorAll("details.npc-hand, .npc-pick").forEach(function (d) { d.open = false; });
  }

  function refresh(name, url, selector) {
    clearTimeout(timers[name]);
    timers[name] = setTimeout(function () {
      // Keep whatever the GM is typing: skip a refresh while focus is inside that part.
      const part = document.querySelector(selector);
      if (part && part.contains(document.activeElement) && document.activeElement.tagName !== "BUTTON") return;
      htmx.ajax("GET", url, { target: selector, swap: "outerHTML" });
    }, 150);
  }

  // A refresh must not fold up what the GM has opened (an NPC's traits, a call form).
  // Two parts may be refreshed at once (the party and the tests being shaped): what each had
  // open is remembered until its own fresh copy is in.
  let opened = [];
  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    if (!target || !root.contains(target)) return;
    target.querySelectorAll("details[id][open]").forEach(function (d) { opened.push(d); });
  });
  document.addEventListener("htmx:afterSettle", function () {
    opened = opened.filter(function (old) {
      const fresh = document.getElementById(old.id);
      if (fresh === old) return true; // its part is not swapped yet
      if (fresh) fresh.open = true;
      return false;
    });
  });
  document.addEventListener("table:pending", function () {
    refresh("pending", root.dataset.pendingUrl, "#pending-tests");
  });
  document.addEventListener("table:entry", function () {
    refresh("party", root.dataset.partyUrl, "#party");
  });
  document.addEventListener("table:sheet", function () {
    refresh("party", root.dataset.partyUrl, "#party");
    // A pending test's odds are built from the sheet too.
    refresh("pending", root.dataset.pendingUrl, "#pending-tests");
  });
})();
