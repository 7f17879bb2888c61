// One part's write read by one later part alone, in the page: compute/models/paths.py and the composition scores of
// compute/models/circuit.py, step for step, on the model of model.js (float64, row vectors).
//
// Every part (the embedding, each head, each MLP) adds its write to the residual stream, and every later part reads
// the sum through an input of its own: a head's queries, keys and values ("L2 H1 Q", "L2 H1 K", "L2 H1 V"), an MLP
// ("L1 MLP"), the final LayerNorm ("logits"). `run(model, ids, into)` adds into[input] (one row of d_model per
// position) to that input alone; path patching takes it from a second story (the sender's write there less its write
// here), a path cut is minus the sender's write.
import { layerNorm, matvec } from "./model.js";
import { inContext } from "./run.js";

export const INPUTS = ["Q", "K", "V"];
export const LOGITS = "logits";

// The layer (from 0) of a part or an input: "L2 H1 Q" -> 1; the embedding's -1, the logits' after every layer.
export function layerOf(name) {
  if (name === "embedding") return -1;
  if (name === LOGITS) return Infinity;
  return Number(name.split(" ")[0].slice(1)) - 1;
}

// Every input that reads what `sender` writes: its own layer's MLP (a head's), every head's Q, K and V and every MLP
// of the later layers, and the logits.
export function receiversOf(model, sender) {
  const { n_layer: L, n_head: H } = model.cfg;
  const after = layerOf(sender);
  const out = sender.includes(" H") ? [`L${after + 1} MLP`] : [];
  for (let l = after + 1; l < L; l++) {
    for (let g = 0; g < H; g++) for (const via of INPUTS) out.push(`L${l + 1} H${g + 1} ${via}`);
    out.push(`L${l + 1} MLP`);
  }
  out.push(LOGITS);
  return out;
}

// What each part writes at every position: {name: [row per position]}, rows of d_model; `silenced` heads write
// nothing.
export function writes(model, ids, silenced = null) {
  const { d_model: D } = model.cfg;
  const names = model.partNames(), cache = model.newCache();
  const out = Object.fromEntries(names.map((n) => [n, []]));
  ids.forEach((id, pos) => {
    const parts = model.step(id, pos, cache, silenced, null, false).parts;
    names.forEach((n, k) => out[n].push(parts.slice(k * D, (k + 1) * D)));
  });
  return out;
}

// The sender's write on `source` less its write on `ids`, at the positions the two share (zero after); no source:
// minus its write (the path cut).
export function change(model, ids, source, sender) {
  const here = writes(model, ids)[sender];
  if (!here) throw new Error(`no part of this model is called ${sender}`);
  if (!source) return here.map((row) => row.map((v) => -v));
  const there = writes(model, source.slice(0, Math.min(ids.length, source.length)))[sender];
  return here.map((row, t) => (t < there.length ? row.map((v, i) => there[t][i] - v) : new Float64Array(row.length)));
}

function plus(x, delta) {
  return delta ? x.map((v, i) => v + delta[i]) : x;
}

// The clean pass of a story, kept while its ids array is in use (the worker reads one story with many changes):
// the stream before each layer and after the last, and every head's attention at the last word.
const cleanRuns = new WeakMap();

function clean(model, ids, silenced) {
  if (!cleanRuns.has(ids)) cleanRuns.set(ids, new Map());
  const runs = cleanRuns.get(ids), key = [...silenced].sort().join();
  if (!runs.has(key)) {
    const streams = [], attention = [];
    layers(model, ids, {}, 0, embedded(model, ids), streams, attention, silenced);
    runs.set(key, { streams, attention });
  }
  return runs.get(key);
}

function embedded(model, ids) {
  const D = model.cfg.d_model;
  return ids.map((id) => model.w.E.data.slice(id * D, (id + 1) * D));          // (T, d_model)
}

