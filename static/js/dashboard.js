// The GM's dashboard stays current through its parts' own endpoints (hx-get and hx-trigger on
// each part: a pending test changed or rolled, a roll landed, a sheet changed, the session).
// What is left here: NPC lists folded on a phone, and what the GM opened kept open.
(function () {
  "use strict";
  const root = document.querySelector("[data-dashboard]");
  if (!root) return;
  // One-handed on a phone: the NPC lists start folded (the hand, an NPC picked for a test).
  if (window.matchMedia("(max-width: 700px)").matches) {
    document.querySelectorAll("details.npc-hand, .npc-pick").forEach(function (d) { d.open = false; });
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
})();
