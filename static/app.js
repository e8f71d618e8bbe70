// Style, as in every script here: const/let (no var), arrow callbacks, named function declarations, strict mode.
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
  // filled (a number written as the page's language writes it, −5 with a true minus sign), and the key
  // itself if it has none.
  let said = {};
  try {
    said = JSON.parse((document.getElementById("words") || {}).textContent || "{}");
  } catch {
    /* no words: the keys stand in */
  }
  const lang = document.documentElement.lang || "en";
  window.words = (key, values) => {
    const text = Object.prototype.hasOwnProperty.call(said, key) ? said[key] : key;
    return text.replace(/\{(\w+)\}/g, (all, name) => {
      if (!values || !(name in values)) return all;
      const v = values[name];
      return typeof v === "number" ? (v < 0 ? "−" : "") + Math.abs(v).toLocaleString(lang) : String(v);
    });
  };
  // a time of day in the page's language, on the 24-hour clock as the server writes times (H:i: 21:04)
  window.words.time = (when) =>
    new Date(when).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit", hour12: false });
  const words = window.words;

  // The phone's time zone (scorekeeper/i18n.py): said once in the tz cookie, so that the server writes
  // the next pages' times in it. A page written in another zone (the first page a phone opens, before
  // it said its zone) has its times (templatetags/when.py: <time datetime data-format>) written again
  // here, in the phone's zone and the page's language, as Django writes them: no reload.
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch {
    /* an old browser: the server's zone */
  }
  const zoneSaid = (document.cookie.match(/(?:^|; )tz=([^;]*)/) || [])[1];
  if (zone && decodeURIComponent(zoneSaid || "") !== zone) {
    const secure = location.protocol === "https:" ? "; secure" : "";
    document.cookie = `tz=${encodeURIComponent(zone)}; path=/; max-age=34560000; samesite=lax${secure}`;
  }
  function two(n) {
    return (n < 10 ? "0" : "") + n;
  }
  const MONTHS = { M: words("months.M").split(" "), N: words("months.N").split(" ") };
  // Django's format characters the pages' formats use (scorekeeper/formats), in the phone's zone.
  const PARTS = {
    j: (at) => at.getDate(),
    d: (at) => two(at.getDate()),
    n: (at) => at.getMonth() + 1,
    m: (at) => two(at.getMonth() + 1),
    M: (at) => MONTHS.M[at.getMonth()],
    N: (at) => MONTHS.N[at.getMonth()],
    Y: (at) => at.getFullYear(),
    G: (at) => at.getHours(),
    H: (at) => two(at.getHours()),
    i: (at) => two(at.getMinutes()),
    s: (at) => two(at.getSeconds()),
  };
  // A time as Django's format writes it (a backslash escapes a letter), or null for a letter it
  // does not know here: the time stays as the server wrote it.
  function formatted(at, format) {
    let text = "";
    for (let i = 0; i < format.length; i++) {
      const c = format.charAt(i);
      if (c === "\\") text += format.charAt(++i);
      else if (!/[a-zA-Z]/.test(c)) text += c;
      else if (PARTS[c]) text += PARTS[c](at);
      else return null;
    }
    return text;
  }
  // The offset (minutes east of UTC) the server wrote a time in: Django's "c" ends in +01:00 (or Z).
  function offsetOf(iso) {
    const m = /([+-])(\d\d):?(\d\d)$/.exec(iso);
    if (!m) return /Z$/.test(iso) ? 0 : null;
    return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  }
  document.querySelectorAll("time[datetime][data-format]").forEach((el) => {
    const iso = el.getAttribute("datetime");
    const at = new Date(iso);
    const written = offsetOf(iso);
    if (isNaN(at.getTime()) || written === null || written === -at.getTimezoneOffset()) return;
    const text = formatted(at, el.getAttribute("data-format"));
    if (text !== null) el.textContent = text;
  });

  // Copy and Share: the Web Share API where the phone has it, else the clipboard, else the text
  // selected for the phone's own copy.
  function copied(button, text) {
    const was = button.textContent;
    button.textContent = text;
    setTimeout(() => {
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
  document.querySelectorAll("input.share-url").forEach((input) => {
    const row = document.createElement("div");
    row.className = "share";
    const copy = document.createElement("button");
    copy.type = "button";
    copy.textContent = words("copy");
    copy.setAttribute("aria-label", words("copy.label", named(input.getAttribute("aria-label") || words("the link"))));
    copy.addEventListener("click", () => {
      const done = () => copied(copy, words("copied"));
      const fallback = () => {
        input.focus();
        input.select();
        try {
          if (document.execCommand("copy")) done();
        } catch {
          /* selected: the phone's own Copy does the rest */
        }
      };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).then(done, fallback);
      else fallback();
    });
    row.appendChild(copy);
    if (navigator.share) {
      const share = document.createElement("button");
      share.type = "button";
      share.textContent = words("share");
      share.setAttribute("aria-label", words("share.label", named(input.getAttribute("aria-label") || words("the link"))));
      share.addEventListener("click", () => {
        navigator.share({ title: "Oklahoma Scorekeeper", url: input.value }).catch(() => {
          /* the phone's share sheet was closed */
        });
      });
      row.appendChild(share);
    }
    input.insertAdjacentElement("afterend", row);
  });

  // "Deal 4 saved · Undo" stays a minute after the save, then goes (the undo stays in the history).
  const note = document.querySelector(".saved-note");
  if (note) {
    setTimeout(() => {
      note.hidden = true;
    }, 60000);
  }

  // A second tap confirms taking a phone or a link away (the table page).
  if (/^\/tables\/\d+\/$/.test(window.location.pathname)) {
    document.querySelectorAll("form button[type=submit].danger").forEach((button) => {
      const label = button.textContent;
      let armed = null;
      button.addEventListener("click", (event) => {
        if (armed) return; // the second tap: as asked
        event.preventDefault();
        button.textContent = words("tap again", { action: lower(label), Action: label });
        button.classList.add("armed");
        armed = setTimeout(() => {
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
    let store;
    try {
      store = window.localStorage;
    } catch {
      return; // no storage: no drafts
    }
    Object.keys(store).forEach((key) => {
      if (!key.startsWith("draft:")) return;
      try {
        if ((JSON.parse(store.getItem(key)) || {}).table === table) store.removeItem(key);
      } catch {
        /* a broken entry: drafts.js takes it for none */
      }
    });
  }
  const off = document.querySelector("[data-off-table]");
  if (off) dropDrafts(off.getAttribute("data-off-table"));

  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", () => {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
        /* no offline copy: the app works as before */
      });
    });
  }

  const awakePage = document.getElementById("live") || document.getElementById("deal-form");
  if (!awakePage || !("wakeLock" in navigator)) return;
  const KEY = "keep-screen-on";
  let lock = null;

  function wanted() {
    try {
      return localStorage.getItem(KEY) !== "off";
    } catch {
      return true;
    }
  }

  function hold() {
    if (!wanted() || lock || document.visibilityState !== "visible") return;
    navigator.wakeLock
      .request("screen")
      .then((sentinel) => {
        lock = sentinel;
        lock.addEventListener("release", () => {
          lock = null;
        });
      })
      .catch(() => {
        /* refused (battery saver, a hidden page): the screen dims as usual */
      });
  }

  function release() {
    if (lock) lock.release();
    lock = null;
  }

  // A toggle: its name says what it does, aria-pressed whether it is on.
  const button = document.createElement("button");
  button.type = "button";
  button.className = "wake";
  button.textContent = "☀";
  button.setAttribute("aria-label", words("keep screen on"));
  function show() {
    const on = wanted();
    button.setAttribute("aria-pressed", String(on));
    button.title = on ? words("screen stays on") : words("screen may dim");
  }
  button.addEventListener("click", () => {
    const on = !wanted();
    try {
      localStorage.setItem(KEY, on ? "on" : "off");
    } catch {
      /* not remembered: still switched for this page */
    }
    if (on) hold();
    else release();
    show();
  });
  // Beside the brand, on the header's first row: after the menu and the language switch it took a
  // third row on a German phone 360 px wide.
  const brand = document.querySelector("header.top .brand");
  if (brand) brand.after(button);
  show();
  hold();
  document.addEventListener("visibilitychange", hold);
})();
