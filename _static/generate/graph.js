// The graph of one prediction in the page: compute/models/graph.py step for step. Nodes: the last word and the words
// the first layer's heads weigh most at it, every head and MLP, the chosen word's logit; each edge the logit's fall
// when that edge alone is cut (paths.js: a sender's write removed from one receiver's input alone). A silenced head
// sends and reads nothing; a patched head sends the rows it was given and reads nothing where it writes them.
import { INPUTS, LOGITS, minus, receiversOf, run, writes } from "./paths.js";

export const WORDS = 4;
export const LOGIT = "logit";

function part(input) {
  return input === LOGITS ? LOGIT : input.split(" ").slice(0, 2).join(" ");
}

function isHead(name) {
  return name.includes(" H");
}

function headIndex(model, name) {                              // "L2 H3" -> 1 * n_head + 2
  const [l, h] = name.split(" ").map((s) => Number(s.slice(1)) - 1);
  return l * model.cfg.n_head + h;
}

// The last position and the k earlier ones the first layer's heads weigh most at the last word, in order.
export function shownWords(model, ids, silenced = new Set(), k = WORDS) {
  const T = ids.length, heads = run(model, ids, {}, silenced).attention[0];
  const sum = Array.from({ length: T }, (_, j) => heads.reduce((s, a) => s + a[j], 0));
  const order = Array.from({ length: T - 1 }, (_, j) => j).sort((a, b) => sum[b] - sum[a] || a - b);
  return [...new Set([...order.slice(0, k), T - 1])].sort((a, b) => a - b);
}

// {word, logit, nodes, edges: [{sender, receiver, effect}]} for the chosen word after ids (<eos> first, within the
// context), on the model with the `silenced` heads (a Set of layer * n_head + head) and the `patched` ones (a Map of
// layer * n_head + head to rows, paths.js borrowed). share [i, n]: only every n-th edge from the i-th, for one of n
// workers measuring the graph side by side (merged by mergeShares).
export function predictionGraph(model, ids, word, silenced = new Set(), patched = new Map(), k = WORDS, share = [0, 1]) {
  const T = ids.length, D = model.cfg.d_model;
  const logit = run(model, ids, {}, silenced, patched).logits[word];
  const written = writes(model, ids, silenced, patched);
  const parts = Object.keys(written).filter((p) => p !== "embedding");
  const speaking = parts.filter((p) => !(isHead(p) && silenced.has(headIndex(model, p))));
  const reading = speaking.filter((p) => !(isHead(p) && (patched.get(headIndex(model, p)) || []).length >= T));
  let n = -1;
  const cut = (into) => ((n += 1) % share[1] === share[0] ? logit - run(model, ids, into, silenced, patched).logits[word] : null);
  const edges = [], positions = shownWords(model, ids, silenced, k);
  for (const j of positions) {
    const row = written.embedding.map((r, t) => (t === j ? r.map((v) => -v) : new Float64Array(D)));
    const to = (names) => Object.fromEntries(names.map((n) => [n, row]));
    for (const p of parts) {
      if (isHead(p) && reading.includes(p)) {
        const inputs = j === T - 1 ? INPUTS.map((v) => `${p} ${v}`) : [`${p} K`, `${p} V`];
        edges.push({ sender: `word ${j}`, receiver: p, effect: cut(to(inputs)) });
      } else if (j === T - 1 && p.endsWith("MLP")) {
        edges.push({ sender: `word ${j}`, receiver: p, effect: cut(to([p])) });
      }
    }
    if (j === T - 1) edges.push({ sender: `word ${j}`, receiver: LOGIT, effect: cut(to([LOGITS])) });
  }
  for (const sender of speaking) {
    const readers = new Map();
    for (const input of receiversOf(model, sender)) {
      const r = part(input);
      if (!readers.has(r)) readers.set(r, []);
      readers.get(r).push(input);
    }
    const delta = minus(written[sender]);
    for (const [receiver, inputs] of readers) {
      if (reading.includes(receiver) || receiver === LOGIT || receiver.endsWith("MLP")) {
        edges.push({ sender, receiver, effect: cut(Object.fromEntries(inputs.map((i) => [i, delta]))) });
      }
    }
  }
  return { word, logit, nodes: [...positions.map((j) => `word ${j}`), ...parts, LOGIT],
           edges: edges.filter((e) => e.effect !== null) };
}

// The graphs of the n shares of one graph's edges (predictionGraph's share [i, n], in order of i) as one graph.
export function mergeShares(shares) {
  const n = shares.length, total = shares.reduce((s, g) => s + g.edges.length, 0);
  return { ...shares[0], edges: Array.from({ length: total }, (_, e) => shares[e % n].edges[Math.floor(e / n)]) };
}
