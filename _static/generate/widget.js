// The live-generation box of Part III: a prompt, the sampler's settings, the words as they come at a pace the
// reader sets, the next word's probabilities, every head's attention for any word written (in a table, and as
// shading on the story), switches that silence heads, a head patched in from another prompt, the chosen word's
// logit read apart (what each head, MLP and the embedding push it) and layer by layer, and a link that writes
// the story again. The model (about 0.6 MB) is fetched from the site only when the reader nears the box; it runs
// in a worker (worker.js), so typing and scrolling never wait for it. What the box draws is in view.js.
import { drawAttention, drawBars, drawLayers, drawWhy, percent, quoted, weight } from "./view.js";
import { loadWhenNear, startWorker } from "./start.js";
import { dropped, oneToken, Printer, words } from "./text.js";

const UNK = 1;
const RUN = 200;          // words one Generate or Go on writes at most
const MAX_WORDS = 1000;   // a story grows no longer (every word keeps its scores and attention)
const VIEW_MS = 50;       // while a run writes, the bars and the attention table are redrawn at most this often
// The number fields: [label, least, whole numbers only, most] (top-k's most is the vocabulary's size).
const FIELDS = { temperature: ["Temperature", 0.1, false, 2], topk: ["Top-k", 0, true, null], topp: ["Top-p", 0.01, false, 1],
                 seed: ["Seed", 0, true, 4294967295] };
const LINK = "#st-live?";   // the address of a story: the box's id, then its settings (link(), fromLink())
const MOST = 8;    // items a note lists

// Why a run ended, as the status says it: the worker's reason, and what "limit" means for each kind of run.
const REASONS = { end: "the model ended the story", stopped: "stopped", generate: "the length limit was reached",
                  step: "one step", take: "your word" };

