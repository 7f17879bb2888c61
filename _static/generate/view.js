// What the live box draws: the probability bars, the attention table, the attribution bars and the layer view of
// one prediction (widget.js).
import { distribution } from "./sample.js";

export const VIRIDIS = ["#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58", "#b5de2b", "#fde725"];
const SHOWN = 24; // words of attention shown (the newest ones)
const BARS = 10;  // words with a bar of their own; the rest share one

// A probability as the page writes it: one decimal of a percent, never 0 % or 100 %.
export function percent(p) {
  if (p < 0.0005) return "< 0.1 %";
  if (p > 0.9995) return "> 99.9 %";
  return (100 * p).toFixed(1) + " %";
}

// A word as a title, a note or a sentence quotes it: a word of more than LONG letters cut to its start and its
// length ("qqq… (20,000 letters)"), so a pasted giant word never becomes what a screen reader reads out.
const LONG = 24;
export function quoted(word) {
  const letters = [...word];
  return letters.length > LONG ? `${letters.slice(0, LONG).join("")}… (${letters.length.toLocaleString("en")} letters)` : word;
}

// An attention weight as a cell prints it: two decimals, never .00 or 1.00 unless it is exactly that.
export function weight(w) {
  if (w > 0 && w < 0.005) return "<.01";
  if (w < 1 && w > 0.995) return ">.99";
  return w.toFixed(2).replace(/^0/, "");
}

function colour(w) {
  return VIRIDIS[Math.min(VIRIDIS.length - 1, Math.floor(w * VIRIDIS.length))];
}

function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

// A bar of width p (0 to 1), and beside it, thinner, the unchanged model's (`was`: null when nothing is changed).
function bar(p, was) {
  const out = el("span", { className: "live-bar" }, el("span", { style: `width: ${(100 * p).toFixed(2)}%` }));
  if (was !== null) out.append(el("span", { className: "live-bar-was", style: `width: ${(100 * was).toFixed(2)}%` }));
  return out;
}

// A bar's probability, and under it, on a line of its own, the unchanged model's.
function shownP(p, was) {
  const cell = el("span", { className: "live-bar-p" });
  if (was === null) cell.textContent = percent(p);
  else cell.append(el("span", { textContent: percent(p) }), el("span", { textContent: ` (unchanged ${percent(was)})` }));
  return cell;
}

// The distribution a word is drawn from (temperature, top-k and top-p applied), as bars: the ten likeliest words
// and "all others"; with a head silenced or patched (pred.plain), each bar beside the unchanged model's.
// `choosable`: each word's label is a button that takes it as the next word (not <eos>, <unk>).
// `chosen`: the id that was written from it, marked. Returns the chosen word's probability (0 if a cut left it out).
export function drawBars(list, pred, settings, vocab, { choosable = false, chosen = null } = {}) {
  const dist = distribution(pred.logits, settings);
  const plain = pred.plain ? new Map(distribution(pred.plain, settings)) : null;
  const was = (id) => (plain ? plain.get(id) || 0 : null);
  const rows = dist.slice(0, BARS);
  const rest = dist.slice(BARS).reduce((sum, [, p]) => sum + p, 0);
  const restWas = plain ? 1 - rows.reduce((sum, [id]) => sum + was(id), 0) : null;
  const items = rows.map(([id, p]) => {
    const word = id === 0 ? "(the end)" : vocab[id];
    const label = choosable && id > 1
      ? el("button", { type: "button", className: "live-bar-word", textContent: word, title: `Write “${word}” next` })
      : el("span", { className: "live-bar-word", textContent: word });
    label.dataset.id = String(id);
    const li = el("li", {}, label, bar(p, was(id)), shownP(p, was(id)));
    li.dataset.p = String(p);
    if (id === chosen) li.className = "live-bar-chosen";
    return li;
  });
  if (dist.length > BARS) {
    const li = el("li", { className: "live-bar-others" }, el("span", { className: "live-bar-word", textContent: `all ${dist.length - BARS} others` }),
                  bar(rest, restWas), shownP(rest, restWas));
    li.dataset.p = String(rest);
    items.push(li);
  }
  list.classList.toggle("live-bars-compared", Boolean(plain));
  list.replaceChildren(...items);
  const hit = dist.find(([id]) => id === chosen);
  return hit ? hit[1] : 0;
}

const signed = (v) => (v < 0 ? "−" : "+") + Math.abs(v).toFixed(2);

