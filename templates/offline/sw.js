// Style, as in every script here: const/let (no var), arrow callbacks, named function declarations, strict mode.
/* The service worker (served at /sw.js by scorekeeper.table.webapp so that it covers the whole
   site): the app opens without a connection.

   - The app's shell (stylesheet, scripts, icons, the offline page) is kept at install.
   - Pages are asked of the server first; each page that answers 200 is kept, the newest copy of
     each (the game pages, the rule book, the checker, the lists), with the tables it shows (the
     server's X-Tables). Without a connection the kept copy is shown, marked at the top as a saved
     copy with its time; a page never kept gives the offline page. At most KEPT_PAGES are kept,
     none older than KEPT_MS: the oldest go first.
   - A page the server no longer shows this phone (404, 403, 410) is not kept any more; a 403 that
     says the phone is off a table (X-Off-Table: the scorer took it off) drops every kept page of
     that table (the page it gives drops the table's drafts: static/app.js).
   - Static files: the kept copy at once, refreshed in the background.
   - The phone alone (/alone/) keeps everything it needs in a cache of its own ("alone-…", filled by
     the page itself, static/alone/alone.js, so that no other page ever downloads the engine): its
     page and files come from there without a connection, the page as it is (it works offline).
   - Nothing else is touched: the live page's polls, every POST and the admin go to the server as
     they are (drafts.js keeps the cards of a deal that could not be sent).
   Its text changes whenever a static file's address does (hashed names), which updates it. */
"use strict";

const SHELL = "shell-{{ version }}";
const PAGES = "pages-v2"; // v2: each page with the tables it shows (v1's pages are dropped)
const KEPT_PAGES = {{ kept_pages }};
const KEPT_MS = {{ kept_ms }};
const SHELL_URLS = {{ shell|safe }};
const OFFLINE_URL = "{{ offline_url }}";
const NOT_KEPT = /^\/(admin|join|sw\.js)/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(SHELL_URLS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => /^(shell|pages)-/.test(k) && k !== SHELL && k !== PAGES).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

// The note on a kept page, in each language of the app (the kept page's <html lang> says which).
const SAVED_COPY = {{ saved_copy|safe }};

function savedCopy(response, savedAt) {
  return response.text().then((html) => {
    const lang = (html.match(/<html[^>]*\slang="([\w-]+)"/) || [])[1] || "en";
    const time = new Date(savedAt).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
    const words = SAVED_COPY[lang] || SAVED_COPY.en;
    const note = '<p class="stale saved-copy" role="status">' + words.replace("{time}", time) + "</p>";
    const marked = html.replace(/(<main[^>]*>)/, "$1" + note);
    const headers = new Headers(response.headers);
    headers.delete("Content-Length");
    return new Response(marked, { status: 200, headers: headers });
  });
}

// What the phone alone keeps (its page and files), from the caches it filled: "alone-<version>".
async function alone(request) {
  const names = (await caches.keys()).filter((k) => k.startsWith("alone-"));
  for (const name of names) {
    const kept = await (await caches.open(name)).match(request, { ignoreSearch: true });
    if (kept) return { kept, cache: name };
  }
  return null;
}

function keptAt(kept) {
  return Number(kept.headers.get("X-Saved-At")) || 0;
}

async function keep(cache, request, response) {
  const headers = new Headers(response.headers);
  headers.set("X-Saved-At", String(Date.now()));
  const body = await response.clone().arrayBuffer();
  await cache.put(request.url, new Response(body, { status: 200, headers: headers }));
}

// At most KEPT_PAGES kept pages, none older than KEPT_MS: the oldest go.
async function prune(cache) {
  const now = Date.now();
  const kept = [];
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    const at = response ? keptAt(response) : 0;
    if (now - at > KEPT_MS) await cache.delete(request);
    else kept.push({ request, at });
  }
  kept.sort((a, b) => b.at - a.at);
  await Promise.all(kept.slice(KEPT_PAGES).map((k) => cache.delete(k.request)));
}

// The phone is off this table: every kept page that shows it goes.
async function dropTable(cache, table) {
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    const shown = ((response && response.headers.get("X-Tables")) || "").split(" ");
    if (shown.includes(table)) await cache.delete(request);
  }
}

async function page(request, event) {
  const cache = await caches.open(PAGES);
  try {
    const response = await fetch(request);
    const own = response.status === 200 ? await alone(request) : null;
    if (own) await (await caches.open(own.cache)).put(request.url, response.clone()); // its newest copy
    if (response.status === 200 && (response.headers.get("Content-Type") || "").startsWith("text/html")) {
      await keep(cache, request, response);
      event.waitUntil(prune(cache));
    } else if ([403, 404, 410].includes(response.status)) {
      await cache.delete(request.url); // not this phone's page (any more)
      const off = response.status === 403 && response.headers.get("X-Off-Table");
      if (off) await dropTable(cache, off);
    }
    return response;
  } catch (offline) {
    const own = await alone(request);
    if (own) return own.kept;
    const kept = await cache.match(request.url);
    if (kept && Date.now() - keptAt(kept) <= KEPT_MS) return savedCopy(kept, keptAt(kept));
    const fallback = await caches.match(OFFLINE_URL);
    return fallback || Response.error();
  }
}

async function staticFile(request, event) {
  const own = await alone(request);
  if (own) return own.kept; // the phone alone's files are versioned by its cache's name: never fetched again
  const cache = await caches.open(SHELL);
  const kept = await cache.match(request);
  const fresh = fetch(request)
    .then((response) => {
      if (response.ok) cache.put(request, response.clone());
      return response;
    })
    .catch(() => kept || Response.error());
  if (kept) {
    event.waitUntil(fresh.then(() => undefined));
    return kept;
  }
  return fresh;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NOT_KEPT.test(url.pathname)) return;
  if (request.mode === "navigate") {
    event.respondWith(page(request, event));
  } else if (url.pathname.startsWith("{{ static_prefix }}")) {
    event.respondWith(staticFile(request, event));
  }
});
