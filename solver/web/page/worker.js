// The page's solver, off the page's thread: wedlock under Pyodide, with its compiled core.
// The page sends {kind: "load", package}, then {kind: "solve" | "hint", id, ...}; the worker
// answers {kind: "ready"}, {kind: "progress", id, done, total, label} while a search runs,
// and {kind: "answer", id, answer} (the JSON of solver/web/answer.py) or {kind: "failed", message}.
"use strict";
importScripts("pyodide/pyodide.js");

let answers = null; // wedlock.web.answer, once loaded

async function load(packageUrl) {
  const started = performance.now();
  const fetched = fetch(new URL(packageUrl, self.location.href).href); // while Pyodide starts
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", self.location.href).href });
  const response = await fetched;
  if (!response.ok) throw new Error(`the site's ${packageUrl.split("?")[0]} could not be read (${response.status})`);
  const archive = new Uint8Array(await response.arrayBuffer());
  const site = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  pyodide.unpackArchive(archive, "zip", { extractDir: site });
  answers = pyodide.pyimport("wedlock.web.answer");
  const core = pyodide.runPython("from wedlock.basics import compiled; compiled.description()");
  return { seconds: (performance.now() - started) / 1000, core };
}

function run(message) {
  const progress = (done, total, label) => postMessage({ kind: "progress", id: message.id, done, total, label });
  const started = performance.now();
  const found = message.kind === "solve"
    ? answers.solved(message.game, message.number, message.rules || null, progress, message.limit || null)
    : answers.hinted(message.game, message.number, message.rules || null, message.moves || "", message.seen || "", progress, message.limit || null);
  const answer = found.toJs({ dict_converter: Object.fromEntries, create_pyproxies: false });
  found.destroy();
  postMessage({ kind: "answer", id: message.id, answer, seconds: (performance.now() - started) / 1000 });
}

self.onmessage = async (event) => {
  const message = event.data;
  try {
    if (message.kind === "load") {
      const loaded = await load(message.package);
      postMessage({ kind: "ready", seconds: loaded.seconds, core: loaded.core });
    } else {
      run(message);
    }
  } catch (err) {
    postMessage({ kind: "failed", id: message.id, message: String(err && err.message ? err.message : err).split("\n").filter(Boolean).pop() });
  }
};
