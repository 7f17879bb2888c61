// One part's write read by one later part alone, in the page: compute/models/paths.py step for step, on the model of
// model.js (float64, row vectors), but for an MLP's input product, taken apart so that a change made of heads'
// writes costs their width (factors); the composition scores are composition.js's.
//
// Every part (the embedding, each head, each MLP) adds its write to the residual stream, and every later part reads
// the sum through an input of its own: a head's queries, keys and values ("L2 H1 Q", "L2 H1 K", "L2 H1 V"), an MLP
// ("L1 MLP"), the final LayerNorm ("logits"). `run(model, ids, into)` adds into[input] (one row of d_model per
// position) to that input alone; path patching takes it from a second story (the sender's write there less its write
// here), a path cut is minus the sender's write.
import { layerNorm, matvec, spread } from "./model.js";
import { product, sparseProduct } from "./products.js";
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

// What each part writes at every position ({name: [row per position]}, rows of d_model; the last layer's parts at the
// last position alone: nothing reads them before it), from the story's clean pass;
// `silenced` heads (a Set of layer * n_head + head) write nothing, `patched` ones (a Map of layer * n_head + head to
// rows) write their rows at the first positions.
export function writes(model, ids, silenced = new Set(), patched = NONE) {
  const base = clean(model, ids, silenced || new Set(), patched), H = model.cfg.n_head;
  const out = { embedding: base[0].x };
  base.forEach((done, l) => {
    done.heads.forEach((head, g) => {
      out[`L${l + 1} H${g + 1}`] = head.write;
      fromZ.set(head.write, { k: l * H + g, z: head.z });
    });
    out[`L${l + 1} MLP`] = done.mlp;
  });
  return out;
}

// A head's write rows (as writes() gives them) -> the head (layer * n_head + head) and its z rows (the write is z
// times the head's rows of W_O where z is given; a silenced or patched head's kept rows have none).
const fromZ = new WeakMap();

