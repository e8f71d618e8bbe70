// Style, as in every script here: const/let (no var), arrow callbacks, named function declarations, strict mode.
/* The card picker of the deal form: a progressive enhancement of its typed card fields.

   Every card of the pack is one key, in a block of 7 columns × 8 rows: each suit on two rows,
   A–7 and 8–K, the spare cell of each suit's second row holding the Joker, undo, back and next.
   A key appends its card (record notation) to the target: one field at a time, in turn each
   player's melded cards and cards left in hand (Gin: the upcard, then each player's cards). Next
   and back step through them (the held cards of the player who went out are skipped); tapping any
   card field makes it the target. "=" names the last wild card with the next key tapped; "/"
   starts the next meld in a melds field. The keys show how many of each card are still unused
   (the pack's counts come from the engine) and a card used up cannot be tapped.

   While picking, the card fields take inputmode="none": tapping one never raises the phone's
   keyboard. "⌨" gives the keyboard (and folds the keys away) for those who prefer to type.
   The field being filled, with its live check, is kept in view above the picker.

   By keyboard: the picker follows its target field in the page (it is shown fixed at the bottom, but
   Tab goes from the field straight into it), inside the page's main landmark. The grid of keys is
   one Tab stop; the arrow keys, Home and End move inside it, and a key that is used up keeps the
   focus (it says so, and does nothing). The grid names the field its cards go to.
   No inline code or style (CSP). */
