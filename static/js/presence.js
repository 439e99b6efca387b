// Who is at the table (rolls/live/presence.py): the list in the log's header, kept current.
// The socket (table.js) passes on each new list as a "table:presence" event; a list older than
// the one shown (two workers may deliver out of order) is ignored. Each person marked with
// data-away-in / data-gone-in turns "away", then leaves the list, after so many seconds,
// without another message.
(function () {
  "use strict";
  function box() { return document.querySelector("[data-presence]"); }
  if (!box()) return;

  function deadline(li, name, now) {
    // Seconds from when the list was rendered, turned into this page's clock once.
    const stamp = name + "At";
    if (li.dataset[stamp] === undefined && li.dataset[name] !== undefined) {
      li.dataset[stamp] = String(now + parseFloat(li.dataset[name]) * 1000);
    }
    return li.dataset[stamp] === undefined ? null : parseFloat(li.dataset[stamp]);
  }

  function tick() {
    const root = box();
    if (!root) return;
    const now = Date.now();
    root.querySelectorAll("[data-presence-list] > li[data-presence-user]").forEach(function (li) {
      const gone = deadline(li, "goneIn", now);
      const away = deadline(li, "awayIn", now);
      if (gone !== null && now >= gone) {
        li.remove();
      } else if (away !== null && now >= away && li.dataset.presenceState !== "away") {
        li.dataset.presenceState = "away";
        li.querySelector("[data-presence-label]").textContent = root.dataset.labelAway;
      }
    });
  }

  document.addEventListener("table:presence", function (event) {
    const root = box();
    const message = event.detail;
    if (!root || parseFloat(message.at) < parseFloat(root.dataset.presenceAt || "0")) return;
    root.dataset.presenceAt = String(message.at);
    root.querySelector("[data-presence-list]").innerHTML = message.html;
    tick();
  });
  tick();
  setInterval(tick, 1000);
})();
