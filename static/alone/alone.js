// Style, as in every script here: const/let (no var), arrow callbacks, named function declarations, strict mode.
/* The phone alone (/alone/): a whole game on this phone with no server. The rules engine runs here
   (static/alone/worker.mjs: Pyodide in a Web Worker, the project's scorekeeper/rules): it checks every
   card field as it fills (the same checks as the table's deal form), plays each deal and explains
   every line with its rule and source. No rule is written here: this script builds the pages, keeps
   the games (IndexedDB, one record each, RECORD.md) and hands a game to the table when asked.

   The deal form is the table's: the same fields and classes, the card picker (picker.js) and the
   drafts (drafts.js), started on it with their hooks. Where the page is: its address's hash (#new,
   #game/ID, #deal/ID/N, #points/ID/N), so a reload comes back to it.

   Test hook: window.scorekeeperAlone.ready (a Promise: the engine is ready, offline too) and
   .score(record) (a Promise of manage.py score's JSON for it). No inline code or style (CSP). */
(function () {
  "use strict";
  const root = document.getElementById("alone");
  if (!root) return;
  const W = JSON.parse(document.getElementById("alone-words").textContent);
  const setup = JSON.parse(document.getElementById("alone-setup").textContent);
  const lang = document.documentElement.lang || "en";
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, name) => (values && name in values ? values[name] : all));
  const say = (key, values) => fill(Object.prototype.hasOwnProperty.call(W, key) ? W[key] : key, values);
  const number = (n) => (Number(n) < 0 ? "−" : "") + Math.abs(Number(n)).toLocaleString(lang); // a true minus sign
  const signed = (n) => (n > 0 ? "+" + number(n) : n < 0 ? "−" + number(-n) : "0");
  const status = document.getElementById("engine-status");

  // ------------------------------------------------------------------ the engine, in its worker
  let worker = null;
  let asked = new Map();
  let seq = 0;
  let ready = null;
  function startEngine() {
    worker = new Worker(new URL(setup.worker, location.href), { type: "module" });
    worker.postMessage({ init: { pyodide: new URL(setup.pyodide, location.href).href, engine: new URL(setup.engine, location.href).href, lang } });
    asked = new Map();
    ready = new Promise((resolve, reject) => {
      worker.addEventListener("message", (event) => {
        const m = event.data;
        if (m.ready) resolve(true);
        else if (m.failed) reject(new Error(m.failed));
        else if (asked.has(m.id)) {
          const [ok, fail] = asked.get(m.id);
          asked.delete(m.id);
          if ("error" in m) fail(new Error(m.error));
          else ok(JSON.parse(m.value));
        }
      });
      worker.addEventListener("error", (e) => reject(new Error(e.message || "worker")));
    });
    ready.then(
      () => { status.textContent = say("ready"); status.classList.remove("bad"); },
      (e) => { status.textContent = say("failed", { error: e.message }); status.classList.add("bad"); }
    );
    hook.ready = Promise.all([ready, kept]).then(() => true);
    return hook.ready;
  }
  function ask(call, ...args) {
    return ready.then(() => new Promise((ok, fail) => {
      const id = ++seq;
      asked.set(id, [ok, fail]);
      worker.postMessage({ id, call, args });
    }));
  }
  // Everything the page needs, kept by this phone (the service worker answers from it offline)
  const kept = "caches" in window && window.isSecureContext
    ? caches.open(setup.cache).then(async (cache) => {
      const missing = [];
      for (const url of setup.keep) if (!(await cache.match(url))) missing.push(url);
      await cache.addAll(missing);
      const old = (await caches.keys()).filter((k) => k.startsWith("alone-") && k !== setup.cache);
      await Promise.all(old.map((k) => caches.delete(k)));
    }).catch(() => undefined) // offline: what was kept before serves
    : Promise.resolve();
  const hook = (window.scorekeeperAlone = {
    ready: null, // the engine answers and everything is kept: it scores offline
    score: (record) => ask("score", JSON.stringify(record)),
    scoreMany: (records) => ask("score_many", JSON.stringify(records.map((r) => JSON.stringify(r)))),
    ask: ask,
    games: () => allGames(), // the games kept on this phone (IndexedDB), as records with their keys
    // a new worker, as after the phone dropped it (the tests: the games stay in IndexedDB)
    restart: () => { worker.terminate(); return startEngine(); },
  });
  startEngine();

  // ------------------------------------------------------------------ the games, in IndexedDB
  // asked once: the browser then keeps the games (and the engine) when it runs short of room
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => undefined);
  const DB = new Promise((resolve, reject) => {
    const open = indexedDB.open("scorekeeper-alone", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("games", { keyPath: "id" });
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  function store(mode, fn) {
    return DB.then((db) => new Promise((resolve, reject) => {
      const tx = db.transaction("games", mode);
      const request = fn(tx.objectStore("games"));
      tx.oncomplete = () => resolve(request && request.result);
      tx.onerror = () => reject(tx.error);
    }));
  }
  const allGames = () => store("readonly", (s) => s.getAll());
  const getGame = (id) => store("readonly", (s) => s.get(id));
  const putGame = (game) => { game.updated = Date.now(); return store("readwrite", (s) => s.put(game)); };
  const dropGame = (id) => store("readwrite", (s) => s.delete(id));
  function newKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
  }

  // ------------------------------------------------------------------ building the pages
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => {
      if (v === null || v === undefined || v === false) return;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    });
    children.flat(Infinity).forEach((c) => { if (c !== null && c !== undefined && c !== false) e.append(c); });
    return e;
  }
  // a printed card, as the server's chips print it (table/templatetags/cards.py): in the page's rank
  // letters (the app's words "letter.Q": German D♠, B♥; rules.messages.card_text)
  const letter = (rank) => { const said = window.words("letter." + rank); return said.length === 1 ? said : rank; };
  function chip(label) {
    const suit = (label.match(/[♠♥♦♣]/) || [""])[0];
    const cls = label.startsWith("JK") ? "card joker" : "♥♦".includes(suit) && suit ? "card red" : "card";
    return el("span", { class: cls, text: label.replace(/(^|[^0-9A-Za-z])([AJQK])(?=[♠♥♦♣])/g, (all, before, rank) => before + letter(rank)) });
  }
  const LABEL = { S: "♠", H: "♥", D: "♦", C: "♣" };
  // a card of the result as printed (the result names cards by their labels, 5♠, or codes, 5S)
  const labelOf = (code) => code.split("=").map((c) => (c === "JK" ? c : c.slice(0, -1) + (LABEL[c.slice(-1)] || c.slice(-1)))).join("=");
  const chips = (codes) => codes.map((c) => [chip(labelOf(c)), " "]);
  const views = ["games", "new", "game", "deal"];
  function show(name) {
    views.forEach((v) => { document.getElementById(v + "-view").hidden = v !== name; });
    if (name !== "deal") leaveForm();
    window.scrollTo(0, 0);
  }
  function go(hash) {
    if (location.hash === hash) route();
    else location.hash = hash;
  }

  // ------------------------------------------------------------------ the list of games
  function titleOf(game) {
    const r = game.record;
    const name = document.querySelector(`.tab[data-game="${r.game}"]`).textContent;
    return `${name} · ${r.players.join(", ")}`;
  }
  async function showGames() {
    show("games");
    const games = (await allGames()).sort((a, b) => b.updated - a.updated);
    const list = document.getElementById("games-list");
    list.replaceChildren(...games.map((g) => el("li", {},
      el("a", { href: "#game/" + g.id, text: titleOf(g) }),
      " ",
      el("span", { class: "muted", text: [
        say("deal", { number: g.record.deals.length }),
        g.winner ? say("won by", { winner: g.winner }) : say("in progress"),
        g.handed ? say("handed", { number: g.handed.game }) : "",
      ].filter(Boolean).join(" · ") }))));
    document.getElementById("no-games").hidden = games.length > 0;
  }

  // ------------------------------------------------------------------ a new game
  let newKind = document.querySelector(".alone-new").dataset.game;
  function showNew() {
    show("new");
    document.querySelectorAll("#new-view .tab").forEach((t) => {
      t.classList.toggle("current", t.dataset.game === newKind);
      t.setAttribute("aria-pressed", String(t.dataset.game === newKind));
    });
    document.querySelectorAll(".alone-new").forEach((f) => { f.hidden = f.dataset.game !== newKind; });
  }
  document.querySelectorAll("#new-view .tab").forEach((t) => t.addEventListener("click", () => { newKind = t.dataset.game; showNew(); }));
  document.getElementById("to-new").addEventListener("click", () => go("#new"));
  document.querySelectorAll(".to-games").forEach((b) => b.addEventListener("click", () => go("")));
  document.querySelectorAll(".alone-new").forEach((form) => form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const seats = [];
    for (let i = 0; data.has("seat_" + i); i++) seats.push(String(data.get("seat_" + i)).trim());
    const options = {};
    for (const [name, value] of data.entries()) {
      if (name.startsWith("opt_") && value !== "") options[name.slice(4)] = String(value);
    }
    if (String(data.get("target") || "").trim()) options.target = String(data.get("target")).trim();
    const header = { game: form.dataset.game, profile: data.get("profile"), seats, first_dealer: data.get("first_dealer"), options };
    const answer = await ask("new_game", JSON.stringify(header));
    const errors = form.querySelector(".errors");
    if (answer.errors) {
      errors.replaceChildren(...answer.errors.map((e) => el("p", { text: e.text })));
      errors.hidden = false;
      errors.scrollIntoView();
      return;
    }
    errors.hidden = true;
    const game = { id: newKey(), key: newKey(), record: answer.record, created: Date.now(), handed: null };
    await putGame(game);
    form.reset();
    go("#game/" + game.id);
  }));

  // ------------------------------------------------------------------ a game
  async function played(game) {
    const answer = await ask("play", game.id, JSON.stringify(game.record));
    if (answer.result) {
      game.winner = answer.result.winner;
      game.state = answer.result.state;
    }
    return answer;
  }
  function board(game, result) {
    const r = game.record;
    const last = result.deals[result.deals.length - 1];
    // each player's total and the race to the target (penalty points: toward the end of the game)
    const rows = r.players.map((name) => el("tr", {},
      el("th", { scope: "row", text: name }),
      el("td", { class: "n", text: number(result.totals[name]) + (result.side && result.side[name] ? ` (${say("side", { side: number(result.side[name]) })})` : "") }),
      el("td", {}, el("progress", { max: String(result.target), value: String(Math.max(0, Math.min(result.totals[name], result.target))),
        "aria-label": `${name}: ${number(result.totals[name])} / ${number(result.target)}` }))));
    const parts = [el("table", { class: "preview board" }, el("tbody", {}, rows))];
    if (result.winner) parts.unshift(el("div", { class: "winner", role: "status" }, el("strong", { text: say("winner is", { name: result.winner }) })));
    else if (last && last.next_dealer) parts.push(el("p", { class: "status", text: say("deals next", { name: last.next_dealer }) }));
    if (result.final_lines) {
      parts.push(el("h3", { text: say("final") }));
      Object.entries(result.final_lines).forEach(([name, lines]) => parts.push(lineTable(name, lines, result.final[name])));
    }
    return el("section", { id: "board" }, parts);
  }
  function lineTable(name, lines, total, side) {
    const rows = lines.map((l) => el("tr", {}, el("td", { text: l.label }), el("td", { class: "n", text: signed(l.points) }),
      el("td", {}, el("span", { class: l.basis === "ruling" || l.basis === "option" ? "cite " + l.basis : "cite", text: l.cite }))));
    (side || []).forEach((l) => rows.push(el("tr", { class: "side" }, el("td", { text: l.label }), el("td", { class: "n", text: signed(l.points) }), el("td", {}, el("span", { class: "cite", text: l.cite })))));
    return el("section", { class: "player-deal", "aria-label": name },
      el("h4", { class: "who" }, name, " ", el("span", { class: "value", text: signed(total) })),
      el("table", { class: "lines" }, el("tbody", {}, rows)));
  }
  function dealSection(game, deal, index) {
    const head = `${say("deal", { number: deal.number })}: ${deal.outcome_text}${deal.multiplier > 1 ? " ×" + deal.multiplier : ""}`;
    const players = Object.entries(deal.players).map(([name, p]) => {
      const cards = [];
      (p.melds || []).forEach((m) => cards.push(el("span", { class: "meld" }, chips(m)), " "));
      if (p.held && p.held.length) cards.push(el("span", { class: "muted small", text: say("in hand") }), " ", chips(p.held));
      if (p.deadwood && p.deadwood.length) cards.push(el("span", { class: "muted small", text: say("deadwood") }), " ", chips(p.deadwood));
      return [cards.length ? el("p", { class: "cardrow" }, cards) : null, lineTable(name, p.lines, p.points, p.side_lines)];
    });
    return el("details", { class: "deal", id: "deal-" + deal.number },
      el("summary", {}, head, " · ", Object.entries(deal.players).map(([n, p]) => `${n} ${signed(p.points)}`).join(" · ")),
      deal.notes.map((n) => el("p", { class: "muted", text: n })),
      players,
      el("p", {}, el("a", { href: `#${game.record.deals[index].points ? "points" : "deal"}/${game.id}/${deal.number}`, text: say("edit") })));
  }
  let note = ""; // what the game page says once: "Deal 3 saved."
  async function showGame(id) {
    const said = note;
    note = "";
    const game = await getGame(id);
    if (!game) return go("");
    const view = document.getElementById("game-view");
    show("game");
    view.replaceChildren(el("h2", { text: titleOf(game) }), el("p", { class: "muted", text: "…" }));
    const answer = await played(game);
    await putGame(game);
    const next = game.record.deals.length + 1;
    const over = game.state === "finished" || !!game.winner;
    const parts = [el("h2", { text: titleOf(game) })];
    if (said) parts.push(el("p", { class: "saved-note", role: "status", text: said }));
    if (answer.errors) parts.push(el("div", { class: "errors", role: "alert" }, answer.errors.map((e) => el("p", { text: e.text }))));
    else parts.push(board(game, answer.result));
    const actions = el("p", { class: "actions" });
    if (!over) {
      actions.append(el("a", { class: "button primary", href: `#deal/${id}/${next}`, text: say("enter deal", { number: next }) }), " ",
        el("a", { class: "button", href: `#points/${id}/${next}`, text: say("points only") }), " ");
    }
    if (game.record.deals.length) {
      actions.append(el("button", { type: "button", text: say("undo"), onclick: async () => {
        const n = game.record.deals.length;
        game.record.deals.pop();
        await putGame(game);
        note = say("undone", { number: n });
        showGame(id);
      } }));
    }
    parts.push(actions);
    parts.push(handOverBox(game));
    if (answer.result) parts.push(...answer.result.deals.map((d, i) => dealSection(game, d, i)).reverse());
    parts.push(el("p", {}, el("a", { href: "#", text: say("all games") })));
    let armed = false;
    parts.push(el("p", {}, el("button", { type: "button", class: "danger", text: say("delete"), onclick: async (e) => {
      if (!armed) { armed = true; e.target.textContent = say("confirm delete"); return; }
      await dropGame(id);
      go("");
    } })));
    view.replaceChildren(...parts);
  }

  // ------------------------------------------------------------------ handing a game to the table
  function handOverBox(game) {
    const box = el("section", { class: "hand-over", "aria-live": "polite" });
    const said = el("div", { role: "status" });
    const button = el("button", { type: "button", class: "primary", text: say("hand over") });
    function handed(h) {
      said.replaceChildren(say("handed", { number: h.game }), " ", el("a", { href: h.url, text: say("open it") }));
    }
    if (game.handed) handed(game.handed);
    let sending = false;
    button.addEventListener("click", async () => {
      if (sending) return; // a second tap while the first is on its way: the first answers
      sending = true;
      button.setAttribute("aria-busy", "true");
      said.textContent = say("sending");
      try {
        const response = await fetch(setup.handOver, {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": root.dataset.csrf },
          body: JSON.stringify({ key: game.key, record: game.record }),
        });
        // the view answers JSON; a limit (429), a stale CSRF cookie (403) or a read-only database (503) a page
        const answer = (response.headers.get("Content-Type") || "").startsWith("application/json") ? await response.json() : null;
        if (response.ok && answer) {
          game.handed = { game: answer.game, url: answer.url };
          await putGame(game);
          handed(game.handed);
        } else if (answer) {
          said.replaceChildren(el("p", { class: "bad", text: say("refused") }),
            ...(answer.errors || []).map((e) => el("p", { class: "bad", text: e.message })));
        } else {
          const minutes = Math.max(1, Math.ceil(Number(response.headers.get("Retry-After") || 60) / 60));
          said.replaceChildren(el("p", { class: "bad",
            text: response.status === 429 ? say("too many", { minutes }) : say("not taken", { status: response.status }) }));
        }
      } catch (e) {
        said.replaceChildren(el("p", { class: "bad", text: say("no connection") }));
      } finally {
        sending = false;
        button.removeAttribute("aria-busy");
      }
    });
    box.append(el("h3", { text: say("hand over") }), el("p", { class: "hint", text: say("hand over hint") }), button, said);
    return box;
  }

  // ------------------------------------------------------------------ the deal form (the table's)
  let stopPicker = null;
  function leaveForm() {
    if (stopPicker) stopPicker();
    stopPicker = null;
  }
  function cardField(kind, header, name, seat, who, pick, single) {
    const id = seat === null ? "id_" + name : `id_p-${seat}-${name}`;
    const input = el("input", { type: "text", name: seat === null ? name : `p-${seat}-${name}`, id, class: single ? "cards single" : "cards",
      autocomplete: "off", autocapitalize: "characters", autocorrect: "off", spellcheck: "false", maxlength: single ? "12" : "200",
      "aria-describedby": id + "_check" });
    return el("div", { class: `cardfield ${name}${pick ? " pick" : ""}`, id: id + "_box", "data-seat": seat === null ? null : String(seat) },
      el("label", { for: id }, who ? el("span", { class: "vh", text: who + ": " }) : null, say(`${kind}.${name}`)),
      input,
      (setup.forms[kind].companions[name] || []).map((c) => el("input", { type: "hidden", name: `p-${seat}-${c}` })),
      el("div", { class: "feedback", id: id + "_feedback", "aria-live": "polite" }, el("div", { class: "check", id: id + "_check" })));
  }
  function radio(name, value, text) {
    const id = `id_${name}_${value}`;
    return el("label", { class: "pill", for: id }, el("input", { type: "radio", name, value, id }), " ", text);
  }
  function check(name, text, small) {
    const id = "id_" + name;
    return el("label", { class: small ? "pill small" : "pill", for: id }, el("input", { type: "checkbox", name, id, value: "on" }), " ", text);
  }
  async function showDeal(id, n, points) {
    const game = await getGame(id);
    if (!game) return go("");
    const r = game.record;
    const kind = r.game;
    const header = JSON.stringify({ game: r.game, rules: r.rules, players: r.players, first_dealer: r.first_dealer });
    const editing = n <= r.deals.length;
    const view = document.getElementById("deal-view");
    show("deal");
    const form = el("form", { id: "deal-form", class: "deal-form", novalidate: true,
      "data-game": kind, "data-draft": `alone-${id}-${points ? "points" : "deal"}-${n}` });
    const errs = el("div", { class: "errs", id: "deal-errors", role: "alert" });
    form.append(errs);
    if (points) {
      r.players.forEach((name, i) => form.append(el("div", { class: "row" }, el("label", { for: "id_points-" + i, text: name }),
        el("input", { type: "text", inputmode: "numeric", name: "points-" + i, id: "id_points-" + i, autocomplete: "off" }),
        el("div", { class: "errs", id: `points-${i}_errors` }))));
      const winner = el("select", { name: "winner", id: "id_winner" }, el("option", { value: "", text: say("nobody deals again") }),
        r.players.map((name, i) => el("option", { value: String(i), text: name })));
      form.append(el("div", { class: "row" }, el("label", { for: "id_winner", text: say("winner") }), winner));
    } else {
      // the game's deal form as the table's is made (setup.forms: alone/views.deal_forms), field by field
      const shape = setup.forms[kind];
      const { actor } = shape;
      const facts = el("fieldset", { class: "facts", id: "facts" }, el("legend", { text: say(kind + ".legend") }),
        el("p", { class: "hint", text: say(kind + ".asked") }),
        shape.card_facts.map((f) => cardField(kind, header, f, null, "", true, true)),
        el("div", { class: "errs", id: actor + "_errors" }),
        radio(actor, shape.nobody, say(kind + ".nobody")),
        shape.flags.map((f) => check(f, say(`${kind}.${f}`))));
      if (shape.facts_first) form.append(facts);
      r.players.forEach((name, seat) => {
        form.append(el("fieldset", { class: "player", id: "player-" + seat }, el("legend", { text: name }),
          el("div", { class: "errs", id: `p-${seat}_errors` }),
          el("label", { class: "pill actor", for: `id_${actor}_${seat}` },
            el("input", { type: "radio", name: actor, value: String(seat), id: `id_${actor}_${seat}` }), " ",
            say(kind + ".ended", { name })),
          shape.primary.map((f) => cardField(kind, header, f, seat, name, true)),
          el("details", { class: "split" }, el("summary", { text: say(kind + ".extra") }),
            shape.extra.map((f) => cardField(kind, header, f, seat, name, false)),
            shape.hand_flags.map((f) => check(`p-${seat}-${f}`, say(`${kind}.${f}`), true)))));
      });
      if (!shape.facts_first) form.append(facts);
      const { pack, wild } = await ask("pack", header);
      form.append(el("div", { id: "picker-slot", "data-pack": JSON.stringify(pack), "data-wild": wild.join(" ") }));
    }
    const preview = el("section", { id: "preview", "aria-live": "polite" }, el("h2", { text: say("preview") }),
      el("p", { class: "muted", text: say("preview empty") }));
    form.append(preview, el("div", { class: "actions" },
      el("button", { type: "submit", name: "action", value: "save", class: "primary", text: say("save deal") }),
      el("a", { href: "#game/" + id, text: say("cancel") })));
    view.replaceChildren(el("h1", { text: say("deal", { number: n }) + (points ? " · " + say("points only") : "") }), form);
    if (editing) await fillFrom(form, header, r.deals[n - 1], r.players, points);
    let drafts = null;
    const saveDeal = async (forget) => {
      if (form.hasAttribute("aria-busy")) return; // a second tap while the first is answered: one save
      form.setAttribute("aria-busy", "true");
      try {
        await saveOnce(forget, document.activeElement);
      } finally {
        form.removeAttribute("aria-busy");
      }
    };
    const saveOnce = async (forget, from) => {
      const built = await build(form, header, points, from);
      if (!built) return;
      const before = game.record;
      game.record = JSON.parse(JSON.stringify(before));
      game.record.deals.splice(n - 1, editing ? 1 : 0, built.deal);
      const answer = await played(game);
      if (answer.errors) {
        game.record = before;
        showErrors(form, answer.errors, from);
        return;
      }
      await putGame(game);
      forget();
      note = say("saved", { number: n });
      go("#game/" + id);
    };
    if (window.localStorage && window.startDrafts) drafts = window.startDrafts(form, saveDeal);
    if (!drafts) form.addEventListener("submit", (e) => { e.preventDefault(); saveDeal(() => {}); });
    if (!points && window.startPicker) stopPicker = window.startPicker(form, document.getElementById("picker-slot"));
    if (!points) live(form, header, game, n, editing);
  }
  // a saved deal in the form, as the table's form shows one for an edit (phone.form_values)
  async function fillFrom(form, header, deal, players, points) {
    const shown = points
      ? Object.fromEntries([...players.map((name, i) => ["points-" + i, String((deal.points || {})[name] ?? "")]),
        ["winner", deal.winner ? String(players.indexOf(deal.winner)) : ""]])
      : await ask("form_values", header, JSON.stringify(deal));
    Object.entries(shown).forEach(([name, value]) => {
      const field = form.elements.namedItem(name);
      if (field instanceof RadioNodeList) [...field].forEach((f) => { f.checked = f.value === String(value); });
      else if (field && field.type === "checkbox") field.checked = !!value;
      else if (field) field.value = value ?? "";
    });
  }
  function values(form) {
    const out = {};
    Array.from(form.elements).forEach((e) => {
      if (!e.name || e.type === "submit") return;
      if (e.type === "radio" || e.type === "checkbox") { if (e.checked) out[e.name] = e.type === "checkbox" ? true : e.value; } else out[e.name] = e.value;
    });
    return out;
  }
  // what the table's form says of a fact not given or a field of one card holding more (alone/words.py)
  const SAID = Object.fromEntries(Object.values(setup.forms).flatMap((shape) => [shape.actor, ...shape.card_facts])
    .map((f) => ["no " + f, say("no " + f)]).concat([["one card", say("one card")]]));
  async function build(form, header, points, from) {
    clearErrors(form);
    const answer = points ? await ask("points_deal", header, JSON.stringify(values(form)))
      : await ask("deal_of", header, JSON.stringify(values(form)), JSON.stringify(SAID));
    if (answer.problems) {
      showErrors(form, Object.entries(answer.problems).flatMap(([place, texts]) => texts.map((text) => ({ place, text }))), from);
      return null;
    }
    return answer;
  }
  function clearErrors(form) {
    form.querySelectorAll(".errorlist").forEach((e) => e.remove());
    form.querySelectorAll("[aria-invalid]").forEach((e) => e.removeAttribute("aria-invalid"));
    document.getElementById("deal-errors").replaceChildren();
  }
  // each error beside its field, as the table's form shows it (a ul.errorlist, the field's _error id)
  function showErrors(form, errors, from) {
    clearErrors(form);
    let first = null;
    errors.forEach((e) => {
      const input = e.place ? form.querySelector(`#id_${CSS.escape(e.place)}`) : null;
      const seat = (e.place || "").match(/^p-(\d+)-$/);
      const holder = (input && (document.getElementById(input.id + "_feedback") || input.parentNode))
        || (seat && (document.getElementById(`p-${seat[1]}_errors`) || document.getElementById(`points-${seat[1]}_errors`)))
        || (e.place && document.getElementById(`${e.place}_errors`)) || document.getElementById("deal-errors");
      let list = holder.querySelector(":scope > .errorlist");
      if (!list) {
        list = el("ul", { class: "errorlist", id: input ? input.id + "_error" : null });
        holder.append(list);
      }
      list.append(el("li", { text: e.text }));
      if (input) input.setAttribute("aria-invalid", "true");
      first = first || input || holder;
    });
    const preview = document.getElementById("preview");
    preview.replaceChildren(el("h2", { text: say("preview") }), el("p", { class: "bad", text: say("not valid") }));
    form.dispatchEvent(new Event("deal:checked"));
    // the first error shown, unless the player has moved on since Save was tapped (``from``: where they were)
    if (first && document.activeElement === from) {
      if (first.matches("input")) first.focus();
      else first.scrollIntoView({ block: "center" });
    }
  }
  // the live checks: each card field checked by the engine as it fills, then the deal previewed
  function live(form, header, game, n, editing) {
    let timer = null;
    let round = 0;
    async function checkAll() {
      const mine = ++round;
      const inputs = Array.from(form.querySelectorAll(".cardfield input.cards"));
      const checks = await Promise.all(inputs.map((input) => {
        const melds = input.name.endsWith("-melded") ? form.elements.namedItem(input.name.replace(/melded$/, "melds")) : null;
        const auto = melds ? form.elements.namedItem(input.name.replace(/melded$/, "auto")) : null;
        const given = melds && melds.value.trim() && (!auto || melds.value.trim().toUpperCase() !== auto.value.trim().toUpperCase());
        return ask("check", header, input.name.replace(/^p-\d+-/, ""), input.value, !given);
      }));
      if (mine !== round) return;
      clearErrors(form);
      inputs.forEach((input, i) => renderCheck(form, input, checks[i]));
      const built = await ask("deal_of", header, JSON.stringify(values(form)), JSON.stringify(SAID));
      if (mine !== round) return;
      previewDeal(form, game, n, editing, built, inputs, checks);
    }
    form.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(checkAll, 250); });
    form.addEventListener("change", () => { clearTimeout(timer); timer = setTimeout(checkAll, 250); });
    checkAll();
  }
  function renderCheck(form, input, c) {
    const box = document.getElementById(input.id + "_feedback");
    const shown = el("div", { class: "check", id: input.id + "_check" },
      c.groups.map((g) => [el("span", { class: g.ok === null && !g.verdict ? "cardlist" : "meld" },
        g.labels.map((l) => [chip(l), " "]),
        g.verdict ? el("span", { class: "good", text: "✓ " + g.verdict }) : g.ok === false ? el("span", { class: "bad", text: " ✗" }) : null), " "]),
      c.note ? el("span", { class: "muted small", text: c.note }) : null);
    const texts = [...c.unread, ...c.errors];
    const parts = [shown];
    if (texts.length) {
      parts.push(el("ul", { class: "errorlist", id: input.id + "_error" }, texts.map((t) => el("li", { text: t }))));
      input.setAttribute("aria-invalid", "true");
    }
    if (c.choices.length) {
      parts.push(el("div", { class: "fixes", role: "group" }, c.choices.map((x) =>
        el("button", { type: "button", class: "fix", "data-field": input.id, "data-from": c.checked, "data-to": x.text }, x.label + " ", el("span", { class: "small", text: signed(x.points) })))));
    }
    box.replaceChildren(...parts);
    // the engine's split of a melded list shown in the melds field, while the player has not changed it
    if (c.split) {
      const melds = form.elements.namedItem(input.name.replace(/melded$/, "melds"));
      const auto = form.elements.namedItem(input.name.replace(/melded$/, "auto"));
      if (melds && auto && melds.value.trim().toUpperCase() === auto.value.trim().toUpperCase()) { melds.value = c.split; auto.value = c.split; }
    }
  }
  async function previewDeal(form, game, n, editing, built, inputs, checks) {
    const preview = document.getElementById("preview");
    const bad = checks.some((c) => c.unread.length || c.errors.length);
    let result = null;
    let errors = [];
    if (built.deal && !bad) {
      const record = JSON.parse(JSON.stringify(game.record));
      record.deals.splice(n - 1, editing ? 1 : 0, built.deal);
      const answer = await ask("play", "preview-" + game.id, JSON.stringify(record));
      if (answer.result) result = answer.result.deals[n - 1];
      else errors = answer.errors.filter((e) => e.deal === undefined || e.deal === null || e.deal === n);
    }
    const parts = [el("h2", { text: say("preview") })];
    if (bad || errors.length) {
      parts.push(el("p", { class: "bad", text: say("not valid") }));
      errors.forEach((e) => parts.push(el("p", { class: "bad", text: e.text })));
    } else if (result) {
      parts.push(el("table", { class: "preview" }, el("thead", {}, el("tr", {}, el("th", { scope: "col", text: say("player") }),
        el("th", { scope: "col", class: "n", text: say("this deal") }), el("th", { scope: "col", class: "n", text: say("total") }))),
      el("tbody", {}, Object.entries(result.players).map(([name, p]) => el("tr", {}, el("th", { scope: "row", text: name }),
        el("td", { class: "n", text: signed(p.points) }), el("td", { class: "n", text: number(result.totals[name]) }))))));
      parts.push(el("p", { class: "muted", text: result.outcome_text + result.notes.map((x) => " · " + x).join("") }));
    } else {
      parts.push(el("p", { class: "muted", text: say("preview empty") }));
    }
    preview.replaceChildren(...parts);
    form.dispatchEvent(new Event("deal:checked"));
  }

  // ------------------------------------------------------------------ where the page is
  function route() {
    const [view, id, n] = location.hash.replace(/^#/, "").split("/");
    if (view === "new") showNew();
    else if (view === "game" && id) showGame(id);
    else if ((view === "deal" || view === "points") && id && Number(n) > 0) showDeal(id, Number(n), view === "points");
    else showGames();
  }
  window.addEventListener("hashchange", route);
  route();
})();
