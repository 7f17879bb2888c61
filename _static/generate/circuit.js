// Section 6's circuit box: two stories, one part of the model whose write is taken from the second and given to one
// reader of the first at a time (a head's queries, keys or values, an MLP, the final LayerNorm), and what the
// prediction does then; with each first-layer head's share of what the second layer reads on the story. The model
// (the live box's weights) runs in circuit-worker.js, fetched only when the reader nears the box.
import { loadWhenNear, startWorker } from "./start.js";
import { words } from "./text.js";
import { quoted } from "./view.js";

const q = (word) => `“${quoted(word)}”`;   // a word in quotes, a giant one cut

const EOS = 0, UNK = 1;
const INPUT_NAMES = { Q: "queries", K: "keys", V: "values" };

// "L2 H1 Q" -> "L2 H1's queries"; the final LayerNorm and the groups in words (as compute/lessons/story/explain.py).
export function readerLabel(reader) {
  if (reader === "logits") return "the final LayerNorm (the direct path to the logits)";
  if (reader === "none") return "none (the story as it is)";
  const m = /^(L\d+ H\d+) ([QKV])$/.exec(reader);
  return m ? `${m[1]}'s ${INPUT_NAMES[m[2]]}` : reader;
}

// Four decimals, as section 6's table prints them (compute.present.numbers.honest_format): a probability that
// would print as 0, or that its one digit would misstate by more than MISSTATED of itself, takes up to two more
// decimals; smaller still, it prints as a bound.
const MISSTATED = 0.5;
export function probability(p) {
  if (p === 0 || p === 1) return p.toFixed(4);
  for (let d = 4; d <= 6; d++) {
    const text = p.toFixed(d), shown = Number(text);
    if (shown !== 0 && shown !== 1 && Math.abs(shown - p) <= MISSTATED * p) return text;
  }
  const text = p.toFixed(6), shown = Number(text);
  if (shown !== 0 && shown !== 1) return text;          // misstated still, as near as six decimals get
  return p < 0.5 ? "<0.000001" : ">0.999999";
}

