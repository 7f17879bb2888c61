// The four-head story model in plain JavaScript: the same names and the same math as
// compute/models/decoder.py and compute/nn/ (row vectors: x @ W_Q), float64 throughout.
//
// Weights come from the site: story-four-head.json (shapes, offsets, vocabulary, and the model's
// architecture: every number of the forward pass) and story-four-head.f16.bin (little-endian
// float16), written by `python -m compute export story` (compute/export/story.py). Generation reads
// one token at a time and keeps every layer's keys and values (the KV cache), so a new token costs
// one position's work.

export const HEADER = "story-four-head.json";

export async function loadModel(base) {
  const header = await (await fetch(base + HEADER)).json();
  const buffer = await (await fetch(base + "story-four-head.f16.bin")).arrayBuffer();
  if (buffer.byteLength !== header.bytes) throw new Error("the weights file is incomplete");
  return new StoryModel(header, buffer);
}

// What this file can run: pre-LayerNorm blocks, rotary positions, a ReLU feed-forward step, a final
// LayerNorm. Returns the header's architecture, or throws one sentence naming what it cannot run.
export function architecture(header) {
  const a = header.architecture;
  const refuse = (what) => { throw new Error(`${HEADER}: ${what}; this page runs pre-LayerNorm blocks with rotary positions and a ReLU feed-forward step`); };
  if (!a || typeof a !== "object") refuse("it does not describe the model's architecture");
  const want = { positions: "rope", norm: "layernorm", activation: "relu", blocks: "pre-norm", final_norm: true };
  for (const [key, value] of Object.entries(want)) {
    if (a[key] !== value) refuse(`its ${key} is ${JSON.stringify(a[key])}`);
  }
  for (const key of ["n_layer", "n_head", "d_model", "d_k", "d_v", "d_ff", "vocab_size", "context"]) {
    if (!Number.isInteger(a[key]) || a[key] < 1) refuse(`its ${key} is ${JSON.stringify(a[key])}, not a whole number above 0`);
  }
  if (a.d_k % 2) refuse(`its d_k is ${a.d_k}, and rotary positions turn pairs of coordinates`);
  for (const key of ["rope_base", "norm_eps"]) {
    if (typeof a[key] !== "number" || !(a[key] > 0)) refuse(`its ${key} is ${JSON.stringify(a[key])}, not a number above 0`);
  }
  const shapes = { E: [a.vocab_size, a.d_model], W_U: [a.d_model, a.vocab_size] };
  for (let l = 0; l < a.n_layer; l++) {
    Object.assign(shapes, {
      [`blocks.${l}.attn.W_Q`]: [a.d_model, a.n_head * a.d_k], [`blocks.${l}.attn.W_K`]: [a.d_model, a.n_head * a.d_k],
      [`blocks.${l}.attn.W_V`]: [a.d_model, a.n_head * a.d_v], [`blocks.${l}.attn.W_O`]: [a.n_head * a.d_v, a.d_model],
      [`blocks.${l}.ffn.W1`]: [a.d_model, a.d_ff], [`blocks.${l}.ffn.W2`]: [a.d_ff, a.d_model],
    });
  }
  for (const [name, shape] of Object.entries(shapes)) {
    const t = header.tensors && header.tensors[name];
    if (!t || t.shape.join() !== shape.join()) refuse(`its tensor ${name} is ${t ? "[" + t.shape + "]" : "missing"}, not [${shape}]`);
  }
  if (header.vocabulary.length !== a.vocab_size) refuse(`its vocabulary has ${header.vocabulary.length} words, not ${a.vocab_size}`);
  return a;
}

// IEEE half precision -> float64.
export function halfToFloat(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * Math.pow(2, -14) * (frac / 1024);
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * Math.pow(2, exp - 15) * (1 + frac / 1024);
}

function readTensors(header, buffer) {
  const halves = new DataView(buffer);
  const out = {};
  for (const [name, t] of Object.entries(header.tensors)) {
    const n = t.bytes / 2;
    const values = new Float64Array(n);
    for (let i = 0; i < n; i++) values[i] = halfToFloat(halves.getUint16(t.offset + 2 * i, true));
    out[name] = { shape: t.shape, data: values };
  }
  return out;
}

// out = x @ W (+ b): x (rows), W (rows x cols, row-major).
export function matvec(x, W, b) {
  const [rows, cols] = W.shape;
  const out = new Float64Array(cols);
  if (b) out.set(b.data);
  for (let i = 0; i < rows; i++) {
    const xi = x[i];
    if (xi === 0) continue;
    const off = i * cols;
    for (let j = 0; j < cols; j++) out[j] += xi * W.data[off + j];
  }
  return out;
}

// A row's mean and 1 / sqrt(variance + eps): what LayerNorm divides by (and attribution holds fixed).
export function spread(x, eps) {
  const n = x.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i];
  mean /= n;
  let v = 0;
  for (let i = 0; i < n; i++) v += (x[i] - mean) * (x[i] - mean);
  return { mean, scale: 1 / Math.sqrt(v / n + eps) };
}

