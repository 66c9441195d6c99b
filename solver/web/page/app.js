// The page that solves: a form and the URL's fragment name a deal, a Web Worker (worker.js)
// solves it with wedlock, and the answer shows in words and, played back, in the solution
// page's own viewer inside a frame. The DOM contract (docs/DESIGN.md): <html data-state>
// is loading, ready, solving, done, error or stopped; data-verdict is won, lost or unknown
// once an answer is ready (and "done" waits for the playback frame to load, when there is
// one); window.wedlockAnswer is the object `wedlock solve GAME N --json`
// prints (or `wedlock hint --json`, for a hint); #message holds a bad input's sentence;
// iframe#playback holds the solution page, whose DOM is the solution page's contract
// (&move=N in the fragment opens it at position N).
(function () {
  "use strict";
  const SETUP = JSON.parse(document.getElementById("setup").textContent);
  const root = document.documentElement;
  const $ = (id) => document.getElementById(id);
  const gameBox = $("game"), rulesBox = $("rules"), numberBox = $("number");
  const solveButton = $("solve"), stopButton = $("stop"), hintButton = $("hint");
  const progressLine = $("progress"), messageLine = $("message"), verdictLine = $("verdict");
  const hintList = $("hint-lines"), frame = $("playback");
  const started = performance.now();
  let worker = null;
  let ready = false;
  let asked = null; // the request the worker is answering: {id, kind, game, number, rules, move, at}
  let waiting = null; // a request made before the worker was ready
  let serial = 0;
  let ticker = null;
  let running = "";
  let shownPage = null; // the blob: URL the frame shows
  window.wedlockAnswer = null;
  window.wedlockTimes = { load: null, solve: null };

  function gameOf(name) {
    return SETUP.games.find((g) => g.name === name);
  }

  function fillRules(chosen) {
    const game = gameOf(gameBox.value);
    rulesBox.replaceChildren();
    for (const r of game ? game.rules : []) {
      const option = new Option(`${r.name}: ${r.title}`, r.name);
      rulesBox.appendChild(option);
    }
    rulesBox.value = chosen && game && game.rules.some((r) => r.name === chosen) ? chosen : game ? game.default : "";
  }

  for (const g of SETUP.games) gameBox.appendChild(new Option(g.name, g.name));
  fillRules(null);
  gameBox.addEventListener("change", () => fillRules(null));

  function say(state) {
    root.dataset.state = state;
    const busy = state === "solving";
    solveButton.disabled = busy;
    hintButton.disabled = busy;
    stopButton.disabled = !busy;
  }

  function showMessage(text) {
    messageLine.textContent = text;
    messageLine.hidden = !text;
  }

  function clearAnswer() {
    delete root.dataset.verdict;
    window.wedlockAnswer = null;
    verdictLine.hidden = true;
    hintList.hidden = true;
    hintList.replaceChildren();
    frame.hidden = true;
    frame.removeAttribute("src");
    if (shownPage) URL.revokeObjectURL(shownPage);
    shownPage = null;
    showMessage("");
  }

  function seconds(ms) {
    return `${(ms / 1000).toFixed(1)} s`;
  }

  function tick() {
    if (!asked) return;
    const where = running ? `: ${running}` : ready ? "" : ": loading the solver";
    progressLine.textContent = `${asked.kind === "hint" ? "Looking for a hint" : "Solving"}, ${seconds(performance.now() - asked.at)}${where}`;
  }

  function startWorker() {
    ready = false;
    worker = new Worker("worker.js");
    worker.onmessage = (event) => heard(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      failed("The solver could not start in this browser" + (event.message ? `: ${event.message}` : "."));
    };
    worker.postMessage({ kind: "load", package: SETUP.package });
  }

  function failed(text) {
    stopTicker();
    asked = null;
    waiting = null;
    clearAnswer();
    showMessage(text);
    progressLine.textContent = "";
    say("error");
  }

  function stopTicker() {
    if (ticker) clearInterval(ticker);
    ticker = null;
  }

  function heard(message) {
    if (message.kind === "ready") {
      ready = true;
      if (window.wedlockTimes.load === null) window.wedlockTimes.load = (performance.now() - started) / 1000;
      if (waiting) {
        const next = waiting;
        waiting = null;
        send(next);
      } else if (!asked) {
        progressLine.textContent = `Ready: ${message.core} (loaded in ${seconds(performance.now() - started)}).`;
        say("ready");
      }
    } else if (message.kind === "progress") {
      if (asked && message.id === asked.id) running = `search ${message.done + 1} of ${message.total}, ${message.label}`;
    } else if (message.kind === "answer") {
      if (asked && message.id === asked.id) answered(message.answer, message.seconds);
    } else if (message.kind === "failed") {
      failed(`The solver failed: ${message.message}`);
    }
  }

  function answered(found, took) {
    const request = asked;
    asked = null;
    stopTicker();
    running = "";
    if (found.error) {
      clearAnswer();
      showMessage(found.error);
      progressLine.textContent = "";
      say("error");
      return;
    }
    window.wedlockTimes.solve = took;
    window.wedlockAnswer = found.answer;
    const longer = found.verdict === "unknown" && /^time limit/.test(found.answer.reason || "")
      ? "; to search longer, add &time-limit=600 (or none) to the link" : "";
    verdictLine.textContent = `${found.heading}: ${found.summary}${longer}`;
    verdictLine.hidden = false;
    progressLine.textContent = `Answered in ${seconds(performance.now() - request.at)}.`;
    if (found.lines) {
      for (const line of found.lines) {
        const li = document.createElement("li");
        li.textContent = line;
        hintList.appendChild(li);
      }
      hintList.hidden = false;
    }
    root.dataset.verdict = found.verdict;
    if (!found.page) {
      say("done");
      return;
    }
    // A document of its own, same-origin, whose URL takes #N as a solution page's does. The
    // answer is done once the frame holds it, so that whoever waits for "done" finds it there.
    const page = URL.createObjectURL(new Blob([found.page], { type: "text/html" }));
    shownPage = page;
    frame.addEventListener("load", () => opened(page), { once: true });
    frame.src = page + (request.move ? `#${request.move}` : "");
    frame.hidden = false;
  }

  function opened(page) {
    if (page !== shownPage) return; // a later request has cleared or replaced it
    if (frame.contentDocument) frame.style.height = `${frame.contentDocument.documentElement.scrollHeight + 8}px`;
    say("done");
  }

  function send(request) {
    if (!ready) {
      waiting = request;
      return;
    }
    worker.postMessage(request);
  }

  function ask(kind, fields) {
    clearAnswer();
    serial += 1;
    asked = { id: serial, kind, at: performance.now(), ...fields };
    running = "";
    say("solving");
    tick();
    stopTicker();
    ticker = setInterval(tick, 100);
    const request = { kind, id: serial, game: fields.game, number: fields.number, rules: fields.rules, limit: fields.limit };
    if (kind === "hint") Object.assign(request, { moves: fields.moves, seen: fields.seen });
    send(request);
  }

  // The fragment: game=matrimony&n=1, with &rules=arnold where it applies, &move=12 to
  // open the playback at move 12 (as #12 opens a solution page there), and &time-limit=S
  // for another limit than solve's default, as --time-limit gives it.
  function fromFragment() {
    const params = new URLSearchParams(location.hash.slice(1));
    if (!params.has("game") && !params.has("n")) return null;
    const move = /^\d+$/.test(params.get("move") || "") ? Number(params.get("move")) : 0;
    const limit = params.get("time-limit") || "";
    return { game: params.get("game") || "", number: params.get("n") || "", rules: params.get("rules") || "", move, limit };
  }

  function fragmentOf(fields) {
    const params = new URLSearchParams({ game: fields.game, n: fields.number });
    const game = gameOf(fields.game);
    if (fields.rules && !(game && fields.rules === game.default)) params.set("rules", fields.rules);
    return "#" + params.toString();
  }

  function solveFragment() {
    const fields = fromFragment();
    if (!fields) return;
    if (gameOf(fields.game)) {
      gameBox.value = fields.game;
      fillRules(fields.rules);
    }
    numberBox.value = fields.number;
    ask("solve", fields);
  }

  function formFields() {
    return { game: gameBox.value, number: numberBox.value.trim(), rules: rulesBox.value, move: 0, limit: "" };
  }

  $("ask").addEventListener("submit", (event) => {
    event.preventDefault();
    const fields = formFields();
    const fragment = fragmentOf(fields);
    if (location.hash === fragment) ask("solve", fields);
    else location.hash = fragment; // hashchange solves it
  });

  hintButton.addEventListener("click", () => {
    ask("hint", { ...formFields(), moves: $("moves").value, seen: $("position").value });
  });

  stopButton.addEventListener("click", () => {
    if (!asked) return;
    const took = performance.now() - asked.at;
    asked = null;
    waiting = null;
    stopTicker();
    running = "";
    worker.terminate();
    clearAnswer();
    progressLine.textContent = `Stopped after ${seconds(took)}, before an answer.`;
    say("stopped");
    startWorker(); // a fresh solver for the next question
  });

  window.addEventListener("hashchange", solveFragment);

  // The viewer's keys work from anywhere on the page, outside the form's fields.
  document.addEventListener("keydown", (event) => {
    const keys = ["ArrowLeft", "ArrowRight", "Home", "End", " "];
    const tag = event.target && event.target.tagName;
    if (frame.hidden || !keys.includes(event.key) || ["INPUT", "TEXTAREA", "SELECT", "BUTTON", "SUMMARY"].includes(tag)) return;
    event.preventDefault();
    frame.contentDocument.dispatchEvent(new KeyboardEvent("keydown", { key: event.key, bubbles: true }));
  });

  startWorker();
  if (fromFragment()) solveFragment();
  else say("loading");
})();
