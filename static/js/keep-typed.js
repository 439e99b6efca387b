// What someone has typed, ticked or opened in a live part of a page and not sent yet stays
// through the part's refresh. A live part (the GM's dashboard parts, the group test) fetches
// itself again (an htmx GET) when the table's socket says something changed, and the fresh
// copy shows the server's values: every field changed by hand gets its value back, the field
// being typed in keeps the focus and the caret, and a <details> that was open stays open.
// Fields and <details> are matched by id, so only those with an id are kept.
(function () {
  "use strict";

  function isGet(detail) { return !!(detail.requestConfig && detail.requestConfig.verb === "get"); }

  function changedByHand(field) {
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      return Array.from(field.options).some(function (o) { return o.selected !== o.defaultSelected; });
    }
    return field.value !== field.defaultValue;
  }

  // partOf(target): the live part an htmx swap replaces, or null. Only a refresh (a GET) is
  // kept from: the answer to what the reader sent shows what they sent, accepted or refused.
  window.keepTyped = function (partOf) {
    let typed = null;
    document.addEventListener("htmx:beforeSwap", function (event) {
      typed = null;
      const detail = event.detail;
      const part = partOf(detail.target);
      if (!part || !isGet(detail) || !detail.shouldSwap) return;
      const active = document.activeElement;
      typed = { target: part.id, fields: [], active: null };
      part.querySelectorAll("input[id], select[id], textarea[id]").forEach(function (field) {
        if (field.type === "hidden" || !changedByHand(field)) return;
        typed.fields.push({ id: field.id, value: field.value, checked: field.checked });
      });
      if (active && active.id && part.contains(active)) {
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
      // The field was being typed in, so what holds it was open: open it now, or it cannot
      // take the focus (keepOpened reopens the rest once the swap has settled).
      for (let d = focus.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
      focus.focus({ preventScroll: true });
      try { if (kept.active.start !== null) focus.setSelectionRange(kept.active.start, kept.active.end); } catch (e) { /* number */ }
    });
  };

  // within(target): whether a swap into target may fold up what the reader opened. Two parts
  // may be swapped at once: what each had open is remembered until its own fresh copy is in.
  window.keepOpened = function (within) {
    let opened = [];
    document.addEventListener("htmx:beforeSwap", function (event) {
      const target = event.detail.target;
      if (!target || !within(target)) return;
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
  };
})();
