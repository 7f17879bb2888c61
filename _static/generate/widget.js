// The live-generation box of Part III: prompt, controls, words as they come, and every head's attention.
// The model (about 0.6 MB) is fetched from the site only when the reader nears the box; it runs in a
// worker (worker.js), so typing and scrolling never wait for it.
import { distribution } from "./sample.js";
import { readable, words } from "./text.js";

const VIRIDIS = ["#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58", "#b5de2b", "#fde725"];
const SHOWN = 24; // words of attention shown (the newest ones)
const BARS = 10;  // words with a bar of their own; the rest share one
const UNK = 1;
// The number fields: [label, least, whole numbers only, most] (top-k's most is the vocabulary's size).
const FIELDS = { temperature: ["Temperature", 0.1, false, 2], topk: ["Top-k", 0, true, null], seed: ["Seed", 0, true, 4294967295] };

// A probability as the page writes it: one decimal of a percent, never 0 % or 100 %.
export function percent(p) {
  if (p < 0.0005) return "< 0.1 %";
  if (p > 0.9995) return "> 99.9 %";
  return (100 * p).toFixed(1) + " %";
}

function colour(w) {
  return VIRIDIS[Math.min(VIRIDIS.length - 1, Math.floor(w * VIRIDIS.length))];
}

function setUp(box) {
  const $ = (name) => box.querySelector(`[data-part="${name}"]`);
  const form = $("form"), prompt = $("prompt"), status = $("status"), output = $("output");
  const stop = $("stop"), view = $("attention"), viewText = $("attention-text");
  const bars = $("bars"), barsTitle = $("bars-title");
  const state = { worker: null, ready: null, vocab: null, index: null, proper: new Set(), run: 0,
                  promptTokens: [], newTokens: [], unknown: new Set(), busy: false, layers: 0, heads: 0,
                  ask: 0, logits: null, barsFor: "", frame: 0 };

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
          peek();
        } else if (msg.type === "error") {
          say("The model could not be loaded: " + msg.message);
          reject(new Error(msg.message));
        }
      };
    });
    state.worker.postMessage({ type: "load", base: new URL(box.dataset.models, document.baseURI).href });
    return state.ready;
  }

  // A number field's value, or null with a message next to it: never a silent default.
  function field(name) {
    const input = $(name), [label, min, whole] = FIELDS[name];
    const max = name === "topk" ? (state.vocab ? state.vocab.length : 1000) : FIELDS[name][3];
    const text = input.value.trim(), value = Number(text);
    const ok = text !== "" && Number.isFinite(value) && value >= min && value <= max && (!whole || Number.isInteger(value));
    $(name + "-error").textContent = ok ? "" : `${label} must be ${whole ? "a whole number" : "a number"} from ${min} to ${max}.`;
    input.setAttribute("aria-invalid", String(!ok));
    return ok ? value : null;
  }

  // The sampler's settings as the controls give them now; null while one is not a number in range.
  function sampling() {
    const temperature = field("temperature"), topK = field("topk");
    return temperature === null || topK === null ? null : { greedy: $("greedy").checked, temperature, topK };
  }

  function promptIds(tokens) {
    return tokens.map((t) => (state.index.has(t) ? state.index.get(t) : UNK));
  }

  // Ask the worker for the next word's scores after the prompt as it stands (no word is drawn).
  function peek() {
    if (!state.vocab || state.busy) return;
    state.ask += 1;
    state.worker.postMessage({ type: "peek", ask: state.ask, promptIds: promptIds(words(prompt.value)) });
  }

  // The bars: the distribution the next draw uses (temperature and top-k applied), at most once a frame.
  function showBars() {
    if (state.frame) return;
    state.frame = requestAnimationFrame(() => {
      state.frame = 0;
      const settings = sampling();
      if (!state.logits || !settings) return;                // a field out of range: the bars wait for it
      const dist = distribution(state.logits, settings);
      const rest = dist.slice(BARS).reduce((sum, [, p]) => sum + p, 0);
      const rows = dist.slice(0, BARS).map(([id, p]) => [state.vocab[id], p]);
      if (dist.length > BARS) rows.push([`all ${dist.length - BARS} others`, rest]);
      barsTitle.textContent = state.barsFor + (settings.greedy ? " Greedy takes the top word." : "");
      bars.replaceChildren(...rows.map(([word, p], k) => {
        const li = document.createElement("li");
        if (k === BARS) li.className = "live-bar-others";
        li.dataset.p = String(p);
        const label = Object.assign(document.createElement("span"), { className: "live-bar-word", textContent: word });
        const bar = Object.assign(document.createElement("span"), { className: "live-bar" });
        bar.append(Object.assign(document.createElement("span"), { style: `width: ${(100 * p).toFixed(2)}%` }));
        const value = Object.assign(document.createElement("span"), { className: "live-bar-p", textContent: percent(p) });
        li.append(label, bar, value);
        return li;
      }));
    });
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
    if (msg.type === "peeked") {
      if (msg.ask !== state.ask || state.busy) return;  // the prompt changed since, or a run began
      state.logits = msg.logits;
      const last = words(prompt.value).slice(-1)[0];
      state.barsFor = last ? `The next word after “${last}”:` : "The first word of a story:";
      showBars();
      return;
    }
    if (msg.run !== state.run) return;                 // a run that was replaced
    if (msg.type === "token") {
      state.newTokens.push(state.vocab[msg.id]);
      state.logits = msg.logits;
      state.barsFor = `“${state.vocab[msg.id]}” was drawn from:`;
      showBars();
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
    const settings = sampling(), seed = field("seed");
    if (!settings || seed === null) {
      say("Nothing was written: a setting above is not a number in its range.");
      return;
    }
    const text = prompt.value;
    const tokens = words(text);
    const ids = promptIds(tokens);
    state.unknown = new Set(tokens.map((t, i) => (state.index.has(t) ? -1 : i)).filter((i) => i >= 0));
    state.promptTokens = tokens.map((t, i) => (state.unknown.has(i) ? t : state.vocab[ids[i]]));
    state.newTokens = [];
    state.run += 1;
    state.busy = true;
    stop.disabled = false;
    const options = { ...settings, seed, maxTokens: 200 };
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
  let typing = 0;
  prompt.addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(peek, 150); });
  for (const part of ["temperature", "topk", "greedy"]) $(part).addEventListener("input", showBars);
  $("seed").addEventListener("input", () => field("seed"));
  stop.addEventListener("click", () => state.worker && state.worker.postMessage({ type: "stop", run: state.run }));
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) { observer.disconnect(); load().catch(() => {}); }
  }, { rootMargin: "50% 0px" });
  observer.observe(box);
  box.addEventListener("focusin", () => load().catch(() => {}), { once: true });
}

document.querySelectorAll(".live-generate").forEach(setUp);
