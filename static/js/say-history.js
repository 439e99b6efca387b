// The chat box (templates/rolls/chat/_say.html): the up arrow in the empty box brings back the
// last line or command sent from it, as a terminal or Discord does. Kept for the tab
// (sessionStorage, one a table: the box's URL), so a plain post's reload keeps it too; the box's
// help says so, and the line comes back as text to read, change or send, never sent by itself.
(function () {
  "use strict";
  const last = {};

  function slot(form) { return "say-last:" + form.getAttribute("action"); }

  function recall(form) {
    try { return sessionStorage.getItem(slot(form)) || last[slot(form)] || ""; }
    catch (e) { return last[slot(form)] || ""; } // storage refused (a private mode): this page's
  }

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.id !== "say") return;
    const text = form.elements.text.value;
    if (!text.trim()) return;
    last[slot(form)] = text;
    try { sessionStorage.setItem(slot(form), text); } catch (e) { /* kept in `last` */ }
  }, true);

  document.addEventListener("keydown", function (event) {
    const box = event.target;
    if (!(box instanceof HTMLInputElement) || box.id !== "say-text") return;
    if (event.key !== "ArrowUp" || box.value !== "" || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const text = recall(box.form);
    if (!text) return;
    event.preventDefault();
    box.value = text;
    box.setSelectionRange(text.length, text.length);
  });
})();
