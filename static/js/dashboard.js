// The GM's dashboard stays current through its parts' own endpoints (hx-get and hx-trigger on
// each part: a pending test changed or rolled, a roll landed, a sheet changed, the session).
// What is left here: NPC lists folded on a phone, what the GM opened kept open, and what the GM
// is typing or was refused kept through a refresh (the first two through keep-typed.js).
(function () {
  "use strict";
  const root = document.querySelector("[data-dashboard]");
  if (!root) return;
  // One-handed on a phone: the NPC lists start folded (the hand, an NPC picked for a test).
  if (window.matchMedia("(max-width: 700px)").matches) {
    document.querySelectorAll("details.npc-hand, .npc-pick").forEach(function (d) { d.open = false; });
  }

  // A part that refreshes itself from its own endpoint (hx-get, triggered by the table's
  // events), or null.
  function partOf(target) {
    return target && target.id && root.contains(target) && target.hasAttribute("hx-get") ? target : null;
  }
  function isGet(detail) { return !!(detail.requestConfig && detail.requestConfig.verb === "get"); }

  // The GM's own change answered with the card already: that version needs no second fetch
  // (hx-trigger of #pending-tests asks this).
  window.dashboardShows = function (detail) {
    const shown = detail && document.getElementById("pending-" + detail.pending);
    return !!(shown && !detail.draft && detail.status === "open" && !shown.classList.contains("rolled") &&
      shown.dataset.revision === String(detail.revision));
  };

  // A refresh answering while a change of the GM's is on its way into the same part is not
  // swapped in (the change's answer, maybe a refusal, goes there); the part is fetched again
  // once the change has answered.
  const writing = {};
  const waiting = {};
  // The part is remembered on the request: by the time it answers, its old copy has been
  // swapped out of the page.
  document.addEventListener("htmx:beforeRequest", function (event) {
    const detail = event.detail;
    if (isGet(detail) || !partOf(detail.target)) return;
    detail.xhr.dashboardPart = detail.target.id;
    writing[detail.target.id] = (writing[detail.target.id] || 0) + 1;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    const id = event.detail.xhr && event.detail.xhr.dashboardPart;
    if (!id) return;
    event.detail.xhr.dashboardPart = null;
    writing[id] -= 1;
    const part = document.getElementById(id);
    if (writing[id] || !waiting[id] || !part) return;
    waiting[id] = false;
    htmx.ajax("GET", part.getAttribute("hx-get"), { target: "#" + id, swap: "outerHTML" });
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    const detail = event.detail;
    const part = partOf(detail.target);
    if (!part || !isGet(detail) || !writing[part.id]) return;
    detail.shouldSwap = false;
    waiting[part.id] = true;
  });

  // An event that arrives while a part's refresh is on its way is not lost: htmx queues the
  // second refresh on the part's element, which the first one's answer replaces (outerHTML),
  // and a queued request of a removed element is dropped. So the part is fetched once more
  // after that answer.
  const fetching = {};
  const missed = {};
  document.addEventListener("htmx:beforeRequest", function (event) {
    const detail = event.detail;
    if (!isGet(detail) || !partOf(detail.target)) return;
    detail.xhr.dashboardRefresh = detail.target.id;
    fetching[detail.target.id] = (fetching[detail.target.id] || 0) + 1;
  });
  ["table:pending", "table:sheet", "table:session", "table:entry", "table:scene", "table:group"]
    .forEach(function (name) {
      document.body.addEventListener(name, function () {
        Object.keys(fetching).forEach(function (id) { if (fetching[id]) missed[id] = true; });
      });
    });
  document.addEventListener("htmx:afterRequest", function (event) {
    const id = event.detail.xhr && event.detail.xhr.dashboardRefresh;
    if (!id) return;
    event.detail.xhr.dashboardRefresh = null;
    fetching[id] -= 1;
    const part = document.getElementById(id);
    if (fetching[id] || !missed[id] || !part) return;
    missed[id] = false;
    setTimeout(function () {
      const fresh = document.getElementById(id);
      if (fresh) htmx.ajax("GET", fresh.getAttribute("hx-get"), { target: "#" + id, swap: "outerHTML" });
    }, 150);
  });

  // What the GM has typed or picked and not sent yet stays through a refresh (keep-typed.js).
  window.keepTyped(partOf);

  // A refusal on a card (an impossible difficulty, with the value the GM typed) stays through
  // a refresh of the tests: the refresh shows the server's state, which never held the refused
  // value, and the GM has not acted on the card since.
  let refusals = [];
  document.addEventListener("htmx:beforeSwap", function (event) {
    const detail = event.detail;
    if (!detail.shouldSwap || !detail.target || detail.target.id !== "pending-tests" || !isGet(detail)) return;
    refusals = Array.from(detail.target.querySelectorAll(".pending-card .card-refusal")).map(function (note) {
      const card = note.closest(".pending-card");
      const field = card.querySelector("[aria-invalid=true]");
      return { card: card.id, note: note, field: field && field.id, value: field && field.value };
    });
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!refusals.length || !event.detail.target || event.detail.target.id !== "pending-tests") return;
    refusals.forEach(function (kept) {
      const card = document.getElementById(kept.card);
      if (!card || card.classList.contains("rolled") || card.querySelector(".card-refusal")) return;
      card.querySelector("header").after(kept.note);
      const field = kept.field && document.getElementById(kept.field);
      if (!field) return;
      field.value = kept.value;
      field.setAttribute("aria-invalid", "true");
      field.setAttribute("aria-describedby", kept.note.id);
    });
    refusals = [];
  });

  // A refresh must not fold up what the GM has opened (an NPC's traits, a call form).
  window.keepOpened(function (target) { return root.contains(target); });
})();
