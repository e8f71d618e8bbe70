/* Every page: the offline app (the service worker, templates/offline/sw.js served at /sw.js; a
   phone taken off a table drops the drafts of its deals);
   Copy and Share buttons beside every link to hand on (input.share-url); a second tap to confirm
   what takes a phone or a link away (the table page's red buttons); and, on the game and entry
   pages, keeping the screen awake (Screen Wake Lock) with a switch in the header, remembered by the
   phone. The service worker and the wake lock need a secure context (HTTPS, or the machine
   itself): on plain HTTP the browser offers neither, and the page is as before. */
(function () {
  "use strict";

  // THE words of the scripts, in the page's language (scorekeeper/table/templatetags/words.py): every
  // page carries them as JSON in #words; window.words(key, {name: value}) gives one with its {name}s
  // filled (a number written as the page's language writes it), and the key itself if it has none.
  var said = {};
  try {
    said = JSON.parse((document.getElementById("words") || {}).textContent || "{}");
  } catch (e) {
    /* no words: the keys stand in */
  }
  var lang = document.documentElement.lang || "en";
  window.words = function (key, values) {
    var text = Object.prototype.hasOwnProperty.call(said, key) ? said[key] : key;
    return text.replace(/\{(\w+)\}/g, function (all, name) {
      if (!values || !(name in values)) return all;
      var v = values[name];
      return typeof v === "number" ? v.toLocaleString(lang) : String(v);
    });
  };
  // a time of day in the page's language, on the 24-hour clock as the server writes times (H:i: 21:04)
  window.words.time = function (when) {
    return new Date(when).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit", hour12: false });
  };
  var words = window.words;

  // The phone's time zone, for the times the server writes on its pages (scorekeeper/i18n.py): said
  // once in the tz cookie. A page that has just shown times in another zone (the first page a phone
  // ever loads) is loaded again, once, unless it holds a form.
  var zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (e) {
    /* an old browser: the server's zone, named beside each time */
  }
  var zoneSaid = (document.cookie.match(/(?:^|; )tz=([^;]*)/) || [])[1];
  if (zone && decodeURIComponent(zoneSaid || "") !== zone) {
    document.cookie = "tz=" + encodeURIComponent(zone) + "; path=/; max-age=34560000; samesite=lax" +
      (location.protocol === "https:" ? "; secure" : "");
    var kept = document.cookie.indexOf("tz=") !== -1; // never again when the phone keeps no cookie
    if (kept && document.querySelector("time[datetime]") && !document.querySelector("main form")) location.reload();
  }

  // Copy and Share: the Web Share API where the phone has it, else the clipboard, else the text
  // selected for the phone's own copy.
  function copied(button, text) {
    var was = button.textContent;
    button.textContent = text;
    setTimeout(function () {
      button.textContent = was;
    }, 2000);
  }
  // A name set inside a sentence: {what} lowercased as English does ("Copy the link to follow"), {What}
  // as it is (a German noun keeps its capital: "Kopieren: Der Link zum Zuschauen").
  function lower(text) {
    return text.toLowerCase();
  }
  function named(text) {
    return { what: lower(text), What: text };
  }
  Array.prototype.forEach.call(document.querySelectorAll("input.share-url"), function (input) {
    var row = document.createElement("div");
    row.className = "share";
    var copy = document.createElement("button");
    copy.type = "button";
    copy.textContent = words("copy");
    copy.setAttribute("aria-label", words("copy.label", named(input.getAttribute("aria-label") || words("the link"))));
    copy.addEventListener("click", function () {
      var done = function () {
        copied(copy, words("copied"));
      };
      var fallback = function () {
        input.focus();
        input.select();
        try {
          if (document.execCommand("copy")) done();
        } catch (e) {
          /* selected: the phone's own Copy does the rest */
        }
      };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).then(done, fallback);
      else fallback();
    });
    row.appendChild(copy);
    if (navigator.share) {
      var share = document.createElement("button");
      share.type = "button";
      share.textContent = words("share");
      share.setAttribute("aria-label", words("share.label", named(input.getAttribute("aria-label") || words("the link"))));
      share.addEventListener("click", function () {
        navigator.share({ title: "Oklahoma Scorekeeper", url: input.value }).catch(function () {
          /* the phone's share sheet was closed */
        });
      });
      row.appendChild(share);
    }
    input.insertAdjacentElement("afterend", row);
  });

  // "Deal 4 saved · Undo" stays a minute after the save, then goes (the undo stays in the history).
  var note = document.querySelector(".saved-note");
  if (note) {
    setTimeout(function () {
      note.hidden = true;
    }, 60000);
  }

  // A second tap confirms taking a phone or a link away (the table page).
  if (/^\/tables\/\d+\/$/.test(window.location.pathname)) {
    Array.prototype.forEach.call(document.querySelectorAll("form button[type=submit].danger"), function (button) {
      var label = button.textContent;
      var armed = null;
      button.addEventListener("click", function (event) {
        if (armed) return; // the second tap: as asked
        event.preventDefault();
        button.textContent = words("tap again", { action: lower(label), Action: label });
        button.classList.add("armed");
        armed = setTimeout(function () {
          armed = null;
          button.textContent = label;
          button.classList.remove("armed");
        }, 5000);
      });
    });
  }

  // A phone taken off a table: the page that says so names the table (templates/403.html), and the
  // drafts of that table's deals go (static/drafts.js files each with its table); the service worker
  // has dropped its copies of the table's pages as the page came.
  function dropDrafts(table) {
    var store;
    try {
      store = window.localStorage;
    } catch (e) {
      return; // no storage: no drafts
    }
    Object.keys(store).forEach(function (key) {
      if (key.indexOf("draft:") !== 0) return;
      try {
        if ((JSON.parse(store.getItem(key)) || {}).table === table) store.removeItem(key);
      } catch (e) {
        /* a broken entry: drafts.js takes it for none */
      }
    });
  }
  var off = document.querySelector("[data-off-table]");
  if (off) dropDrafts(off.getAttribute("data-off-table"));

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

  // A toggle: its name says what it does, aria-pressed whether it is on.
  var button = document.createElement("button");
  button.type = "button";
  button.className = "wake";
  button.textContent = "☀";
  button.setAttribute("aria-label", words("keep screen on"));
  function show() {
    var on = wanted();
    button.setAttribute("aria-pressed", String(on));
    button.title = on ? words("screen stays on") : words("screen may dim");
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
  // Beside the brand, on the header's first row: after the menu and the language switch it took a
  // third row on a German phone 360 px wide.
  var brand = document.querySelector("header.top .brand");
  if (brand) brand.after(button);
  show();
  hold();
  document.addEventListener("visibilitychange", hold);
})();
