// The generation loop: read the prompt, then choose, append and read one word at a time.
import { choose, seeded } from "./sample.js";

export const EOS = 0; // "<eos>" starts a story and ends one (compute/data/tokenizer.py)

// Yields {id, attention, logits, slid} for each new word: `attention` is every head's weights, at the
// position that chose the word, over the words before it; `logits` the scores it was drawn from. When the words outgrow the context,
// the oldest half is dropped and the rest re-read ("slid"). `silenced`: heads (layer * n_head + head)
// whose output is zeroed throughout.
export function* generate(model, promptIds, { maxTokens = 200, greedy = false, temperature = 0.8, topK = 0, seed = 0,
                                              silenced = [] } = {}) {
  const context = model.cfg.context;
  const random = seeded(seed);
  const off = silenced.length ? new Set(silenced) : null;
  let ids = [EOS, ...promptIds];
  let slid = false;
  if (ids.length > context) {
    ids = ids.slice(ids.length - context + 1);
    slid = true;
  }
  let cache = model.newCache();
  let out = null;
  ids.forEach((id, pos) => { out = model.step(id, pos, cache, off); });
  for (let n = 0; n < maxTokens; n++) {
    const id = choose(out.logits, { greedy, temperature, topK }, random);
    if (id === EOS) return;
    yield { id, attention: out.attention, logits: out.logits, slid };
    slid = false;
    ids.push(id);
    if (ids.length > context) {                 // slide: keep the newer half, read it again
      ids = ids.slice(ids.length - context / 2);
      cache = model.newCache();
      ids.slice(0, -1).forEach((x, pos) => model.step(x, pos, cache, off));
      slid = true;
    }
    out = model.step(id, ids.length - 1, cache, off);
  }
}
