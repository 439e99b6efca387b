// The GM's dashboard stays current: a pending test changed or rolled, a roll landed, a sheet
// changed -> fetch the affected part again (server-rendered, so the page never guesses).
(function () {
  "use strict";
  const root = document.querySelector("[data-dashboard]");
  if (!root) return;
  const timers = {};

  function refresh(name, url, selector) {
    clearTimeout(timers[name]);
    timers[name] = setTimeout(function () {
      // Keep whatever the GM is typing: skip a refresh while focus is inside that part.
      const part = document.querySelector(selector);
      if (part && part.contains(document.activeElement) && document.activeElement.tagName !== "BUTTON") return;
      htmx.ajax("GET", url, { target: selector, swap: "outerHTML" });
    }, 150);
  }

  document.addEventListener("table:pending", function () {
    refresh("pending", root.dataset.pendingUrl, "#pending-tests");
  });
  document.addEventListener("table:entry", function () {
    refresh("party", root.dataset.partyUrl, "#party");
  });
  document.addEventListener("table:sheet", function () {
    refresh("party", root.dataset.partyUrl, "#party");
  });
})();
