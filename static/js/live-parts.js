// Numbers shown outside the log and the panel (the challenge points left in a scene, the scene
// itself) follow the table: on any change the page is fetched again and each [data-live-part]
// (with an id) is swapped for its fresh copy, unless the reader is typing in it.
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
  ["table:entry", "table:scene", "table:pending", "table:session", "table:sheet"].forEach(function (name) {
    document.addEventListener(name, function () {
      clearTimeout(timer);
      timer = setTimeout(refresh, 300);
    });
  });
})();
