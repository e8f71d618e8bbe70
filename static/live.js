/* Live game page (scorekeeper/table/live.py): the live part of the page (#live, data-live-etag)
   asks the server for itself every second through htmx, only while the page is visible, sending
   the version it shows (If-None-Match). Unchanged, the answer is 304 and htmx swaps nothing
   (responseHandling in base.html's htmx-config); changed, htmx swaps in the new part, which
   carries the new version. A phone whose access was taken away (404, 403) reloads to say so.

   When the server cannot be reached (a failed request, or one unanswered for STALE_AFTER), the page
   says so above the live part: "No connection since 21:04 — showing what we had"; the next answer
   takes the notice away, and a changed game is swapped in as usual: the page catches up. */
(function () {
  "use strict";

  var STALE_AFTER = 6000; // ms without an answer before the page says it may be out of date
  var lastContact = Date.now(); // the last answer from the server (the page itself counts as one)
  var waitingSince = null; // the first request still unanswered
  var failed = false;

  function isLive(elt) {
    return elt && elt.hasAttribute && elt.hasAttribute("data-live-etag");
  }

  function notice() {
    var live = document.getElementById("live");
    if (!live) return null;
    var box = document.getElementById("live-stale");
    if (!box) {
      box = document.createElement("p");
      box.id = "live-stale";
      box.className = "stale";
      box.setAttribute("role", "status");
      box.hidden = true;
      live.parentNode.insertBefore(box, live);
    }
    return box;
  }

  function show() {
    var box = notice();
    if (!box) return;
    box.textContent = window.words("no connection since", { time: window.words.time(lastContact) });
    box.hidden = false;
    document.documentElement.classList.add("offline");
  }

  function hide() {
    var box = document.getElementById("live-stale");
    if (box) box.hidden = true;
    document.documentElement.classList.remove("offline");
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (!isLive(elt)) return;
    if (document.visibilityState !== "visible") {
      event.preventDefault(); // a hidden page asks nothing
      return;
    }
    event.detail.headers["If-None-Match"] = elt.getAttribute("data-live-etag");
    if (waitingSince === null) waitingSince = Date.now();
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    if (!isLive(event.detail.elt)) return;
    var status = event.detail.xhr && event.detail.xhr.status;
    if (status) {
      lastContact = Date.now();
      waitingSince = null;
      failed = false;
      hide();
    }
  });

  document.addEventListener("htmx:sendError", function (event) {
    if (!isLive(event.detail.elt)) return;
    failed = true;
    waitingSince = null;
    show();
  });

  // A request that hangs (a Wi-Fi drop with no answer at all) says nothing: count the time.
  setInterval(function () {
    if (document.visibilityState !== "visible") return;
    if (failed || (waitingSince !== null && Date.now() - waitingSince > STALE_AFTER)) show();
  }, 1000);

  // Back on screen: ask at once rather than at the next tick.
  document.addEventListener("visibilitychange", function () {
    var elt = document.querySelector("[data-live-etag]");
    if (elt && document.visibilityState === "visible" && window.htmx) window.htmx.trigger(elt, "live");
  });

  window.addEventListener("online", function () {
    var elt = document.querySelector("[data-live-etag]");
    if (elt && window.htmx) window.htmx.trigger(elt, "live");
  });

  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr && event.detail.xhr.status;
    if (isLive(event.detail.elt) && (status === 404 || status === 403)) window.location.reload();
  });
})();
