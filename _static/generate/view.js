// What the live box draws: the probability bars and the attention table of one prediction (widget.js).
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

// The distribution a word is drawn from (temperature and top-k applied), as bars: the ten likeliest words and
// "all others". `choosable`: each word's label is a button that takes it as the next word (not <eos>, <unk>).
// `chosen`: the id that was written from it, marked. Returns the chosen word's probability (0 if top-k cut it).
export function drawBars(list, pred, settings, vocab, { choosable = false, chosen = null } = {}) {
  const dist = distribution(pred.logits, settings);
  const rows = dist.slice(0, BARS);
  const rest = dist.slice(BARS).reduce((sum, [, p]) => sum + p, 0);
  const items = rows.map(([id, p]) => {
    const word = id === 0 ? "(the end)" : vocab[id];
    const label = choosable && id > 1
      ? el("button", { type: "button", className: "live-bar-word", textContent: word, title: `Write “${word}” next` })
      : el("span", { className: "live-bar-word", textContent: word });
    label.dataset.id = String(id);
    const li = el("li", {}, label, el("span", { className: "live-bar" }, el("span", { style: `width: ${(100 * p).toFixed(2)}%` })),
                  el("span", { className: "live-bar-p", textContent: percent(p) }));
    li.dataset.p = String(p);
    if (id === chosen) li.className = "live-bar-chosen";
    return li;
  });
  if (dist.length > BARS) {
    const li = el("li", { className: "live-bar-others" }, el("span", { className: "live-bar-word", textContent: `all ${dist.length - BARS} others` }),
                  el("span", { className: "live-bar" }, el("span", { style: `width: ${(100 * rest).toFixed(2)}%` })),
                  el("span", { className: "live-bar-p", textContent: percent(rest) }));
    li.dataset.p = String(rest);
    items.push(li);
  }
  list.replaceChildren(...items);
  const hit = dist.find(([id]) => id === chosen);
  return hit ? hit[1] : 0;
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
