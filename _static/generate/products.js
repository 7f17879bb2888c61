// Rows of d_model (or of an MLP's width) times a weight matrix, for paths.js: the sums of model.js's matvec, in
// the same order, taken four rows at a time against the matrix's columns kept in rows.

// W (row-major, R x C) as C rows of R: a column of W read in a row, kept for each weight matrix.
const transposed = new WeakMap();

function columnsOf(W) {
  if (!transposed.has(W)) {
    const [R, C] = W.shape, t = new Float64Array(R * C);
    for (let i = 0; i < R; i++) for (let c = 0; c < C; c++) t[c * R + i] = W.data[i * C + c];
    transposed.set(W, t);
  }
  return transposed.get(W);
}

// rows @ W[:, from:from + width] (+ bias): each output the bias, then every input times its weight added in W's
// row order, as model.js's matvec adds them (a zero input adds nothing either way). Four rows and two columns at a
// time, each column of W read once for the four rows and each input once for the two columns; a row left over with
// many zeros (after the ReLU) adds only its other inputs.
export function product(rows, W, from, width, bias) {
  const Wt = columnsOf(W), R = W.shape[0], n = rows.length;
  const out = rows.map(() => new Float64Array(width));
  const start = (c) => (bias ? bias.data[from + c] : 0);
  let r = 0;
  for (; r + 4 <= n; r += 4) {
    const x0 = rows[r], x1 = rows[r + 1], x2 = rows[r + 2], x3 = rows[r + 3];
    const o0 = out[r], o1 = out[r + 1], o2 = out[r + 2], o3 = out[r + 3];
    let c = 0;
    for (; c + 2 <= width; c += 2) {                       // two columns at a time: each x[i] read once for both
      const off = (from + c) * R, off2 = off + R, b = start(c), b2 = start(c + 1);
      let s0 = b, s1 = b, s2 = b, s3 = b, t0 = b2, t1 = b2, t2 = b2, t3 = b2;
      for (let i = 0; i < R; i++) {
        const v = Wt[off + i], u = Wt[off2 + i], y0 = x0[i], y1 = x1[i], y2 = x2[i], y3 = x3[i];
        s0 += y0 * v; s1 += y1 * v; s2 += y2 * v; s3 += y3 * v;
        t0 += y0 * u; t1 += y1 * u; t2 += y2 * u; t3 += y3 * u;
      }
      o0[c] = s0; o1[c] = s1; o2[c] = s2; o3[c] = s3;
      o0[c + 1] = t0; o1[c + 1] = t1; o2[c + 1] = t2; o3[c + 1] = t3;
    }
    for (; c < width; c++) {
      const off = (from + c) * R, b = start(c);
      let s0 = b, s1 = b, s2 = b, s3 = b;
      for (let i = 0; i < R; i++) {
        const v = Wt[off + i];
        s0 += x0[i] * v; s1 += x1[i] * v; s2 += x2[i] * v; s3 += x3[i] * v;
      }
      o0[c] = s0; o1[c] = s1; o2[c] = s2; o3[c] = s3;
    }
  }
  for (; r < n; r++) {
    const x = rows[r], o = out[r], nonzero = [];
    for (let i = 0; i < R; i++) if (x[i] !== 0) nonzero.push(i);
    for (let c = 0; c < width; c++) {
      const off = (from + c) * R;
      let s = start(c);
      if (nonzero.length > 0.75 * R) for (let i = 0; i < R; i++) s += x[i] * Wt[off + i];
      else for (const i of nonzero) s += x[i] * Wt[off + i];
      o[c] = s;
    }
  }
  return out;
}

// rows @ W + bias for rows mostly zero (an MLP's hidden rows after the ReLU: about a third of them not zero): each
// output the bias, then every input that is not zero times its row of W added in W's row order, as model.js's
// matvec adds them (so the same sums to the last bit as product's); four inputs at a time against each output.
export function sparseProduct(rows, W, bias) {
  const [R, C] = W.shape, w = W.data;
  return rows.map((x) => {
    const out = Float64Array.from(bias.data), at = [];
    for (let i = 0; i < R; i++) if (x[i] !== 0) at.push(i);
    let k = 0;
    for (; k + 4 <= at.length; k += 4) {
      const a = at[k] * C, b = at[k + 1] * C, c = at[k + 2] * C, d = at[k + 3] * C;
      const xa = x[at[k]], xb = x[at[k + 1]], xc = x[at[k + 2]], xd = x[at[k + 3]];
      for (let j = 0; j < C; j++) {
        let s = out[j];
        s += xa * w[a + j]; s += xb * w[b + j]; s += xc * w[c + j]; s += xd * w[d + j];
        out[j] = s;
      }
    }
    for (; k < at.length; k++) {
      const a = at[k] * C, xa = x[at[k]];
      for (let j = 0; j < C; j++) out[j] += xa * w[a + j];
    }
    return out;
  });
}
