// The model runs here, off the page's thread, so the page never freezes while it writes.
//
// The page sends the story as it stands on screen ({prompt, written, seed, silenced, patch, draws}) with every
// request; the worker keeps one Session and goes on from it when it holds that story, or reads the story again
// when it does not (the page stopped a run part-way, a head was silenced or patched, the seed changed). While a
// head is silenced or patched, a second Session (`plain`) reads the same words with the model unchanged, so every
// prediction comes with the unchanged model's too.
import { loadModel } from "./model.js";
import { EOS, inContext, Session } from "./run.js";

let model = null;
let session = null, plain = null, key = "";
let patched = { key: "", z: null };   // the patch's head output, taken from its prompt once
let current = null; // the request being answered: {run, stopped, wake}

// Let the page's messages (Stop) in between words, without the timer clamping of setTimeout.
function breathe() {
  const channel = new MessageChannel();
  return new Promise((resolve) => { channel.port1.onmessage = resolve; channel.port2.postMessage(0); });
}

function same(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

// Whether a session has read exactly this story's words.
function holds(s, story) {
  return Boolean(s) && same(s.prompt, story.prompt) && same(s.written, story.written);
}

// The patch as the model takes it: {head, z}, z the head's output at the last word of the patch's prompt.
function patchFor(story) {
  if (!story.patch) return null;
  const want = JSON.stringify(story.patch);
  if (patched.key !== want) patched = { key: want, z: model.headOutput(inContext(story.patch.source, model.cfg.context), story.patch.head) };
  return { head: story.patch.head, z: patched.z };
}

// The session holding this story, made again only when the one kept holds another.
function sessionFor(story) {
  const want = JSON.stringify([story.prompt, story.seed, story.silenced, story.patch]);
  if (!session || key !== want || session.draws !== story.draws || !same(session.written, story.written)) {
    // the unchanged model reads the same words: kept while it holds them (a head switched, a patch changed), or
    // taken from the session being replaced when that one was the unchanged model on these words
    if (session && !session.off && !session.patch && holds(session, story)) plain = session;
    session = Session.resume(model, story.prompt, story.written, { ...story, patch: patchFor(story) });
    key = want;
    if ((story.silenced.length || story.patch) && !holds(plain, story)) plain = Session.resume(model, story.prompt, story.written);
  }
  return session;
}

// What the page is sent for a prediction: the logits, every head's attention (over the words read, which end at
// word `end` of the story, <start> being word 0), what each part wrote into the stream (for attribution and the
// layer view, asked for with "inspect"), and the unchanged model's logits.
function prediction(s) {
  const changed = s.off || s.patch;
  return { logits: s.out.logits, attention: s.out.attention, parts: s.out.parts, end: 1 + s.promptLength + s.written.length,
           plain: changed && plain ? plain.out.logits : null };
}

// Until the next word is due at `pace` words a second (0: at once), or the run is stopped.
function wait(me, since, pace) {
  const ms = pace ? 1000 / pace - (performance.now() - since) : 0;
  if (ms <= 0) return breathe();
  return new Promise((resolve) => { const timer = setTimeout(resolve, ms); me.wake = () => { clearTimeout(timer); resolve(); }; });
}

// Write up to `count` words (or take the reader's word `take`), posting each with the prediction after it.
async function write(run, story, settings, count, take) {
  current = { run, stopped: false };
  const me = current, s = sessionFor(story);
  postMessage({ type: "next", run, ...prediction(s), slid: s.slid });
  let last = performance.now(), reason = "limit", n = 0;
  const pace = settings.pace || 0;
  while (n < count) {
    const id = take ?? s.draw(settings);
    if (id === EOS) { reason = "end"; break; }
    const slid = s.take(id);
    if (plain && (s.off || s.patch)) plain.take(id);
    n += 1;
    postMessage({ type: "token", run, id, chosen: take !== undefined, draws: s.draws, slid, next: prediction(s) });
    if (pace || performance.now() - last > 8) {
      if (n < count) await wait(me, last, pace);
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
    } else if (msg.type === "inspect") {       // a prediction read apart, for one word
      postMessage({ type: "inspect", run: msg.run, word: msg.word, attribution: model.attribution(msg.parts, msg.word),
                    layers: model.layerLogits(msg.parts) });
    } else if (msg.type === "stop") {
      if (current && current.run === msg.run) {
        current.stopped = true;
        if (current.wake) current.wake();
      }
    }
  } catch (err) {
    postMessage({ type: "error", run: msg.run, message: String(err && err.message ? err.message : err) });
  }
};
