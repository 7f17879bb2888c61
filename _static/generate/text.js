// Words in and out, as compute/data/tokenizer.py does it: the same tokens, and readable text back.

const SAME = { "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"' };
const TOKEN = /\p{L}+(?:'\p{L}+)*|[.,!?"]/gu;
const HUGS_LEFT = new Set([".", ",", "!", "?", "'s"]);

// Lower-case word and punctuation tokens; a trailing possessive 's is split off ("lily's" -> lily 's).
export function words(text) {
  const clean = text.toLowerCase().replace(/[\u2018\u2019\u201c\u201d]/g, (c) => SAME[c]);
  const out = [];
  for (const token of clean.match(TOKEN) || []) {
    if (token.length > 2 && token.endsWith("'s")) out.push(token.slice(0, -2), "'s");
    else out.push(token);
  }
  return out;
}

// [space before, word as printed] for each token: capitals for sentence starts, quoted speech,
// proper names and "i"; punctuation and 's hug the word before; quotes open and close in turn.
export function readable(tokens, proper, open = false, start = true) {
  const out = [];
  let inside = open;
  tokens.forEach((t, i) => {
    const afterOpen = i > 0 && tokens[i - 1] === '"' && inside;
    if (t === '"') {
      out.push([i === 0 || inside ? "" : " ", t]);
      inside = !inside;
      start = inside || (i > 0 && tokens[i - 1] === ".");
      return;
    }
    const space = i === 0 || afterOpen || HUGS_LEFT.has(t) ? "" : " ";
    const capital = (start && /^\p{L}/u.test(t)) || proper.has(t) || t === "i";
    out.push([space, capital ? t[0].toUpperCase() + t.slice(1) : t]);
    start = t === "." || t === "!" || t === "?";
  });
  return out;
}
