// The walkthrough model (one one-head block of width 6, learned positions, no LayerNorm), trained in the page.
//
// compute/models/walkthrough.py is the reference: the same tensors in the same order, the same arithmetic
// in row vectors (X = E[token] + P, Q = X W_Q, S = Q Kᵀ / √d_k with the causal mask, A = softmax(S), Z = A V,
// hidden = X + Z W_O, y = hidden + ReLU(hidden W1 + b1) W2 + b2, logits = y W_U), the loss the mean
// cross-entropy over every real target. Everything is float64 (JavaScript's numbers); the backward pass is
// written out by hand, one sentence at a time, and checked against torch's autograd by the tests.
// Every sum starts from zero and adds in index order, and exp is fdlibm's (exp.js), not the engine's: the
// same bits in every browser, and the same bits as compute/training/walkthrough_exact.py, step for step.
import { exp } from "./exp.js";

// Where each tensor sits in the one flat array of parameters: {name: {offset, rows, cols}}, and the total.
export function layout(spec) {
  const at = {};
  let offset = 0;
  for (const [name, shape] of spec.tensors) {
    const rows = shape.length === 2 ? shape[0] : 1, cols = shape[shape.length - 1];
    at[name] = { offset, rows, cols };
    offset += rows * cols;
  }
  return { at, size: offset };
}

// out (n × m) = a (n × k) @ W (k × m), W read from the flat array at its offset.
function matmul(a, n, k, w, wOff, m, out) {
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      let s = 0;
      for (let t = 0; t < k; t++) s += a[i * k + t] * w[wOff + t * m + j];
      out[i * m + j] = s;
    }
  }
}

// The buffers of one sentence's pass at T positions, made once per layout and length and reused: training
// makes 16,000 passes, and allocating in each costs more than the arithmetic.
function workspace(spec, L, T) {
  L.work = L.work || {};
  if (!L.work[T]) {
    const { d_model: d, d_k: dk, d_v: dv, d_ff: ff, vocab_size: V } = spec.config;
    const n = (k) => new Float64Array(T * k);
    L.work[T] = { X: n(d), Q: n(dk), K: n(dk), V: n(dv), A: n(T), Z: n(dv), H: n(d), pre: n(ff), F: n(ff),
                  Y: n(d), logits: n(V), row: new Float64Array(T), dlogits: n(V), dY: n(d), dH: n(d), dpre: n(ff),
                  dX: n(d), dZ: n(dv), dQ: n(dk), dK: n(dk), dV: n(dv), dA: new Float64Array(T),
                  probs: new Float64Array(V) };
  }
  return L.work[T];
}

// One sentence's forward pass, keeping what the backward pass needs (in the workspace).
function forward(spec, L, p, tokens, T) {
  const { d_model: d, d_k: dk, d_v: dv, d_ff: ff, vocab_size: V } = spec.config;
  const a = L.at, w = workspace(spec, L, T);
  const { X, Q, K, A, Z, H, pre, F, Y, logits, row } = w, Vv = w.V;
  for (let t = 0; t < T; t++) {
    for (let c = 0; c < d; c++) X[t * d + c] = p[a.E.offset + tokens[t] * d + c] + p[a.P.offset + t * d + c];
  }
  matmul(X, T, d, p, a.W_Q.offset, dk, Q);
  matmul(X, T, d, p, a.W_K.offset, dk, K);
  matmul(X, T, d, p, a.W_V.offset, dv, Vv);
  const scale = Math.sqrt(dk);
  A.fill(0);                                          // row i: weights over keys 0..i (0 beyond)
  for (let i = 0; i < T; i++) {
    let max = -Infinity;
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let c = 0; c < dk; c++) s += Q[i * dk + c] * K[j * dk + c];
      row[j] = s / scale;
      if (row[j] > max) max = row[j];
    }
    let sum = 0;
    for (let j = 0; j <= i; j++) { row[j] = exp(row[j] - max); sum += row[j]; }
    for (let j = 0; j <= i; j++) A[i * T + j] = row[j] / sum;
  }
  for (let i = 0; i < T; i++) {
    for (let c = 0; c < dv; c++) {
      let s = 0;
      for (let j = 0; j <= i; j++) s += A[i * T + j] * Vv[j * dv + c];
      Z[i * dv + c] = s;
    }
  }
  matmul(Z, T, dv, p, a.W_O.offset, d, H);
  for (let i = 0; i < T * d; i++) H[i] = X[i] + H[i];
  matmul(H, T, d, p, a.W1.offset, ff, pre);
  for (let t = 0; t < T; t++) {
    for (let u = 0; u < ff; u++) {
      pre[t * ff + u] += p[a.b1.offset + u];
      F[t * ff + u] = pre[t * ff + u] > 0 ? pre[t * ff + u] : 0;
    }
  }
  matmul(F, T, ff, p, a.W2.offset, d, Y);
  for (let t = 0; t < T; t++) {
    for (let c = 0; c < d; c++) Y[t * d + c] = (H[t * d + c] + Y[t * d + c]) + p[a.b2.offset + c];  // (stream + h W2) + b2
  }
  matmul(Y, T, d, p, a.W_U.offset, V, logits);
  return w;
}

