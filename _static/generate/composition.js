// The composition scores of compute/models/circuit.py in the page: how much each first-layer head writes where each
// second-layer head reads its queries, keys and values, of the weights (composition) and on a story's own
// activations (compositionOn), on the model of model.js (float64, row vectors).
import { INPUTS, writes } from "./paths.js";
import { inContext } from "./run.js";

// W (d_model x cols, row-major) columns [from, from + n) as rows of a d_model x n matrix.
function columns(W, from, n) {
  const [rows, cols] = W.shape;
  return Array.from({ length: rows }, (_, i) => W.data.slice(i * cols + from, i * cols + from + n));
}

function frobenius(M) {
  let s = 0;
  for (const row of M) for (const v of row) s += v * v;
  return Math.sqrt(s);
}

function times(A, B) {                                                        // (n x k) (k x m)
  return A.map((row) => {
    const out = new Float64Array(B[0].length);
    row.forEach((a, k) => { for (let j = 0; j < out.length; j++) out[j] += a * B[k][j]; });
    return out;
  });
}

// R^g = C diag(gamma) W^g of every second-layer head g, W the input `via` reads: the mean taken out, the gain in.
function readingMatrices(model, via) {
  const { n_head: H, d_model: D, d_k: d, d_v: dv } = model.cfg;
  const gamma = model.w["blocks.1.ln1.weight"].data, width = via === "V" ? dv : d;
  return Array.from({ length: H }, (_, g) => {
    const R = columns(model.w[`blocks.1.attn.W_${via}`], g * width, width).map((row, i) => row.map((v) => v * gamma[i]));
    const mean = new Float64Array(width);
    R.forEach((row) => row.forEach((v, j) => { mean[j] += v / D; }));
    return R.map((row) => row.map((v, j) => v - mean[j]));
  });
}

// W_OV^h = W_V^h W_O^h of every first-layer head.
function writesMatrices(model) {
  const { n_head: H, d_v: dv } = model.cfg;
  const WO = model.w["blocks.0.attn.W_O"];
  return Array.from({ length: H }, (_, h) => times(columns(model.w["blocks.0.attn.W_V"], h * dv, dv),
    Array.from({ length: dv }, (_, c) => WO.data.slice((h * dv + c) * WO.shape[1], (h * dv + c + 1) * WO.shape[1]))));
}

// The Q-, K- and V-composition scores of every first-layer head (rows) with every second-layer head (columns).
export function composition(model) {
  const OV = writesMatrices(model);
  return Object.fromEntries(INPUTS.map((via) => {
    const R = readingMatrices(model, via);
    return [via, OV.map((A) => R.map((B) => frobenius(times(A, B)) / (frobenius(A) * frobenius(B))))];
  }));
}

// Each first-layer head's share of what every second-layer head reads on this story (ids start with <eos>): the
// size of its write read through g's LayerNorm (the scale frozen) and W, against the sum of every first-layer
// part's (the embedding, the heads, the MLP); queries at the last position, keys and values averaged.
export function compositionOn(model, ids) {
  const { n_head: H, d_model: D, norm_eps: eps } = model.cfg;
  const all = writes(model, inContext(ids.slice(1), model.cfg.context));
  const parts = ["embedding", ...Array.from({ length: H }, (_, h) => `L1 H${h + 1}`), "L1 MLP"].map((n) => all[n]);
  const T = parts[0].length;
  const scale = Array.from({ length: T }, (_, t) => {                         // 1 / the LayerNorm's spread at t
    const s = new Float64Array(D);
    for (const part of parts) for (let i = 0; i < D; i++) s[i] += part[t][i];
    let mean = 0, v = 0;
    for (let i = 0; i < D; i++) mean += s[i] / D;
    for (let i = 0; i < D; i++) v += (s[i] - mean) * (s[i] - mean) / D;
    return Math.sqrt(v + eps);
  });
  return Object.fromEntries(INPUTS.map((via) => {
    const R = readingMatrices(model, via);
    const share = R.map((B) => {                                              // (n_parts,) for second-layer head g
      const at = (t) => {
        const sizes = parts.map((part) => Math.hypot(...times([part[t]], B)[0]) / scale[t]);
        const total = sizes.reduce((a, b) => a + b, 0);
        return sizes.map((s) => s / total);
      };
      if (via === "Q") return at(T - 1);
      const mean = new Float64Array(parts.length);
      for (let t = 0; t < T; t++) at(t).forEach((s, k) => { mean[k] += s / T; });
      return Array.from(mean);
    });
    return [via, Array.from({ length: H }, (_, h) => share.map((s) => s[1 + h]))];   // rows: first-layer heads
  }));
}
