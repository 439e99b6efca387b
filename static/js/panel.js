// The test panel beside a sheet: a click on a stat opens (or adjusts) the panel, the server
// renders it with exact odds, htmx keeps it current as choices change. A pending test called
// by the GM arrives over the table's socket (table.js) and opens here with a visible cue.
(function () {
  "use strict";

  function panelElement() { return document.getElementById("test-panel"); }

  function load(url, cue) {
    htmx.ajax("GET", url, { target: "#test-panel", swap: "outerHTML" }).then(function () {
      const panel = panelElement();
      if (!panel) return;
      if (cue) panel.classList.add("arrived");
      panel.focus({ preventScroll: false });
    });
  }

  function queryOf(target) {
    const params = new URLSearchParams();
    Object.keys(target).forEach(function (key) {
      const value = target[key];
      (Array.isArray(value) ? value : [value]).forEach(function (v) { params.append(key, String(v)); });
    });
    return params;
  }

  // In an open panel, a click on another stat ticks it (a trait, a skill) or switches to it.
  function adjustOpenPanel(target) {
    const form = panelElement().querySelector("form");
    if (!form) return false;
    let changed = false;
    Object.keys(target).forEach(function (key) {
      form.querySelectorAll('input[name="' + key + '"]').forEach(function (input) {
        if (input.value === String(target[key]) || input.dataset.name === String(target[key])) {
          input.checked = input.type === "checkbox" ? !input.checked : true;
          changed = true;
        }
      });
    });
    if (changed) form.dispatchEvent(new Event("change", { bubbles: true }));
    return changed;
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest(".roll-target");
    const panel = panelElement();
    if (!button || !panel) return;
    let target;
    try { target = JSON.parse(button.dataset.roll || "{}"); } catch (e) { return; }
    if (adjustOpenPanel(target)) { panel.focus(); return; }
    load(panel.dataset.panelUrl + "?" + queryOf(target).toString(), false);
  });

  // A test the GM called before this page opened is shown at once.
  const initial = panelElement();
  if (initial && initial.dataset.pending) {
    load(initial.dataset.panelUrl + "?pending=" + initial.dataset.pending, true);
  }

  // A session started or ended: the panel again with the same choices (Roll opens or closes).
  document.addEventListener("table:session", function () {
    const form = panelElement() && panelElement().querySelector("form");
    if (form) htmx.trigger(form, "change");
  });

  // The GM called for (or changed) a test on this character: show it at once.
  document.addEventListener("table:pending", function (event) {
    const panel = panelElement();
    const detail = event.detail;
    if (!panel || String(detail.character) !== panel.dataset.character) return;
    if (detail.status === "cancelled") {
      // Called off: the panel says so (and keeps the stat, as a free test).
      load(panel.dataset.panelUrl + "?called_off=" + detail.pending, true);
      return;
    }
    if (detail.status !== "open") {
      load(panel.dataset.panelUrl, false);
      return;
    }
    load(panel.dataset.panelUrl + "?pending=" + detail.pending, true);
  });
})();
