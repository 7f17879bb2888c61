// "Train it yourself": the walkthrough's box that trains the model in the reader's browser.
//
// The box's HTML is written by compute/lessons/walkthrough/trainbox.py; this script brings it to life. The
// trainer's JSON (sizes, data, recipe, the seed record's results) is fetched when the reader nears the box,
// a seed's initial weights (1,992 bytes) when the reader trains it. Training runs in worker.js; Cancel ends
// it (the worker is stopped). The reader's runs are kept in this browser (localStorage), with their curves,
// which can be drawn under the current one.
import { VIRIDIS, percent, weight } from "../generate/view.js";

const SPEC = "walkthrough.json";
const EVERY = 20;                 // steps between reports: 100 points on the curve for the recipe's 2,000
const W = 320, H = 150, PAD = { l: 42, r: 8, t: 8, b: 30 };
const KEPT = "wt-train-runs";     // localStorage: the reader's runs, across reloads
const MOST_RUNS = 50;             // runs kept (the oldest go first)
const CURVE_POINTS = 100;         // a kept run's curve: this many (step, loss) points

function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function colour(w) {
  return VIRIDIS[Math.min(VIRIDIS.length - 1, Math.floor(w * VIRIDIS.length))];
}

function loss4(x) {
  return x.toFixed(4);
}

