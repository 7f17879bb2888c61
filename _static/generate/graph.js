// The graph of one prediction in the page: compute/models/graph.py step for step. Nodes: the last word and the words
// the first layer's heads weigh most at it, every head and MLP, the chosen word's logit; each edge the logit's fall
// when that edge alone is cut (paths.js: a sender's write removed from one receiver's input alone). A silenced head
// sends and reads nothing; a patched head sends the rows it was given and reads nothing where it writes them.
import { INPUTS, LOGITS, logitAfter, minus, receiversOf, run, writes } from "./paths.js";

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

// A path cut made once for the rows it is made from (a story's embeddings, a part's write: the same arrays from one
// graph, or one share of it, to the next, as paths.js keeps them), and so the same object each time.
const made = new WeakMap();

function once(rows, which, make) {
  if (!made.has(rows)) made.set(rows, new Map());
  const mine = made.get(rows);
  if (!mine.has(which)) mine.set(which, make());
  return mine.get(which);
}

// {word, logit, nodes, edges: [{sender, receiver, effect}], slots} for the chosen word after ids (<eos> first, within
// the context), on the model with the `silenced` heads (a Set of layer * n_head + head) and the `patched` ones (a Map
// of layer * n_head + head to rows, paths.js borrowed). share [i, n]: only the edges in every n-th slot from the i-th,
// for one of n workers measuring the graph side by side (merged by mergeShares). Every edge the model could have
// takes a slot, whether or not it is measured with these heads altered, so that an edge is in the same share
// whichever heads are: the worker that measured it keeps what a second graph of the story can take again (paths.js
// `named`). slots: each edge's.
export function predictionGraph(model, ids, word, silenced = new Set(), patched = new Map(), k = WORDS, share = [0, 1]) {
  const T = ids.length, D = model.cfg.d_model;
  const logit = run(model, ids, {}, silenced, patched).logits[word];
  const written = writes(model, ids, silenced, patched);
  const parts = Object.keys(written).filter((p) => p !== "embedding");
  const speaking = parts.filter((p) => !(isHead(p) && silenced.has(headIndex(model, p))));
  const reading = speaking.filter((p) => !(isHead(p) && (patched.get(headIndex(model, p)) || []).length >= T));
  const edges = [], slots = [];
  let slot = -1;
  // one edge the model could have; measured (the logit's fall with `into` added) if it has it with these heads
  // altered and it is in this share
  const edge = (sender, receiver, has, into) => {
    slot += 1;
    if (!has || slot % share[1] !== share[0]) return;
    const effect = logit - logitAfter(model, ids, word, into(), silenced, patched, `${sender} > ${receiver}`);
    edges.push({ sender, receiver, effect });
    slots.push(slot);
  };
  const positions = shownWords(model, ids, silenced, k);
  for (const j of positions) {
    const to = (names) => () => {
      const row = once(written.embedding, j, () => written.embedding.map((r, t) => (t === j ? r.map((v) => -v) : new Float64Array(D))));
      return Object.fromEntries(names.map((n) => [n, row]));
    };
    for (const p of parts) {
      if (isHead(p)) {
        edge(`word ${j}`, p, reading.includes(p), to(j === T - 1 ? INPUTS.map((v) => `${p} ${v}`) : [`${p} K`, `${p} V`]));
      } else if (j === T - 1 && p.endsWith("MLP")) {
        edge(`word ${j}`, p, true, to([p]));
      }
    }
    if (j === T - 1) edge(`word ${j}`, LOGIT, true, to([LOGITS]));
  }
  for (const sender of parts) {
    const readers = new Map();
    for (const input of receiversOf(model, sender)) {
      const r = part(input);
      if (!readers.has(r)) readers.set(r, []);
      readers.get(r).push(input);
    }
    const speaks = speaking.includes(sender);
    for (const [receiver, inputs] of readers) {
      const has = speaks && (reading.includes(receiver) || receiver === LOGIT || receiver.endsWith("MLP"));
      const delta = () => once(written[sender], "minus", () => minus(written[sender]));
      edge(sender, receiver, has, () => Object.fromEntries(inputs.map((i) => [i, delta()])));
    }
  }
  return { word, logit, nodes: [...positions.map((j) => `word ${j}`), ...parts, LOGIT], edges, slots };
}

// The graphs of the shares of one graph's edges (predictionGraph's share [i, n]) as one graph, its edges in the
// order of their slots.
export function mergeShares(shares) {
  const all = shares.flatMap((g) => g.edges.map((e, i) => [g.slots[i], e])).sort((a, b) => a[0] - b[0]);
  return { ...shares[0], edges: all.map(([, e]) => e), slots: all.map(([s]) => s) };
}
