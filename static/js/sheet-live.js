// A sheet open in this page changed elsewhere (the GM's award, a roll's Rozmach, another tab):
// fetch the page again and swap the sheet in, unless the reader is typing in it right now.
(function () {
  "use strict";
  const paper = document.querySelector("[data-live-sheet]");
  if (!paper) return;
  let timer = null;

  function busy() {
    const current = document.querySelector("[data-live-sheet]");
    const typing = current.contains(document.activeElement) &&
      ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName);
    return typing || current.querySelector(".sheet-box.is-editing");
  }

  function refresh() {
    if (busy()) { timer = setTimeout(refresh, 2000); return; }
    // The sheet's own page: the table page shows the same sheet beside the log.
    fetch(paper.dataset.liveUrl || location.pathname, { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response); })
      .then(function (html) {
        const doc = new DOMParser().parseFromString(html, "text/html");
        const fresh = doc.querySelector("[data-live-sheet]");
        const current = document.querySelector("[data-live-sheet]");
        if (fresh && current && !busy()) {
          current.replaceWith(fresh);
          htmx.process(fresh);
        }
      })
      .catch(function () { /* the next change tries again */ });
  }

  document.addEventListener("table:sheet", function (event) {
    if (String(event.detail.character) !== paper.dataset.liveSheet) return;
    clearTimeout(timer);
    timer = setTimeout(refresh, 300);
  });
})();
