// Style, as in every script here: const/let (no var), arrow callbacks, named function declarations, strict mode.
/* Live game page (scorekeeper/table/live.py): the page holds one connection to the game's stream of
   server-sent events (#live's data-live-events). The stream says "changed" with the validator of the
   live part this phone should hold; when it differs from the one the page shows (data-live-etag),
   the page asks for its live part through htmx with If-None-Match, and htmx swaps the new part in
   (unchanged, the answer is 304 and htmx swaps nothing: responseHandling in base.html's htmx-config).
   A change said while that request is on its way is asked for once it is answered (htmx drops a
   second request meanwhile: hx-sync).
   EventSource connects again by itself after a drop; the server checks the phone's access each time.
   A hidden page closes its stream and opens it again when it is back on screen.
   A phone whose access was taken away is told ("gone", or a refused stream) and the page reloads to
   say so (its live part answers 404 or 403). Without EventSource the page asks every second instead,
   as before, only while it is visible.

   When the server cannot be reached (the stream lost and not back within STALE_AFTER, no word on it
   for SILENT_AFTER — the server pings every 10 s —, a failed request, or one unanswered for
   STALE_AFTER), the page says so above the live part: "No connection since 21:04 — showing what we
   had"; the next word from the server takes the notice away, and a changed game is swapped in as
   usual: the page catches up. */
(function () {
  "use strict";

  const STALE_AFTER = 6000; // ms without an answer before the page says it may be out of date
  const SILENT_AFTER = 25000; // ms without a word on an open stream: the line is dead, connect again
  let lastContact = Date.now(); // the last answer from the server (the page itself counts as one)
  let waitingSince = null; // the first request still unanswered
  let lostSince = null; // the stream dropped and is not back
  let failed = false;
  let source = null; // the EventSource, while the page listens to the stream
  let polling = null; // the timer of the fallback: ask every second
  let wanted = null; // the validator the stream said last: the live part this phone should hold
  let sentFor = null; // what "wanted" was when the page last sent its request for the live part

  function live() {
    return document.getElementById("live");
  }

  function isLive(elt) {
    return elt && elt.hasAttribute && elt.hasAttribute("data-live-etag");
  }

  // An htmx event of a request for the live part. Once the answer is swapped in, htmx says
  // "afterRequest" on the part's parent (the part it asked for is gone): its request says which.
  function ofLive(event) {
    const detail = event.detail;
    return isLive(detail.elt) || Boolean(detail.requestConfig && isLive(detail.requestConfig.elt));
  }

  function notice() {
    const part = live();
    if (!part) return null;
    let box = document.getElementById("live-stale");
    if (!box) {
      box = document.createElement("p");
      box.id = "live-stale";
      box.className = "stale";
      box.setAttribute("role", "status");
      box.hidden = true;
      part.parentNode.insertBefore(box, part);
    }
    return box;
  }

  function show() {
    const box = notice();
    if (!box) return;
    box.textContent = window.words("no connection since", { time: window.words.time(lastContact) });
    box.hidden = false;
    document.documentElement.classList.add("offline");
  }

  function hide() {
    const box = document.getElementById("live-stale");
    if (box) box.hidden = true;
    document.documentElement.classList.remove("offline");
  }

  function contact() {
    lastContact = Date.now();
    lostSince = null;
    failed = false;
    hide();
  }

  function ask() {
    const part = live();
    if (part && window.htmx) window.htmx.trigger(part, "live");
  }

  function poll() {
    if (polling !== null) return;
    const part = live();
    const seconds = Number(part && part.getAttribute("data-live-poll")) || 1;
    polling = setInterval(ask, seconds * 1000);
  }

  function stop() {
    if (source) source.close();
    source = null;
  }

  function listen() {
    const part = live();
    const url = part && part.getAttribute("data-live-events");
    if (!url || !window.EventSource) {
      poll();
      return;
    }
    source = new EventSource(url);
    source.addEventListener("open", contact);
    source.addEventListener("ping", contact);
    source.addEventListener("change", (event) => {
      contact();
      wanted = event.data;
      const now = live();
      if (now && wanted !== now.getAttribute("data-live-etag")) ask();
    });
    source.addEventListener("gone", () => {
      stop();
      ask(); // answered 404 or 403: the page reloads and says why
    });
    source.addEventListener("error", () => {
      if (source && source.readyState === EventSource.CLOSED) {
        // Refused (not at the table any more) or a server error: the live part says which, and the
        // page asks every second from now on.
        source = null;
        ask();
        poll();
      } else if (lostSince === null) {
        lostSince = Date.now(); // EventSource connects again by itself
      }
    });
  }

  function again() {
    stop();
    if (document.visibilityState !== "visible") return; // it listens again when back on screen
    lostSince = lostSince || Date.now();
    listen();
  }

  document.addEventListener("htmx:configRequest", (event) => {
    const elt = event.detail.elt;
    if (!isLive(elt)) return;
    if (document.visibilityState !== "visible") {
      event.preventDefault(); // a hidden page asks nothing
      return;
    }
    event.detail.headers["If-None-Match"] = elt.getAttribute("data-live-etag");
    sentFor = wanted;
    if (waitingSince === null) waitingSince = Date.now();
  });

  // A change the stream said while the page's request was on its way: htmx dropped the request
  // asked for meanwhile (hx-sync="this:drop"), and the answer may be the change before. Ask once
  // more for it.
  function catchUp() {
    const part = live();
    if (part && wanted !== null && wanted !== sentFor && wanted !== part.getAttribute("data-live-etag")) ask();
  }

  document.addEventListener("htmx:afterRequest", (event) => {
    if (!ofLive(event)) return;
    const status = event.detail.xhr && event.detail.xhr.status;
    if (status) {
      waitingSince = null;
      if (!source || source.readyState === EventSource.OPEN) contact();
    }
    setTimeout(catchUp, 0); // unchanged (304) or failed: htmx lets go of the part after this event
  });

  document.addEventListener("htmx:load", (event) => {
    if (isLive(event.detail.elt)) catchUp(); // a new part swapped in, and htmx set it up to ask
  });

  document.addEventListener("htmx:sendError", (event) => {
    if (!ofLive(event)) return;
    failed = true;
    waitingSince = null;
    show();
  });

  // A request that hangs or a stream that went silent (a Wi-Fi drop with no answer at all) says
  // nothing: count the time.
  setInterval(() => {
    if (document.visibilityState !== "visible") return;
    const now = Date.now();
    if (source && source.readyState === EventSource.OPEN && now - lastContact > SILENT_AFTER) again();
    if (
      failed ||
      (waitingSince !== null && now - waitingSince > STALE_AFTER) ||
      (lostSince !== null && now - lostSince > STALE_AFTER)
    )
      show();
  }, 1000);

  // A hidden page lets its stream go (a phone in a pocket holds nothing on the server, and the
  // browser's few connections per server stay free for the pages on screen); back on screen, it
  // listens again and asks at once.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") {
      stop();
      return;
    }
    if (!source && polling === null) listen();
    ask();
  });

  // The phone says it lost the network: the stream is gone with it (the server's pings would say
  // so only after SILENT_AFTER).
  window.addEventListener("offline", () => {
    stop();
    if (lostSince === null) lostSince = Date.now();
  });

  window.addEventListener("online", () => {
    if (polling === null && (!source || source.readyState !== EventSource.OPEN)) again();
    ask();
  });

  document.addEventListener("htmx:responseError", (event) => {
    const status = event.detail.xhr && event.detail.xhr.status;
    if (ofLive(event) && (status === 404 || status === 403)) window.location.reload();
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", listen);
  else listen();
})();
