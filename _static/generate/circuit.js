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
  const state = { worker: null, ready: null, vocab: null, index: null, context: 0, run: 0 };

  function say(text) { status.textContent = text; }

  function load() {
    if (state.ready) return state.ready;
    const started = startWorker(box, new URL("./circuit-worker.js", import.meta.url), say);
    state.worker = started.worker;
    state.ready = started.ready.then((msg) => {
      state.vocab = msg.vocabulary;
      state.index = new Map(msg.vocabulary.map((w, i) => [w, i]));
      state.context = msg.context;
      state.worker.onmessage = (e) => answer(e.data);
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

  $("form").addEventListener("submit", async (event) => {
    event.preventDefault();
    await load();
    ask();
  });
  $("sender").addEventListener("change", async () => { await load(); ask(); });
  loadWhenNear(box, load);
}

document.querySelectorAll(".circuit-box").forEach(setUp);
