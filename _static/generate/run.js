// The generation loop: read the prompt, then choose, append and read one word at a time.
import { choose, seeded } from "./sample.js";

export const EOS = 0; // "<eos>" starts a story and ends one (compute/data/tokenizer.py)

// One story being written: the words read so far (at most the context: when they outgrow it, the oldest half is
// dropped and the rest read again, "slid"), every layer's keys and values for them, the scores and attention
// at the newest position, and the seeded generator the draws come from. `silenced`: heads
// (layer * n_head + head) whose output is zeroed throughout. `patch`: {head, z}, a head whose output at the
// prompt's last word is replaced (model.headOutput of another prompt), while that word is in the window.
// A story's ids as the model reads them from the start: [EOS, ...ids], and when longer than the context only its
// last context - 1 (a prompt leaves room for the word after it; a patch's other start is cut the same way).
export function inContext(ids, context) {
  const all = [EOS, ...ids];
  return all.length > context ? all.slice(all.length - context + 1) : all;
}

export class Session {
  constructor(model, promptIds, { seed = 0, silenced = [], patch = null } = {}) {
    this.model = model;
    this.context = model.cfg.context;
    this.random = seeded(seed);
    this.draws = 0;                    // numbers taken from the generator so far
    this.off = silenced.length ? new Set(silenced) : null;
    this.patch = patch;
    this.written = [];                 // the ids appended after the prompt
    this.prompt = promptIds;
    this.promptLength = promptIds.length;
    let ids = [EOS, ...promptIds];
    this.slid = ids.length > this.context;
    if (this.slid) ids = ids.slice(ids.length - this.context + 1);
    this.ids = ids;
    this.patchAt = ids.length - 1;     // the prompt's last word, as an index into this.ids
    this.read();
  }

  // Read this.ids from scratch: out = {logits, attention, z, parts} at the newest position.
  read() {
    this.cache = this.model.newCache();
    const last = this.ids.length - 1;
    this.ids.forEach((id, pos) => { this.out = this.model.step(id, pos, this.cache, this.off, this.patchHere(pos), pos === last); });
  }

  patchHere(pos) {
    return pos === this.patchAt ? this.patch : null;
  }

  // The next word by the sampler (not yet appended): argmax when greedy, else one seeded draw.
  draw(settings) {
    if (!settings.greedy) this.draws += 1;
    return choose(this.out.logits, settings, this.random);
  }

  // Append a word and read it; returns whether the window slid to make room.
  take(id) {
    this.written.push(id);
    this.ids.push(id);
    if (this.ids.length > this.context) {        // slide: keep the newer half, read it again
      this.patchAt -= this.ids.length - this.context / 2;
      this.ids = this.ids.slice(this.ids.length - this.context / 2);
      this.read();
      return true;
    }
    this.out = this.model.step(id, this.ids.length - 1, this.cache, this.off, this.patchHere(this.ids.length - 1));
    return false;
  }

  // A session that has taken `written` after the prompt and made `draws` draws, read once at the end
  // (what a session that wrote them word by word holds).
  static resume(model, promptIds, written, { seed = 0, silenced = [], patch = null, draws = 0 } = {}) {
    const s = new Session(model, [], { seed, silenced });
    s.slid = promptIds.length + 1 > s.context;
    let ids = inContext(promptIds, s.context);
    s.patch = patch;
    s.patchAt = ids.length - 1;
    s.prompt = promptIds;
    s.promptLength = promptIds.length;
    for (const id of written) {
      ids.push(id);
      if (ids.length > s.context) {
        s.patchAt -= ids.length - s.context / 2;
        ids = ids.slice(ids.length - s.context / 2);
        s.slid = true;
      }
    }
    s.ids = ids;
    s.written = [...written];
    for (let k = 0; k < draws; k++) s.random();
    s.draws = draws;
    s.read();
    return s;
  }
}

// Yields {id, attention, logits, slid} for each new word: `attention` is every head's weights, at the
// position that chose the word, over the words before it; `logits` the scores it was drawn from; `slid`
// whether the words before it outgrew the context.
export function* generate(model, promptIds, { maxTokens = 200, greedy = false, temperature = 0.8, topK = 0, topP = 1,
                                              seed = 0, silenced = [], patch = null } = {}) {
  const s = new Session(model, promptIds, { seed, silenced, patch });
  let slid = s.slid;
  for (let n = 0; n < maxTokens; n++) {
    const id = s.draw({ greedy, temperature, topK, topP });
    if (id === EOS) return;
    const { attention, logits } = s.out;
    yield { id, attention, logits, slid };
    slid = s.take(id);
  }
}