// Direct logit attribution as bars from a middle line: [[part, push], ...], positive to the right, negative to the
// left, each with its value, and a last line with their sum (the logit).
export function drawWhy(list, attribution) {
  const most = Math.max(...attribution.map(([, v]) => Math.abs(v)), 1e-9);
  const items = attribution.map(([name, v]) => {
    const width = (50 * Math.abs(v)) / most;
    const fill = el("span", { style: `width: ${width.toFixed(2)}%; ${v < 0 ? "right: 50%" : "left: 50%"}` });
    const li = el("li", { className: v < 0 ? "live-why-down" : "live-why-up" },
                  el("span", { className: "live-why-name", textContent: name }), el("span", { className: "live-why-bar" }, fill),
                  el("span", { className: "live-why-v", textContent: signed(v) }));
    li.dataset.v = String(v);
    return li;
  });
  const total = attribution.reduce((s, [, v]) => s + v, 0);
  items.push(el("li", { className: "live-why-total" }, el("span", { className: "live-why-name", textContent: "the logit" }),
                el("span", { className: "live-why-bar" }), el("span", { className: "live-why-v", textContent: total.toFixed(2) })));
  list.replaceChildren(...items);
  return total;
}

// Softmax of one row of logits (the model's own probabilities, temperature 1).
export function softmax(logits) {
  let max = -Infinity;
  for (const x of logits) max = Math.max(max, x);
  const e = Array.from(logits, (x) => Math.exp(x - max));
  const total = e.reduce((s, x) => s + x, 0);
  return e.map((x) => x / total);
}

const LAYER_WORDS = 3;   // the likeliest words shown after each layer

// The layer view: for the stream after the embedding and after each layer, the likeliest words (each quoted, so a
// comma reads as a word: “,” 40.2 %) and the explained word's probability, as a table.
export function drawLayers(box, rows, vocab, word) {
  const table = el("table");
  const head = table.createTHead().insertRow();
  for (const text of ["read after", "likeliest words", `“${vocab[word]}”`]) head.append(el("th", { textContent: text, scope: "col" }));
  const body = table.createTBody();
  rows.forEach((logits, l) => {
    const p = softmax(logits);
    const order = p.map((_, i) => i).sort((a, b) => p[b] - p[a] || a - b).slice(0, LAYER_WORDS);
    const tr = body.insertRow();
    tr.append(el("th", { scope: "row", textContent: l === 0 ? "the embedding" : `layer ${l}${l === rows.length - 1 ? " (the model)" : ""}` }));
    tr.insertCell().textContent = order.map((i) => `${i === 0 ? "(the end)" : `“${quoted(vocab[i])}”`} ${percent(p[i])}`).join(", ");
    tr.insertCell().textContent = percent(p[word]);
  });
  box.replaceChildren(table);
}

// Every head's attention at one position, over the newest SHOWN words it read: a table of coloured cells,
// each holding its value as text (shown with "Show the numbers", always read by screen readers).
// `labels`: the words read, oldest first. Returns the strongest look back past <start>: {w, head, word}.
export function drawAttention(box, pred, labels, heads) {
  const n = pred.attention[0][0].length;
  const first = Math.max(0, n - SHOWN);
  const table = el("table");
  const head = table.createTHead().insertRow();
  head.append(el("th", { textContent: "head", scope: "col" }));
  for (let j = first; j < n; j++) head.append(el("th", { textContent: labels[j], scope: "col" }));
  const body = table.createTBody();
  let best = { w: -1 };
  pred.attention.forEach((layer, l) => layer.forEach((row, h) => {
    const name = `L${l + 1} H${h + 1}` + (heads.has(l * layer.length + h) ? " (silenced)" : "");
    const tr = body.insertRow();
    tr.append(el("th", { textContent: name, scope: "row" }));
    for (let j = first; j < n; j++) {
      const td = tr.insertCell();
      td.style.background = colour(row[j]);
      td.className = row[j] >= 0.4 ? "live-dark-text" : "";   // dark text from the fifth colour on (contrast 4.5 or more)
      td.dataset.note = `${name} → “${labels[j]}”: ${weight(row[j])}`;
      td.append(el("span", { className: "live-v", textContent: weight(row[j]) }));
      if (row[j] > best.w && j > 0) best = { w: row[j], head: name, word: labels[j] };
    }
  }));
  box.replaceChildren(table);
  return best;
}
