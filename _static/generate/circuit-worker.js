// The circuit box's model, off the page's thread: path patching of one part's write into each of its readers in
// turn (paths.js), and each first-layer head's share of what the second layer reads on the story.
import { compositionOn } from "./composition.js";
import { loadModel } from "./model.js";
import { predictionGraph } from "./graph.js";
import { borrowed, change, receiversOf, remember, run } from "./paths.js";
import { inContext } from "./run.js";
import { argmax } from "./sample.js";
import { softmax } from "./view.js";

let model = null;

// The same story (and the same borrowed writes) as one object from one message to the next, so that paths.js's
// clean passes of it, and what it keeps of each edge of a graph, kept by that object, are computed once: a click on
// a head measures only what it changes. The stories and the borrowed writes are kept apart, each the newest used
// (measuring ahead with heads patched borrows for many sets of heads, which must not push the story out).
const stories = new Map(), borrowings = new Map();

function storyOf(ids) {
  return remember(stories, 4, ids.join(), () => inContext(ids.slice(1), model.cfg.context));
}

// ids and source start with <eos>. The word the story predicts and the one the other story predicts; their
// probabilities after the story as it is, with the sender's write from the other story in each reader alone, in
// every reader, and cut from every reader (paths.js pathPatch, each write computed once).
function paths(ids, source, sender) {
  const started = performance.now();
  const story = storyOf(ids), other = storyOf(source);
  const moved = change(model, story, other, sender), cut = change(model, story, null, sender);   // each once
  const readers = receiversOf(model, sender);
  const into = (delta, names) => Object.fromEntries(names.map((r) => [r, delta]));
  const plain = run(model, story);
  const word = argmax(plain.logits), rival = argmax(run(model, other).logits);
  // A head's input patched: where that head looks at the last word, its largest weight, and the weight it put
  // there unpatched.
  const row = (label, r) => {
    const p = softmax(Array.from(r.logits));
    const m = /^L(\d+) H(\d+) [QKV]$/.exec(label);
    if (!m) return { label, word: p[word], rival: p[rival] };
    const [l, g] = [Number(m[1]) - 1, Number(m[2]) - 1], a = r.attention[l][g], at = argmax(a);
    return { label, word: p[word], rival: p[rival], look: { at, w: a[at], plain: plain.attention[l][g][at] } };
  };
  const rows = [row("none", plain), ...readers.map((r) => row(r, run(model, story, into(moved, [r])))),
                row("every reader", run(model, story, into(moved, readers))),
                row("cut from every reader", run(model, story, into(cut, readers)))];
  return { word, rival, rows, shares: model.cfg.n_layer > 1 ? compositionOn(model, ids) : null,
           ms: performance.now() - started };
}

onmessage = async (event) => {
  const msg = event.data;
  try {
    if (msg.type === "load") {
      model = await loadModel(msg.base);
      postMessage({ type: "ready", vocabulary: model.vocabulary, context: model.cfg.context, heads: model.cfg.n_head });
    } else if (msg.type === "graph") {         // the story's likeliest next word's graph (its share of the edges)
      const ids = storyOf(msg.ids), silenced = new Set(msg.silenced);
      const patched = msg.patched.length
        ? remember(borrowings, 16, `${msg.source.join()} ${msg.patched}`, () => borrowed(model, storyOf(msg.source), msg.patched)) : new Map();
      const word = argmax(run(model, ids).logits);
      const graph = predictionGraph(model, ids, word, silenced, patched, undefined, msg.share);
      const p = softmax(Array.from(run(model, ids, {}, silenced, patched).logits))[word];
      postMessage({ type: "graph", run: msg.run, share: msg.share, graph, p });   // timed by the page
    } else if (msg.type === "paths") {
      postMessage({ type: "paths", run: msg.run, ...paths(msg.ids, msg.source, msg.sender) });
    }
  } catch (err) {
    postMessage({ type: "error", of: msg.type, run: msg.run, message: String(err && err.message ? err.message : err) });
  }
};
