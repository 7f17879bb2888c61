// Choosing the next word: greedy, or a seeded draw at a temperature from the top k words and the top p of the
// probability (compute/generate.py).

// A small, well-known 32-bit generator (mulberry32): the same seed gives the same draws in any browser.
export function seeded(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function argmax(values) {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}

const best = (logits) => (a, b) => logits[b] - logits[a] || a - b;   // the higher score first, ties by id

// The words a draw keeps (the topK best, ties by id; 0: every word; then, when topP < 1, the fewest of the best
// whose weights reach topP of the total) and their weights exp(logits / temperature - max), in that order, with
// their sum: the steps compute/generate.py's choose_one takes.
function weighted(logits, { temperature, topK, topP = 1 }) {
  const n = logits.length;
  let keep = Array.from({ length: n }, (_, i) => i);
  if (topK && topK < n) keep = keep.sort(best(logits)).slice(0, topK);
  let max = -Infinity;
  for (const i of keep) max = Math.max(max, logits[i] / temperature);
  let weights = keep.map((i) => Math.exp(logits[i] / temperature - max));
  let total = weights.reduce((s, x) => s + x, 0);
  if (topP < 1) {
    const weight = new Map(keep.map((i, k) => [i, weights[k]]));
    keep = [...keep].sort(best(logits));
    const reach = topP * total;
    let sum = 0, n = 0;
    while (n < keep.length && sum < reach) sum += weight.get(keep[n++]);
    keep = keep.slice(0, n);
    weights = keep.map((i) => weight.get(i));
    total = weights.reduce((s, x) => s + x, 0);
  }
  return { keep, weights, total };
}

// The next id: argmax when greedy; otherwise softmax(logits / temperature) over the words kept, one draw.
export function choose(logits, settings, random) {
  if (settings.greedy) return argmax(logits);
  const { keep, weights, total } = weighted(logits, settings);
  let u = random() * total;
  for (let k = 0; k < keep.length; k++) {
    u -= weights[k];
    if (u < 0) return keep[k];
  }
  return keep[keep.length - 1];
}

// The distribution choose() draws from, as [id, probability] for the words it keeps, largest first (ties by id).
export function distribution(logits, settings) {
  const { keep, weights, total } = weighted(logits, settings);
  return keep.map((i, k) => [i, weights[k] / total]).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
}
