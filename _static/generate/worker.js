// The model runs here, off the page's thread, so the page never freezes while it writes.
import { loadModel } from "./model.js";
import { generate } from "./run.js";

let model = null;
let current = null; // the run being written: {run, stopped}

// Let the page's messages (Stop) in between words, without the timer clamping of setTimeout.
function breathe() {
  const channel = new MessageChannel();
  return new Promise((resolve) => { channel.port1.onmessage = resolve; channel.port2.postMessage(0); });
}

async function write(run, promptIds, options) {
  current = { run, stopped: false };
  const me = current;
  let last = performance.now();
  let reason = "end";
  let count = 0;
  for (const token of generate(model, promptIds, options)) {
    postMessage({ type: "token", run, id: token.id, attention: token.attention, logits: token.logits, slid: token.slid });
    count += 1;
    if (performance.now() - last > 8) {
      await breathe();
      last = performance.now();
    }
    if (me.stopped) { reason = "stopped"; break; }
  }
  if (reason === "end" && count >= options.maxTokens) reason = "limit";
  postMessage({ type: "done", run, reason, count });
}

onmessage = async (event) => {
  const msg = event.data;
  try {
    if (msg.type === "load") {
      model = await loadModel(msg.base);
      postMessage({ type: "ready", vocabulary: model.vocabulary, proper: [...model.proper], context: model.cfg.context,
                    heads: model.cfg.n_head, layers: model.cfg.n_layer });
    } else if (msg.type === "generate") {
      if (current) current.stopped = true;
      await write(msg.run, msg.promptIds, msg.options);
    } else if (msg.type === "peek") {          // the next word's logits after the prompt, before any is drawn
      const ids = [0, ...msg.promptIds].slice(-model.cfg.context);
      postMessage({ type: "peeked", ask: msg.ask, logits: model.logitsAfter(ids) });
    } else if (msg.type === "stop") {
      if (current && current.run === msg.run) current.stopped = true;
    }
  } catch (err) {
    postMessage({ type: "error", message: String(err && err.message ? err.message : err) });
  }
};
