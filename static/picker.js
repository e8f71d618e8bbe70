/* Card picker for the deal form: a progressive enhancement of the typed card fields.
   Tap a suit, then ranks; each tap appends the card (record notation) to the chosen field.
   For Oklahoma's double pack each card shows how many are still unused. No inline code (CSP). */
(function () {
  "use strict";
  var form = document.getElementById("deal-form");
  var slot = document.getElementById("picker-slot");
  if (!form || !slot) return;
  var double = slot.dataset.pack === "two";
  var SUITS = [["S", "♠", false], ["H", "♥", true], ["D", "♦", true], ["C", "♣", false]];
  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  var SYM = { "♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C" };
  var suit = "S";
  var target = null;

  function fields() { return Array.prototype.slice.call(form.querySelectorAll("input.cards:not(.single)")); }
  function norm(tok) {
    tok = tok.toUpperCase().replace(/[♠♥♦♣♤♡♢♧]/g, function (c) { return SYM[c]; });
    if (tok === "JOKER" || tok === "JKR") return "JK";
    if (/^T[SHDC]$/.test(tok)) tok = "10" + tok.slice(1);
    return tok;
  }
  function used() {
    var n = {};
    form.querySelectorAll("input.cards").forEach(function (inp) {
      inp.value.split(/[\s,;]+/).forEach(function (t) {
        if (!t) return;
        var c = norm(t.split("=")[0]);
        n[c] = (n[c] || 0) + 1;
      });
    });
    return n;
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  var box = el("div", "picker");
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", "Card picker");
  var head = el("div", "prow head");
  var where = el("div", "target-name");
  where.setAttribute("aria-live", "polite");
  head.appendChild(where);
  var fold = el("button", "", "Hide cards");
  fold.type = "button";
  fold.setAttribute("aria-expanded", "true");
  fold.addEventListener("click", function () {
    var hide = !box.classList.contains("collapsed");
    box.classList.toggle("collapsed", hide);
    fold.textContent = hide ? "Show cards" : "Hide cards";
    fold.setAttribute("aria-expanded", String(!hide));
  });
  head.appendChild(fold);
  var row1 = el("div", "prow"), row2 = el("div", "prow"), row3 = el("div", "prow");
  var suitButtons = [], rankButtons = [];

  function button(row, label, title, fn, cls) {
    var b = el("button", cls || "", label);
    b.type = "button";
    if (title) b.setAttribute("aria-label", title);
    b.addEventListener("click", fn);
    row.appendChild(b);
    return b;
  }
  SUITS.forEach(function (s) {
    var b = button(row1, s[1], { S: "spades", H: "hearts", D: "diamonds", C: "clubs" }[s[0]], function () {
      suit = s[0]; refresh();
    }, s[2] ? "red" : "");
    b.dataset.suit = s[0];
    suitButtons.push(b);
  });
  var jk = null, eq = null;
  if (double) {
    if (slot.dataset.joker) jk = button(row1, "JK", "Joker", function () { add("JK"); });
    else row1.appendChild(el("span"));
    eq = button(row1, "=", "the wild card just added stands for the next card tapped", function () {
      if (!target) return;
      var v = target.value.replace(/\s+$/, "");
      if (/(^|\s)(2[SHDC]|JK)$/i.test(v)) { target.value = v + "="; changed(); }
    });
  } else {
    button(row1, "▸", "next field", next);
    button(row1, "◂", "previous field", prev);
  }
  button(row1, "⌫", "remove the last card", function () {
    if (!target) return;
    var parts = target.value.trim().split(/\s+/);
    var last = parts.pop() || "";
    if (last.indexOf("=") > 0 && !/=$/.test(last)) parts.push(last.split("=")[0] + "=");
    target.value = parts.join(" ");
    changed();
  });
  RANKS.forEach(function (r, i) {
    var b = button(i < 7 ? row2 : row3, r, "", function () { add(r + suit); });
    b.dataset.rank = r;
    rankButtons.push(b);
  });
  button(row3, "Next", "next field", next);

  function add(code) {
    if (!target) setTarget(fields()[0]);
    if (!target) return;
    var v = target.value.replace(/\s+$/, "");
    target.value = /=$/.test(v) ? v + code : (v ? v + " " : "") + code;
    changed();
  }
  function changed() {
    target.dispatchEvent(new Event("input", { bubbles: true }));
    refresh();
  }
  function setTarget(inp) {
    if (target) target.classList.remove("target");
    target = inp || null;
    if (target) {
      target.classList.add("target");
      var label = form.querySelector('label[for="' + target.id + '"]');
      where.textContent = "Adding to: " + (label ? label.textContent : target.name);
    }
  }
  function show() { if (target) target.scrollIntoView({ block: "center", behavior: "smooth" }); }
  function next() { var f = fields(); setTarget(f[(f.indexOf(target) + 1) % f.length]); show(); }
  function prev() { var f = fields(); setTarget(f[(f.indexOf(target) - 1 + f.length) % f.length]); show(); }
  function refresh() {
    var n = used();
    suitButtons.forEach(function (b) { b.setAttribute("aria-pressed", String(b.dataset.suit === suit)); });
    var symbol = { S: "♠", H: "♥", D: "♦", C: "♣" }[suit];
    var red = suit === "H" || suit === "D";
    rankButtons.forEach(function (b) {
      var code = b.dataset.rank + suit;
      var left = (double ? 2 : 1) - (n[code] || 0);
      b.textContent = b.dataset.rank;
      b.classList.toggle("red", red);
      var s = el("span", "left", double ? String(Math.max(left, 0)) : "");
      b.appendChild(s);
      b.disabled = left <= 0;
      b.setAttribute("aria-label", b.dataset.rank + symbol + (double ? ", " + Math.max(left, 0) + " left" : left > 0 ? "" : ", used"));
    });
    if (jk) {
      var jl = 1 - (n.JK || 0);
      jk.disabled = jl <= 0;
      jk.setAttribute("aria-label", "Joker, " + Math.max(jl, 0) + " left");
    }
  }
  form.addEventListener("focusin", function (e) {
    if (e.target.matches && e.target.matches("input.cards:not(.single)")) setTarget(e.target);
  });
  form.addEventListener("input", function () { refresh(); });
  box.appendChild(head); box.appendChild(row1); box.appendChild(row2); box.appendChild(row3);
  document.body.appendChild(box);
  setTarget(fields()[0]);
  refresh();
})();
