/* Every page: the offline app (the service worker, static/../templates/offline/sw.js served at
   /sw.js) and, on the game and entry pages, keeping the screen awake (Screen Wake Lock) with a
   switch in the header, remembered by the phone. Both need a secure context (HTTPS, or the
   machine itself): on plain HTTP the browser offers neither, and the page is as before. */
(function () {
  "use strict";

  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
        /* no offline copy: the app works as before */
      });
    });
  }

  var awakePage = document.getElementById("live") || document.getElementById("deal-form");
  if (!awakePage || !("wakeLock" in navigator)) return;
  var KEY = "keep-screen-on";
  var lock = null;

  function wanted() {
    try {
      return localStorage.getItem(KEY) !== "off";
    } catch (e) {
      return true;
    }
  }

  function hold() {
    if (!wanted() || lock || document.visibilityState !== "visible") return;
    navigator.wakeLock
      .request("screen")
      .then(function (sentinel) {
        lock = sentinel;
        lock.addEventListener("release", function () {
          lock = null;
        });
      })
      .catch(function () {
        /* refused (battery saver, a hidden page): the screen dims as usual */
      });
  }

  function release() {
    if (lock) lock.release();
    lock = null;
  }

  var button = document.createElement("button");
  button.type = "button";
  button.className = "wake";
  button.title = "Keep the screen on while this page is open";
  function show() {
    var on = wanted();
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? "☀ Screen stays on" : "☀ Screen may dim";
  }
  button.addEventListener("click", function () {
    var on = !wanted();
    try {
      localStorage.setItem(KEY, on ? "on" : "off");
    } catch (e) {
      /* not remembered: still switched for this page */
    }
    if (on) hold();
    else release();
    show();
  });
  var header = document.querySelector("header.top");
  if (header) header.appendChild(button);
  show();
  hold();
  document.addEventListener("visibilitychange", hold);
})();
