// A call nobody misses: what asks the reader to act ([data-attention] cues, and the test panel of a
// called test) that arrives while the tab is in the background marks the page's title "(N) ", and,
// where the reader opted in, shows a notification and beeps. Showing the tab again clears the mark.
(function () {
  "use strict";
  if (window.attention) return; // once per page, however often this script is included
  const seen = new Set();
  const ownTitle = document.title;
  let unseen = 0;
  let missed = []; // the keys that came while the tab was away: they pulse once it is back
  const stored = { notify: "attention:notify", sound: "attention:sound" };
  function remembered(name) { try { return localStorage.getItem(stored[name]) === "on"; } catch (e) { return false; } }
  function remember(name, on) { try { localStorage.setItem(stored[name], on ? "on" : "off"); } catch (e) { /* private mode */ } }

  // What asks for the reader now, and its words (static/js/asking.js).
  const asking = window.tableAsking.asking;
  const said = window.tableAsking.said;

  let audio = null;
  function beep() {
    try {
      audio = audio || new AudioContext();
      if (audio.state === "suspended") audio.resume();
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.frequency.value = 880;
      volume.gain.setValueAtTime(0.15, audio.currentTime);
      volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
      tone.connect(volume).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.25);
    } catch (e) { /* no WebAudio: the title and the notification still say it */ }
  }

  function notify(key, el) {
    if (!remembered("notify") || !("Notification" in window) || Notification.permission !== "granted") return;
    try {
      const shown = new Notification(said(el), { tag: key, body: ownTitle, silent: !remembered("sound") });
      shown.onclick = function () { window.focus(); shown.close(); };
    } catch (e) { /* a browser that shows them only from a service worker */ }
  }

  function look() {
    let fresh = 0;
    asking().forEach(function (el, key) {
      if (seen.has(key)) return;
      seen.add(key);
      if (!document.hidden) return;
      fresh += 1;
      missed.push(key);
      notify(key, el);
    });
    if (!fresh) return;
    unseen += fresh;
    document.title = "(" + unseen + ") " + ownTitle;
    if (remembered("sound")) beep();
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) return;
    unseen = 0;
    document.title = ownTitle;
    const shown = asking();
    missed.forEach(function (key) { if (shown.has(key)) shown.get(key).classList.add("attention-new"); });
    missed = [];
  });
  document.addEventListener("htmx:afterSwap", look);
  asking().forEach(function (el, key) { seen.add(key); }); // there at load: not new

  // The reader's switches (rolls/_call_cue.html): shown only where this script runs.
  const controls = document.querySelector("[data-attention-controls]");
  if (controls) {
    const button = controls.querySelector("[data-attention-notify]");
    const state = controls.querySelector("[data-attention-state]");
    const sound = controls.querySelector("[data-attention-sound]");
    const show = function () {
      const permission = Notification.permission;
      const on = remembered("notify") && permission === "granted";
      button.setAttribute("aria-pressed", String(on));
      state.textContent = permission === "denied" ? state.dataset.labelDenied : on ? state.dataset.labelOn : "";
    };
    if ("Notification" in window) {
      button.hidden = false;
      show();
      button.addEventListener("click", function () {
        if (button.getAttribute("aria-pressed") === "true") { remember("notify", false); show(); return; }
        Promise.resolve(Notification.requestPermission()).then(function (answer) {
          remember("notify", answer === "granted");
          show();
        });
      });
    }
    sound.checked = remembered("sound");
    sound.addEventListener("change", function () {
      remember("sound", sound.checked);
      if (sound.checked) beep(); // a click lets the page's audio start: the beep says what it sounds like
    });
    controls.hidden = false;
  }
  window.attention = { unseen: function () { return unseen; } };
})();
