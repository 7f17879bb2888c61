// The four-head story model in plain JavaScript: the same names and the same math as
// compute/models/story.py and compute/nn/ (row vectors: x @ W_Q), float64 throughout.
//
// Weights come from the site: story-four-head.json (shapes, offsets, vocabulary) and
// story-four-head.f16.bin (little-endian float16), written by `python -m compute export story`.
// Generation reads one token at a time and keeps every layer's keys and values (the KV cache),
// so a new token costs one position's work.

export async function loadModel(base) {
  const header = await (await fetch(base + "story-four-head.json")).json();
  const buffer = await (await fetch(base + "story-four-head.f16.bin")).arrayBuffer();
  if (buffer.byteLength !== header.bytes) throw new Error("the weights file is incomplete");
  return new StoryModel(header, buffer);
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
function matvec(x, W, b) {
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

function layerNorm(x, gain, bias, eps = 1e-5) {
  const n = x.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i];
  mean /= n;
  let v = 0;
  for (let i = 0; i < n; i++) v += (x[i] - mean) * (x[i] - mean);
  const scale = 1 / Math.sqrt(v / n + eps);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = (x[i] - mean) * scale * gain.data[i] + bias.data[i];
  return out;
}

export class StoryModel {
  constructor(header, buffer) {
    this.cfg = header.config;
    this.vocabulary = header.vocabulary;
    this.index = new Map(header.vocabulary.map((w, i) => [w, i]));
    this.proper = new Set(header.proper || []);
    this.w = readTensors(header, buffer);
    this.dHead = this.cfg.d_model / this.cfg.n_head;
    // RoPE: pair k of a head turns by position * base^(-2k / d_head) (compute/nn/rope.py).
    this.freqs = Array.from({ length: this.dHead / 2 }, (_, k) => Math.pow(10000, (-2 * k) / this.dHead));
  }

  newCache() {
    const size = this.cfg.n_head * this.cfg.context * this.dHead;
    return Array.from({ length: this.cfg.n_layer }, () => ({ K: new Float64Array(size), V: new Float64Array(size) }));
  }

  rope(vec, pos) {
    const { n_head: H } = this.cfg;
    const d = this.dHead;
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

  // One token at position `pos` (the cache holds positions 0..pos-1): next-token logits, and
  // every head's attention weights over positions 0..pos (layer by layer, head by head).
  step(token, pos, cache) {
    const { n_layer: L, n_head: H, d_model: D, context: C } = this.cfg;
    const d = this.dHead;
    const w = this.w;
    const E = w.E;
    let x = E.data.slice(token * D, (token + 1) * D);          // E[token]: a row vector
    const attention = [];
    for (let l = 0; l < L; l++) {
      const p = `blocks.${l}.`;
      const h1 = layerNorm(x, w[p + "ln1.weight"], w[p + "ln1.bias"]);
      const q = matvec(h1, w[p + "attn.W_Q"]);                 // q = h W_Q
      const k = matvec(h1, w[p + "attn.W_K"]);
      const v = matvec(h1, w[p + "attn.W_V"]);
      this.rope(q, pos);
      this.rope(k, pos);
      const { K, V } = cache[l];
      for (let hh = 0; hh < H; hh++) {                          // store k, v at (head, pos)
        K.set(k.subarray(hh * d, (hh + 1) * d), (hh * C + pos) * d);
        V.set(v.subarray(hh * d, (hh + 1) * d), (hh * C + pos) * d);
      }
      const z = new Float64Array(H * d);
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
        for (let j = 0; j <= pos; j++) {
          const a = (scores[j] /= total);
          const off = (hh * C + j) * d;
          for (let c = 0; c < d; c++) z[hh * d + c] += a * V[off + c];
        }
        heads.push(scores);
      }
      attention.push(heads);
      const out = matvec(z, w[p + "attn.W_O"]);                // heads side by side, mixed by W_O
      for (let i = 0; i < D; i++) x[i] += out[i];
      const h2 = layerNorm(x, w[p + "ln2.weight"], w[p + "ln2.bias"]);
      const hidden = matvec(h2, w[p + "ffn.W1"], w[p + "ffn.b1"]);
      for (let i = 0; i < hidden.length; i++) if (hidden[i] < 0) hidden[i] = 0;   // ReLU
      const ffn = matvec(hidden, w[p + "ffn.W2"], w[p + "ffn.b2"]);
      for (let i = 0; i < D; i++) x[i] += ffn[i];
    }
    const logits = matvec(layerNorm(x, w["ln_f.weight"], w["ln_f.bias"]), w.W_U);
    return { logits, attention };
  }

  // Logits after reading all of `ids` from scratch (the parity tests use it).
  logitsAfter(ids) {
    const cache = this.newCache();
    let out = null;
    ids.forEach((id, pos) => { out = this.step(id, pos, cache); });
    return out.logits;
  }
}
