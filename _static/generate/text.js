// Words in and out, as compute/data/tokenizer.py does it: the same tokens, and readable text back.

const SAME = { "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"' };
const TOKEN = /\p{L}+(?:'\p{L}+)*|[.,!?"]/gu;
const HUGS_LEFT = new Set([".", ",", "!", "?", "'s"]);
const SILENT = /^[\p{M}\p{Cf}]$/u;  // marks and format characters: dropped with the character they belong to

function clean(text) {
  return text.toLowerCase().replace(/[\u2018\u2019\u201c\u201d]/g, (c) => SAME[c]);
}

// One token as a reader types it on its own: "'s" (which words() reads inside a word, never alone), or the one
// token words() finds; null for none or several.
export function oneToken(text) {
  const typed = clean(text).trim();
  if (typed === "'s") return typed;
  const found = words(text);
  return found.length === 1 ? found[0] : null;
}

// Lower-case word and punctuation tokens; a trailing possessive 's is split off ("lily's" -> lily 's).
export function words(text) {
  const out = [];
  for (const token of clean(text).match(TOKEN) || []) {
    if (token.length > 2 && token.endsWith("'s")) out.push(token.slice(0, -2), "'s");
    else out.push(token);
  }
  return out;
}

const ZWJ = "\u200d";
const REGIONAL = /^[\u{1F1E6}-\u{1F1FF}]$/u;

// Whether `c` belongs to the character shown as `cluster`: a mark or a format character, a skin tone, a tag,
// what follows a joiner, a flag's second letter (compute/data/tokenizer.py's _continues).
function continues(cluster, c) {
  const n = c.codePointAt(0);
  return SILENT.test(c) || (n >= 0x1f3fb && n <= 0x1f3ff) || (n >= 0xe0020 && n <= 0xe007f) || cluster.endsWith(ZWJ)
    || ([...cluster].length === 1 && REGIONAL.test(cluster) && REGIONAL.test(c));
}

// What words() reads past (digits, emoji, symbols), each once, in the order they first appear, each as one
// character is shown (an emoji with its skin tone or its joined people, a flag).
export function dropped(text) {
  const clusters = [""];
  for (const c of clean(text).replace(TOKEN, " ")) {
    const last = clusters[clusters.length - 1];
    if (/\s/u.test(c)) clusters.push("");
    else if (last && continues(last, c)) clusters[clusters.length - 1] += c;
    else clusters.push(c);
  }
  return [...new Set(clusters.filter((k) => k && ![...k].every((c) => SILENT.test(c))))];
}

// Prints tokens one at a time as readable text: [space before, word as printed] for each. Capitals for
// sentence starts, quoted speech, proper names and "i"; punctuation and 's hug the word before; quotes open
// and close in turn. Appending a token never changes how the ones before it print.
export class Printer {
  constructor(proper) {
    this.proper = proper;
    this.inside = false;   // within quoted speech
    this.start = true;     // the next word starts a sentence
    this.last = null;      // the token before
  }

  next(t) {
    const first = this.last === null, before = this.last;
    this.last = t;
    if (t === '"') {
      const space = first || this.inside ? "" : " ";   // a closing quote hugs the speech
      this.inside = !this.inside;
      this.start = this.inside || before === ".";
      return [space, t];
    }
    const afterOpen = before === '"' && this.inside;
    const space = first || afterOpen || HUGS_LEFT.has(t) ? "" : " ";
    const capital = (this.start && /^\p{L}/u.test(t)) || this.proper.has(t) || t === "i";
    this.start = t === "." || t === "!" || t === "?";
    return [space, capital ? t[0].toUpperCase() + t.slice(1) : t];
  }
}

export function readable(tokens, proper) {
  const printer = new Printer(proper);
  return tokens.map((t) => printer.next(t));
}
