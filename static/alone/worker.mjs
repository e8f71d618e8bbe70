/* The phone alone's engine: Pyodide in a Web Worker (the page never freezes while it loads or
   scores), running the project's own rules engine, scorekeeper/rules, zipped from the checkout with
   its German catalog and the worker's side in Python (scorekeeper/alone/phone.py). Started by
   static/alone/alone.js with ?pyodide=<folder>&engine=<zip>&lang=<language>.

   Messages: {id, call, args} → {id, value} (the JSON text phone.<call>(...args) returns) or
   {id, error}. First of all {ready: true} (or {failed: "..."}) once the engine is imported. */
const params = new URL(self.location.href).searchParams;
const ROOT = "/engine";

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

const engine = boot();
engine.then(
  () => self.postMessage({ ready: true }),
  (e) => self.postMessage({ failed: String((e && e.message) || e) })
);

self.addEventListener("message", async (event) => {
  const { id, call, args } = event.data;
  try {
    const phone = await engine;
    self.postMessage({ id, value: phone[call](...(args || [])) });
  } catch (e) {
    self.postMessage({ id, error: String((e && e.message) || e) });
  }
});