export function layerNorm(x, gain, bias, eps) {
  const n = x.length, { mean, scale } = spread(x, eps);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = (x[i] - mean) * scale * gain.data[i] + bias.data[i];
  return out;
}

export class StoryModel {
  constructor(header, buffer) {
    this.cfg = architecture(header);
    this.vocabulary = header.vocabulary;
    this.index = new Map(header.vocabulary.map((w, i) => [w, i]));
    this.proper = new Set(header.proper || []);
    this.w = readTensors(header, buffer);
    // RoPE: pair k of a head's query or key turns by position * base^(-2k / d_k) (compute/nn/rope.py).
    const { d_k: dk, rope_base: base } = this.cfg;
    this.freqs = Array.from({ length: dk / 2 }, (_, k) => Math.pow(base, (-2 * k) / dk));
  }

  newCache() {
    const { n_head: H, context: C, d_k, d_v } = this.cfg;
    return Array.from({ length: this.cfg.n_layer }, () => ({ K: new Float64Array(H * C * d_k), V: new Float64Array(H * C * d_v) }));
  }

  // Every head's pairs of `vec` (the heads' queries or keys side by side; `heads` of them) turned for position `pos`.
  rope(vec, pos, heads = this.cfg.n_head) {
    const H = heads;
    const d = this.cfg.d_k;
    for (let h = 0; h < H; h++) {
      for (let k = 0; k < d / 2; k++) {
        const a = pos * this.freqs[k];
        const c = Math.cos(a), s = Math.sin(a);
        const i = h * d + 2 * k;
        const even = vec[i], odd = vec[i + 1];
        vec[i] = even * c - odd * s;
        vec[i + 1] = even * s + odd * c;
      }
    }
  }

  // One token at position `pos` (the cache holds positions 0..pos-1): next-token logits, every head's
  // attention weights over positions 0..pos (layer by layer, head by head), every head's z = A V (head by head,
  // d_v each) and `parts`: what the embedding, each head and each MLP write into the residual stream at this
  // position, one row of d_model each, in the order compute/models/readout.py names them.
  // `silenced`: a Set of heads (layer * n_head + head) whose output is zeroed before W_O, as compute's head_mask
  // knocks a head out; their weights are still computed and returned. `patch`: {head, z}, a head whose z here is
  // replaced (by what it was at another prompt's last word). `logits`: false for a word read only for the words
  // after it (its logits are not computed).
  step(token, pos, cache, silenced = null, patch = null, logits = true) {
    const { n_layer: L, n_head: H, d_model: D, context: C, d_k: d, d_v: dv, norm_eps: eps } = this.cfg;
    const w = this.w;
    const E = w.E;
    let x = E.data.slice(token * D, (token + 1) * D);          // E[token]: a row vector
    const parts = new Float64Array((1 + L * (H + 1)) * D);
    parts.set(x, 0);
    let part = 1;
    const attention = [], zs = [];
    for (let l = 0; l < L; l++) {
      const p = `blocks.${l}.`;
      const h1 = layerNorm(x, w[p + "ln1.weight"], w[p + "ln1.bias"], eps);
      const q = matvec(h1, w[p + "attn.W_Q"]);                 // q = h W_Q
      const k = matvec(h1, w[p + "attn.W_K"]);
      const v = matvec(h1, w[p + "attn.W_V"]);
      this.rope(q, pos);
      this.rope(k, pos);
      const { K, V } = cache[l];
      for (let hh = 0; hh < H; hh++) {                          // store k, v at (head, pos)
        K.set(k.subarray(hh * d, (hh + 1) * d), (hh * C + pos) * d);
        V.set(v.subarray(hh * dv, (hh + 1) * dv), (hh * C + pos) * dv);
      }
      const z = new Float64Array(H * dv);
      const heads = [];
      for (let hh = 0; hh < H; hh++) {
        const scores = new Float64Array(pos + 1);
        let max = -Infinity;
        for (let j = 0; j <= pos; j++) {
          let s = 0;
          const off = (hh * C + j) * d;
          for (let c = 0; c < d; c++) s += q[hh * d + c] * K[off + c];
          scores[j] = s / Math.sqrt(d);
          if (scores[j] > max) max = scores[j];
        }
        let total = 0;
        for (let j = 0; j <= pos; j++) { scores[j] = Math.exp(scores[j] - max); total += scores[j]; }
        const speaks = !(silenced && silenced.has(l * H + hh));
        for (let j = 0; j <= pos; j++) {
          const a = (scores[j] /= total);
          if (!speaks) continue;                                 // a silenced head writes zeros into z
          const off = (hh * C + j) * dv;
          for (let c = 0; c < dv; c++) z[hh * dv + c] += a * V[off + c];
        }
        heads.push(scores);
      }
      attention.push(heads);
      if (patch && Math.floor(patch.head / H) === l) z.set(patch.z, (patch.head % H) * dv);
      zs.push(z);
      const WO = w[p + "attn.W_O"];                             // heads side by side, mixed by W_O:
      for (let hh = 0; hh < H; hh++) {                          // head h's rows of W_O take its z
        const out = parts.subarray(part * D, (part + 1) * D);
        for (let c = 0; c < dv; c++) {
          const zc = z[hh * dv + c];
          if (zc === 0) continue;
          const off = (hh * dv + c) * D;
          for (let i = 0; i < D; i++) out[i] += zc * WO.data[off + i];
        }
        for (let i = 0; i < D; i++) x[i] += out[i];
        part += 1;
      }
      const h2 = layerNorm(x, w[p + "ln2.weight"], w[p + "ln2.bias"], eps);
      const hidden = matvec(h2, w[p + "ffn.W1"], w[p + "ffn.b1"]);
      for (let i = 0; i < hidden.length; i++) if (hidden[i] < 0) hidden[i] = 0;   // ReLU
      const ffn = matvec(hidden, w[p + "ffn.W2"], w[p + "ffn.b2"]);
      for (let i = 0; i < D; i++) x[i] += ffn[i];
      parts.set(ffn, part * D);
      part += 1;
    }
    if (!logits) return { logits: null, attention, z: zs, parts };      // a word read only for the ones after it
    return { logits: matvec(layerNorm(x, w["ln_f.weight"], w["ln_f.bias"], eps), w.W_U), attention, z: zs, parts };
  }

