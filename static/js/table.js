// The table's live connection: one websocket per page, gapless by sequence numbers.
// The page shows the log rendered by the server; this keeps it current, reconnects within a
// second of the server answering, and after every (re)connect asks for exactly the entries it
// has not got.
// A page without the log (the campaign page) opens it for the table's events only
// ([data-table-events]: a GM's call for a test), so every open page hears them.
(function () {
  "use strict";
  if (window.tableSocket) return; // one socket per page, however often this script is included
  const root = document.querySelector("[data-table-socket]") || document.querySelector("[data-table-events]");
  if (!root) return;
  const eventsOnly = !root.hasAttribute("data-table-socket");
  // Close codes of rolls/live/consumers.py. Past a socket cap, retrying at once cannot help: the page
  // connects again when it is shown again (visibilitychange below), when another page of this
  // browser closes, or after a minute or two (the places a killed server held are freed within
  // a minute).
  const refused = { 4409: "crowded", 4410: "full" };
  // A refused page that has reason to think a place is free (it is shown again, or another page
  // of this browser just closed) tries again soon a few times: the server frees the closed
  // page's place only once it has heard the close, which may come a moment after this try
  // (seconds, on a busy server): a refused handshake costs little, so it tries for 15 s.
  const SOON_MS = [500, 1000, 2000, 4000, 8000];
  let soon = 0;
  let socket = null;
  let heard = 0; // frames heard on the socket (tryNow asks whether it still hears any)
  let timer = null;
  let cutOff = false; // the page was live and lost its socket: it may have missed any event
  let loginRetried = false;
  // From a (re)connect's "since" until the server says the page is synced: the entries that
  // come are the page's catching up, which the page's live region does not speak (access.js).
  let catchingUp = false;

  // The table's events go to the body and bubble: listeners on the document hear them, and so
  // do the page's live sections (hx-trigger="table:... from:body").
  function announce(name, detail) {
    document.body.dispatchEvent(new CustomEvent(name, { detail: detail, bubbles: true }));
  }

  function logRoot() { return eventsOnly ? root : document.querySelector("[data-table-socket]"); }
  function entriesList() { return logRoot().querySelector("[data-entries]"); }
  function sessionId() { const s = logRoot().dataset.session; return s ? parseInt(s, 10) : null; }

  function lastSeq() {
    const list = entriesList();
    if (!list) return parseInt(logRoot().dataset.lastSeq || "0", 10);
    let max = 0;
    list.querySelectorAll(":scope > li[data-seq]").forEach(function (li) {
      max = Math.max(max, parseInt(li.dataset.seq, 10));
    });
    return max;
  }

  // The state shown beside the log, in the reader's words (its data-label-* in _log.html).
  let shownState = "connecting";
  function setState(name) {
    shownState = name;
    if (eventsOnly) { root.dataset.connectionState = name; return; }
    const el = logRoot().querySelector("[data-connection-state]");
    el.dataset.connectionState = name;
    el.textContent = el.dataset["label" + name[0].toUpperCase() + name.slice(1)];
  }

  function insertEntry(message) {
    if (message.session !== sessionId()) return;
    const told = catchingUp ? Object.assign({ replayed: true }, message) : message;
    // A page without the log that names its session (the recap) only hears that one came,
    // and remembers its seq so that a reconnect asks for what came since, not for them all.
    if (eventsOnly) {
      root.dataset.lastSeq = Math.max(lastSeq(), message.seq);
      announce("table:entry", told);
      return;
    }
    const list = entriesList();
    if (!list || list.querySelector(':scope > li[data-seq="' + message.seq + '"]')) return;
    const template = document.createElement("template");
    template.innerHTML = message.html.trim();
    const li = template.content.firstElementChild;
    // Newest first: before the first entry with a lower seq.
    const after = Array.from(list.children).find(function (other) {
      return parseInt(other.dataset.seq, 10) < message.seq;
    });
    list.insertBefore(li, after || null);
    const empty = logRoot().querySelector("[data-empty]");
    if (empty) empty.remove();
    announce("table:entry", told);
  }

  // A sealed entry the page shows was revealed (an opposed test's opponent's roll, once the
  // initiator settled): it takes the place of the one shown.
  function revealEntry(message) {
    if (message.session !== sessionId()) return;
    const list = entriesList();
    const shown = list && list.querySelector(':scope > li[data-seq="' + message.seq + '"]');
    if (!shown) return;
    const template = document.createElement("template");
    template.innerHTML = message.html.trim();
    shown.replaceWith(template.content.firstElementChild);
    announce("table:reveal", message);
  }

  function refreshLog() {
    // A session started or ended: the log of the session now shown, then the entries since.
    if (eventsOnly) return;
    htmx.ajax("GET", logRoot().dataset.logUrl, { source: logRoot(), target: logRoot(), swap: "outerHTML" })
      .then(function () { setState(shownState); sendSince(); }, function () { /* the next reconnect syncs */ });
  }

  function sendSince() {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "since", session: sessionId(), seq: lastSeq() }));
    }
  }

  function connect() {
    clearTimeout(timer);
    setState("connecting");
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    // The GM's read-only view of a player's table has a socket of its own (campaigns/view_as.py).
    const viewAs = document.querySelector("[data-view-as]");
    const path = viewAs ? viewAs.dataset.viewAs : "/ws/campaigns/" + logRoot().dataset.campaign + "/";
    const url = scheme + location.host + path + "?lang=" + encodeURIComponent(logRoot().dataset.lang || "en") +
      (document.querySelector("[data-presence]") ? "&presence=1" : "");
    const current = new WebSocket(url);
    socket = current;
    // A refused socket opens too (the server accepts it to close it with its code), so the
    // page is live only once the server has answered: its first frame is the answer to "since".
    let answered = false;
    current.addEventListener("open", function () {
      awaySince = null; // the server took the handshake: whatever comes next, it is not away
      catchingUp = true;
      sendSince();
    });
    current.addEventListener("message", function (event) {
      if (current !== socket) return; // replaced by tryNow: the page listens to the new one
      heard += 1;
      if (!answered) {
        answered = true;
        loginRetried = false;
        setState("live");
        // The entries missed come again (since); what else changed meanwhile, the parts fetch.
        if (cutOff) { cutOff = false; announce("table:reconnect", {}); }
      }
      let message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "entry") insertEntry(message);
      else if (message.type === "reveal") revealEntry(message);
      else if (message.type === "synced" && message.more) sendSince();
      else if (message.type === "synced") catchingUp = false;
      // The user's pages replayed more than a table needs (rolls/limits.py): ask again then.
      else if (message.type === "error" && message.retry) setTimeout(sendSince, message.retry * 1000);
      else if (message.type === "session") {
        // The parts of the page that show the session refresh themselves on this event.
        announce("table:session", message);
        refreshLog();
      }
      else announce("table:" + message.type, message);
    });
    current.addEventListener("close", function (event) {
      if (current !== socket) return;
      if (answered) cutOff = true;
      if (refused[event.code]) {
        setState(refused[event.code]);
        const delay = soon < SOON_MS.length ? SOON_MS[soon] : 60000 * (1 + Math.random());
        soon += 1;
        timer = setTimeout(connect, delay);
        return;
      }
      soon = SOON_MS.length;
      if (event.code === 4403) { setState("removed"); return; } // not a member (any more): retrying cannot help
      // The login it opened with ended (a logout, a password set): one try with the login the
      // browser holds now (a password changed in this browser gave it one), else it says so
      // and stays closed: a login made since needs a reload (its forms' CSRF token changed).
      if (event.code === 4401) {
        if (loginRetried) { setState("loggedout"); return; }
        loginRetried = true;
        setState("connecting");
        timer = setTimeout(connect, 500);
        return;
      }
      setState(event.code === 4429 ? "flooded" : "offline");
      timer = setTimeout(connect, retryDelay());
    });
  }

  // Trying again. A connect refused by a server that is down costs that server nothing, so a
  // page that lost its socket tries again within 0.5 to 1 s, and is live within about a second
  // of the server answering: at a moment of its own within that second, so that the hundreds
  // of pages of a restarted server arrive spread over it, not all at one instant. Only once the
  // server has been away 20 s does the page try less often: within 1/40 to 1/20 of the time it
  // has been away (3 to 6 s after two minutes), at most every 15 to 30 s. (bench/live_table.py's
  // restart measure keeps the same numbers: Reconnect.)
  const RETRY_MS = 500;
  const LONGEST_MS = 15000;
  let awaySince = null; // since when no server has taken the page's handshake
  function retryDelay() {
    if (awaySince === null) awaySince = Date.now();
    const base = Math.min(LONGEST_MS, Math.max(RETRY_MS, (Date.now() - awaySince) / 40));
    return base * (1 + Math.random());
  }

  // A refusal shown in the page's own region (a roll past the user's rate, rolls/limits.py)
  // goes once a later request of the page succeeds.
  document.body.addEventListener("htmx:afterRequest", function (event) {
    const region = document.getElementById("request-refusal");
    if (region && event.detail.successful && event.detail.xhr.status < 300) region.replaceChildren();
  });

  // Tests and the GM's tools can cut the connection to prove a reconnect loses nothing.
  window.tableSocket = {
    drop: function () { if (socket) socket.close(); },
    state: function () { return (logRoot().querySelector("[data-connection-state]") || root).dataset.connectionState; },
  };
  // Earlier entries (rolls/log/_earlier_link.html) are appended below the shown ones; they are
  // older, so lastSeq() and the replay are untouched. The focus was on the link the answer
  // replaced: it goes to the first entry loaded, where reading goes on.
  document.body.addEventListener("htmx:afterSwap", function (event) {
    const config = event.detail.requestConfig;
    if (eventsOnly || !config || !config.elt.hasAttribute("data-log-earlier")) return;
    if (event.target !== entriesList()) return;
    const before = parseInt(config.elt.dataset.logEarlier, 10);
    const first = Array.from(entriesList().children).find(function (li) {
      return parseInt(li.dataset.seq, 10) < before;
    });
    if (!first) return;
    first.setAttribute("tabindex", "-1");
    first.focus();
  });
  // Shown again, back online, or another page of this browser closed: try at once rather than
  // at the next retry, whose timer a hidden tab's browser may have held back for minutes. A
  // socket that looks live may have died with the network it went over (the browser learns so
  // only when it next sends): it must answer a ping within CHECK_MS, or the page opens another.
  const CHECK_MS = 3000;
  function tryNow() {
    if (shownState === "loggedout") return;
    if (shownState === "live" && socket.readyState === WebSocket.OPEN) {
      const asked = socket;
      const before = heard;
      asked.send(JSON.stringify({ type: "ping" }));
      setTimeout(function () {
        if (socket !== asked || heard !== before) return;
        cutOff = true;
        connect();
        asked.close();
      }, CHECK_MS);
      return;
    }
    if (socket && socket.readyState !== WebSocket.CLOSED) return;
    soon = 0;
    connect();
  }
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) tryNow();
  });
  window.addEventListener("online", tryNow);
  // Pages of this browser tell each other when one of them closes: a page refused for too many
  // open pages takes the place at once instead of waiting a minute.
  const siblings = "BroadcastChannel" in window ? new BroadcastChannel("table-pages") : null;
  if (siblings) {
    siblings.addEventListener("message", function (event) {
      const state = window.tableSocket.state();
      if (event.data === "closed" && (state === "crowded" || state === "full")) tryNow();
    });
    window.addEventListener("pagehide", function () {
      if (socket && socket.readyState === WebSocket.OPEN) siblings.postMessage("closed");
    });
  }
  soon = SOON_MS.length;
  connect();
})();
