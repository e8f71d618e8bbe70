/* Live game page (scorekeeper/table/live.py): the live part of the page (#live, data-live-etag)
   asks the server for itself every second through htmx, only while the page is visible, sending
   the version it shows (If-None-Match). Unchanged, the answer is 304 and htmx swaps nothing
   (responseHandling in base.html's htmx-config); changed, htmx swaps in the new part, which
   carries the new version. A phone whose access was taken away (404, 403) reloads to say so. */
(function () {
  "use strict";

  function isLive(elt) {
    return elt && elt.hasAttribute && elt.hasAttribute("data-live-etag");
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (!isLive(elt)) return;
    if (document.visibilityState !== "visible") {
      event.preventDefault(); // a hidden page asks nothing
      return;
    }
    event.detail.headers["If-None-Match"] = elt.getAttribute("data-live-etag");
  });

  // Back on screen: ask at once rather than at the next tick.
  document.addEventListener("visibilitychange", function () {
    var elt = document.querySelector("[data-live-etag]");
    if (elt && document.visibilityState === "visible" && window.htmx) window.htmx.trigger(elt, "live");
  });

  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr && event.detail.xhr.status;
    if (isLive(event.detail.elt) && (status === 404 || status === 403)) window.location.reload();
  });
})();