function setUp(box) {
  const $ = (name) => box.querySelector(`[data-part="${name}"]`);
  const status = $("status"), table = $("table"), title = $("result-title");
  const shares = $("shares-table"), sharesTitle = $("shares-title");
  const state = { worker: null, ready: null, vocab: null, index: null, context: 0, run: 0, graphRun: 0,
                  altered: new Map(), graph: null };           // altered: head (l * n_head + h) -> "silenced" or "patched"

  function say(text) { status.textContent = text; }

  function load() {
    if (state.ready) return state.ready;
    const url = new URL("./circuit-worker.js", import.meta.url), started = startWorker(box, url, say);
    state.worker = started.worker;
    state.graphWorkers = [started.worker];
    if ((navigator.hardwareConcurrency || 1) > 1) {              // a second worker measures shares of the graph too
      const helper = startWorker(box, url, () => {});
      helper.ready.then(() => {
        helper.worker.onmessage = (e) => shareOfGraph(e.data, helper.worker);
        state.graphWorkers.push(helper.worker);
        feed();
      }, () => {});
    }
    state.ready = Promise.all([started.ready, import("./graph.js")]).then(([msg, graph]) => {
      state.merge = graph.mergeShares;
      state.vocab = msg.vocabulary;
      state.index = new Map(msg.vocabulary.map((w, i) => [w, i]));
      state.context = msg.context;
      state.heads = msg.heads;
      state.worker.onmessage = (e) => ([e.data.type, e.data.of].includes("graph") ? shareOfGraph(e.data, state.worker) : answer(e.data));
      ask();
    });
    return state.ready;
  }

  function ids(text) {
    return [EOS, ...words(text).map((w) => (state.index.has(w) ? state.index.get(w) : UNK))];
  }

  // What the reader wrote, as the worker reads it; a note for each story cut to the context or holding unknown words.
  function ask() {
    const story = ids($("story").value), other = ids($("other").value), sender = $("sender").value;
    const read = ["<start>", ...words($("story").value)];              // the words as the model reads them
    state.labels = read.length > state.context ? read.slice(read.length - state.context + 1) : read;
    if (story.length < 2 || other.length < 2) {
      say("Write both stories first: each needs at least one word.");
      return;
    }
    const notes = [];
    for (const [name, s] of [["The story", story], ["The other story", other]]) {
      if (s.length > state.context) notes.push(`${name} is read as its last ${state.context - 1} words, as the model's context holds.`);
      const unknown = s.filter((i) => i === UNK).length;
      if (unknown) notes.push(`${name} holds ${unknown} word${unknown > 1 ? "s" : ""} the model has never seen, read as <unk>.`);
    }
    state.notes = notes.join(" ");
    state.run += 1;
    say(`Patching ${sender}'s write into each of its readers…`);
    state.worker.postMessage({ type: "paths", run: state.run, ids: story, source: other, sender });
    Object.assign(state, { story, other });
    askGraph();
  }

  function heads(how, altered = state.altered) {
    return [...altered].filter(([, a]) => a === how).map(([k]) => k);
  }

  // The heads altered, with head k altered `how` (silenced or patched), or given back if it already was.
  function toggled(altered, k, how) {
    const next = new Map(altered);
    if (next.get(k) === how) next.delete(k); else next.set(k, how);
    return next;
  }

  function headName(k) {
    return `L${Math.floor(k / state.heads) + 1} H${(k % state.heads) + 1}`;
  }

  function headOf(name) {                                        // "L2 H3" -> 1 * n_head + 2; null for another node
    const m = /^L(\d+) H(\d+)$/.exec(name);
    return m ? (Number(m[1]) - 1) * state.heads + Number(m[2]) - 1 : null;
  }

  // The graphs of the story's likeliest next word, by the heads silenced and patched (from the other story). Each is
  // measured in shares of its edges that the workers take one at a time, the graph the reader asked for first, then
  // the one a click on the head under the pointer or the focus would ask for, and kept; while none is being
  // measured, those one click away from the graph on screen are measured ahead, so that a click draws a graph
  // already measured, and one that is not waits for one share at most.
  const SHARES = 4;                                                 // shares of a graph for each worker
  const graphs = new Map(), jobs = [], busy = new Set();            // key -> {graph, p, ms}; graphs being measured

  function keyOf(silenced, patched) {
    const sorted = (list) => [...list].sort((a, b) => a - b).join();
    return `${state.story}|${state.other}|${sorted(silenced)}|${sorted(patched)}`;
  }

  function askGraph() {
    const silenced = heads("silenced"), patched = heads("patched");
    state.wanted = keyOf(silenced, patched);
    if (graphs.has(state.wanted)) {
      drawGraph({ ...graphs.get(state.wanted), ahead: true });
      measureAhead();
    } else {
      measureUnlessUnderWay(state.wanted, silenced, patched);
    }
  }

  function measureUnlessUnderWay(key, silenced, patched) {
    if (!graphs.has(key) && !jobs.some((j) => j.key === key)) measure(key, silenced, patched);
  }

  function measure(key, silenced, patched) {
    const n = SHARES * state.graphWorkers.length;
    state.graphRun += 1;
    jobs.push({ run: state.graphRun, key, silenced, patched, ids: state.story, source: state.other,
                shares: new Array(n), taken: new Array(n).fill(false), left: n, asked: performance.now() });
    graphBox.dataset.measuring = String(jobs.length);
    feed();
  }

  // Each idle worker takes a share: of the graph the reader asked for if it is being measured, else the oldest. Worker
  // w takes the shares w, w + W, ... (W workers) while there are any, so that it measures the same edges of every
  // graph of the story and takes again what it kept of them (graph.js slots); then it helps with the others'.
  function feed() {
    state.graphWorkers.forEach((worker, w) => {
      const open = jobs.filter((j) => j.taken.includes(false));
      const job = open.find((j) => j.key === state.wanted) || open.find((j) => j.key === state.intended) || open[0];
      if (!job || busy.has(worker)) return;
      const free = [...job.taken.keys()].filter((s) => !job.taken[s]);
      const share = free.find((s) => s % state.graphWorkers.length === w) ?? free[0];
      job.taken[share] = true;
      busy.add(worker);
      worker.postMessage({ type: "graph", run: job.run, ids: job.ids, source: job.source, share: [share, job.shares.length],
                           silenced: job.silenced, patched: job.patched });
    });
  }

  // One share of a graph, from `worker`; the graph kept when every share is in, and drawn if the reader asked for it.
  function shareOfGraph(msg, worker) {
    busy.delete(worker);
    const job = jobs.find((j) => j.run === msg.run);
    if (job && msg.type === "error") {
      jobs.splice(jobs.indexOf(job), 1);
      if (job.key === state.wanted) say("The box could not measure the graph: " + msg.message);
    } else if (job) {
      job.shares[msg.share[0]] = msg.graph;
      job.left -= 1;
      if (!job.left) {
        jobs.splice(jobs.indexOf(job), 1);
        const done = { graph: state.merge(job.shares), p: msg.p, ms: performance.now() - job.asked };
        if (graphs.size >= 64) graphs.delete(graphs.keys().next().value);
        graphs.set(job.key, done);
        if (job.key === state.wanted) drawGraph(done);
        else markMeasured();
      }
    }
    graphBox.dataset.measuring = String(jobs.length);
    if (!jobs.length) measureAhead();
    feed();
  }

  // What a click on head k would ask for: the heads altered then, and the graph's key.
  function clickOn(k) {
    const altered = toggled(state.altered, k, $("alter").value);
    const silenced = heads("silenced", altered), patched = heads("patched", altered);
    return { silenced, patched, key: keyOf(silenced, patched) };
  }

  // The first graph one click away (a head altered as the menu says, or given back) not measured yet.
  function measureAhead() {
    markMeasured();
    if (jobs.length || !state.graph) return;
    for (const k of state.graph.nodes.map(headOf).filter((h) => h !== null)) {
      const { silenced, patched, key } = clickOn(k);
      if (!graphs.has(key)) { measure(key, silenced, patched); return; }
    }
  }

  // The head under the pointer or the focus (pointed at, tabbed to, touched): the graph its click would ask for is
  // measured next, ahead of the others one click away, in the time between pointing and clicking.
  function intend(event) {
    const b = event.target.closest && event.target.closest("button[data-head]");
    if (!b || !state.graph) return;
    const { silenced, patched, key } = clickOn(Number(b.dataset.head));
    state.intended = key;
    measureUnlessUnderWay(key, silenced, patched);
  }

  // Each head's button says whether the graph its click would give is measured (data-measured).
  function markMeasured() {
    for (const b of graphBox.querySelectorAll("button[data-head]")) {
      b.dataset.measured = String(graphs.has(clickOn(Number(b.dataset.head)).key));
    }
  }

  function cell(tag, text, attrs = {}) {
    const c = document.createElement(tag);
    c.textContent = text;
    for (const [k, v] of Object.entries(attrs)) c.setAttribute(k, v);
    return c;
  }

  function answer(msg) {
    if (msg.run !== state.run) return;                              // an older question's answer
    if (msg.type === "error") { say("The box could not read these stories: " + msg.message); return; }
    const word = state.vocab[msg.word], rival = state.vocab[msg.rival], sender = $("sender").value;
    const singles = msg.rows.filter((r) => !["none", "every reader", "cut from every reader"].includes(r.label));
    const most = singles.reduce((a, b) => (b.rival > a.rival ? b : a), singles[0]);
    title.textContent = `${sender}'s write from the other story, given to one reader of the story at a time: the `
      + `probability of the story's next word, ${q(word)}, and of the other story's, ${q(rival)}.`;
    const head = document.createElement("tr");
    head.append(cell("th", "the write given to", { scope: "col" }), cell("th", `probability of ${q(word)}`, { scope: "col" }),
                cell("th", `probability of ${q(rival)}`, { scope: "col" }),
                cell("th", "where that head looks at the last word (unpatched)", { scope: "col" }));
    const rows = msg.rows.map((r) => {
      const tr = document.createElement("tr");
      if (r === most && word !== rival) tr.className = "circuit-most";
      const look = r.look ? `${q(state.labels[r.look.at])} ${r.look.w.toFixed(2)} (${r.look.plain.toFixed(2)})` : "";
      tr.append(cell("th", readerLabel(r.label), { scope: "row" }), cell("td", probability(r.word)), cell("td", probability(r.rival)),
                cell("td", look, { class: "circuit-look" }));
      return tr;
    });
    table.replaceChildren(cell("thead", ""), cell("tbody", ""));
    table.tHead.append(head);
    table.tBodies[0].append(...rows);
    const alone = word === rival ? "The two stories predict the same word, so no patch can move it to another."
      : `Alone, ${readerLabel(most.label)} moves the most to ${q(rival)}: ${probability(most.rival)} (marked).`;
    say(`${alone} ${state.notes} Every path patched in ${Math.round(msg.ms)} ms.`.replace(/\s+/g, " ").trim());
    drawShares(msg.shares, sender);
  }

  // The sender's share of what each second-layer head reads (queries at the last word, keys and values on average).
  function drawShares(all, sender) {
    const m = /^L1 H(\d+)$/.exec(sender);
    if (!all || !m) {
      sharesTitle.textContent = "Shares of what the second layer reads are measured for a first-layer head: choose one.";
      shares.replaceChildren();
      return;
    }
    const h = Number(m[1]) - 1;
    sharesTitle.textContent = `${sender}'s share of what each second-layer head reads on the story: of the sizes of `
      + "the parts it reads (the embedding, each first-layer head, the first MLP), at the last word for its queries, "
      + "on average over the words for its keys and values.";
    const head = document.createElement("tr");
    head.append(cell("th", "second-layer head", { scope: "col" }), ...["Q", "K", "V"].map((v) => cell("th", INPUT_NAMES[v], { scope: "col" })));
    const rows = all.Q[h].map((_, g) => {
      const tr = document.createElement("tr");
      tr.append(cell("th", `L2 H${g + 1}`, { scope: "row" }), ...["Q", "K", "V"].map((v) => cell("td", all[v][h][g].toFixed(3))));
      return tr;
    });
    shares.replaceChildren(cell("thead", ""), cell("tbody", ""));
    shares.tHead.append(head);
    shares.tBodies[0].append(...rows);
  }

  // Columns: the story's words, the first layer, the second, the word's logit; a node is a button (a head's
  // silences it, and the graph is measured again); an edge is a line as thick as its effect, solid where cutting it
  // lowers the word, dashed where it raises it; edges under the threshold are hidden.
  const graphBox = $("graph"), threshold = $("threshold");
  const SVG = "http://www.w3.org/2000/svg";

  function nodeLabel(name, labels) {
    if (name.startsWith("word ")) return q(labels[Number(name.slice(5))]);
    return name === "logit" ? `${q(state.vocab[state.graph.word])}` : name;
  }

  function column(name) {
    if (name.startsWith("word ")) return 0;
    if (name === "logit") return 3;
    return Number(name[1]);
  }

  function drawGraph(msg) {
    Object.assign(state, { graph: msg.graph, graphP: msg.p, graphMs: msg.ms, graphAhead: msg.ahead });
    const g = msg.graph, labels = state.labels, word = q(state.vocab[g.word]);
    const altered = ["silenced", "patched"].filter((how) => heads(how).length)
      .map((how) => `${heads(how).map(headName).join(" and ")} ${how === "patched" ? "patched from the other story" : how}`);
    $("graph-title").textContent = `The graph of ${word} after the story${altered.length ? ", with " + altered.join(", ") : ""}: `
      + `its logit ${g.logit.toFixed(2)} (probability ${probability(msg.p)}); each edge is how much the logit falls when `
      + "that edge alone is cut (dashed: it rises). Choose a head to silence or patch it.";
    const max = Math.max(...g.edges.map((e) => Math.abs(e.effect)), 1e-9);
    threshold.max = String(Math.ceil(max * 10) / 10);
    const columns = [[], [], [], []];
    for (const n of g.nodes) columns[column(n)].push(n);
    const rowHeight = 34, height = Math.max(...columns.map((c) => c.length)) * rowHeight;
    const place = {};
    columns.forEach((names, c) => names.forEach((n, r) => {
      place[n] = { x: (c + (n.endsWith("MLP") ? 0.62 : 0.42)) / 4, y: (r + 0.5) * (height / names.length) };  // an MLP after its heads
    }));
    const svg = document.createElementNS(SVG, "svg");                      // 1000 units across, stretched to fit
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("height", String(height));
    svg.setAttribute("viewBox", `0 0 1000 ${height}`);
    svg.setAttribute("preserveAspectRatio", "none");
    const limit = Number(threshold.value);
    const shown = g.edges.filter((e) => Math.abs(e.effect) >= limit);
    for (const e of shown) {
      const line = document.createElementNS(SVG, "path");                   // an S from sender to receiver
      const a = place[e.sender], b = place[e.receiver], x1 = a.x * 1000, x2 = b.x * 1000, mid = (x1 + x2) / 2;
      line.setAttribute("d", `M ${x1} ${a.y} C ${mid} ${a.y} ${mid} ${b.y} ${x2} ${b.y}`);
      line.setAttribute("fill", "none");
      line.setAttribute("stroke-width", String(1 + 5 * Math.abs(e.effect) / max));
      line.setAttribute("class", e.effect >= 0 ? "circuit-edge" : "circuit-edge circuit-edge-up");
      line.dataset.edge = `${e.sender}>${e.receiver}`;
      svg.append(line);
    }
    const nodes = g.nodes.map((n) => {
      const k = headOf(n);
      const b = document.createElement(k === null ? "span" : "button");
      b.className = "circuit-node";
      b.textContent = nodeLabel(n, labels);
      b.dataset.node = n;
      b.style.left = `${place[n].x * 100}%`;
      b.style.top = `${place[n].y}px`;
      if (k !== null) {
        const how = state.altered.get(k);
        b.type = "button";
        b.setAttribute("aria-pressed", String(Boolean(how)));
        if (how) {
          b.dataset.altered = how;
          b.setAttribute("aria-label", `${n}, ${how}`);
        }
        b.dataset.head = String(k);
      }
      return b;
    });
    graphBox.style.height = `${height}px`;
    graphBox.replaceChildren(svg, ...nodes);
    const strongest = [...g.edges].sort((a, b) => Math.abs(b.effect) - Math.abs(a.effect)).slice(0, 5);
    const name = (n) => (n.startsWith("word ") || n === "logit" ? nodeLabel(n, labels) : n);
    $("graph-summary").textContent = `${shown.length} of ${g.edges.length} edges shown (at least ${limit.toFixed(1)}). `
      + "The strongest: " + strongest.map((e) => `${name(e.sender)} to ${name(e.receiver)} ${e.effect.toFixed(2)}`).join("; ")
      + `. Measured ${msg.ahead ? "earlier, " : ""}in ${Math.round(msg.ms)} ms.`;
    markMeasured();
  }

  graphBox.addEventListener("click", (e) => {
    const b = e.target.closest("button[data-head]");
    if (!b) return;
    const k = Number(b.dataset.head);
    state.altered = toggled(state.altered, k, $("alter").value);
    b.setAttribute("aria-pressed", String(state.altered.has(k)));
    askGraph();
  });
  graphBox.addEventListener("pointerover", intend);
  graphBox.addEventListener("focusin", intend);
  threshold.addEventListener("input", () => {
    $("threshold-value").textContent = Number(threshold.value).toFixed(1);
    if (state.graph) drawGraph({ graph: state.graph, p: state.graphP, ms: state.graphMs, ahead: state.graphAhead });
  });

  $("form").addEventListener("submit", async (event) => {
    event.preventDefault();
    await load();
    ask();
  });
  $("sender").addEventListener("change", async () => { await load(); ask(); });
  $("alter").addEventListener("change", () => measureAhead());
  loadWhenNear(box, load);
}

document.querySelectorAll(".circuit-box").forEach(setUp);