function setUp(box) {
  const $ = (name) => box.querySelector(`[data-part="${name}"]`);
  const prompt = $("prompt"), status = $("status"), progress = $("progress"), notes = $("notes");
  const promptWords = $("prompt-words"), list = $("words"), caret = $("caret"), output = $("output");
  const stop = $("stop"), view = $("attention"), viewText = $("attention-text"), bars = $("bars"), barsTitle = $("bars-title");
  const heads = [...box.querySelectorAll(".live-head[data-head]")];
  const patchHead = $("patch-head"), source = $("source"), explain = $("explain"), shade = $("shade");
  const state = {
    worker: null, ready: null, vocab: null, index: null, proper: new Set(), context: 0,
    run: 0,                 // the request being answered: messages of an older one are dropped
    busy: false, starter: null, runStart: 0, runSettings: null,
    story: null,            // what is on screen, as the worker is sent it: {text, prompt, written, seed, silenced, draws}
    tokens: [],             // every word read, as printed in the attention table: <start>, the prompt's, the written ones
    preds: [],              // preds[k]: the prediction written[k] was drawn from; the last one is the next word's
    draws: [],              // draws[k]: the generator's draws after written[k]
    shown: 0,               // written words on screen
    selected: null,         // the prediction shown: an index into preds; null follows the newest
    printer: null, frame: 0, viewAt: 0, notes: "", barFocus: -1,
    inspect: 0,             // the newest "inspect" request: older answers are dropped
    shaded: [],             // the story's words shaded now (shadeStory)
    explained: null,        // the word the reader chose to read apart, kept while it is among the bars
    finished: null,         // resolves the run being written (a link's story is written run by run)
    runs: [],               // the runs that wrote the story: {count, take, settings}, for the link
  };

  // The newest words, and the attention table's newest columns, kept in view without reading the layout at each
  // redraw: a read there makes the browser lay the page out again at once (the whole story: with a 20,000-letter
  // prompt, 4,000 words, 80 to 100 ms a frame). A ResizeObserver reports the story's block grown, and each new
  // table, after the browser has laid them out, where the scroll is set for nothing.
  const follow = new ResizeObserver((entries) => {
    for (const entry of entries) {
      if (entry.target === $("flow")) { if (state.selected === null) output.scrollTop = output.scrollHeight; }
      else if (entry.target.isConnected) view.scrollLeft = view.scrollWidth;
      else follow.unobserve(entry.target);                  // a table replaced since
    }
  });
  follow.observe($("flow"));

  function say(text) { status.textContent = text; }  // role=status: read out once per run
  // Once the reader changes section 6's prepared story (its words, a head, the patch), the status stops describing it.
  function leavePrepared() {
    if (!state.prepared) return;
    state.prepared = false;
    say("Section 6's story as prepared no longer: the bars show the next word for the story and settings as they are now.");
  }

  function load() {
    if (state.ready) return state.ready;
    const started = startWorker(box, new URL("./worker.js", import.meta.url), say);
    state.worker = started.worker;
    state.ready = started.ready.then((msg) => {
      state.vocab = msg.vocabulary;
      state.index = new Map(msg.vocabulary.map((w, i) => [w, i]));
      state.proper = new Set(msg.proper);
      state.context = msg.context;
      say("The model is ready: write the start of a story, or leave the box empty, and press Generate or Step.");
      state.worker.onmessage = (e) => onMessage(e.data);
      newStory();
      ask();
    });
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
    const temperature = field("temperature"), topK = field("topk"), topP = field("topp");
    if (temperature === null || topK === null || topP === null) return null;
    return { greedy: $("greedy").checked, temperature, topK, topP, pace: Number($("pace").value) };
  }

  function silenced() {
    return heads.filter((b) => b.getAttribute("aria-pressed") === "true").map((b) => Number(b.dataset.head));
  }

  // The patch as the controls give it: {head, source ids}, or null (no head chosen, or no other start written).
  function patch() {
    const tokens = words(source.value);
    if (patchHead.value === "" || !tokens.length) return null;
    return { head: Number(patchHead.value), source: tokens.map((t) => (state.index.has(t) ? state.index.get(t) : UNK)) };
  }

  // The notes on what the model reads: the prompt's (state.notes), and the other start's when the patch reads only
  // its last words (cut as a prompt is, run.js inContext).
  function allNotes() {
    const long = patchHead.value !== "" && state.context && words(source.value).length + 1 > state.context;
    const cut = long ? `The other start is longer than the context of ${state.context} words: the patch reads only its last words.` : "";
    return [state.notes, cut].filter(Boolean).join(" ");
  }

  // What changes the model for a prediction, as the bars' title says it.
  function changed(quiet, patched) {
    const out = [];
    if (quiet.length) out.push(`${quiet.map(headName).join(", ")} silenced`);
    if (patched) out.push(`${headName(patched.head)} patched from the other start`);
    return out.join(" and ");
  }

  function changes(quiet, patched) {
    const out = changed(quiet, patched);
    return out ? ` With ${out}; the thin bars are the unchanged model's.` : "";
  }

  // A new story from the prompt as it stands: nothing written yet.
  function newStory() {
    const text = prompt.value, tokens = words(text);
    const unknown = new Set(tokens.map((t, i) => (state.index.has(t) ? -1 : i)).filter((i) => i >= 0));
    const ids = tokens.map((t, i) => (unknown.has(i) ? UNK : state.index.get(t)));
    state.story = { text, prompt: ids, written: [], seed: state.story ? state.story.seed : 0, silenced: silenced(),
                    patch: patch(), draws: 0 };
    state.runs = [];
    state.tokens = ["<start>", ...tokens];
    state.preds = [];
    state.draws = [];
    state.shown = 0;
    state.selected = null;
    state.printer = new Printer(state.proper);
    // The prompt's words the model reads, one span each; those before (past the context, never read) as a count:
    // a 20,000-letter prompt is 4,000 words, and each frame of a run would lay them all out again.
    state.promptFrom = Math.max(0, tokens.length - (state.context - 1));
    const before = state.promptFrom
      ? [Object.assign(document.createElement("span"), { className: "live-unread",
                                                          textContent: `[${state.promptFrom.toLocaleString("en")} earlier words, past the context]` })]
      : [];
    const read = document.createDocumentFragment();
    read.append(...before);
    tokens.forEach((t, i) => {
      const [space, word] = state.printer.next(t);        // every word through the printer: its spacing and capitals
      if (i < state.promptFrom) return;
      read.append(space, Object.assign(document.createElement("span"), { textContent: word, className: "live-prompt" + (unknown.has(i) ? " live-unknown" : "") }));
    });
    promptWords.replaceChildren(read);
    list.replaceChildren(caret);
    bars.replaceChildren();                 // the bars and the table of another story go until this one's come
    barsTitle.textContent = "";
    view.replaceChildren();
    viewText.textContent = "";
    for (const part of ["why", "layers", "explain"]) $(part).replaceChildren();   // the last story read apart goes too
    $("why-title").textContent = "";
    state.inspect += 1;                     // and a reading of it still on its way is dropped
    box.dataset.stories = String(Number(box.dataset.stories || 0) + 1);
    const found = [];
    if (!tokens.length) found.push("No prompt: the model starts a story of its own.");
    if (unknown.size) found.push(`Not in the model's vocabulary, read as <unk>: ${listed([...new Set([...unknown].map((i) => tokens[i]))], ", ")}.`);
    const gone = dropped(text);
    if (gone.length) found.push(`Not read at all (the model knows only letters and . , ! ? "): ${listed(gone, " ")}`);
    if (ids.length + 1 > state.context) found.push(`The prompt is longer than the context of ${state.context} words: only its last words are read.`);
    state.notes = found.join(" ");
    notes.textContent = allNotes();
  }

  // A note's list as a screen reader can read it out: the first MOST items, a giant word cut (quoted), then how
  // many more.
  function listed(items, gap) {
    const more = items.length > MOST ? `${gap}and ${items.length - MOST} more` : "";
    return items.slice(0, MOST).map(quoted).join(gap) + more;
  }

  function syncPrompt() {
    if (state.story && prompt.value !== state.story.text) newStory();
  }

  function request(type, extra = {}) {
    state.run += 1;
    state.worker.postMessage({ type, run: state.run, story: state.story, ...extra });
  }

  // The next word's scores after the story on screen (nothing is drawn).
  function ask() {
    if (!state.vocab || state.busy) return;
    state.preds.length = state.story.written.length;
    Object.assign(state.story, { silenced: silenced(), patch: patch() });
    request("next");
  }

  // Write: `count` words by the sampler, or the reader's word `take`.
  async function write(kind, count, take) {
    await load();
    if (state.busy) return;
    syncPrompt();
    const settings = sampling(), seed = field("seed");
    if (!settings || seed === null) {
      say("Nothing was written: a setting above is not a number in its range.");
      return;
    }
    const room = MAX_WORDS - state.story.written.length;
    if (room <= 0) {
      say(`Nothing was written: the story has reached ${MAX_WORDS} words.`);
      return;
    }
    Object.assign(state.story, { seed, silenced: silenced(), patch: patch() });
    Object.assign(state, { kind, busy: true, starter: document.activeElement, runStart: state.story.written.length,
                           runSettings: { ...settings, silenced: state.story.silenced, patch: state.story.patch, seed } });
    stop.disabled = false;
    progress.textContent = "Writing…";
    const done = new Promise((resolve) => { state.finished = resolve; });
    state.runCount = Math.min(count, room);
    request("write", { settings, count: state.runCount, take });
    return done;                                          // true once the run is written (finish)
  }

  function finish(reason) {
    if (state.frame) cancelAnimationFrame(state.frame);
    state.busy = false;
    draw();                                               // the last words on screen as the status says they are
    stop.disabled = true;
    progress.textContent = "";
    const n = state.story.written.length - state.runStart;
    // A run that the model ended drew its end too: written again with the count it was asked for, it ends there.
    if (n || reason === "end") {
      state.runs.push({ count: reason === "end" ? state.runCount : n, settings: state.runSettings,
                        take: state.kind === "take" ? state.story.written[state.runStart] : null });
    }
    const said = state.runStart === 0 ? allNotes() : "";
    const fresh = said ? said + " " : "";
    if (n === 0 && reason === "end") say(`${fresh}The model ends the story here: choose a word from the bars, or type one, to write on.`);
    else say(`${fresh}${n} ${n === 1 ? "word" : "words"} written (${REASONS[reason === "limit" ? state.kind : reason]}).`);
    const focus = document.activeElement;
    if (focus === stop || focus === document.body || !box.contains(focus)) {
      if (state.starter && state.starter.isConnected && !state.starter.disabled && box.contains(state.starter)) state.starter.focus();
    }
    if (silenced().join() !== state.story.silenced.join() || JSON.stringify(patch()) !== JSON.stringify(state.story.patch)) ask();
    if (state.finished) { state.finished(true); state.finished = null; }
  }

  // Stop: what is on screen is the story; the words the worker sent after it are dropped.
  function halt() {
    if (!state.busy) return;
    const k = state.shown;
    state.story.written.length = k;
    state.tokens.length = 1 + state.story.prompt.length + k;
    state.preds.length = k + 1;
    state.draws.length = k;
    state.story.draws = k ? state.draws[k - 1] : 0;
    state.worker.postMessage({ type: "stop", run: state.run });
    state.run += 1;                                       // every later message of that run is dropped
    finish("stopped");
  }

  function onMessage(msg) {
    if (msg.type === "inspect") { if (msg.run === state.inspect) showInspect(msg); return; }
    if (msg.run !== state.run) return;
    if (msg.type === "next") {
      state.preds[state.story.written.length] = msg;
      if (msg.slid && !state.busy) notes.textContent = allNotes();
    } else if (msg.type === "token") {
      const k = state.story.written.length;
      Object.assign(state.preds[k], { settings: state.runSettings, chosen: msg.chosen });
      state.story.written.push(msg.id);
      state.story.draws = msg.draws;
      state.draws.push(msg.draws);
      state.tokens.push(state.vocab[msg.id]);
      state.preds.push(msg.next);
      if (msg.slid) say(`The story is longer than the model's context of ${state.context} words: the oldest words were dropped.`);
    } else if (msg.type === "done") {
      state.story.draws = msg.draws;
      finish(msg.reason);
      return;
    } else if (msg.type === "error") {
      if (state.finished) { state.finished(false); state.finished = null; }
      state.busy = false;
      stop.disabled = true;
      progress.textContent = "";
      say("Something went wrong: " + msg.message);
    }
    schedule();
  }

  // Draw at most once a frame: the new words appended, then the selected word's bars and attention.
  function schedule() {
    if (!state.frame) state.frame = requestAnimationFrame(draw);
  }

  function draw() {
    state.frame = 0;
    const written = state.story.written;
    if (state.shown < written.length) {
      const words = document.createDocumentFragment();
      for (let k = state.shown; k < written.length; k++) {
        const [space, word] = state.printer.next(state.vocab[written[k]]);
        const option = Object.assign(document.createElement("span"), { role: "option", id: `${box.id}-w${k}`, className: "live-word" });
        option.setAttribute("role", "option");
        option.setAttribute("aria-selected", "false");
        option.dataset.k = String(k);
        if (state.preds[k] && state.preds[k].chosen) option.classList.add("live-chosen");
        option.append(space, Object.assign(document.createElement("span"), { textContent: word }));
        words.append(option);
      }
      list.insertBefore(words, caret);
      state.shown = written.length;
    }
    caret.dataset.k = String(written.length);
    // The bars and the table: every frame while the reader works the box, every VIEW_MS while a run writes
    // (redrawing them is most of the page's work per frame, and they change faster than anyone reads).
    const now = performance.now();
    if (!state.busy || now - state.viewAt >= VIEW_MS) {
      state.viewAt = now;
      showSelected();
    } else {
      schedule();
    }
  }

  function showSelected() {
    const last = state.preds.length - 1;
    const k = state.selected === null ? last : Math.min(state.selected, last);
    const pred = state.preds[k];
    const option = k === state.story.written.length ? caret : list.querySelector(`[data-k="${k}"]`);
    for (const o of list.querySelectorAll('[aria-selected="true"]')) o.setAttribute("aria-selected", "false");
    if (option) {
      option.setAttribute("aria-selected", "true");
      list.setAttribute("aria-activedescendant", option.id);
      if (state.selected !== null && document.activeElement === list) option.scrollIntoView({ block: "nearest" });
    }
    if (!pred) return;
    const pending = k === state.story.written.length;
    const settings = pending ? sampling() : pred.settings;
    if (!settings) return;                                   // a field out of range: the bars wait for it
    const labels = state.tokens.slice(pred.end - pred.attention[0][0].length, pred.end);
    const before = quoted(state.tokens[pred.end - 1]);
    // A bar's word that had focus keeps it: the same row's button once the bars can be chosen from again.
    const buttons = () => [...bars.querySelectorAll("button")];
    const focused = buttons().indexOf(document.activeElement);
    if (focused >= 0) state.barFocus = focused;
    const p = drawBars(bars, pred, settings, state.vocab, { choosable: pending && !state.busy, chosen: pending ? null : state.story.written[k] });
    if (state.barFocus >= 0 && (focused >= 0 || document.activeElement === bars)) {
      const again = buttons()[state.barFocus];
      if (again) { again.focus(); state.barFocus = -1; } else bars.focus();
    }
    const quiet = pending ? silenced() : settings.silenced || [];   // the heads silenced for this prediction
    const patched = pending ? state.story.patch : settings.patch;
    const off = changes(quiet, patched);
    const greedy = settings.greedy ? " Greedy takes the top word." : "";
    const word = pending ? "" : `“${quoted(state.vocab[state.story.written[k]])}”`;
    const what = pending
      ? (before === "<start>" ? "The first word of a story:" : `The next word after “${before}”:`)
      : (pred.chosen ? `You chose ${word} (${percent(p)} by the model) after “${before}”:` : `${word} (${percent(p)}) was drawn after “${before}” from:`);
    barsTitle.textContent = what + greedy + off;
    const best = drawAttention(view, pred, labels, new Set(quiet));
    follow.observe(view.firstChild);                        // scrolled to the newest words read (follow)
    viewText.textContent = best.w < 0 ? "" : `${pending ? "For the next word" : "Choosing " + word}: the strongest look back is ${best.head} on “${quoted(best.word)}” (${best.w.toFixed(2)}).`;
    shadeStory(pred);
    // read apart when the reader can look: not at every redraw of a run at the model's full rate
    if (!state.busy || (state.runSettings && state.runSettings.pace)) inspect(pred, pending ? null : state.story.written[k], changed(quiet, patched));
  }

  // The words to read apart: the bars' words; the reader's choice while it is among them, else the written word
  // (or, for the next word, the likeliest).
  // `model`: what the model was changed by (heads silenced, a patch), said with the reply.
  function inspect(pred, written, model) {
    const ids = [...bars.querySelectorAll("[data-id]")].map((b) => Number(b.dataset.id));
    if (written !== null && !ids.includes(written)) ids.unshift(written);
    if (!ids.length) return;
    const keep = state.explained !== null && ids.includes(state.explained) ? state.explained : (written ?? ids[0]);
    const options = ids.map((id) => Object.assign(document.createElement("option"),
      { value: String(id), textContent: id === 0 ? "(the end)" : state.vocab[id], selected: id === keep }));
    explain.replaceChildren(...options);
    state.inspect += 1;
    state.inspectWith = model;
    state.worker.postMessage({ type: "inspect", run: state.inspect, parts: pred.parts, word: keep });
  }

  function showInspect(msg) {
    const word = msg.word === 0 ? "(the end)" : state.vocab[msg.word];
    const logit = drawWhy($("why"), msg.attribution);
    const model = state.inspectWith ? ` In the model with ${state.inspectWith}.` : "";
    $("why-title").textContent = `Why “${word}”: what each part pushes its logit (${logit.toFixed(2)}), read directly ` +
      `through the final LayerNorm with its scale at this word; the bars add up to the logit.${model}`;
    drawLayers($("layers"), msg.layers, state.vocab, msg.word);
  }

  // The story's words shaded by the chosen head's weight on them, for the shown prediction (only the words the
  // shading touched are cleared: a long story is not walked at every redraw).
  function shadeStory(pred) {
    for (const s of state.shaded) {
      s.style.removeProperty("--shade");
      s.classList.remove("live-shaded");
      s.removeAttribute("title");
      delete s.dataset.weight;
    }
    state.shaded = [];
    if (shade.value === "") return;
    const spans = [...promptWords.querySelectorAll(".live-prompt"), ...list.querySelectorAll(".live-word > span")];
    const head = Number(shade.value), H = pred.attention[0].length;
    const row = pred.attention[Math.floor(head / H)][head % H], first = pred.end - row.length;
    row.forEach((w, j) => {
      const span = spans[first + j - 1 - state.promptFrom];   // word 0 is <start>, not on screen; nor are words
      //                                                           past the context before the prompt's last ones
      if (!span) return;
      span.classList.add("live-shaded");
      span.style.setProperty("--shade", (100 * w).toFixed(1) + "%");
      span.dataset.weight = String(w);
      span.title = `${headName(head)}: ${weight(w)}`;
      state.shaded.push(span);
    });
  }

  // The story as an address: the prompt, the settings, the silenced heads, the patch and the runs that wrote it
  // (how many words each, or the word the reader chose). Opening it writes the same story (fromLink).
  function link() {
    const s = sampling(), seed = field("seed");
    if (!s || seed === null) { say("No link: a setting above is not a number in its range."); return; }
    const runs = state.runs.map((r) => (r.take === null ? String(r.count) : "w" + r.take)).join(".");
    const same = state.runs.every((r) => ["temperature", "topK", "topP", "greedy", "seed"].every((k) => r.settings[k] === { ...s, seed }[k])
                                       && r.settings.silenced.join() === silenced().join()
                                       && JSON.stringify(r.settings.patch) === JSON.stringify(patch()));
    const q = new URLSearchParams({ prompt: prompt.value, t: String(s.temperature), k: String(s.topK), p: String(s.topP),
                                    seed: String(seed), greedy: s.greedy ? "1" : "0", off: silenced().join("."),
                                    ph: patchHead.value, ps: patchHead.value === "" ? "" : source.value, runs });
    const url = new URL(LINK + q.toString(), location.href).href;
    history.replaceState(null, "", LINK + q.toString());
    const out = $("link-text");
    out.hidden = false;
    out.value = url;
    out.select();
    if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
    say(same ? `A link to this story (${state.story.written.length} words) is in the address bar and below: opening it writes the same words.`
             : "A link is in the address bar and below; the settings changed while this story was written, so it writes the story with the settings above.");
  }

  // A story's address, opened: the settings put back and the story written again, run by run.
  async function fromLink(hash) {
    const q = new URLSearchParams(hash.slice(LINK.length));
    await load();
    halt();
    prompt.value = q.get("prompt") || "";
    for (const [part, key] of [["temperature", "t"], ["topk", "k"], ["topp", "p"], ["seed", "seed"]]) if (q.has(key)) $(part).value = q.get(key);
    $("greedy").checked = q.get("greedy") === "1";
    const off = new Set((q.get("off") || "").split(".").filter(Boolean).map(Number));
    for (const b of heads) b.setAttribute("aria-pressed", String(off.has(Number(b.dataset.head))));
    patchHead.value = q.get("ph") || "";
    source.value = q.get("ps") || "";
    box.scrollIntoView({ block: "start" });
    newStory();
    for (const run of (q.get("runs") || "").split(".").filter(Boolean)) {
      const written = await (run.startsWith("w") ? write("take", 1, Number(run.slice(1))) : write("generate", Number(run)));
      if (!written) break;                                  // a setting out of range: write() said so
    }
    if (!state.story.written.length) ask();
  }

  function headName(k) {
    return heads.find((b) => Number(b.dataset.head) === k).textContent.trim();
  }

  function select(k) {
    const last = state.preds.length - 1;
    state.selected = k >= last ? null : Math.max(0, k);
    if (state.selected === null) output.scrollTop = output.scrollHeight;   // back to the newest words, once
    schedule();
  }

  // The reader's next word, typed: one word of the vocabulary, or a message next to the field.
  function typed() {
    const input = $("word"), error = $("word-error"), token = oneToken(input.value);
    let message = "";
    if (token === null) message = "Write one word (or one of . , ! ? \" 's).";
    else if (!state.index.has(token) || state.index.get(token) <= UNK) message = `“${token}” is not in the model's vocabulary.`;
    error.textContent = message;
    input.setAttribute("aria-invalid", String(Boolean(message)));
    return message ? null : state.index.get(token);
  }

  $("form").addEventListener("submit", async (event) => {
    event.preventDefault();
    await load();
    if (state.busy) return;
    newStory();
    write("generate", RUN);
  });
  $("step").addEventListener("click", () => write("step", 1));
  $("go-on").addEventListener("click", () => write("generate", RUN));
  $("add").addEventListener("click", () => { const id = state.vocab && typed(); if (id !== null && id !== undefined) write("take", 1, id); });
  $("word").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); $("add").click(); } });
  bars.addEventListener("click", (e) => {
    const button = e.target.closest("button[data-id]");
    if (button && !state.busy) write("take", 1, Number(button.dataset.id));
  });
  list.addEventListener("click", (e) => {
    const option = e.target.closest("[data-k]");
    if (option) { list.focus(); select(Number(option.dataset.k)); }
  });
  list.addEventListener("keydown", (e) => {
    const last = state.preds.length - 1, k = state.selected === null ? last : state.selected;
    const to = { ArrowLeft: k - 1, ArrowUp: k - 1, ArrowRight: k + 1, ArrowDown: k + 1, Home: 0, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    select(to);
  });
  view.addEventListener("click", (e) => {
    const cell = e.target.closest("td");
    if (cell) viewText.textContent = cell.dataset.note;
  });
  $("numbers").addEventListener("click", (e) => {
    const on = e.currentTarget.getAttribute("aria-pressed") !== "true";
    e.currentTarget.setAttribute("aria-pressed", String(on));
    view.classList.toggle("live-show-values", on);
  });
  for (const b of heads) {
    b.addEventListener("click", () => {
      b.setAttribute("aria-pressed", String(b.getAttribute("aria-pressed") !== "true"));
      leavePrepared();
      ask();
      schedule();
    });
  }
  $("try").addEventListener("click", async () => {
    await load();
    halt();
    const off = new Set(JSON.parse($("try").dataset.silence));
    for (const b of heads) b.setAttribute("aria-pressed", String(off.has(Number(b.dataset.head))));
    prompt.value = $("try").dataset.prompt;
    newStory();
    ask();
    say(`Section 6's story, with ${silenced().map(headName).join(", ")} silenced: the bars show the next word.`);
    state.prepared = true;
  });
  $("try-patch").addEventListener("click", async () => {
    await load();
    halt();
    const t = $("try-patch").dataset;
    for (const b of heads) b.setAttribute("aria-pressed", "false");
    patchHead.value = t.patch;
    source.value = t.source;
    prompt.value = t.prompt;
    shade.value = t.patch;
    newStory();
    ask();
    say(`Section 6's story, with ${headName(Number(t.patch))} patched from the same story with the friend renamed: the bars show the next word beside the unchanged model's.`);
    state.prepared = true;
  });
  const repatch = () => { if (state.vocab && !state.busy) { leavePrepared(); notes.textContent = allNotes(); ask(); schedule(); } };
  let patching = 0;
  patchHead.addEventListener("change", repatch);
  source.addEventListener("input", () => { clearTimeout(patching); patching = setTimeout(repatch, 150); });  // typing
  explain.addEventListener("change", () => { state.explained = Number(explain.value); schedule(); });
  shade.addEventListener("change", schedule);
  $("link").addEventListener("click", async () => { await load(); link(); });
  box.addEventListener("keydown", (e) => { if (e.key === "Escape" && state.busy) { e.preventDefault(); halt(); } });
  let typing = 0;
  prompt.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => {               // a story begun since (Generate) already reads this prompt
      if (!state.vocab || prompt.value === state.story.text) return;
      halt(); leavePrepared(); newStory(); ask();
    }, 150);
  });
  for (const part of ["temperature", "topk", "topp", "greedy"]) $(part).addEventListener("input", schedule);
  $("seed").addEventListener("input", () => field("seed"));
  stop.addEventListener("click", halt);
  if (location.hash.startsWith(LINK)) fromLink(location.hash);
  loadWhenNear(box, load);
}

document.querySelectorAll(".live-generate").forEach(setUp);
