// The live-generation box of Part III: prompt, controls, words as they come, and every head's attention.
// The model (about 0.6 MB) is fetched from the site only when the reader nears the box; it runs in a
// worker (worker.js), so typing and scrolling never wait for it.
import { readable, words } from "./text.js";

const VIRIDIS = ["#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58", "#b5de2b", "#fde725"];
const SHOWN = 24; // words of attention shown (the newest ones)
const UNK = 1;

function colour(w) {
  return VIRIDIS[Math.min(VIRIDIS.length - 1, Math.floor(w * VIRIDIS.length))];
}

function setUp(box) {
  const $ = (name) => box.querySelector(`[data-part="${name}"]`);
  const form = $("form"), prompt = $("prompt"), status = $("status"), output = $("output");
  const stop = $("stop"), view = $("attention"), viewText = $("attention-text");
  const state = { worker: null, ready: null, vocab: null, index: null, proper: new Set(), run: 0,
                  promptTokens: [], newTokens: [], unknown: new Set(), busy: false, layers: 0, heads: 0 };

  function say(text) { status.textContent = text; }

  function load() {
    if (state.ready) return state.ready;
    say("Loading the model…");
    state.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    state.ready = new Promise((resolve, reject) => {
      state.worker.onmessage = (event) => {
        const msg = event.data;
        if (msg.type === "ready") {
          state.vocab = msg.vocabulary;
          state.index = new Map(msg.vocabulary.map((w, i) => [w, i]));
          state.proper = new Set(msg.proper);
          state.context = msg.context;
          state.layers = msg.layers;
          state.heads = msg.heads;
          say("The model is ready: write the start of a story, or leave the box empty, and press Generate.");
          state.worker.onmessage = (e) => onMessage(e.data);
          resolve();
        } else if (msg.type === "error") {
          say("The model could not be loaded: " + msg.message);
          reject(new Error(msg.message));
        }
      };
    });
    state.worker.postMessage({ type: "load", base: new URL(box.dataset.models, document.baseURI).href });
    return state.ready;
  }

  function render() {
    const tokens = [...state.promptTokens, ...state.newTokens];
    const parts = readable(tokens, state.proper);
    output.replaceChildren();
    parts.forEach(([space, word], i) => {
      if (space) output.append(space);
      const span = document.createElement("span");
      span.textContent = word;
      if (i < state.promptTokens.length) span.className = "live-prompt" + (state.unknown.has(i) ? " live-unknown" : "");
      output.append(span);
    });
  }

  function drawAttention(attention) {
    const tokens = [...state.promptTokens, ...state.newTokens.slice(0, -1)];
    const n = attention[0][0].length;                   // positions read, <eos> first
    const labels = ["<start>", ...tokens].slice(-n);
    const first = Math.max(0, n - SHOWN);
    const table = document.createElement("table");
    const head = table.createTHead().insertRow();
    head.append(Object.assign(document.createElement("th"), { textContent: "head" }));
    for (let j = first; j < n; j++) head.append(Object.assign(document.createElement("th"), { textContent: labels[j], scope: "col" }));
    const body = table.createTBody();
    let best = { w: -1 };
    attention.forEach((layer, l) => layer.forEach((row, h) => {
      const tr = body.insertRow();
      tr.append(Object.assign(document.createElement("th"), { textContent: `L${l + 1} H${h + 1}`, scope: "row" }));
      for (let j = first; j < n; j++) {
        const td = tr.insertCell();
        td.style.background = colour(row[j]);
        td.title = `L${l + 1} H${h + 1} → “${labels[j]}”: ${row[j].toFixed(3)}`;
        if (row[j] > best.w && j > 0) best = { w: row[j], l, h, word: labels[j] };
      }
    }));
    view.replaceChildren(table);
    const newest = state.newTokens[state.newTokens.length - 1];
    viewText.textContent = best.w >= 0
      ? `Choosing “${newest}”: the strongest look back is L${best.l + 1} H${best.h + 1} on “${best.word}” (${best.w.toFixed(2)}).`
      : "";
  }

  function onMessage(msg) {
    if (msg.run !== state.run) return;                 // a run that was replaced
    if (msg.type === "token") {
      state.newTokens.push(state.vocab[msg.id]);
      if (msg.slid) say(`The story is longer than the model's context of ${state.context} words: the oldest words were dropped.`);
      render();
      drawAttention(msg.attention);
    } else if (msg.type === "done") {
      state.busy = false;
      stop.disabled = true;
      const why = { end: "the model ended the story", stopped: "stopped", limit: "the length limit was reached" }[msg.reason];
      say(`${state.notes}${msg.count} words written (${why}).`);
    } else if (msg.type === "error") {
      state.busy = false;
      stop.disabled = true;
      say("Something went wrong: " + msg.message);
    }
  }

  async function start(event) {
    event.preventDefault();
    await load();
    const text = prompt.value;
    const tokens = words(text);
    const ids = tokens.map((t) => (state.index.has(t) ? state.index.get(t) : UNK));
    state.unknown = new Set(tokens.map((t, i) => (state.index.has(t) ? -1 : i)).filter((i) => i >= 0));
    state.promptTokens = tokens.map((t, i) => (state.unknown.has(i) ? t : state.vocab[ids[i]]));
    state.newTokens = [];
    state.run += 1;
    state.busy = true;
    stop.disabled = false;
    const options = {
      greedy: $("greedy").checked,
      temperature: Math.min(2, Math.max(0.1, Number($("temperature").value) || 0.8)),
      topK: Math.max(0, Math.floor(Number($("topk").value) || 0)),
      seed: Math.max(0, Math.floor(Number($("seed").value) || 0)),
      maxTokens: 200,
    };
    const notes = [];
    if (!tokens.length) notes.push("No prompt: the model starts a story of its own.");
    if (state.unknown.size) {
      const unknown = [...new Set([...state.unknown].map((i) => tokens[i]))];
      notes.push(`Not in the model's vocabulary, read as <unk>: ${unknown.join(", ")}.`);
    }
    if (ids.length + 1 > state.context) notes.push(`The prompt is longer than the context of ${state.context} words: only its last words are read.`);
    state.notes = notes.length ? notes.join(" ") + " " : "";
    say(`${state.notes}Writing…`);
    render();
    state.worker.postMessage({ type: "generate", run: state.run, promptIds: ids, options });
  }

  form.addEventListener("submit", start);
  stop.addEventListener("click", () => state.worker && state.worker.postMessage({ type: "stop", run: state.run }));
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) { observer.disconnect(); load().catch(() => {}); }
  }, { rootMargin: "50% 0px" });
  observer.observe(box);
  box.addEventListener("focusin", () => load().catch(() => {}), { once: true });
}

document.querySelectorAll(".live-generate").forEach(setUp);
