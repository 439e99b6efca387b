// The group test page: the section refreshes itself whenever another participant acts
// (table:group); what this reader has typed, ticked or opened in it (a half-filled re-roll)
// stays through that refresh (keep-typed.js).
(function () {
  "use strict";
  function section(target) { return target && target.id === "group-test" ? target : null; }
  window.keepTyped(section);
  window.keepOpened(section);
})();
