// The model runs here, off the page's thread, so the page never freezes while it writes.
//
// The page sends the story as it stands on screen ({prompt, written, seed, silenced, draws}) with every request;
// the worker keeps one Session and goes on from it when it holds that story, or reads the story again when it
// does not (the page stopped a run part-way, a head was silenced, the seed changed).
import { loadModel } from "./model.js";
import { EOS, Session } from "./run.js";

let model = null;
let session = null, key = "";
let current = null; // the request being answered: {run, stopped}

// Let the page's messages (Stop) in between words, without the timer clamping of setTimeout.
function breathe() {
  const channel = new MessageChannel();
  return new Promise((resolve) => { channel.port1.onmessage = resolve; channel.port2.postMessage(0); });
}

function same(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

// The session holding this story, made again only when the one kept holds another.
function sessionFor(story) {
  const want = JSON.stringify([story.prompt, story.seed, story.silenced]);
  if (!session || key !== want || session.draws !== story.draws || !same(session.written, story.written)) {
    session = Session.resume(model, story.prompt, story.written, story);
    key = want;
  }
  return session;
}

function prediction(s) {
  return { logits: s.out.logits, attention: s.out.attention, end: s.ids.length };
}

// Write up to `count` words (or take the reader's word `take`), posting each with the prediction after it.
async function write(run, story, settings, count, take) {
  current = { run, stopped: false };
  const me = current, s = sessionFor(story);
  postMessage({ type: "next", run, ...prediction(s), slid: s.slid });
  let last = performance.now(), reason = "limit", n = 0;
  while (n < count) {
    const id = take ?? s.draw(settings);
    if (id === EOS) { reason = "end"; break; }
    const slid = s.take(id);
    n += 1;
    postMessage({ type: "token", run, id, chosen: take !== undefined, draws: s.draws, slid, next: prediction(s) });
    if (performance.now() - last > 8) {
      await breathe();
      last = performance.now();
    }
    if (me.stopped) { reason = "stopped"; break; }
  }
  postMessage({ type: "done", run, reason, count: n, draws: s.draws });
}

onmessage = async (event) => {
  const msg = event.data;
  try {
    if (msg.type === "load") {
      model = await loadModel(msg.base);
      postMessage({ type: "ready", vocabulary: model.vocabulary, proper: [...model.proper], context: model.cfg.context,
                    heads: model.cfg.n_head, layers: model.cfg.n_layer });
    } else if (msg.type === "next") {           // the next word's scores after the story, before any is drawn
      if (current) current.stopped = true;
      const s = sessionFor(msg.story);
      postMessage({ type: "next", run: msg.run, ...prediction(s), slid: s.slid });
    } else if (msg.type === "write") {
      if (current) current.stopped = true;
      await write(msg.run, msg.story, msg.settings, msg.count, msg.take);
    } else if (msg.type === "stop") {
      if (current && current.run === msg.run) current.stopped = true;
    }
  } catch (err) {
    postMessage({ type: "error", run: msg.run, message: String(err && err.message ? err.message : err) });
  }
};
