// The GM's dashboard keeps itself current through rolls/dashboard/live_parts.py (one refresher, parts
// morphed in). What is left here: one-handed on a phone, the NPC lists start folded (the
// hand, an NPC picked for a test), so the party and the tests being shaped come first.
(function () {
  "use strict";
  if (!document.querySelector("[data-dashboard]") || !window.matchMedia("(max-width: 700px)").matches) return;
  document.querySelectorAll("details.npc-hand, .npc-pick").forEach(function (d) { d.open = false; });
})();