  // The reading after all of `ids` from scratch, with these heads silenced and the patch at the last word.
  readAll(ids, silenced = null, patch = null) {
    const cache = this.newCache();
    let out = null;
    ids.forEach((id, pos) => {
      const last = pos === ids.length - 1;
      out = this.step(id, pos, cache, silenced, last ? patch : null, last);
    });
    return out;
  }

  // Logits after reading all of `ids` (the parity tests use it).
  logitsAfter(ids, silenced = null, patch = null) {
    return this.readAll(ids, silenced, patch).logits;
  }

  // What `head` (layer * n_head + head) carries at the last word of `ids`: its z, for a patch.
  headOutput(ids, head) {
    const { n_head: H, d_v: dv } = this.cfg;
    const z = this.readAll(ids).z[Math.floor(head / H)];
    return z.slice((head % H) * dv, (head % H + 1) * dv);
  }

  // The names of a step's parts, in their order: "embedding", "L1 H1" ... "L1 MLP", ...
  partNames() {
    const { n_layer: L, n_head: H } = this.cfg;
    const names = ["embedding"];
    for (let l = 0; l < L; l++) {
      for (let h = 0; h < H; h++) names.push(`L${l + 1} H${h + 1}`);
      names.push(`L${l + 1} MLP`);
    }
    return names;
  }

  // Direct logit attribution of `word` at a step: what each part pushes its logit, through the final LayerNorm
  // with its scale frozen at that position, and the LayerNorm's bias; [[name, push], ...], adding up to the logit.
  attribution(parts, word) {
    const { d_model: D, vocab_size: V, norm_eps: eps } = this.cfg;
    const g = this.w["ln_f.weight"].data, b = this.w["ln_f.bias"].data, WU = this.w.W_U.data;
    const n = parts.length / D;
    const x = new Float64Array(D);
    for (let k = 0; k < n; k++) for (let i = 0; i < D; i++) x[i] += parts[k * D + i];
    const { scale } = spread(x, eps);                           // the position's, frozen for every part
    const out = this.partNames().map((name, k) => {
      const c = parts.subarray(k * D, (k + 1) * D);
      let m = 0;
      for (let i = 0; i < D; i++) m += c[i];
      m /= D;
      let push = 0;
      for (let i = 0; i < D; i++) push += (c[i] - m) * scale * g[i] * WU[i * V + word];
      return [name, push];
    });
    let bias = 0;
    for (let i = 0; i < D; i++) bias += b[i] * WU[i * V + word];
    out.push(["final LayerNorm bias", bias]);
    return out;
  }

  // The next-word logits read from the residual stream after the embedding and after each block (the final
  // LayerNorm and W_U applied there): n_layer + 1 rows.
  layerLogits(parts) {
    const { n_layer: L, n_head: H, d_model: D, norm_eps: eps } = this.cfg;
    const x = new Float64Array(D), rows = [];
    const read = () => rows.push(matvec(layerNorm(x, this.w["ln_f.weight"], this.w["ln_f.bias"], eps), this.w.W_U));
    let k = 0;
    const add = () => { for (let i = 0; i < D; i++) x[i] += parts[k * D + i]; k += 1; };
    add();
    read();
    for (let l = 0; l < L; l++) {
      for (let h = 0; h <= H; h++) add();
      read();
    }
    return rows;
  }
}
