// "Train it yourself": the walkthrough's box that trains the model in the reader's browser.
//
// The box's HTML is written by compute/lessons/walkthrough/trainbox.py; this script brings it to life. The
// trainer's JSON (sizes, data, recipe, the seed record's results) is fetched when the reader nears the box,
// a seed's initial weights (1,992 bytes) when the reader trains it. Training runs in worker.js.
import { VIRIDIS, percent, weight } from "../generate/view.js";

const SPEC = "walkthrough.json";
const EVERY = 20;                 // steps between reports: 100 points on the curve for the recipe's 2,000
const W = 320, H = 150, PAD = { l: 42, r: 8, t: 8, b: 30 };

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
  const button = part("train");
  let spec = null, specLoading = null, worker = null, run = 0;
  let current = null;               // the run being drawn: {losses, snapshots: [{step, rows}], steps}
  const runs = [];

  function loadSpec() {
    if (!specLoading) {
      specLoading = fetch(base + SPEC).then((r) => {
        if (!r.ok) throw new Error(`${base + SPEC}: ${r.status}`);
        return r.json();
      }).then((s) => { spec = s; return s; });
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
    const stride = Math.max(1, Math.floor(losses.length / 400));
    const points = [];
    for (let i = 0; i < losses.length; i += stride) points.push(`${x(i).toFixed(1)},${y(losses[i]).toFixed(1)}`);
    points.push(`${x(losses.length - 1).toFixed(1)},${y(losses[losses.length - 1]).toFixed(1)}`);
    curve.append(svg("polyline", { points: points.join(" "), class: "train-line" }));
    if (mark) curve.append(svg("line", { x1: x(mark - 1), x2: x(mark - 1), y1: PAD.t, y2: H - PAD.b, class: "train-mark" }));
    const last = losses[losses.length - 1];
    curve.setAttribute("aria-label", `Loss at each step: ${loss4(losses[0])} at step 1, ${loss4(last)} at step ${losses.length}` +
      (losses.length < total ? ` of ${total} so far.` : "."));
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
    rowsTable.caption.textContent = `Where rows ${spec.goal.rows.join(" and ")} of the goal sentence look at step ${step}` +
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

  function addRun(settings, msg) {
    const { seed, lr, steps } = settings;
    const rec = spec.record.results[String(seed)];
    const recipe = lr === spec.recipe.lr && steps === spec.recipe.steps;
    const agrees = rec && recipe ? (sameRows(rec, msg.looks) ? "same" : "differs") : "—";
    runs.push({ ...settings, cue: msg.converged && msg.cue });
    const cells = [seed, lr, steps, loss4(msg.result.loss), msg.converged ? "yes" : "no",
      ...spec.goal.rows.map((row) => `${msg.looks[row][1]} ${weight(msg.looks[row][2])}`),
      msg.converged && msg.cue ? "yes" : "no", agrees];
    runsBody.append(el("tr", {}, ...cells.map((c) => el("td", { textContent: String(c) }))));
    const found = runs.filter((r) => r.cue).length;
    tally.textContent = `${runs.length} ${runs.length === 1 ? "run" : "runs"} here, ${found} found the lesson's pattern ` +
      `(${spec.goal.rows.map((row) => `${row} → ${spec.goal.cue[row]}`).join(", ")}); the seed record: ` +
      `${spec.record.n_cue_both} of ${spec.record.seeds[1] - spec.record.seeds[0] + 1} seeds.`;
    part("runs-table").hidden = false;
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
      result.textContent = `Seed ${s.seed}: final loss ${loss4(msg.result.loss)}, ${msg.converged ? "converged" : "not converged"}; ` +
        `${describe(msg.looks)}${msg.converged && msg.cue ? " (the lesson's pattern)" : ""}; next words ${p}.` +
        recordLine(s.seed, s.lr, s.steps, msg.looks);
      addRun(s, msg);
      status.textContent = `Trained ${s.steps} steps in ${Math.round(msg.ms)} ms.`;
      button.disabled = false;
      current.done = true;
    } else if (msg.type === "error") {
      status.textContent = `Training failed: ${msg.message}`;
      button.disabled = false;
    }
  }

  async function start(event) {
    event.preventDefault();
    try {
      await loadSpec();
    } catch (err) {
      status.textContent = `The trainer's data did not load (${err.message}).`;
      return;
    }
    const settings = read();
    if (!settings) return;
    button.disabled = true;
    status.textContent = `Training seed ${settings.seed}…`;
    let init;
    try {
      const r = await fetch(`${base}init/seed-${settings.seed}.f32`);
      if (!r.ok) throw new Error(`${r.status}`);
      init = await r.arrayBuffer();
    } catch (err) {
      status.textContent = `Seed ${settings.seed}'s initial weights did not load (${err.message}).`;
      button.disabled = false;
      return;
    }
    if (!worker) {
      worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
      worker.onmessage = onMessage;
    }
    run += 1;
    current = { settings, steps: settings.steps, losses: [], snapshots: [], done: false };
    scrub.disabled = true;
    worker.postMessage({ run, spec, init, lr: settings.lr, steps: settings.steps, every: EVERY });
  }

  part("form").addEventListener("submit", start);
  scrub.addEventListener("input", () => showStep(Number(scrub.value)));
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
