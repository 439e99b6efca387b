// A sheet open in this page refreshes itself from its own endpoint when the character changes
// elsewhere (hx-get and hx-trigger on sheets/_paper.html). What htmx cannot do alone is wait
// for the reader: while they type in the sheet or have a box open for editing, the refresh
// waits and is tried again, so nothing being typed is swapped away.
(function () {
  "use strict";
  const WAIT_MS = 2000;

  function busy(paper) {
    const active = document.activeElement;
    const typing = paper.contains(active) && ["INPUT", "SELECT", "TEXTAREA"].includes(active.tagName);
    return typing || !!paper.querySelector(".sheet-box.is-editing");
  }

  document.addEventListener("htmx:confirm", function (event) {
    const paper = event.detail.elt;
    if (!paper.matches || !paper.matches("[data-live-sheet]") || !busy(paper)) return;
    event.preventDefault();
    if (paper.dataset.liveWaiting) return; // one refresh waits, however many changes came
    paper.dataset.liveWaiting = "true";
    (function later() {
      setTimeout(function () {
        if (!document.body.contains(paper)) return; // swapped meanwhile: that copy is fresh
        if (busy(paper)) { later(); return; }
        delete paper.dataset.liveWaiting;
        event.detail.issueRequest(true);
      }, WAIT_MS);
    })();
  });
})();
