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

  // The parts a refresh fetches again, by their selector.
  const parts = {
    "#pending-tests": { name: "pending", url: root.dataset.pendingUrl, waiting: false },
    "#party": { name: "party", url: root.dataset.partyUrl, waiting: false },
  };
  function refresh(name, url, selector) {
    clearTimeout(timers[name]);
    timers[name] = setTimeout(function () {
      htmx.ajax("GET", url, { target: selector, swap: "outerHTML" });
    }, 150);
  }
  // The GM's own changes on their way, by the part they answer into: a refresh answering
  // meanwhile would replace the part the change's answer (maybe a refusal) is meant for.
  const writing = {};
  function isWrite(event) {
    const config = event.detail.requestConfig;
    const target = event.detail.target;
    return !!(config && config.verb !== "get" && target && parts["#" + target.id]);
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (isWrite(event)) writing[event.detail.target.id] = (writing[event.detail.target.id] || 0) + 1;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!isWrite(event)) return;
    const id = event.detail.target.id;
    writing[id] -= 1;
    const part = parts["#" + id];
    if (!writing[id] && part.waiting) { part.waiting = false; refresh(part.name, part.url, "#" + id); }
  });
  // A refresh answering while a change of the GM's is on its way into the same part is not
  // swapped in (the change's answer, maybe a refusal, goes there); it runs again once the
  // change has answered.
  document.addEventListener("htmx:beforeSwap", function (event) {
    const detail = event.detail;
    const config = detail.requestConfig;
    if (!detail.target || !config || config.verb !== "get") return;
    const part = parts["#" + detail.target.id];
    if (!part || !writing[detail.target.id]) return;
    detail.shouldSwap = false;
    part.waiting = true;
  });

  // What the GM has typed or picked and not sent yet stays through a refresh: the fresh copy
  // shows the server's values, so every field changed by hand gets its value back, and the
  // field being typed in keeps the focus and the caret.
  function changedByHand(field) {
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      return Array.from(field.options).some(function (o) { return o.selected !== o.defaultSelected; });
    }
    return field.value !== field.defaultValue;
  }
  let typed = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    typed = null;
    const detail = event.detail;
    const config = detail.requestConfig;
    if (!detail.shouldSwap || !detail.target || !parts["#" + detail.target.id]) return;
    if (!config || config.verb !== "get") return;
    const active = document.activeElement;
    typed = { target: detail.target.id, fields: [], active: null };
    detail.target.querySelectorAll("input[id], select[id], textarea[id]").forEach(function (field) {
      if (field.type === "hidden" || !changedByHand(field)) return;
      typed.fields.push({ id: field.id, value: field.value, checked: field.checked });
    });
    if (active && active.id && detail.target.contains(active)) {
      let start = null, end = null;
      try { start = active.selectionStart; end = active.selectionEnd; } catch (e) { /* number */ }
      typed.active = { id: active.id, start: start, end: end };
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    const kept = typed;
    typed = null;
    if (!kept || !event.detail.target || event.detail.target.id !== kept.target) return;
    kept.fields.forEach(function (old) {
      const field = document.getElementById(old.id);
      if (!field) return;
      if (field.type === "checkbox" || field.type === "radio") field.checked = old.checked;
      else field.value = old.value;
    });
    const focus = kept.active && document.getElementById(kept.active.id);
    if (!focus) return;
    focus.focus({ preventScroll: true });
    try { if (kept.active.start !== null) focus.setSelectionRange(kept.active.start, kept.active.end); } catch (e) { /* number */ }
  });

  // A refusal on a card (an impossible difficulty, with the value the GM typed) stays through
  // a refresh of the tests: the refresh shows the server's state, which never held the refused
  // value, and the GM has not acted on the card since.
  let refusals = [];
  document.addEventListener("htmx:beforeSwap", function (event) {
    const detail = event.detail;
    const config = detail.requestConfig;
    if (!detail.shouldSwap || !detail.target || detail.target.id !== "pending-tests") return;
    if (!config || config.verb !== "get") return;
    refusals = Array.from(detail.target.querySelectorAll(".pending-card .card-refusal")).map(function (note) {
      const card = note.closest(".pending-card");
      const typed = card.querySelector("[aria-invalid=true]");
      return { card: card.id, note: note, field: typed && typed.id, value: typed && typed.value };
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
  document.addEventListener("table:pending", function (event) {
    // The GM's own change answered with the card already: that version needs no second fetch.
    const detail = event.detail || {};
    const shown = document.getElementById("pending-" + detail.pending);
    if (!detail.draft && detail.status === "open" && shown && !shown.classList.contains("rolled") &&
        shown.dataset.revision === String(detail.revision)) return;
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
