// How every live part of a page takes a fresh copy from the server, and what a control says
// when the server cannot be reached (DESIGN.md, "How a page stays current").
(function () {
  "use strict";
  // A refresh (a request sent because the table changed, not by the reader: the dashboard's
  // refresher, a part's own table:* trigger, the test panel's) morphs the part: idiomorph keeps the
  // element, its focus and caret and htmx's queue. What the reader changed and has not sent
  // (a number typed, a box ticked, an option picked) and a <details> they opened stay as they
  // are; the answer to the reader's own request shows what the server made of it.
  let refreshing = false;
  document.addEventListener("htmx:beforeSwap", function (event) {
    const config = event.detail.requestConfig;
    const cause = config && config.triggeringEvent;
    refreshing = !!(config && (config.elt.id === "live-parts" || (cause && cause.type.startsWith("table:")) ||
      (config.headers && config.headers["X-Panel-Refresh"])));
  });
  // An option is the reader's when its list is: the morph meets the list's options one by one,
  // and the server's chosen first option, taken alone, would unpick the one picked below it.
  function pickedByHand(list) {
    const options = Array.from(list.options);
    if (list.multiple) return options.some(function (o) { return o.selected !== o.defaultSelected; });
    const marked = options.filter(function (o) { return o.defaultSelected; }).pop();
    return list.selectedIndex !== (marked ? marked.index : 0);
  }
  function changedByHand(el) {
    if (el.tagName === "OPTION") return !!el.closest("select") && pickedByHand(el.closest("select"));
    if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
    return el.type !== "hidden" && el.value !== el.defaultValue;
  }
  const kept = ["value", "checked", "selected"];
  const keeping = new WeakSet(); // the fields a morph under way leaves as the reader has them
  if (window.Idiomorph) {
    // (Not idiomorph's ignoreActiveValue: it leaves whatever has the focus unmorphed, a result
    // focused after its roll included, and that result then lost what followed it.)
    Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, el, type) {
      if (name === "open" && el.tagName === "DETAILS" && type === "remove") return false;
      if (!kept.includes(name)) return true;
      if (el === document.activeElement || (refreshing && changedByHand(el))) keeping.add(el);
      return !keeping.has(el);
    };
    // A field morphed to the server's value takes it as its default too (idiomorph sets the
    // live value only), so "changed by hand" stays true to what the server last said.
    Idiomorph.defaults.callbacks.afterNodeMorphed = function (el, fresh) {
      if (keeping.delete(el) || !("defaultValue" in el || "defaultSelected" in el)) return;
      if (el.tagName === "OPTION") el.defaultSelected = fresh.defaultSelected;
      else if (el.type === "checkbox" || el.type === "radio") el.defaultChecked = fresh.defaultChecked;
      else if (el.tagName === "INPUT" || el.tagName === "TEXTAREA") el.defaultValue = fresh.defaultValue;
    };
    // A box of the sheet the reader opened for editing (sheets/_section.html) is theirs until
    // they save or cancel it: a refresh morphs the rest of the sheet around it.
    Idiomorph.defaults.callbacks.beforeNodeMorphed = function (old) {
      return !(refreshing && old.classList && old.classList.contains("is-editing"));
    };
    // A "not sent" notice is the page's, not the server's: a refresh leaves it where it is.
    Idiomorph.defaults.callbacks.beforeNodeRemoved = function (node) {
      return !(node.classList && node.classList.contains("send-failed"));
    };
  }

  // Every control that talks to the server: when the request does not get through, the
  // control says so and offers to send it again, as it was (a keyed request keeps its key, so
  // a roll that did arrive is answered with that roll, never made twice).
  // It says so after the control (its form), or in the slot the control names (data-not-sent-in,
  // in the words of its own template, data-not-sent: the test panel's Roll, at the panel's top).
  function slot(elt) { return elt.dataset.notSentIn ? document.querySelector(elt.dataset.notSentIn) : null; }
  function notice(elt) {
    const next = slot(elt) ? slot(elt).firstElementChild : (elt.closest("form") || elt).nextElementSibling;
    return next && next.classList.contains("send-failed") ? next : null;
  }
  // Says it at ``elt``, with a button that calls ``resend``.
  window.sayNotSent = function (elt, resend) {
    const template = document.getElementById(elt.dataset.notSent || "send-failed");
    if (!template || !document.body.contains(elt)) return;
    const shown = notice(elt) || template.content.firstElementChild.cloneNode(true);
    if (slot(elt)) slot(elt).replaceChildren(shown);
    else (elt.closest("form") || elt).after(shown);
    shown.querySelector("button").onclick = function () { shown.remove(); resend(); };
    shown.querySelector("button").focus();
  };
  function notSent(event) {
    const elt = event.detail.elt;
    const trigger = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    // The refresher's own misses the socket's reconnect makes good; the test panel and its Roll
    // say it their own way (panel.js).
    if (!elt || elt.id === "live-parts" || elt.dataset.notSent === "own") return;
    window.sayNotSent(elt, function () {
      if (elt.tagName === "FORM") elt.requestSubmit();
      else if (trigger && trigger.type !== "click") htmx.trigger(elt, trigger.type);
      else elt.click();
    });
  }
  document.addEventListener("htmx:sendError", notSent);
  document.addEventListener("htmx:timeout", notSent);
  // A server that failed (5xx: restarting, behind a proxy) did not take the request either.
  document.addEventListener("htmx:responseError", function (event) {
    if (event.detail.xhr && event.detail.xhr.status >= 500) notSent(event);
  });
  // A refusal the server put where the page shows refusals (config/refusals.py) is shown
  // whatever its status: the GM's read-only view answers every write with 403 (campaigns/view_as.py).
  document.addEventListener("htmx:beforeSwap", function (event) {
    const xhr = event.detail.xhr;
    if (xhr && xhr.status === 403 && xhr.getResponseHeader("HX-Retarget") === "#request-refusal") {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    const elt = event.detail.elt;
    const shown = elt && event.detail.successful && notice(elt);
    if (shown) shown.remove();
  });
})();