// Minus a part's write (rows as writes() gives them): what a path cut adds to a reader's input. A head's carries
// the head and minus its z (lowRank), so that its own layer's MLP takes the change in d_v columns (inputProducts).
export function minus(rows) {
  const out = rows.map((r) => r && r.map((v) => -v)), by = fromZ.get(rows);
  if (by) out.lowRank = { k: by.k, dz: by.z.map((r) => r && r.map((v) => -v)) };
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

// Each head's write on `source` (a row per position), by layer * n_head + head: what run's `patched` gives a story
// at the positions the two share.
export function borrowed(model, source, heads) {
  const H = model.cfg.n_head, on = writes(model, source);
  return new Map(heads.map((k) => [k, on[`L${Math.floor(k / H) + 1} H${(k % H) + 1}`]]));
}

const NONE = new Map();

function plus(x, delta) {
  if (!delta) return x;
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = x[i] + delta[i];
  return out;
}

// One head's queries, keys or values (its own columns of W) of normalised rows at positions `at`, rotated for their
// positions when they are queries or keys: the same sums in the same order as model.js's matvec and rope.
function headRows(model, l, via, g, rows, at) {
  const { d_k: d, d_v: dv } = model.cfg, width = via === "V" ? dv : d;
  const out = product(rows, model.w[`blocks.${l}.attn.W_${via}`], g * width, width, null);
  if (via !== "V") out.forEach((o, r) => model.rope(o, at[r], 1));            // one head's queries or keys
  return out;
}

// Head g's weights at row t over rows 0..t, and its write there (z W_O, its rows of W_O). `normed`: V holds the
// normalised rows the values are made from, not the values (the last layer, read at the last word alone): z is then
// (the weighted sum of those rows) times the head's columns of W_V, one product where the values would take one a
// row (the same sum in another order: the same to rounding).
function attend(model, l, g, q, K, V, t, normed = false) {
  const { d_k: d, d_v: dv, d_model: D } = model.cfg;
  const scores = new Float64Array(t + 1);
  let max = -Infinity, total = 0;
  for (let j = 0; j <= t; j++) {
    let s = 0;
    for (let c = 0; c < d; c++) s += q[c] * K[j][c];
    scores[j] = s / Math.sqrt(d);
    if (scores[j] > max) max = scores[j];
  }
  for (let j = 0; j <= t; j++) { scores[j] = Math.exp(scores[j] - max); total += scores[j]; }
  const width = normed ? D : dv, sum = new Float64Array(width);
  for (let j = 0; j <= t; j++) {
    scores[j] /= total;
    const a = scores[j], v = V[j];
    for (let c = 0; c < width; c++) sum[c] += a * v[c];
  }
  const z = normed ? product([sum], model.w[`blocks.${l}.attn.W_V`], g * dv, dv, null)[0] : sum;
  const WO = model.w[`blocks.${l}.attn.W_O`].data, write = new Float64Array(D);
  for (let c = 0; c < dv; c++) {
    const off = (g * dv + c) * D;
    for (let i = 0; i < D; i++) write[i] += z[c] * WO[off + i];
  }
  return { weights: scores, write, z };
}

// The MLP's input product taken apart: LayerNorm centres a row v, scales it by s = 1 / sqrt(var(v) + eps) and
// applies its gains, so LN(v) W1 + b1 = s (v G - mean(v) 1G) + (beta W1 + b1), with G = diag(gain) W1. A row that
// differs from the clean pass only by heads' writes (head g's is z_g times its rows of W_O) has
// v G = (the clean row's v G) + dz_g (W_O's rows of g) G for each such head: d_v columns a head, not d_model.
const factorsOf = new WeakMap();

function factors(model, l) {
  const w = model.w, p = `blocks.${l}.`, W1 = w[p + "ffn.W1"];
  if (!factorsOf.has(W1)) {
    const { d_model: D, d_ff: F, n_head: H, d_v: dv } = model.cfg, W = W1.data, WO = w[p + "attn.W_O"].data;
    const gain = w[p + "ln2.weight"].data, beta = w[p + "ln2.bias"].data;
    const G = new Float64Array(D * F), oneG = new Float64Array(F), base = Float64Array.from(w[p + "ffn.b1"].data);
    for (let i = 0; i < D; i++) {
      for (let f = 0; f < F; f++) {
        G[i * F + f] = gain[i] * W[i * F + f];
        oneG[f] += G[i * F + f];
        base[f] += beta[i] * W[i * F + f];
      }
    }
    const Gm = { shape: [D, F], data: G };
    const heads = Array.from({ length: H }, (_, g) => {          // (d_v, d_ff): head g's rows of W_O, times G
      const rows = Array.from({ length: dv }, (_, c) => WO.subarray((g * dv + c) * D, (g * dv + c + 1) * D));
      const data = new Float64Array(dv * F);
      product(rows, Gm, 0, F, null).forEach((row, c) => data.set(row, c * F));
      return { shape: [dv, F], data };
    });
    factorsOf.set(W1, { G: Gm, oneG, base, heads });
  }
  return factorsOf.get(W1);
}

// The MLP's write for each row it reads, given each row's v G: ReLU(s (v G - mean(v) 1G) + beta W1 + b1) W2 + b2.
function mlp(model, l, reads, vG) {
  const { norm_eps: eps, d_ff: F } = model.cfg, p = `blocks.${l}.`, k = factors(model, l);
  const hidden = reads.map((v, r) => {
    const { mean, scale } = spread(v, eps), m = vG[r], h = new Float64Array(F);
    for (let f = 0; f < F; f++) {
      const a = scale * (m[f] - mean * k.oneG[f]) + k.base[f];
      h[f] = a > 0 ? a : 0;
    }
    return h;
  });
  return sparseProduct(hidden, model.w[p + "ffn.W2"], model.w[p + "ffn.b2"]);
}

// v G for the rows `again` of a layer: from the clean pass's, plus each changed head's dz times its factor (and the
// MLP's own change where it is a head's write, `by`), where nothing else moved the row (`alone`); else the whole
// product.
function inputProducts(model, l, reads, again, alone, heads, c, by) {
  const k = factors(model, l), out = new Array(again.length), whole = [];
  again.forEach((t, r) => {
    if (alone.has(t)) out[r] = Float64Array.from(c.vG[t]); else whole.push(r);
  });
  product(whole.map((r) => reads[r]), k.G, 0, k.G.shape[1], null).forEach((m, i) => { out[whole[i]] = m; });
  const H = model.cfg.n_head, changes = heads.map((head, g) => [g, head.dz]);
  if (by) changes.push([by.k % H, by.dz]);
  for (const [g, dz] of changes) {
    const rows = again.map((t, r) => r).filter((r) => alone.has(again[r]) && dz[again[r]]);
    product(rows.map((r) => dz[again[r]]), k.heads[g], 0, k.heads[g].shape[1], null).forEach((m, i) => {
      const o = out[rows[i]];
      for (let f = 0; f < o.length; f++) o[f] += m[f];
    });
  }
  return out;
}

// The rows where a change is not zero (found once for each change: one is given to several inputs).
const rowsFound = new WeakMap();

function rowsOf(delta) {
  if (!delta) return new Set();
  if (!rowsFound.has(delta)) {
    const rows = new Set();
    delta.forEach((r, t) => { if (r.some((v) => v !== 0)) rows.add(t); });
    rowsFound.set(delta, rows);
  }
  return rowsFound.get(delta);
}

// One layer on the stream x, where `changed` holds the rows that differ from the clean pass `c` (null: this is the
// clean pass): each head's queries, keys and values read x plus what `into` adds to that input, and only the rows
// a change reaches are computed again (a head's weights at row t, where its query at t or a key or value at or
// before t changed; the MLP where its input changed); the last layer only at the last word.
// `kv`: each head's keys and values ({K: [per head], V: [per head]}) when they are known already (kept for a named
// change: silencing or patching a head of this layer changes what it writes, not what it reads). In the last layer a
// head's V holds the normalised rows its values are made from (attend's `normed`).
// `renew`: the heads of this layer altered here and not in `c` (a clean pass derived from the story's own, clean()):
// their writes change at every row.
function layer(model, l, x, changed, into, silenced, patched, c, final, kv = null, renew = null) {
  const { n_head: H, norm_eps: eps } = model.cfg, w = model.w, T = x.length, p = `blocks.${l}.`;
  const all = Array.from({ length: T }, (_, t) => t), needed = final ? [T - 1] : all;
  // normalised rows: all of them in a clean pass; else the clean pass's, each changed row normalised when first read
  const n1 = c ? c.n1.slice() : x.map((r) => layerNorm(r, w[p + "ln1.weight"], w[p + "ln1.bias"], eps));
  const renormed = new Set();
  const norm = (t) => {
    if (c && changed.has(t) && !renormed.has(t)) {
      n1[t] = layerNorm(x[t], w[p + "ln1.weight"], w[p + "ln1.bias"], eps);
      renormed.add(t);
    }
    return n1[t];
  };
  const out = { x, n1, heads: [], mid: new Array(T), mlp: new Array(T), out: new Array(T) };   // n1: a clean pass's
  const moved = new Set(changed || []);                                      // rows whose heads' writes changed
  const whole = new Set();                                // rows where a head's write changed by more than its own z
  const normed = new Map();                        // x + delta normalised, once for every input given the same delta
  const read = (delta, t) => {
    if (!normed.has(delta)) normed.set(delta, new Array(T));
    const rows = normed.get(delta);
    if (!rows[t]) rows[t] = layerNorm(plus(x[t], delta[t]), w[p + "ln1.weight"], w[p + "ln1.bias"], eps);
    return rows[t];
  };
  for (let g = 0; g < H; g++) {
    const own = {}, touched = {};
    for (const via of INPUTS) {
      const delta = into[`L${l + 1} H${g + 1} ${via}`], rows = rowsOf(delta);
      touched[via] = new Set([...(changed || []), ...rows]);
      // the last layer's queries are read at the last word alone
      const unread = (t) => via === "Q" && final && t !== T - 1;
      if (kv && via !== "Q") {
        own[via] = kv[via][g];
        continue;
      }
      own[via] = c ? c.heads[g][via].slice() : new Array(T);
      const at = all.filter((t) => (!c || touched[via].has(t)) && !unread(t));
      const normalised = at.map((t) => (rows.has(t) ? read(delta, t) : norm(t)));
      if (final && via === "V") normalised.forEach((row, r) => { own.V[at[r]] = row; });   // attend's `normed`
      else headRows(model, l, via, g, normalised, at).forEach((row, r) => { own[via][at[r]] = row; });
    }
    const firstKV = Math.min(T, ...touched.K, ...touched.V);
    const head = { Q: own.Q, K: own.K, V: own.V, write: new Array(T), z: new Array(T), dz: new Array(T), weights: null };
    const quiet = silenced.has(l * H + g), fixed = patched.get(l * H + g), fresh = !!(renew && renew.has(g));
    // a head altered afresh: its write moved at t, by minus its z where it is silenced, by the other story's z less
    // its own where it is patched (borrowed rows carry their z, writes()), else by more than a z
    const from = fixed && fromZ.get(fixed);
    const altered = (t) => {
      moved.add(t);
      const z = c.heads[g].z[t];
      if (quiet && z) head.dz[t] = z.map((v) => -v);
      else if (from && from.z[t] && z) head.dz[t] = from.z[t].map((v, i) => v - z[i]);
      else whole.add(t);
    };
    for (const t of needed) {
      // as in the clean pass where nothing it reads moved, and it is not altered here afresh (a head patched from a
      // shorter story is not, past that story's end)
      const held = quiet || (fixed && t < fixed.length);
      if (c && !(fresh && held) && !touched.Q.has(t) && t < firstKV) {
        head.write[t] = c.heads[g].write[t];
        head.z[t] = c.heads[g].z[t];
        if (t === T - 1) head.weights = c.heads[g].weights;
        continue;
      }
      // a silenced head's write is zero and a patched one's its row, whatever it reads: only its weights are read
      const kept = !held ? null : quiet ? new Float64Array(x[t].length) : fixed[t];
      if (kept && t !== T - 1) {
        head.write[t] = kept;
        if (fresh) altered(t);
        continue;
      }
      const a = attend(model, l, g, own.Q[t], own.K, own.V, t, final);
      head.write[t] = kept || a.write;
      if (t === T - 1) head.weights = a.weights;
      if (kept && fresh) altered(t);
      if (!kept) {
        moved.add(t);
        head.z[t] = a.z;
        if (c) head.dz[t] = a.z.map((v, i) => v - c.heads[g].z[t][i]);      // its write moved by dz (W_O's rows of g)
      }
    }
    out.heads.push(head);
  }
  const delta = into[`L${l + 1} MLP`], added = rowsOf(delta), mlpRows = new Set([...moved, ...added]);
  const again = [];
  for (const t of needed) {
    if (c && !moved.has(t) && !mlpRows.has(t)) {
      out.mid[t] = c.mid[t]; out.mlp[t] = c.mlp[t]; out.out[t] = c.out[t];
      continue;
    }
    const written = new Float64Array(x[t].length);
    for (const head of out.heads) for (let i = 0; i < written.length; i++) written[i] += head.write[t][i];
    out.mid[t] = plus(x[t], written);
    again.push(t);
  }
  const reads = again.map((t) => plus(out.mid[t], delta && delta[t]));
  const by = delta && delta.lowRank && Math.floor(delta.lowRank.k / H) === l ? delta.lowRank : null;
  const alone = new Set(c ? again.filter((t) => !changed.has(t) && !whole.has(t) && (!added.has(t) || (by && by.dz[t]))) : []);
  const vG = inputProducts(model, l, reads, again, alone, out.heads, c, by);   // alone: only heads' writes moved them
  out.vG = c ? c.vG.slice() : new Array(T);
  mlp(model, l, reads, vG).forEach((write, r) => {
    const t = again[r];
    out.vG[t] = vG[r];
    out.mlp[t] = write;
    out.out[t] = plus(out.mid[t], write);
  });
  out.changed = new Set([...moved, ...mlpRows].filter((t) => !final || t === T - 1));   // the rows `needed` holds
  return out;
}

// The clean pass of a story, kept while its ids array is in use (the worker reads one story with many changes):
// every layer at every row, but the last layer's queries, weights and writes at the last word alone (nothing reads
// them elsewhere: writes() gives that layer's parts at the last position only). Each layer is kept by the heads
// altered up to it, so a second-layer head silenced or patched takes the first layer as it was.
const cleanRuns = new WeakMap(), rowsSeen = new WeakMap();
let rowsCount = 0;

function alteredUpTo(model, l, silenced, patched) {
  const H = model.cfg.n_head, upTo = (k) => k < (l + 1) * H;
  const id = (rows) => {                                                  // a patch's rows are known by their array
    if (!rowsSeen.has(rows)) rowsSeen.set(rows, ++rowsCount);
    return rowsSeen.get(rows);
  };
  return `${l}|${[...silenced].filter(upTo).sort((a, b) => a - b)}|`
    + [...patched.keys()].filter(upTo).sort((a, b) => a - b).map((k) => `${k}:${id(patched.get(k))}`).join();
}

function clean(model, ids, silenced, patched) {
  if (!cleanRuns.has(ids)) cleanRuns.set(ids, new Map());
  const runs = cleanRuns.get(ids), { n_layer: L, n_head: H, d_model: D } = model.cfg, done = [];
  if (!runs.has("embedding")) runs.set("embedding", ids.map((id) => model.w.E.data.slice(id * D, (id + 1) * D)));
  const plain = silenced.size || patched.size ? clean(model, ids, NO_HEADS, NONE) : null;   // the story's own pass
  let x = runs.get("embedding");                                                // (T, d_model)
  for (let l = 0; l < L; l++) {
    const key = alteredUpTo(model, l, silenced, patched);
    if (!runs.has(key)) {
      if (runs.size >= 32) {                           // the oldest layer kept, but the story's embeddings and own pass
        const own = new Set(["embedding", ...[...Array(L).keys()].map((m) => alteredUpTo(model, m, NO_HEADS, NONE))]);
        runs.delete([...runs.keys()].find((k) => !own.has(k)));
      }
      // an altered state's layer, from the story's own: the rows an earlier altered layer moved, and the heads of
      // this layer altered, computed again (the same as a pass of its own to rounding)
      if (plain) {
        const renew = new Set([...Array(H).keys()].filter((g) => silenced.has(l * H + g) || patched.has(l * H + g)));
        const moved = l === 0 || done[l - 1] === plain[l - 1] ? new Set() : done[l - 1].changed;
        runs.set(key, layer(model, l, x, moved, {}, silenced, patched, plain[l], l === L - 1, null, renew));
      } else {
        runs.set(key, layer(model, l, x, null, {}, silenced, patched, null, l === L - 1));
      }
    }
    done.push(runs.get(key));
    x = done[l].out;
  }
  return done;
}

const NO_HEADS = new Set();

// What is kept of a named change, by story (while its ids array is in use): the KEPT entries last used, of keptLayer
// and lastLayer together (at 255 words about 2 MB for a worker's half of the edges under one state of the first
// layer's heads, a few hundred kB for a short story).
const namedRuns = new WeakMap(), KEPT = 512;

// kept.get(key), made and kept if it is not there; the `size` values last used are kept (circuit-worker.js keeps its
// stories and borrowed writes with it too).
export function remember(kept, size, key, make) {
  const value = kept.has(key) ? kept.get(key) : make();
  kept.delete(key);
  kept.set(key, value);
  if (kept.size > size) kept.delete(kept.keys().next().value);          // the least recently used
  return value;
}

function recall(ids, key, make) {
  if (!namedRuns.has(ids)) namedRuns.set(ids, new Map());
  return remember(namedRuns.get(ids), KEPT, key, make);
}

// A layer but the last with a named change, as the next layer reads it: its rows, the rows that moved, each head's
// weights at the last word.
function keptLayer(model, ids, l, silenced, patched, named, compute) {
  return recall(ids, `${alteredUpTo(model, l, silenced, patched)}|${named}`, () => {
    const done = compute(null);
    return { out: done.out, changed: done.changed, heads: done.heads.map((h) => ({ weights: h.weights })) };
  });
}

// The last layer with a named change: its heads' keys and values kept by the name and the heads altered before the
// layer, so that the graph measured again with a head of this layer altered computes them once.
function lastLayer(model, ids, l, silenced, patched, named, compute) {
  let done = null;
  const kv = recall(ids, `${alteredUpTo(model, l - 1, silenced, patched)}|${named}|keys and values`, () => {
    done = compute(null);
    return { K: done.heads.map((h) => h.K), V: done.heads.map((h) => h.V) };
  });
  return done || compute(kv);
}

// The model on ids with into[input][t] added to that input alone at position t: the last position's logits and
// every head's attention there ([layer][head], a weight per position). Only what a change reaches is computed
// again from the story's clean pass. `silenced`: a Set of heads (layer * n_head + head) that write nothing;
// `patched`: a Map of heads to the rows they write at the first positions (borrowed), whatever they read.
// `named`: a name for the change `into` (a graph's edge), the same name always the same change on this story for
// the same heads altered: each layer but the last is then kept (what the next layer reads of it) by the name and the
// heads altered up to it, so that a graph measured again with a later layer's head altered takes the earlier
// layers' rows as they were.
export function run(model, ids, into = {}, silenced = new Set(), patched = NONE, named = null) {
  const { final, attention } = lastRow(model, ids, into, silenced, patched, named);
  return { logits: matvec(final, model.w.W_U), attention };
}

// One word's logit of run's (the same sums in the same order as matvec's column of that word): what an edge of a
// prediction's graph reads.
export function logitAfter(model, ids, word, into = {}, silenced = new Set(), patched = NONE, named = null) {
  const { final } = lastRow(model, ids, into, silenced, patched, named), W = model.w.W_U, cols = W.shape[1];
  let logit = 0;
  for (let i = 0; i < final.length; i++) if (final[i] !== 0) logit += final[i] * W.data[i * cols + word];
  return logit;
}

// The last position's row after the final LayerNorm, and every head's attention there.
function lastRow(model, ids, into, silenced, patched, named) {
  const { n_layer: L, norm_eps: eps } = model.cfg;
  const w = model.w, T = ids.length, base = clean(model, ids, silenced, patched);
  let x = base[0].x, changed = new Set();
  const attention = [];
  for (let l = 0; l < L; l++) {
    const reached = changed.size || Object.keys(into).some((k) => layerOf(k) === l);
    const again = (kv) => layer(model, l, x, changed, into, silenced, patched, base[l], l === L - 1, kv);
    const done = !reached ? base[l] : !named ? again()
      : l < L - 1 ? keptLayer(model, ids, l, silenced, patched, named, again) : lastLayer(model, ids, l, silenced, patched, named, again);
    attention.push(done.heads.map((h) => h.weights));
    x = done.out;
    changed = reached ? done.changed : new Set();
  }
  const delta = into[LOGITS];
  const final = plus(x[T - 1], delta && delta[T - 1]);
  return { final: layerNorm(final, w["ln_f.weight"], w["ln_f.bias"], eps), attention };
}

// ids read with the sender's write taken from `source` (null: cut) in the receivers' inputs alone; both stories
// are cut to the context as a prompt is (run.js inContext: ids here start with <eos>).
export function pathPatch(model, ids, source, sender, receivers) {
  const cut = (s) => (s ? inContext(s.slice(1), model.cfg.context) : s);
  const story = cut(ids), delta = change(model, story, cut(source), sender);
  return run(model, story, Object.fromEntries(receivers.map((r) => [r, delta])));
}