(function () {
  "use strict";
  /* The picker of a deal form (#deal-form, with #picker-slot): started on the page's form as the page
     loads; a page that builds its deal form later (the phone alone, static/alone/alone.js) starts it
     with window.startPicker(form, slot), which gives back the function that stops it. */
  function start(form, slot) {
    const pack = JSON.parse(slot.dataset.pack || "{}");
    const wilds = new Set((slot.dataset.wild || "").split(" ").filter(Boolean));
    const words = window.words; // static/app.js: the words of the page's language
    const SUITS = [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]];
    const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
    const SYMBOL = { "♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C" };
    const LABEL = { S: "♠", H: "♥", D: "♦", C: "♣" };
    // A key's name, as a player says the card: "queen of spades", "10 of hearts", "Joker" (German:
    // "Pik-Dame", "Herz-10"). The keys show the page's letters (German D♠), as the cards shown do.
    function spoken(code) {
      if (code === "JK") return words("joker");
      const rank = code.slice(0, -1);
      return words("card", { rank: /^[AJQK]$/.test(rank) ? words("rank." + rank) : rank, suit: words("suit." + code.slice(-1)) });
    }
    // The rank letters of the page's language (words "letter.Q": German D for Q, B for J; the
    // engine's, rules.messages.card_letters): shown on the keys, and read when typed, as the server
    // reads them. A key's card goes into the field in the record's notation (QS).
    const LETTER = {};
    const TYPED = {};
    ["A", "J", "Q", "K"].forEach((r) => {
      const said = words("letter." + r);
      LETTER[r] = said.length === 1 ? said : r;
      if (LETTER[r] !== r) TYPED[LETTER[r]] = r;
    });

    let target = null; // the input being filled
    let naming = -1; // the index of the wild card being named, in the target's tokens
    let typing = false;

    // ------------------------------------------------------------------ reading the fields
    function norm(token) {
      let t = token.toUpperCase().replace(/[♠♥♦♣♤♡♢♧]/g, (c) => SYMBOL[c]);
      if (t === "JOKER" || t === "JKR") return "JK";
      if (/^[A-Z][SHDC]$/.test(t) && TYPED[t[0]]) t = TYPED[t[0]] + t.slice(1);
      if (/^T[SHDC]$/.test(t)) t = "10" + t.slice(1);
      return t;
    }
    function tokens(input) { return input.value.trim().split(/[\s,;]+/).filter(Boolean); }
    function cardOf(token) { return norm(token.split("=")[0]); }
    function boxOf(input) { return input.closest(".cardfield"); }
    function kindOf(input) {
      const box = boxOf(input);
      return box ? ["melded", "held", "melds", "cards", "deadwood", "upcard"].find((k) => box.classList.contains(k)) : "";
    }
    function seatOf(input) { const box = boxOf(input); return box ? box.dataset.seat : undefined; }
    function fieldOf(seat, kind) { return form.querySelector(`.cardfield.${kind}[data-seat="${seat}"] input.cards`); }
    function allFields() { return Array.from(form.querySelectorAll(".cardfield input.cards")); }

    /* A player's melds field counts when it holds a split of the player's own (not the one shown
       for him): then it stands for his melded cards. */
    function splitGiven(melds) {
      const auto = form.querySelector(`input[name="${melds.name.replace(/melds$/, "auto")}"]`);
      const norm1 = (s) => s.toUpperCase().split(/\s+/).filter(Boolean).join(" ");
      return norm1(melds.value) !== "" && (!auto || norm1(melds.value) !== norm1(auto.value));
    }
    function used() {
      const n = {};
      allFields().forEach((input) => {
        const kind = kindOf(input);
        if (kind === "upcard") return; // the upcard is a card of the pack that someone may hold
        if ("splits" in form.dataset) { // the game splits a melded list: the melds typed, or the split shown, count once
          const melds = fieldOf(seatOf(input), "melds");
          const given = melds && splitGiven(melds);
          if ((kind === "melds" && !given) || (kind === "melded" && given)) return;
        }
        tokens(input).forEach((t) => { const c = cardOf(t.replace(/\//g, "")); if (c) n[c] = (n[c] || 0) + 1; });
      });
      return n;
    }

    // ------------------------------------------------------------------ the targets
    function outSeat() {
      const checked = form.querySelector("input[type=radio][name=out]:checked");
      return checked && /^\d+$/.test(checked.value) ? checked.value : null;
    }
    function cycle() {
      const out = outSeat();
      return Array.from(form.querySelectorAll(".cardfield.pick input.cards")).filter(
        (input) => !(kindOf(input) === "held" && out !== null && seatOf(input) === out)
      );
    }
    function step(by) {
      const order = cycle();
      if (!order.length) return;
      let i = order.indexOf(target);
      if (i < 0) {
        // from a field outside the cycle: to the next (previous) one in the page's order
        const all = allFields();
        const here = all.indexOf(target);
        const later = order.filter((input) => (by > 0 ? all.indexOf(input) > here : all.indexOf(input) < here));
        setTarget(later.length ? (by > 0 ? later[0] : later[later.length - 1]) : order[0]);
      } else {
        setTarget(order[Math.min(Math.max(i + by, 0), order.length - 1)]);
      }
      keepInView();
    }
    function setTarget(input) {
      if (target) boxOf(target).classList.remove("target");
      target = input || null;
      naming = -1;
      if (target) {
        const box = boxOf(target);
        box.classList.add("target");
        const details = box.closest("details");
        if (details && !details.open) details.open = true;
      }
      place();
      refresh();
    }

    // ------------------------------------------------------------------ changing the target
    function changed() {
      target.dispatchEvent(new Event("input", { bubbles: true }));
      refresh();
      keepInView();
    }
    function add(code) {
      if (!target) setTarget(cycle()[0]);
      if (!target) return;
      const list = tokens(target);
      if (naming >= 0 && naming < list.length) {
        list[naming] = list[naming].split("=")[0] + "=" + code;
        naming = -1;
        target.value = list.join(" ");
      } else {
        target.value = (target.value.replace(/\s+$/, "") + " " + code).trim();
      }
      changed();
      if (kindOf(target) === "upcard" && tokens(target).length >= 1) step(1);
    }
    function undo() {
      if (!target) return;
      if (naming >= 0) { naming = -1; refresh(); return; }
      const list = tokens(target);
      const last = list.pop();
      if (last === undefined) return;
      if (last.indexOf("=") > 0) list.push(last.split("=")[0]);
      else if (last.endsWith("/") && last.length > 1) list.push(last.slice(0, -1));
      target.value = list.join(" ");
      changed();
    }
    function lastWild() {
      const list = target ? tokens(target) : [];
      for (let i = list.length - 1; i >= 0; i--) {
        if (list[i].indexOf("=") < 0 && wilds.has(cardOf(list[i]))) return i;
      }
      return -1;
    }
    function nameWild() {
      naming = naming >= 0 ? -1 : lastWild();
      refresh();
    }
    function slash() {
      if (!target || kindOf(target) !== "melds") return;
      const v = target.value.replace(/\s+$/, "");
      if (v && !v.endsWith("/")) { target.value = v + " /"; changed(); }
    }

    // ------------------------------------------------------------------ the keys
    function el(tag, cls, text) {
      const e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined) e.textContent = text;
      return e;
    }
    function key(parent, text, label, fn, cls) {
      const b = el("button", cls || "", text);
      b.type = "button";
      if (label) b.setAttribute("aria-label", label);
      b.addEventListener("click", (e) => {
        if (b.getAttribute("aria-disabled") === "true") { e.preventDefault(); return; }
        fn(e);
      });
      parent.appendChild(b);
      return b;
    }
    const box = el("div", "picker");
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", words("card picker"));
    const bar = el("div", "pbar");
    const heading = el("div", "heading");
    const where = el("div", "target-name");
    where.setAttribute("aria-live", "polite");
    const sum = el("div", "psum"); // the preview's points, once the deal is complete: a line of its own
    heading.append(where);
    bar.appendChild(heading);
    const eq = key(bar, "=", words("name wild"), nameWild, "eq");
    const sl = key(bar, "/", words("next meld"), slash, "slash");
    const kb = key(bar, "⌨", words("type"), () => setTyping(!typing), "kbd");
    // The form's own verb: "Send" on a seated phone's hand (its button: "Send my hand"), else "Save".
    const verb = form.querySelector("button[name=action][value=save][data-verb]");
    const save = key(bar, words(verb ? verb.dataset.verb : "save"), "", () => {}, "primary save");
    save.type = "submit";
    save.name = "action";
    save.value = "save";
    save.setAttribute("form", "deal-form");
    bar.appendChild(sum); // after the keys of the bar, on a line of its own (every player's points)
    box.appendChild(bar);
    const grid = el("div", "pgrid");
    const cardKeys = [];
    let jk = null;
    SUITS.forEach(([s, symbol], i) => {
      RANKS.forEach((r, j) => {
        const code = r + s;
        const b = key(grid, "", "", () => add(code), "cardkey" + (s === "H" || s === "D" ? " red" : ""));
        b.dataset.code = code;
        b.append(el("span", "rank", LETTER[r] || r), el("span", "suit", symbol));
        b.title = `${LETTER[r] || r}${symbol} (${words("suit." + s)})`;
        cardKeys.push(b);
        if (j === 12) {
          if (i === 0) {
            if (pack.JK) {
              jk = key(grid, "JK", words("joker"), () => add("JK"), "cardkey joker");
              jk.dataset.code = "JK";
            } else {
              grid.appendChild(el("span", "spare"));
            }
          } else if (i === 1) key(grid, "⌫", words("undo card"), undo, "tool");
          else if (i === 2) key(grid, words("back"), words("back.label"), () => step(-1), "tool");
          else key(grid, words("next"), words("next.label"), () => step(1), "tool");
        }
      });
    });
    box.appendChild(grid);
    where.id = "picker-target";
    grid.setAttribute("role", "group");
    grid.setAttribute("aria-label", words("cards"));
    grid.setAttribute("aria-describedby", where.id);

    // ------------------------------------------------------------------ the grid by keyboard
    const COLUMNS = 7;
    function cells() { return Array.from(grid.children); }
    function focusable(b) { return b && b.tagName === "BUTTON" && !b.hidden; }
    let current = null; // the grid's one Tab stop
    function makeCurrent(b) {
      if (!focusable(b)) return;
      if (current && current !== b) current.tabIndex = -1;
      current = b;
      b.tabIndex = 0;
    }
    function moveBy(from, delta) {
      const all = cells();
      let i = all.indexOf(from);
      for (let n = 0; n < all.length; n++) {
        i += delta;
        if (i < 0 || i >= all.length) return null;
        if (focusable(all[i])) return all[i];
      }
      return null;
    }
    grid.addEventListener("keydown", (e) => {
      const from = e.target.closest("button");
      if (!from || from.parentNode !== grid) return;
      const all = cells();
      const i = all.indexOf(from);
      const rowStart = i - (i % COLUMNS);
      let to = null;
      if (e.key === "ArrowRight") to = moveBy(from, 1);
      else if (e.key === "ArrowLeft") to = moveBy(from, -1);
      else if (e.key === "ArrowDown") to = moveBy(from, COLUMNS);
      else if (e.key === "ArrowUp") to = moveBy(from, -COLUMNS);
      else if (e.key === "Home") to = all.slice(rowStart, rowStart + COLUMNS).find(focusable);
      else if (e.key === "End") to = all.slice(rowStart, rowStart + COLUMNS).reverse().find(focusable);
      else return;
      e.preventDefault();
      if (to) { makeCurrent(to); to.focus(); }
    });
    grid.addEventListener("focusin", (e) => { if (e.target.parentNode === grid) makeCurrent(e.target); });
    cells().forEach((b) => { if (b.tagName === "BUTTON") b.tabIndex = -1; });
    makeCurrent(cells().find(focusable));

    /* The picker sits right after its target field in the page (after the fold that holds it): Tab
       goes from the field into the picker, and from the picker on to the next field. */
    function place() {
      const anchor = target ? boxOf(target) : null;
      const after = anchor ? anchor.closest("details") || anchor : null;
      const focused = box.contains(document.activeElement) ? document.activeElement : null;
      if (after) {
        if (after.nextElementSibling !== box) after.after(box);
      } else if (box.parentNode !== form) {
        form.appendChild(box);
      }
      if (focused && document.activeElement !== focused) focused.focus({ preventScroll: true });
    }

    function labelOf(input) {
      const label = form.querySelector(`label[for="${input.id}"]`);
      return label ? label.textContent.trim() : input.name;
    }
    function refresh() {
      const n = used();
      const kind = target ? kindOf(target) : "";
      const counted = Object.values(pack).some((k) => k > 1);
      cardKeys.concat(jk ? [jk] : []).forEach((b) => {
        const code = b.dataset.code;
        const left = (pack[code] || 0) - (n[code] || 0);
        const shown = spoken(code);
        let badge = b.querySelector(".left");
        if (counted) {
          if (!badge) { badge = el("span", "left"); b.appendChild(badge); }
          badge.textContent = Math.max(left, 0).toLocaleString(document.documentElement.lang || "en");
        }
        // naming a wild card: any natural card may be named, whether or not it is still unused
        // a used-up key stays focusable (aria-disabled): the keyboard's focus is never dropped
        const off = naming >= 0 ? code === "JK" : left <= 0;
        if (off) b.setAttribute("aria-disabled", "true");
        else b.removeAttribute("aria-disabled");
        const unused = Math.max(left, 0);
        const count = words(unused === 1 ? "left.one" : "left.other", { n: unused });
        b.setAttribute("aria-label", shown + (counted ? ", " + count : left > 0 ? "" : ", " + words("used")));
      });
      eq.hidden = naming < 0 && lastWild() < 0; // shown while there is a wild card to name
      eq.setAttribute("aria-pressed", String(naming >= 0));
      sl.hidden = kind !== "melds";
      kb.setAttribute("aria-pressed", String(typing));
      box.classList.toggle("naming", naming >= 0);
      const rows = Array.from(document.querySelectorAll("#preview table.preview tbody tr:not(.cardrow)"));
      sum.textContent = rows.map((row) => `${row.cells[0].textContent} ${row.cells[1].textContent}`).join(" · ");
      if (!target) {
        where.textContent = words("tap a field");
      } else if (naming >= 0) {
        where.textContent = words("stands for", { card: tokens(target)[naming] });
      } else {
        const count = tokens(target).filter((t) => t !== "/").length;
        where.textContent = `${labelOf(target)}${count ? ` · ${count}` : ""}`;
      }
    }

    // ------------------------------------------------------------------ typing or picking
    function setTyping(on, start) {
      typing = on;
      box.classList.toggle("typing", on);
      document.documentElement.classList.toggle("picking", !on);
      allFields().forEach((input) => {
        if (on) input.removeAttribute("inputmode");
        else input.setAttribute("inputmode", "none");
      });
      kb.textContent = on ? words("cards") : "⌨";
      kb.setAttribute("aria-label", on ? words("pick") : words("type"));
      if (on && target) target.focus();
      else if (!on && !start && document.activeElement && document.activeElement.matches("input.cards")) {
        // back to picking: the keyboard goes (a focused field with inputmode "none" would not raise it again)
        document.activeElement.blur();
      }
      refresh();
      keepInView();
    }

    // ------------------------------------------------------------------ keeping the target in view
    function keepInView() {
      if (!target || typing) return;
      const area = boxOf(target).getBoundingClientRect();
      const field = target.getBoundingClientRect();
      const bottom = box.getBoundingClientRect().top - 8;
      const top = 8;
      if (area.bottom - area.top > bottom - top) {
        // taller than the room above the picker: the field itself at the top
        window.scrollBy(0, field.top - top - 24);
      } else if (area.bottom > bottom) {
        window.scrollBy(0, area.bottom - bottom);
      } else if (area.top < top) {
        window.scrollBy(0, area.top - top - 24);
      }
    }

    // ------------------------------------------------------------------ after the page changes
    function reattach() {
      // a field swapped in anew (its check showed the engine's split) stays the target
      if (target && !target.isConnected) {
        const again = form.querySelector(`input[name="${target.name}"]`);
        target = null;
        setTarget(again);
      }
    }
    function described() {
      reattach();
      // htmx replaces a field's feedback as it is checked: its input says whether it is in error
      allFields().forEach((input) => {
        const error = document.getElementById(`${input.id}_error`);
        const ids = [`${input.id}_check`].concat(error ? [error.id] : []);
        input.setAttribute("aria-describedby", ids.join(" "));
        if (error) input.setAttribute("aria-invalid", "true");
        else input.removeAttribute("aria-invalid");
        if (!typing) input.setAttribute("inputmode", "none");
      });
    }
    // in the same task as the swap: the page never shows (nor is measured) with the target moved away
    // (a page that checks its fields itself says so with "deal:checked" on the form: the phone alone)
    function swapped() { described(); refresh(); keepInView(); }
    document.body.addEventListener("htmx:afterSwap", swapped);
    document.body.addEventListener("htmx:oobAfterSwap", swapped);
    form.addEventListener("deal:checked", swapped);
    form.addEventListener("focusin", (e) => {
      if (e.target.matches && e.target.matches(".cardfield input.cards") && e.target !== target) {
        setTarget(e.target);
        keepInView();
      }
    });
    form.addEventListener("input", (e) => { if (!box.contains(e.target)) refresh(); });
    /* A check's one-tap fix (the engine's ways to name the wild cards, under the field): the field as
       checked becomes the field with its wild cards named, with any card tapped since kept after it. */
    function spelled(input) { return tokens(input).map((t) => (t === "/" ? t : norm(t))).join(" "); }
    form.addEventListener("click", (e) => {
      const fix = e.target.closest && e.target.closest("button.fix");
      const input = fix && document.getElementById(fix.dataset.field);
      if (!input) return;
      const now = spelled(input);
      const from = fix.dataset.from;
      if (now !== from && !now.startsWith(from + " ")) return; // changed since the check: a new one is coming
      naming = -1;
      input.value = fix.dataset.to + now.slice(from.length);
      input.dispatchEvent(new Event("input", { bubbles: true }));
      refresh();
      keepInView();
    });
    // once the deal is submitted, no check is sent after it (it would only race the save)
    let submitted = false;
    form.addEventListener("submit", () => { submitted = true; });
    function holdBack(e) { if (submitted) e.preventDefault(); }
    document.body.addEventListener("htmx:beforeRequest", holdBack);
    form.addEventListener("change", (e) => {
      if (e.target.name === "out") refresh();
    });
    const resized = window.ResizeObserver ? new ResizeObserver(() => keepInView()) : null;
    if (resized) resized.observe(form);

    // ------------------------------------------------------------------ start
    document.documentElement.classList.add("with-picker");
    form.appendChild(box); // inside the page's main landmark; place() moves it beside its target
    // After a failed save the first field in error has the focus (autofocus): it is the target.
    const active = document.activeElement;
    const invalid = allFields().find((input) => input.getAttribute("aria-invalid") === "true");
    setTyping(false, true);
    setTarget(active && active.matches(".cardfield input.cards") ? active : invalid || cycle()[0]);
    keepInView();

    // The form is gone (the phone alone leaves its deal form): the picker goes with it.
    return function stop() {
      document.body.removeEventListener("htmx:afterSwap", swapped);
      document.body.removeEventListener("htmx:oobAfterSwap", swapped);
      document.body.removeEventListener("htmx:beforeRequest", holdBack);
      if (resized) resized.disconnect();
      box.remove();
      document.documentElement.classList.remove("with-picker", "picking");
    };
  }
  window.startPicker = start;
  const form = document.getElementById("deal-form");
  const slot = document.getElementById("picker-slot");
  if (form && slot) start(form, slot);
})();
