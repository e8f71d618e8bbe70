// Style, as in every script here: const/let (no var), arrow callbacks, named function declarations, strict mode.
/* The phone alone's engine: Pyodide in a Web Worker (the page never freezes while it loads or
   scores), running the project's own rules engine, scorekeeper/rules, zipped from the checkout with
   its German catalog and the worker's side in Python (scorekeeper/alone/phone.py). Started by
   static/alone/alone.js, whose first message says where things are: {init: {pyodide: <folder>,
   engine: <zip>, lang: <language>}} (not the worker's address: the service worker may answer it
   from its copy, under the copy's address).

   Messages: {id, call, args} → {id, value} (the JSON text phone.<call>(...args) returns) or
   {id, error}. First of all {ready: true} (or {failed: "..."}) once the engine is imported. */
const ROOT = "/engine";
let engine = null;
let params = null;

async function boot() {
  const { loadPyodide } = await import(params.get("pyodide") + "pyodide.mjs");
  const [pyodide, zip] = await Promise.all([
    loadPyodide({ indexURL: params.get("pyodide"), packages: [] }),
    fetch(params.get("engine")).then((r) => {
      if (!r.ok) throw new Error("engine " + r.status);
      return r.arrayBuffer();
    }),
  ]);
  pyodide.unpackArchive(zip, "zip", { extractDir: ROOT });
  pyodide.runPython(`import sys\nsys.path.insert(0, "${ROOT}")`);
  const phone = pyodide.pyimport("scorekeeper.alone.phone");
  phone.speak(params.get("lang") || "en", ROOT);
  return phone;
}

self.addEventListener("message", async (event) => {
  if (event.data.init) {
    params = new Map(Object.entries(event.data.init));
    engine = boot();
    engine.then(
      () => self.postMessage({ ready: true }),
      (e) => self.postMessage({ failed: String((e && e.message) || e) })
    );
    return;
  }
  const { id, call, args } = event.data;
  if (call === "sent") {
    // what this worker fetched over the network, in bytes (benchmarks/alone.py: W MB sent)
    const bytes = performance.getEntriesByType("resource").reduce((n, e) => n + (e.transferSize || 0), 0);
    self.postMessage({ id, value: String(bytes) });
    return;
  }
  try {
    const phone = await engine;
    self.postMessage({ id, value: phone[call](...(args || [])) });
  } catch (e) {
    self.postMessage({ id, error: String((e && e.message) || e) });
  }
});
