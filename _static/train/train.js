// One training run of the walkthrough model: the lesson's recipe from a seed's initial weights.
import { AdamW } from "./adam.js";
import { evaluate, goalRows, layout, lossAndGrads } from "./model.js";

// Float32 initial weights (the file the site holds for each seed) as the float64 parameters training starts from.
export function fromFloat32(buffer) {
  return Float64Array.from(new Float32Array(buffer));
}

// Train `steps` full-batch AdamW steps. Every `every` steps (and at the last) `onProgress` receives the losses
// since the last call and the goal sentence's answer rows. Returns the losses before each step, the trained
// parameters and what evaluate() reads off them.
export function train(spec, init, { lr, steps, every = 20, onProgress = null }) {
  const L = layout(spec);
  if (init.length !== L.size) throw new Error(`initial weights hold ${init.length} numbers, the model ${L.size}`);
  const params = Float64Array.from(init), grads = new Float64Array(L.size);
  const opt = new AdamW(L.size, { ...spec.recipe, lr });
  const losses = [];
  let sent = 0;
  for (let s = 0; s < steps; s++) {
    losses.push(lossAndGrads(spec, L, params, grads));
    opt.step(params, grads);
    if (onProgress && ((s + 1) % every === 0 || s + 1 === steps)) {
      onProgress({ step: s + 1, losses: losses.slice(sent), rows: goalRows(spec, L, params) });
      sent = losses.length;
    }
  }
  return { losses, params, result: evaluate(spec, L, params) };
}

// Where each answer row puts its largest weight: {row: [position, word, weight]}.
export function looks(spec, rows) {
  const out = {};
  for (const r of spec.goal.rows) {
    const w = rows[r];
    let top = 0;
    for (let j = 1; j < w.length; j++) if (w[j] > w[top]) top = j;
    out[r] = [top, spec.goal.words[top], w[top]];
  }
  return out;
}

// Converged as the seed record counts it: mean loss below the ceiling, every determined word above "sure".
export function converged(spec, result) {
  return result.loss < spec.converged.loss_below && result.sure > spec.converged.determined_above;
}

// The lesson's pattern: each answer row on its own cue word.
export function cuePattern(spec, look) {
  return spec.goal.rows.every((r) => look[r][1] === spec.goal.cue[r]);
}