// Softmax of row t of the logits (into `e`, a new array unless one is given).
function probsAt(logits, t, V, e = new Float64Array(V)) {
  let max = -Infinity;
  for (let v = 0; v < V; v++) max = Math.max(max, logits[t * V + v]);
  let sum = 0;
  for (let v = 0; v < V; v++) { e[v] = exp(logits[t * V + v] - max); sum += e[v]; }
  for (let v = 0; v < V; v++) e[v] /= sum;
  return e;
}

function count(spec) {
  let n = 0;
  for (const row of spec.targets) for (const y of row) if (y !== spec.ignore) n += 1;
  return n;
}

// The backward pass of out = x W (x: T × n, W: n × m at `off` in the flat array): W's gradient gains xᵀ dOut,
// and dx becomes dOut Wᵀ (or gains it, with `add`: a residual stream that already holds a gradient).
function linearBackward(x, n, dOut, m, p, off, grads, T, dx, add) {
  for (let t = 0; t < T; t++) {
    for (let c = 0; c < n; c++) {
      let s = 0;
      for (let v = 0; v < m; v++) {
        grads[off + c * m + v] += x[t * n + c] * dOut[t * m + v];
        s += dOut[t * m + v] * p[off + c * m + v];
      }
      dx[t * n + c] = add ? dx[t * n + c] + s : s;
    }
  }
}

