// Fair dice (ENGINE.md): every request that records a roll carries a nonce made here, by the
// roller's own page, from the browser's cryptographic random source, so the server cannot know
// a roll's dice before the player asks for them. A roll request is any form with a "key" (the
// idempotency key each roll form has); each request gets a fresh nonce.
(function () {
  "use strict";
  const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-";

  function nonce() {
    // 32 characters of 6 random bits each (256 is a multiple of 64: no bias).
    const bytes = window.crypto.getRandomValues(new Uint8Array(32));
    return Array.from(bytes, function (b) { return ALPHABET[b & 63]; }).join("");
  }

  // htmx requests: add the nonce to what is sent.
  document.addEventListener("htmx:configRequest", function (event) {
    const data = event.detail.formData;
    if (event.detail.verb === "post" && data && data.has("key")) {
      data.set("nonce", nonce());
    }
  });

  // Plain form posts (htmx not loaded yet, or a form without hx-post).
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.querySelector('input[name="key"]')) return;
    let input = form.querySelector('input[name="nonce"]');
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = "nonce";
      form.appendChild(input);
    }
    input.value = nonce();
  }, true);

  window.fairNonce = nonce;
})();
