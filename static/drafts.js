// Style, as in every script here: const/let (no var), arrow callbacks, named function declarations, strict mode.
/* Drafts: nothing typed into a deal is lost.

   The deal form (form[data-draft], its value naming the game and the deal) keeps what is typed in
   this phone's localStorage, restores it after a reload, a lost connection, an error page or a
   return to the form, and forgets it once the deal is saved. Each draft names its table (the
   form's data-table): a phone taken off the table drops them (static/app.js).

   With JavaScript, Save goes through fetch. Saved, the server redirects (to the game page) and the
   phone follows. Not saved (an error in the cards, a conflict, no right to score), the phone posts
   the form the ordinary way so that the server's page says why, the cards in it. No connection:
   "Not sent — your cards are kept", and the phone sends the deal again by itself when the connection
   is back; the form's submission token makes a repeat save count once. Without JavaScript the form
   posts as it always did. */
(function () {
  "use strict";
  const words = window.words; // static/app.js: the words of the page's language

  /* The drafts of a deal form (form[data-draft]): started on the page's form as the page loads; a page
     that builds its deal form later and saves the deal itself (the phone alone, static/alone/alone.js)
     starts them with window.startDrafts(form, save): Save then calls save(forget) instead of posting. */
  function start(form, save) {
    const KEY = `draft:${form.getAttribute("data-draft")}`;
    const MAX_AGE = 14 * 24 * 3600 * 1000; // a draft older than two weeks is forgotten
    const RETRY = 5000; // while offline, try again this often (the "online" event alone is not reliable)

    function fields() {
      return Array.from(form.elements).filter(
        (el) => el.name && el.name !== "csrfmiddlewaretoken" && !/^(submit|button|reset|file)$/.test(el.type)
      );
    }

    function isChoice(el) {
      return el.type === "checkbox" || el.type === "radio";
    }

    // name -> list of values: text fields in order, the checked values of choices (hidden fields too,
    // unless only what the player sees is asked for: the version and the submission token go back
    // with the cards, never alone).
    function values(seen) {
      const out = {};
      fields().forEach((el) => {
        if (seen && el.type === "hidden") return;
        const list = out[el.name] || (out[el.name] = []);
        if (!isChoice(el)) list.push(el.value);
        else if (el.checked) list.push(el.value);
      });
      return out;
    }

    function pristine() {
      return fields().every((el) => (isChoice(el) ? el.checked === el.defaultChecked : el.value === el.defaultValue));
    }

    function seenOf(saved) {
      const out = {};
      const seen = values(true);
      Object.keys(saved).forEach((name) => {
        if (name in seen) out[name] = saved[name];
      });
      return out;
    }

    function same(a, b) {
      return JSON.stringify(a) === JSON.stringify(b);
    }

    function load() {
      try {
        const draft = JSON.parse(localStorage.getItem(KEY) || "null");
        if (draft && Date.now() - draft.at < MAX_AGE && draft.values) return draft;
      } catch {
        /* a broken entry: as if none */
      }
      return null;
    }

    let initial = values();

    let done = false; // saved: nothing more to keep (pagehide comes after)

    function keep() {
      if (done) return;
      const now = values();
      if (same(now, initial) && !load()) return; // nothing typed yet
      try {
        localStorage.setItem(KEY, JSON.stringify({ at: Date.now(), values: now, table: form.getAttribute("data-table") }));
      } catch {
        /* storage full or refused: the form still works */
      }
    }

    function forget() {
      done = true;
      try {
        localStorage.removeItem(KEY);
      } catch {
        /* nothing to do */
      }
    }

    function restore(saved) {
      const seen = {};
      fields().forEach((el) => {
        const list = saved[el.name];
        if (!list) return;
        if (isChoice(el)) {
          el.checked = list.indexOf(el.value) !== -1;
        } else {
          const i = seen[el.name] || 0;
          seen[el.name] = i + 1;
          if (i < list.length) el.value = list[i];
        }
      });
    }

    // One line under the form's title: what happened to the draft, with an action where one helps.
    const status = document.createElement("div");
    status.className = "draft-status";
    status.setAttribute("role", "status");
    status.hidden = true;
    form.insertBefore(status, form.firstChild);

    function say(text, kind, action) {
      status.textContent = "";
      status.className = `draft-status ${kind || ""}`;
      const p = document.createElement("span");
      p.textContent = text;
      status.appendChild(p);
      if (action) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "link";
        b.textContent = action.label;
        b.addEventListener("click", action.run);
        status.appendChild(document.createTextNode(" "));
        status.appendChild(b);
      }
      status.hidden = false;
    }

    // Back on the form: what this phone typed comes back, unless the page already shows other work.
    const draft = load();
    if (draft && pristine() && !same(seenOf(draft.values), values(true))) {
      restore(draft.values);
      initial = values();
      say(words("restored", { time: words.time(draft.at) }), "", {
        label: words("start again"),
        run: () => {
          forget();
          window.location.replace(window.location.href); // the form as the server gives it
        },
      });
      // the picker and the live check see the restored cards
      const first = form.querySelector("input[type=text], textarea");
      (first || form).dispatchEvent(new Event("input", { bubbles: true }));
    }

    let timer = null;
    function later() {
      if (timer) clearTimeout(timer);
      timer = setTimeout(keep, 250);
    }
    form.addEventListener("input", later);
    form.addEventListener("change", later);
    window.addEventListener("pagehide", keep);

    // Saving.
    let sending = false;
    let retryTimer = null;
    function saveButtons() {
      return document.querySelectorAll(
        `button[type=submit][value=save][form="${form.id}"], #${form.id} button[type=submit][value=save]`
      );
    }

    function busy(on) {
      saveButtons().forEach((b) => {
        b.disabled = on;
        if (on) b.setAttribute("aria-busy", "true");
        else b.removeAttribute("aria-busy");
      });
      form.classList.toggle("sending", on);
    }

    function postTheOrdinaryWay() {
      const action = document.createElement("input");
      action.type = "hidden";
      action.name = "action";
      action.value = "save";
      form.appendChild(action);
      HTMLFormElement.prototype.submit.call(form);
    }

    function send() {
      if (sending) return;
      sending = true;
      if (retryTimer) clearTimeout(retryTimer);
      keep();
      const data = new FormData(form);
      data.append("action", "save");
      busy(true);
      say(words("sending"), "sending");
      const to = form.getAttribute("action") || window.location.href;
      fetch(to, { method: "POST", body: data, credentials: "same-origin", redirect: "follow" })
        .then((response) => {
          const there = new URL(response.url, window.location.href);
          const saved = response.redirected && there.pathname !== window.location.pathname;
          if (saved) {
            forget();
            // fetch drops the redirect's #deal-N: put it back from ?saved=N, so the page shows the deal
            const number = there.searchParams.get("saved");
            window.location.assign(number ? `${there.pathname}${there.search}#deal-${number}` : response.url);
            return;
          }
          // Not saved: the server's own page says why (errors beside the fields, a conflict, a refusal).
          postTheOrdinaryWay();
        })
        .catch(() => {
          sending = false;
          busy(false);
          say(words("not sent"), "bad", {
            label: words("try now"),
            run: send,
          });
          retryTimer = setTimeout(send, RETRY);
        });
    }

    form.addEventListener("submit", (event) => {
      const submitter = event.submitter;
      if (!submitter || submitter.value !== "save") return; // Preview and the rest: as before
      event.preventDefault();
      if (save) {
        keep();
        save(forget); // the page's own save: it forgets the draft once the deal is saved
        return;
      }
      send();
    });
    window.addEventListener("online", () => {
      if (retryTimer) send();
    });
    return { forget };
  }
  window.startDrafts = start;
  const form = document.querySelector("form[data-draft]");
  if (form && window.localStorage) start(form, null);
})();