function setup(box) {
  const part = (name) => box.querySelector(`[data-part="${name}"]`);
  const base = box.dataset.train;
  const fields = { seed: part("seed"), lr: part("lr"), steps: part("steps") };
  const status = part("status"), result = part("result"), tally = part("tally"), runsBody = part("runs");
  const scrub = part("scrub"), scrubOut = part("scrub-step"), curve = part("curve"), rowsTable = part("rows");
  const button = part("train"), cancel = part("cancel"), overlay = part("overlay");
  let spec = null, specLoading = null, worker = null, run = 0;
  let current = null;               // the run being drawn: {losses, snapshots: [{step, rows}], steps, done}
  const runs = [];                  // the reader's runs, as kept: {seed, lr, steps, loss, converged, looks, cue, agrees, curve}

  // Train and Cancel are never disabled (focus would fall to the page): each says with aria-disabled whether it
  // does anything now.
  function busy(on, seed) {
    button.setAttribute("aria-disabled", String(on));
    cancel.setAttribute("aria-disabled", String(!on));
    part("progress").textContent = on ? `Training seed ${seed}…` : "";   // on screen; the status speaks once a run
  }

  function loadSpec() {
    if (!specLoading) {
      specLoading = fetch(base + SPEC).then((r) => {
        if (!r.ok) throw new Error(`${base + SPEC}: ${r.status}`);
        return r.json();
      }).then((s) => { spec = s; restore(); return s; });
    }
    return specLoading;
  }

  // Fields: a whole seed the site holds weights for, a learning rate and steps within the safe ranges.
  function read() {
    const errors = {};
    const [first, last] = spec.record.seeds;
    const seed = Number(fields.seed.value), lr = Number(fields.lr.value), steps = Number(fields.steps.value);
    if (!Number.isInteger(seed) || seed < first || seed > last || fields.seed.value.trim() === "") {
      errors.seed = `Choose a whole number from ${first} to ${last}: the seeds whose initial weights this site holds.`;
    }
    const [lo, hi] = spec.ranges.lr;
    if (!(lr >= lo && lr <= hi)) errors.lr = `Choose a learning rate from ${lo} to ${hi}.`;
    const [s0, s1] = spec.ranges.steps;
    if (!Number.isInteger(steps) || steps < s0 || steps > s1) errors.steps = `Choose a whole number of steps from ${s0} to ${s1}.`;
    for (const name of Object.keys(fields)) {
      part(`${name}-error`).textContent = errors[name] || "";
      fields[name].setAttribute("aria-invalid", errors[name] ? "true" : "false");
    }
    return Object.keys(errors).length ? null : { seed, lr, steps };
  }

  // The loss curve: log scale, from the first loss down to the data's floor region.
  function drawCurve(losses, total, mark) {
    curve.replaceChildren();
    if (!losses.length) return;
    const earlier = overlay.checked ? runs.filter((r) => r !== current.kept && r.curve.length) : [];
    total = Math.max(total, ...earlier.map((r) => r.steps));
    const top = Math.log(Math.max(...losses.slice(0, 5), 2.5)), bottom = Math.log(0.15);
    const x = (i) => PAD.l + (W - PAD.l - PAD.r) * (i / Math.max(1, total - 1));
    const y = (v) => PAD.t + (H - PAD.t - PAD.b) * (top - Math.log(Math.max(v, 0.15))) / (top - bottom);
    for (const v of [2, 1, 0.5, 0.2]) {
      curve.append(svg("line", { x1: PAD.l, x2: W - PAD.r, y1: y(v), y2: y(v), class: "train-grid" }));
      const label = svg("text", { x: PAD.l - 4, y: y(v) + 3, "text-anchor": "end", class: "train-tick" });
      label.textContent = String(v);
      curve.append(label);
    }
    for (const s of [0, Math.round(total / 2), total]) {
      const anchor = s === 0 ? "start" : s === total ? "end" : "middle";
      const label = svg("text", { x: x(Math.max(0, s - 1)), y: H - PAD.b + 13, "text-anchor": anchor, class: "train-tick" });
      label.textContent = String(s);
      curve.append(label);
    }
    const xl = svg("text", { x: (W + PAD.l) / 2, y: H - 3, "text-anchor": "middle", class: "train-tick" });
    xl.textContent = "step";
    const yl = svg("text", { x: 10, y: (H - PAD.b) / 2, transform: `rotate(-90 10 ${(H - PAD.b) / 2})`, "text-anchor": "middle", class: "train-tick" });
    yl.textContent = "loss (nats)";
    curve.append(xl, yl);
    for (const r of earlier) {
      const points = r.curve.map(([step, v]) => `${x(step - 1).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
      curve.append(svg("polyline", { points, class: "train-earlier" }));
    }
    const stride = Math.max(1, Math.floor(losses.length / 400));
    const points = [];
    for (let i = 0; i < losses.length; i += stride) points.push(`${x(i).toFixed(1)},${y(losses[i]).toFixed(1)}`);
    points.push(`${x(losses.length - 1).toFixed(1)},${y(losses[losses.length - 1]).toFixed(1)}`);
    curve.append(svg("polyline", { points: points.join(" "), class: "train-line" }));
    if (mark) curve.append(svg("line", { x1: x(mark - 1), x2: x(mark - 1), y1: PAD.t, y2: H - PAD.b, class: "train-mark" }));
    const last = losses[losses.length - 1];
    curve.setAttribute("aria-label", `Loss at each step: ${loss4(losses[0])} at step 1, ${loss4(last)} at step ${losses.length}` +
      (losses.length < current.steps ? ` of ${current.steps} so far.` : ".") +
      (earlier.length ? ` Under it, in grey, your ${earlier.length} earlier ${earlier.length === 1 ? "run" : "runs"}.` : ""));
  }

  // The goal sentence's answer rows at one step: a cell per earlier word, shaded and written by its weight.
  function drawRows(rows, step) {
    const words = spec.goal.words, body = rowsTable.tBodies[0];
    body.replaceChildren();
    for (const r of spec.goal.rows) {
      const w = rows[r];
      const tr = el("tr", {}, el("th", { scope: "row", textContent: `${r} ${words[r]}` }));
      let top = 0;
      for (let j = 0; j < words.length; j++) {
        if (j <= r && w[j] > w[top]) top = j;
      }
      for (let j = 0; j < words.length; j++) {
        const td = el("td");
        if (j <= r) {
          td.textContent = weight(w[j]);
          td.style.background = colour(w[j]);
          td.className = w[j] > 0.6 ? "train-light" : "train-dark";
          if (j === top) td.classList.add("train-top");
        } else {
          td.className = "train-future";
          td.setAttribute("aria-label", "masked");
        }
        tr.append(td);
      }
      body.append(tr);
    }
    part("rows-caption").textContent = `Where rows ${spec.goal.rows.join(" and ")} of the goal sentence look at step ${step}` +
      ` (a row's largest weight is outlined)`;
  }

  function showStep(index) {
    if (!current || !current.snapshots.length) return;
    const snap = current.snapshots[index];
    drawRows(snap.rows, snap.step);
    drawCurve(current.losses, current.steps, snap.step);
    scrubOut.textContent = `step ${snap.step} of ${current.steps}`;
  }

  function describe(look) {
    return spec.goal.rows.map((row) => `${row} → ${look[row][1]}`).join(", ");
  }

  // Do a run's answer rows look at the same positions as the seed record's for that seed?
  function sameRows(rec, look) {
    return spec.goal.rows.every((row) => rec.rows[row][0] === look[row][0]);
  }

  function recordLine(seed, lr, steps, look) {
    const rec = spec.record.results[String(seed)];
    if (!rec) return "";
    const recLook = Object.fromEntries(spec.goal.rows.map((row) => [row, [rec.rows[row][0], rec.rows[row][1]]]));
    const same = sameRows(rec, look);
    const recipe = lr === spec.recipe.lr && steps === spec.recipe.steps;
    return ` The seed record (float32, ${recipe ? "the same recipe" : `learning rate ${spec.recipe.lr}, ${spec.recipe.steps} steps`}): ` +
      `${describe(recLook)}, loss ${loss4(rec.loss)}, ${rec.converged ? "converged" : "not converged"}` +
      (recipe ? (same ? "; the same rows as here." : "; other rows than here.") : ".");
  }

  // Whether a run found the lesson's pattern, and if not, why: its rows elsewhere, or on the cue words but the
  // run not converged (the seed record's test: mean loss and the determined words' probability).
  function pattern(r) {
    if (r.converged && r.cue) return "yes";
    if (r.cue) return `no: the rows look at the cue words, but the run did not converge (loss ${loss4(r.loss)}; ` +
      `converged means below ${spec.converged.loss_below} with every determined word above ${percent(spec.converged.determined_above)})`;
    return "no: the rows look elsewhere";
  }

  function runRow(r) {
    const cells = [r.seed, r.lr, r.steps, loss4(r.loss), r.converged ? "yes" : "no",
      ...spec.goal.rows.map((row) => `${r.looks[row][1]} ${weight(r.looks[row][2])}`), pattern(r), r.agrees];
    return el("tr", {}, ...cells.map((c) => el("td", { textContent: String(c) })));
  }

  function showRuns() {
    runsBody.replaceChildren(...runs.map(runRow));
    const found = runs.filter((r) => r.converged && r.cue).length;
    tally.textContent = runs.length ? `${runs.length} ${runs.length === 1 ? "run" : "runs"} here, ${found} found the lesson's pattern ` +
      `(${spec.goal.rows.map((row) => `${row} → ${spec.goal.cue[row]}`).join(", ")}); the seed record: ` +
      `${spec.record.n_cue_both} of ${spec.record.seeds[1] - spec.record.seeds[0] + 1} seeds.` : "";
    part("runs-table").hidden = !runs.length;
  }

  // The runs kept in this browser: read once the trainer's data is here; written after every run. A browser that
  // keeps nothing (private mode, storage off) still shows this visit's runs.
  function restore() {
    try {
      const kept = JSON.parse(localStorage.getItem(KEPT) || "[]");
      if (Array.isArray(kept)) runs.push(...kept.filter((r) => r && r.looks && Number.isInteger(r.seed)));
    } catch { /* nothing kept, or not ours: start afresh */ }
    showRuns();
  }

  function keep() {
    try { localStorage.setItem(KEPT, JSON.stringify(runs.slice(-MOST_RUNS))); } catch { /* storage off or full */ }
  }

  // A run's curve as at most CURVE_POINTS (step, loss) points, the last step among them.
  function thin(losses) {
    const stride = Math.max(1, Math.ceil(losses.length / CURVE_POINTS));
    const out = [];
    for (let i = 0; i < losses.length; i += stride) out.push([i + 1, losses[i]]);
    if (out[out.length - 1][0] !== losses.length) out.push([losses.length, losses[losses.length - 1]]);
    return out;
  }

  function addRun(settings, msg) {
    const { seed, lr, steps } = settings;
    const rec = spec.record.results[String(seed)];
    const recipe = lr === spec.recipe.lr && steps === spec.recipe.steps;
    const agrees = rec && recipe ? (sameRows(rec, msg.looks) ? "same" : "differs") : "—";
    const r = { seed, lr, steps, loss: msg.result.loss, converged: msg.converged, looks: msg.looks, cue: msg.cue, agrees,
                curve: thin(current.losses) };
    runs.push(r);
    if (runs.length > MOST_RUNS) runs.shift();
    current.kept = r;
    keep();
    showRuns();
  }

  function onMessage(event) {
    const msg = event.data;
    if (msg.run !== run || !current) return;
    if (msg.type === "progress") {
      current.losses.push(...msg.losses);
      current.snapshots.push({ step: msg.step, rows: msg.rows });
      drawCurve(current.losses, current.steps);
      drawRows(msg.rows, msg.step);
    } else if (msg.type === "done") {
      const s = current.settings;
      scrub.max = String(current.snapshots.length - 1);
      scrub.value = scrub.max;
      scrub.disabled = false;
      showStep(current.snapshots.length - 1);
      const p = spec.goal.rows.map((row) => {
        const probs = msg.result.probs[row];
        let best = 0;
        for (let v = 1; v < probs.length; v++) if (probs[v] > probs[best]) best = v;
        return `after row ${row} (“${spec.goal.words[row]}”) “${spec.vocab[best]}” ${percent(probs[best])}`;
      }).join(", ");
      const why = !msg.converged && msg.cue ? ` (the rows look at the lesson's cue words, but the run did not converge, so ` +
        `it does not count as the lesson's pattern)` : "";
      result.textContent = `Seed ${s.seed}: final loss ${loss4(msg.result.loss)}, ${msg.converged ? "converged" : "not converged"}; ` +
        `${describe(msg.looks)}${msg.converged && msg.cue ? " (the lesson's pattern)" : why}; next words ${p}.` +
        recordLine(s.seed, s.lr, s.steps, msg.looks);
      addRun(s, msg);
      status.textContent = `Trained ${s.steps} steps in ${Math.round(msg.ms)} ms.`;
      busy(false);
      current.done = true;
    } else if (msg.type === "error") {
      status.textContent = `Training failed: ${msg.message}`;
      busy(false);
    }
  }

  // Cancel: the worker is stopped where it is; what was drawn stays, and the run is not added to the runs.
  function stop() {
    if (!current || current.done || cancel.getAttribute("aria-disabled") === "true") return;
    if (worker) { worker.terminate(); worker = null; }
    run += 1;
    current.done = true;
    const step = current.snapshots.length ? current.snapshots[current.snapshots.length - 1].step : 0;
    status.textContent = `Cancelled at step ${step} of ${current.steps}; nothing was added to your runs.`;
    busy(false);
  }

  async function start(event) {
    event.preventDefault();
    try {
      await loadSpec();
    } catch (err) {
      status.textContent = `The trainer's data did not load (${err.message}).`;
      return;
    }
    if (button.getAttribute("aria-disabled") === "true") return;   // a run is on: Cancel ends it
    const settings = read();
    if (!settings) {                                              // the field says why; the status says it once more
      const first = Object.keys(fields).find((name) => part(`${name}-error`).textContent);
      status.textContent = `Nothing was trained: ${part(`${first}-error`).textContent}`;
      return;
    }
    busy(true, settings.seed);
    let init;
    try {
      const r = await fetch(`${base}init/seed-${settings.seed}.f32`);
      if (!r.ok) throw new Error(`${r.status}`);
      init = await r.arrayBuffer();
    } catch (err) {
      status.textContent = `Seed ${settings.seed}'s initial weights did not load (${err.message}).`;
      busy(false);
      return;
    }
    if (!worker) {
      worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
      worker.onmessage = onMessage;
    }
    run += 1;
    current = { settings, steps: settings.steps, losses: [], snapshots: [], done: false, kept: null };
    scrub.disabled = true;
    worker.postMessage({ run, spec, init, lr: settings.lr, steps: settings.steps, every: EVERY });
  }

  part("form").addEventListener("submit", start);
  cancel.addEventListener("click", stop);
  box.addEventListener("keydown", (e) => { if (e.key === "Escape" && current && !current.done) { e.preventDefault(); stop(); } });
  scrub.addEventListener("input", () => showStep(Number(scrub.value)));
  overlay.addEventListener("change", () => {
    if (!current || !current.losses.length) return;
    const snap = current.done ? current.snapshots[Number(scrub.value)] : null;
    drawCurve(current.losses, current.steps, snap ? snap.step : undefined);
  });
  part("clear").addEventListener("click", () => {
    runs.length = 0;
    keep();
    showRuns();
    status.textContent = "Your runs were cleared.";
    button.focus();
  });
  busy(false);
  const near = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) {
      near.disconnect();
      loadSpec().catch(() => {});
    }
  }, { rootMargin: "600px" });
  near.observe(box);
  box.dataset.ready = "true";
}

document.querySelectorAll(".train-box").forEach(setup);