// The mean loss over every real target, and its gradient with respect to every parameter (into `grads`,
// which is overwritten).
export function lossAndGrads(spec, L, p, grads) {
  const { d_model: d, d_k: dk, d_v: dv, d_ff: ff, vocab_size: V } = spec.config;
  const a = L.at, T = spec.config.context, N = count(spec), scale = Math.sqrt(dk);
  grads.fill(0);
  let loss = 0;
  for (let b = 0; b < spec.inputs.length; b++) {
    const tokens = spec.inputs[b], targets = spec.targets[b];
    const f = forward(spec, L, p, tokens, T);
    // dlogits = (softmax - onehot) / N at real targets
    const { dlogits, dY, dH, dpre, dX, dZ, dQ, dK, dV, dA } = f;
    dlogits.fill(0);
    for (let t = 0; t < T; t++) {
      if (targets[t] === spec.ignore) continue;
      const pr = probsAt(f.logits, t, V, f.probs);
      loss -= Math.log(pr[targets[t]]);
      for (let v = 0; v < V; v++) dlogits[t * V + v] = (pr[v] - (v === targets[t] ? 1 : 0)) / N;
    }
    // logits = Y W_U
    linearBackward(f.Y, d, dlogits, V, p, a.W_U.offset, grads, T, dY, false);
    // Y = H + F W2 + b2, F = ReLU(pre)
    dH.set(dY);
    for (let t = 0; t < T; t++) for (let c = 0; c < d; c++) grads[a.b2.offset + c] += dY[t * d + c];
    linearBackward(f.F, ff, dY, d, p, a.W2.offset, grads, T, dpre, false);
    for (let i = 0; i < T * ff; i++) if (!(f.pre[i] > 0)) dpre[i] = 0;
    // pre = H W1 + b1
    for (let t = 0; t < T; t++) for (let u = 0; u < ff; u++) grads[a.b1.offset + u] += dpre[t * ff + u];
    linearBackward(f.H, d, dpre, ff, p, a.W1.offset, grads, T, dH, true);
    // H = X + Z W_O
    dX.set(dH);
    linearBackward(f.Z, dv, dH, d, p, a.W_O.offset, grads, T, dZ, false);
    // Z = A V; A = softmax(S); S = Q Kᵀ / √d_k
    dQ.fill(0);
    dK.fill(0);
    dV.fill(0);
    for (let i = 0; i < T; i++) {
      let dot = 0;
      for (let j = 0; j <= i; j++) {
        let s = 0;
        for (let e = 0; e < dv; e++) {
          s += dZ[i * dv + e] * f.V[j * dv + e];
          dV[j * dv + e] += f.A[i * T + j] * dZ[i * dv + e];
        }
        dA[j] = s;
        dot += s * f.A[i * T + j];
      }
      for (let j = 0; j <= i; j++) {
        const dS = f.A[i * T + j] * (dA[j] - dot) / scale;
        for (let c = 0; c < dk; c++) {
          dQ[i * dk + c] += dS * f.K[j * dk + c];
          dK[j * dk + c] += dS * f.Q[i * dk + c];
        }
      }
    }
    // Q, K, V = X W_Q, X W_K, X W_V
    linearBackward(f.X, d, dQ, dk, p, a.W_Q.offset, grads, T, dX, true);
    linearBackward(f.X, d, dK, dk, p, a.W_K.offset, grads, T, dX, true);
    linearBackward(f.X, d, dV, dv, p, a.W_V.offset, grads, T, dX, true);
    // X = E[token] + P
    for (let t = 0; t < T; t++) {
      for (let c = 0; c < d; c++) {
        grads[a.E.offset + tokens[t] * d + c] += dX[t * d + c];
        grads[a.P.offset + t * d + c] += dX[t * d + c];
      }
    }
  }
  return loss / N;
}

// What the lesson reads off a model: the mean loss, the lowest probability of a word the data determines,
// the goal sentence's attention rows and next-word probabilities at its answer rows.
export function evaluate(spec, L, p) {
  const V = spec.config.vocab_size, T = spec.config.context;
  let loss = 0, n = 0, sure = 1;
  for (let b = 0; b < spec.inputs.length; b++) {
    const f = forward(spec, L, p, spec.inputs[b], T);
    for (let t = 0; t < T; t++) {
      const y = spec.targets[b][t];
      if (y === spec.ignore) continue;
      const pr = probsAt(f.logits, t, V);
      loss -= Math.log(pr[y]);
      n += 1;
      if (spec.determined[b][t]) sure = Math.min(sure, pr[y]);
    }
  }
  const goal = forward(spec, L, p, spec.goal.inputs, spec.goal.inputs.length);
  const G = spec.goal.inputs.length;
  const rows = {}, probs = {};
  for (const r of spec.goal.rows) {
    rows[r] = Array.from(goal.A.subarray(r * G, r * G + r + 1));
    probs[r] = Array.from(probsAt(goal.logits, r, V));
  }
  return { loss: loss / n, sure, rows, probs };
}

// The goal sentence's attention rows alone (cheap: one sentence), for the pictures drawn while training.
export function goalRows(spec, L, p) {
  const G = spec.goal.inputs.length;
  const goal = forward(spec, L, p, spec.goal.inputs, G);
  const rows = {};
  for (const r of spec.goal.rows) rows[r] = Array.from(goal.A.subarray(r * G, r * G + r + 1));
  return rows;
}