// Layers `from` onward on the stream x, each input reading x plus what `into` adds to it. The last layer is computed
// at the last position only (its keys and values at every position), which is all the logits read; the streams
// before each layer and after the last, and each head's weights at the last word, are pushed onto `streams` and
// `attention`. A head in `silenced` (a Set of layer * n_head + head) writes nothing.
function layers(model, ids, into, from, x, streams, attention, silenced) {
  const { n_layer: L, n_head: H, d_model: D, d_k: d, d_v: dv, norm_eps: eps } = model.cfg;
  const w = model.w, T = ids.length;
  for (let l = from; l < L; l++) {
    streams.push(x);
    const p = `blocks.${l}.`, final = l === L - 1;
    const needed = final ? [T - 1] : Array.from({ length: T }, (_, t) => t);   // positions whose output is read
    const normed = (rows) => rows.map((r) => layerNorm(r, w[p + "ln1.weight"], w[p + "ln1.bias"], eps));
    const project = (n, W, rope, at) => {                                     // rows at positions `at` @ W (+ RoPE)
      const out = new Array(T);
      for (const t of at) {
        out[t] = matvec(n[t], w[p + W]);
        if (rope) model.rope(out[t], t);
      }
      return out;
    };
    const every = Array.from({ length: T }, (_, t) => t), plainNormed = normed(x);
    const plain = { Q: project(plainNormed, "attn.W_Q", true, needed), K: project(plainNormed, "attn.W_K", true, every),
                    V: project(plainNormed, "attn.W_V", false, every) };
    const heads = [], written = new Array(T);
    for (const t of needed) written[t] = new Float64Array(D);
    const WO = w[p + "attn.W_O"].data;
    for (let g = 0; g < H; g++) {
      const own = {};
      for (const via of INPUTS) {
        const delta = into[`L${l + 1} H${g + 1} ${via}`];
        own[via] = delta ? project(normed(x.map((r, t) => plus(r, delta[t]))), `attn.W_${via}`, via !== "V", via === "Q" ? needed : every)
          : plain[via];
      }
      let last = null;
      for (const t of needed) {
        const scores = new Float64Array(t + 1);
        let max = -Infinity, total = 0;
        for (let j = 0; j <= t; j++) {
          let s = 0;
          for (let c = 0; c < d; c++) s += own.Q[t][g * d + c] * own.K[j][g * d + c];
          scores[j] = s / Math.sqrt(d);
          if (scores[j] > max) max = scores[j];
        }
        for (let j = 0; j <= t; j++) { scores[j] = Math.exp(scores[j] - max); total += scores[j]; }
        const z = new Float64Array(dv);
        for (let j = 0; j <= t; j++) {
          scores[j] /= total;
          for (let c = 0; c < dv; c++) z[c] += scores[j] * own.V[j][g * dv + c];
        }
        if (!silenced.has(l * H + g)) {
          for (let c = 0; c < dv; c++) {                                     // head g's rows of W_O take its z
            const off = (g * dv + c) * D;
            for (let i = 0; i < D; i++) written[t][i] += z[c] * WO[off + i];
          }
        }
        last = scores;
      }
      heads.push(last);
    }
    attention.push(heads);
    const delta = into[`L${l + 1} MLP`];
    const next = new Array(T);
    for (const t of needed) {
      const r = x[t].map((v, i) => v + written[t][i]);
      const read = plus(r, delta && delta[t]);
      const hidden = matvec(layerNorm(read, w[p + "ln2.weight"], w[p + "ln2.bias"], eps), w[p + "ffn.W1"], w[p + "ffn.b1"]);
      for (let i = 0; i < hidden.length; i++) if (hidden[i] < 0) hidden[i] = 0;
      const ffn = matvec(hidden, w[p + "ffn.W2"], w[p + "ffn.b2"]);
      next[t] = r.map((v, i) => v + ffn[i]);
    }
    x = next;
  }
  streams.push(x);
}

// The model on ids with into[input][t] added to that input alone at position t: the last position's logits and
// every head's attention there ([layer][head], a weight per position). The layers before the first one `into`
// reaches are taken from the story's clean pass. `silenced`: a Set of heads (layer * n_head + head) that write nothing.
export function run(model, ids, into = {}, silenced = new Set()) {
  const { n_layer: L, norm_eps: eps } = model.cfg;
  const w = model.w, T = ids.length;
  const base = clean(model, ids, silenced);
  const from = Math.min(L, ...Object.keys(into).map(layerOf));
  const streams = [], attention = base.attention.slice(0, from);
  if (from < L) layers(model, ids, into, from, base.streams[from], streams, attention, silenced);
  const x = from < L ? streams[streams.length - 1] : base.streams[L];
  const delta = into[LOGITS];
  const final = plus(x[T - 1], delta && delta[T - 1]);
  return { logits: matvec(layerNorm(final, w["ln_f.weight"], w["ln_f.bias"], eps), w.W_U), attention };
}

// ids read with the sender's write taken from `source` (null: cut) in the receivers' inputs alone; both stories
// are cut to the context as a prompt is (run.js inContext: ids here start with <eos>).
export function pathPatch(model, ids, source, sender, receivers) {
  const cut = (s) => (s ? inContext(s.slice(1), model.cfg.context) : s);
  const story = cut(ids), delta = change(model, story, cut(source), sender);
  return run(model, story, Object.fromEntries(receivers.map((r) => [r, delta])));
}

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
