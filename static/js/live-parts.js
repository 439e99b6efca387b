// Numbers shown outside the log and the panel (the challenge points left in a scene, the scene
// itself) follow the table: on one of the events a part names (data-live-part="table:scene
// ...") the page is fetched again and each part (with an id) is swapped for its fresh copy,
// unless the reader is typing in it. Each part names only the events that can change it: a
// page is not fetched again for every roll when nothing on it depends on rolls.
(function () {
  "use strict";
  if (!document.querySelector("[data-live-part][id]")) return;
  let timer = null;
  function refresh() {
    fetch(location.href, { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response); })
      .then(function (html) {
        const fresh = new DOMParser().parseFromString(html, "text/html");
        document.querySelectorAll("[data-live-part][id]").forEach(function (part) {
          const next = fresh.getElementById(part.id);
          if (!next || part.contains(document.activeElement) || part.innerHTML === next.innerHTML) return;
          part.replaceWith(next);
          htmx.process(next);
        });
      })
      .catch(function () { /* the next change tries again */ });
  }
  const events = new Set();
  document.querySelectorAll("[data-live-part][id]").forEach(function (part) {
    part.dataset.livePart.split(/\s+/).filter(Boolean).forEach(function (name) { events.add(name); });
  });
  events.forEach(function (name) {
    document.addEventListener(name, function () {
      clearTimeout(timer);
      timer = setTimeout(refresh, 300);
    });
  });
})();
