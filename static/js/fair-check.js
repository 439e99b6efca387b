// Fair dice, checked in the browser (ENGINE.md, "Fair dice"): once a session has ended its log
// carries the published seed; "Check the dice" recomputes an entry's dice from HMAC-SHA256 of
// the seed over "{seq}:{nonce}:{j}" with Web Crypto, with no call to the server, and says
// whether they are the faces logged. "Check the whole session" also checks that the seed is the
// one committed to (its SHA-256) and does every entry the page shows.
(function () {
  "use strict";

  function hexBytes(hex) {
    const out = new Uint8Array(hex.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
    return out;
  }

  function toHex(buffer) {
    return Array.from(new Uint8Array(buffer), function (b) {
      return b.toString(16).padStart(2, "0");
    }).join("");
  }

  // The dice of one roll: 4 bytes a die, big-endian; a word in the biased tail is thrown away.
  async function streamFaces(key, seq, nonce, sides) {
    const encoder = new TextEncoder();
    let bytes = new Uint8Array(0);
    let at = 0;
    let block = 0;
    async function word() {
      while (at + 4 > bytes.length) {
        const message = encoder.encode(seq + ":" + nonce + ":" + block);
        const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
        const joined = new Uint8Array(bytes.length - at + mac.length);
        joined.set(bytes.subarray(at));
        joined.set(mac, bytes.length - at);
        bytes = joined;
        at = 0;
        block += 1;
      }
      const x = new DataView(bytes.buffer, at, 4).getUint32(0, false);
      at += 4;
      return x;
    }
    const faces = [];
    for (const s of sides) {
      const limit = 4294967296 - (4294967296 % s);
      let x = await word();
      while (x >= limit) x = await word();
      faces.push((x % s) + 1);
    }
    return faces;
  }

  function importSeed(seedHex) {
    return crypto.subtle.importKey(
      "raw", hexBytes(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  }

  // "" when the entry's dice are the stream's, else why not.
  async function checkEntry(key, li) {
    const log = logOf(li);
    const drawn = JSON.parse(li.dataset.drawn || "[]");
    const seq = parseInt(li.dataset.seq, 10);
    const faces = await streamFaces(key, seq, li.dataset.nonce, drawn.map(function (d) { return d[0]; }));
    for (let i = 0; i < drawn.length; i++) {
      if (faces[i] !== drawn[i][1]) {
        return "d" + drawn[i][0] + " #" + (i + 1) + ": " + drawn[i][1] + " ≠ " + faces[i];
      }
    }
    // Each die drawn is one the entry shows; a first roll shows no die that was not drawn.
    const shown = Array.from(li.querySelectorAll("li[data-sides]"), function (die) {
      return die.dataset.sides + ":" + die.dataset.face;
    });
    for (let i = 0; i < drawn.length; i++) {
      const at = shown.indexOf(drawn[i][0] + ":" + faces[i]);
      if (at < 0) return "d" + drawn[i][0] + " " + faces[i] + ": " + log.dataset.fairNotShown;
      shown.splice(at, 1);
    }
    if (!li.dataset.parentSeq && shown.length) return shown.join(" ") + ": " + log.dataset.fairNotDrawn;
    return "";
  }

  function logOf(element) { return element.closest("[data-fair-seed]"); }

  async function showEntry(log, key, li) {
    const out = li.querySelector("[data-fair-verdict]");
    const why = await checkEntry(key, li);
    li.dataset.fairResult = why ? "mismatch" : "match";
    if (out) out.textContent = why ? log.dataset.fairMismatch + " (" + why + ")" : log.dataset.fairMatch;
    return !why;
  }

  // "The whole session": a page shows only the log's latest entries (a long evening's log is
  // paged), so the earlier ones are loaded first, page after page, as its "Earlier entries" link
  // would load them; an answer that brings no further link (or the same one) ends it.
  async function loadEveryEntry(log) {
    for (;;) {
      const link = log.querySelector("a[data-log-earlier]");
      if (!link || !window.htmx) return;
      const before = link.dataset.logEarlier;
      await htmx.ajax("GET", link.getAttribute("hx-get"), {
        source: link, target: log.querySelector("[data-entries]"), swap: "beforeend",
      });
      const next = log.querySelector("a[data-log-earlier]");
      if (next && next.dataset.logEarlier === before) return;
    }
  }

  document.addEventListener("click", async function (event) {
    const one = event.target.closest("[data-fair-check]");
    const all = event.target.closest("[data-fair-check-all]");
    if (!one && !all) return;
    const log = logOf(event.target);
    if (!log) return;
    if (!window.crypto || !crypto.subtle) {
      const out = all ? log.querySelector("[data-fair-summary-out]") : one.parentElement.querySelector("[data-fair-verdict]");
      if (out) out.textContent = log.dataset.fairUnsupported;
      return;
    }
    const key = await importSeed(log.dataset.fairSeed);
    if (one) {
      await showEntry(log, key, one.closest("li[data-nonce]"));
      return;
    }
    const digest = toHex(await crypto.subtle.digest("SHA-256", hexBytes(log.dataset.fairSeed)));
    const committed = digest === log.dataset.fairCommitment;
    await loadEveryEntry(log);
    const entries = Array.from(log.querySelectorAll("li[data-nonce]"));
    let matched = 0;
    for (const li of entries) if (await showEntry(log, key, li)) matched += 1;
    // Real dice typed in at the table (data-typed) drew nothing from the stream: listed as
    // typed, neither a match nor a mismatch.
    const typed = Array.from(log.querySelectorAll("li[data-typed]"));
    for (const li of typed) li.dataset.fairResult = "typed";
    let summary = log.dataset.fairSummary.replace("{matched}", matched).replace("{total}", entries.length);
    if (typed.length) summary += " " + log.dataset.fairTyped.replace("{typed}", typed.length);
    const out = log.querySelector("[data-fair-summary-out]");
    out.dataset.matched = String(matched);
    out.dataset.total = String(entries.length);
    out.dataset.typed = String(typed.length);
    out.dataset.committed = String(committed);
    out.textContent = summary + " " +
      (committed ? log.dataset.fairCommitmentOk : log.dataset.fairCommitmentBad);
  });
  document.documentElement.classList.add("fair-check-ready"); // the buttons show (app.css)
})();
