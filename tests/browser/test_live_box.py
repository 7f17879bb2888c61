"""Part III's live box in Chromium, driven as a reader would: bars, Step, a chosen word, any earlier word, silenced
heads, Stop, keyboard and touch; every number it shows checked against Python's model of the same export."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest
import torch

from compute.data.tokenizer import words
from compute.export.story import FILES, model_from_export
from compute.lessons.story import live
from compute.lessons.story.states.box import followed, knockout_prompt, patch_pair
from compute.models.readout import Patch, attribution, layer_logits, read

PATH = "posts/story-models.html"
MODELS = "_static/models/"
STATUS = "document.querySelector('.live-generate [data-part=status]').textContent"
BARS_JS = """() => [...document.querySelectorAll('.live-generate [data-part=bars] li')].map((li) =>
  [li.querySelector('.live-bar-word').textContent, Number(li.dataset.p), li.querySelector('.live-bar-p').textContent])"""
TITLE = "document.querySelector('.live-generate [data-part=bars-title]').textContent"
WRITTEN_JS = "() => [...document.querySelectorAll('.live-generate .live-word:not(.live-caret)')].map((o) => o.textContent)"
CELLS_JS = """() => [...document.querySelectorAll('.live-generate .live-attention tbody tr')].map((tr) =>
  [...tr.querySelectorAll('td .live-v')].map((v) => v.textContent))"""


def cell_matches(text: str, want: float) -> bool:
    """A printed weight against the model's: two decimals, or a bound where two decimals would read 0 or 1."""
    if text == "<.01":
        return 0 < want < 0.005
    if text == ">.99":
        return 0.995 < want < 1
    return abs(float(text) - want) <= 0.0051
DEFAULTS = {"temperature": "0.8", "topk": "0", "topp": "1", "seed": "0"}
WHY_JS = """() => [...document.querySelectorAll('.live-generate [data-part=why] li:not(.live-why-total)')].map((li) =>
  [li.querySelector('.live-why-name').textContent, Number(li.dataset.v)])"""
LAYERS_JS = """() => [...document.querySelectorAll('.live-generate [data-part=layers] tbody tr')].map((tr) =>
  [...tr.cells].map((c) => c.textContent))"""


@pytest.fixture(scope="module")
def reference(built_site):
    """Python's model of the site's export (float16 weights in float64) and the export's header."""
    return model_from_export(built_site / MODELS), json.loads((built_site / MODELS / FILES[1]).read_text())


class Box:
    """The live box on an open page, with the few moves every test makes."""

    def __init__(self, visit):
        self.visit, self.page = visit, visit.page
        self.box = self.page.locator(".live-generate")

    def part(self, name: str):
        return self.box.locator(f"[data-part={name}]")

    def status(self) -> str:
        return self.page.evaluate(STATUS)

    def ready(self) -> "Box":
        self.box.scroll_into_view_if_needed()
        self.page.wait_for_function(f"{STATUS}.includes('ready') || {STATUS}.includes('written')", timeout=30_000)
        return self

    def start(self, prompt: str, greedy: bool = False, heads: tuple[int, ...] = (), **fields) -> "Box":
        """A new story from `prompt` with these settings (the rest at the page's defaults), its bars drawn."""
        for name, value in {**DEFAULTS, **fields}.items():
            self.part(name).fill(str(value))
        self.part("greedy").set_checked(greedy)
        for b in self.box.locator("[data-head]").all():
            if (b.get_attribute("aria-pressed") == "true") != (int(b.get_attribute("data-head")) in heads):
                b.click()
        stories = self.box.get_attribute("data-stories")
        same = self.part("prompt").input_value() == prompt
        self.part("prompt").fill(prompt + " " if same else prompt)   # a new text: a new story (the same words)
        self.page.wait_for_function(f"document.querySelector('.live-generate').dataset.stories !== '{stories}' "
                                    f"&& ({BARS_JS})().length > 0", timeout=10_000)
        return self

    def press(self, part: str, done: str = "written") -> str:
        """Press a control that writes, and wait for the one message that says the run ended."""
        self.page.evaluate(f"{STATUS.replace('.textContent', '')}.textContent = ''")
        self.part(part).click()
        self.page.wait_for_function(f"{STATUS}.includes('{done}') || {STATUS}.includes('wrong') || "
                                    f"{STATUS}.includes('ends the story')", timeout=30_000)
        return self.status()

    def written(self) -> list[str]:
        """The written words, as tokens."""
        return [t for text in self.page.evaluate(WRITTEN_JS) for t in words(text)]

    def bars(self) -> list:
        return self.page.evaluate(BARS_JS)


@pytest.fixture(scope="module")
def box(browser, http_server, built_site):
    """The Part III page opened once at desktop size; each test starts its own story in its box."""
    from conftest import new_visit
    visit, context = new_visit(browser, http_server)
    visit.open(PATH, figures=[])
    yield Box(visit).ready()
    assert visit.external_requests == [] and visit.console_errors == []
    context.close()


def python_bars(reference, tokens: list[str], temperature: float, top_k: int = 0, head: int | None = None):
    """The ten likeliest next words after <eos> + tokens and the rest, at a temperature and top-k, with one head
    (layer * n_head + head) silenced or none: Python's model of the export."""
    model, header = reference
    vocab, arch = header["vocabulary"], header["architecture"]
    ids = [0] + [vocab.index(w) if w in vocab else 1 for w in tokens]
    mask = None
    if head is not None:
        mask = torch.ones(arch["n_layer"], arch["n_head"], dtype=torch.float64)
        mask[head // arch["n_head"], head % arch["n_head"]] = 0.0
    with torch.no_grad():
        logits = model(torch.tensor([ids]), head_mask=mask)[0, -1].numpy() / temperature
    order = sorted(range(len(logits)), key=lambda i: (-logits[i], i))[: top_k or len(logits)]
    p = np.exp(logits[order] - logits[order].max())
    p /= p.sum()
    rows = [("(the end)" if i == 0 else vocab[i], float(q)) for i, q in zip(order[:10], p[:10])]
    return rows + ([(f"all {len(order) - 10} others", float(p[10:].sum()))] if len(order) > 10 else [])


def same_bars(got, want) -> bool:
    return [w for w, _, _ in got] == [w for w, _ in want] and np.allclose([p for _, p, _ in got], [p for _, p in want], atol=1e-6)


def ids_of(reference, tokens: list[str]) -> list[int]:
    vocab = reference[1]["vocabulary"]
    return [0] + [vocab.index(w) if w in vocab else 1 for w in tokens]


def test_the_bars_show_the_next_words_distribution_before_any_word(box, reference):
    """Before any word: the ten likeliest next words and the rest, as Python's model gives them at the box's
    temperature and top-k, summing to one; changing either redraws the bars, and no word is written."""
    prompt = "Once upon a time, there was a little girl named Mia. She had a red"
    box.start(prompt)
    assert "“red”" in box.page.evaluate(TITLE)
    for temperature, top_k in ((0.8, 0), (1.7, 0), (1.7, 3)):
        box.part("temperature").fill(str(temperature))
        box.part("topk").fill(str(top_k))
        want = python_bars(reference, words(prompt), temperature, top_k)
        box.page.wait_for_function(f"() => ({BARS_JS})().length === {len(want)} && "
                                   f"Math.abs(({BARS_JS})()[0][1] - {want[0][1]}) < 1e-6", timeout=10_000)
        got = box.bars()
        assert same_bars(got, want)
        assert abs(sum(p for _, p, _ in got) - 1) < 1e-9
        assert all(text.endswith(" %") and text not in ("0.0 %", "100.0 %") for _, _, text in got)
    assert box.written() == []


def test_a_setting_out_of_range_is_named_next_to_it_and_nothing_is_written(box, reference):
    """Never a silent default: a field that is empty or out of range gets a message beside it, and Generate
    writes nothing until it is fixed."""
    vocab = len(reference[1]["vocabulary"])
    box.start("Once upon a time")
    cases = [("temperature", "5", "Temperature must be a number from 0.1 to 2."),
             ("temperature", "", "Temperature must be a number from 0.1 to 2."),
             ("topk", "-1", f"Top-k must be a whole number from 0 to {vocab}."),
             ("topk", str(vocab + 1), f"Top-k must be a whole number from 0 to {vocab}."),
             ("topp", "0", "Top-p must be a number from 0.01 to 1."),
             ("topp", "1.5", "Top-p must be a number from 0.01 to 1."),
             ("seed", "2.5", "Seed must be a whole number from 0 to 4294967295.")]
    for part, value, message in cases:
        for name, good in DEFAULTS.items():
            box.part(name).fill(value if name == part else good)
        error = f"document.querySelector('.live-generate [data-part={part}-error]').textContent"
        box.page.evaluate(f"{error} = ''")    # what the click writes, not what an earlier one left
        box.part("generate").click()
        box.page.wait_for_function(f"{error} === {json.dumps(message)}", timeout=10_000)
        assert "Nothing was written" in box.status()
        assert box.part(part).get_attribute("aria-invalid") == "true"
        assert box.written() == []
        assert [box.part(f"{n}-error").text_content() for n in DEFAULTS if n != part] == [""] * (len(DEFAULTS) - 1)
    box.start("Once upon a time", greedy=True)
    box.press("generate")
    assert len(box.written()) > 10
    assert [box.part(f"{n}-error").inner_text() for n in DEFAULTS] == [""] * len(DEFAULTS)


def test_step_writes_what_generate_writes_and_the_readers_word_is_written(box, reference):
    """Step draws from the same seeded generator as Generate (five steps: its first five words); a word's bar,
    or a word typed in the vocabulary, is written next, and the model goes on from it."""
    prompt = "Once upon a time"
    box.start(prompt, temperature="1.2", seed="3")
    box.press("generate")
    generated = box.written()
    box.start(prompt, temperature="1.2", seed="3")
    for n in range(1, 6):
        assert box.press("step") == "1 word written (one step)."
        assert box.written() == generated[:n]
    choice = box.box.locator(".live-bars button").nth(2)
    word = choice.text_content()
    box.page.evaluate(f"{STATUS.replace('.textContent', '')}.textContent = ''")
    choice.click()
    box.page.wait_for_function(f"{STATUS}.includes('written')", timeout=10_000)
    assert box.status() == "1 word written (your word)."
    assert box.written() == generated[:5] + [word]
    assert box.box.locator(".live-word.live-chosen").count() == 1
    box.page.wait_for_function(f"{TITLE}.includes('“{word}”')", timeout=10_000)
    assert same_bars(box.bars(), python_bars(reference, words(prompt) + generated[:5] + [word], 1.2))
    box.part("word").fill("Zorblax")
    box.part("add").click()
    assert box.part("word-error").text_content() == "“zorblax” is not in the model's vocabulary."
    assert box.part("word").get_attribute("aria-invalid") == "true" and len(box.written()) == 6
    box.part("word").fill("red")
    assert box.press("add") == "1 word written (your word)."
    assert box.written()[-1] == "red" and box.part("word-error").text_content() == ""
    box.part("word").fill("’s")                  # the possessive, one of the vocabulary's tokens, typed alone
    assert box.press("add") == "1 word written (your word)."
    assert box.page.evaluate(WRITTEN_JS)[-1] == "'s" and box.part("word-error").text_content() == ""


def test_an_earlier_word_shows_its_bars_and_attention_as_they_were(box, reference):
    """Each written word keeps the bars it was drawn from (at the temperature of its run, not today's) and every
    head's attention at the position that chose it, as Python's model gives them; click and arrow keys select."""
    model, header = reference
    prompt = "Once upon a time, there was a little girl named Mia."
    box.start(prompt, temperature="0.8", seed="0")
    box.press("generate")
    written = box.written()
    assert len(written) > 20
    box.part("temperature").fill("1.5")
    k = 12
    box.box.locator(f".live-word[data-k='{k}']").click()
    box.page.wait_for_function(f"{TITLE}.startsWith('“{written[k]}” (')", timeout=10_000)   # its own title
    assert box.box.locator(f".live-word[data-k='{k}']").get_attribute("aria-selected") == "true"
    before = words(prompt) + written[:k]
    assert same_bars(box.bars(), python_bars(reference, before, 0.8))
    ids = [0] + [header["vocabulary"].index(w) for w in before]
    with torch.no_grad():
        trace = model.trace(torch.tensor([ids]))
    want = np.concatenate([a.A[0, :, -1, -24:].numpy() for a in trace.attention])   # (8 heads, 24 newest words)
    got = box.page.evaluate(CELLS_JS)
    assert (len(got), len(got[0])) == want.shape
    assert all(cell_matches(t, w) for row, wants in zip(got, want) for t, w in zip(row, wants))
    assert any(t == "<.01" for row in got for t in row)            # small weights print as a bound, not .00
    box.page.keyboard.press("ArrowLeft")
    box.page.wait_for_function(f"{TITLE}.startsWith('“{written[k - 1]}” (')", timeout=10_000)
    assert same_bars(box.bars(), python_bars(reference, before[:-1], 0.8))
    box.page.keyboard.press("End")                      # the next word: live, at today's temperature
    box.page.wait_for_function(f"{TITLE}.startsWith('The next word after')", timeout=10_000)
    assert same_bars(box.bars(), python_bars(reference, words(prompt) + written, 1.5))


def test_a_silenced_head_gives_pythons_knocked_out_bars_and_the_prepared_story_misnames(box, reference):
    """A head switched off: the bars are Python's model with that head's output zeroed, and back on, the whole
    model's. The prepared story of section 6: with the name head silenced the right name loses, as measured."""
    prompt = "One day, Tom and Lily went to the park. Tom had a red ball. Lily said,"
    box.start(prompt, temperature="1")
    head = box.box.locator("[data-head='1']")
    head.click()
    assert head.get_attribute("aria-pressed") == "true"
    want = python_bars(reference, words(prompt), 1.0, head=1)
    box.page.wait_for_function(f"Math.abs(({BARS_JS})()[0][1] - {want[0][1]}) < 1e-6", timeout=10_000)
    assert same_bars(box.bars(), want) and not same_bars(box.bars(), python_bars(reference, words(prompt), 1.0))
    head.click()
    want = python_bars(reference, words(prompt), 1.0)
    box.page.wait_for_function(f"Math.abs(({BARS_JS})()[0][1] - {want[0][1]}) < 1e-6", timeout=10_000)
    assert same_bars(box.bars(), want)

    tried = knockout_prompt()
    n_head = reference[1]["architecture"]["n_head"]
    box.part("try").click()
    box.page.wait_for_function(f"{TITLE}.includes('silenced')", timeout=10_000)
    pressed = [int(b.get_attribute("data-head")) for b in box.box.locator("[data-head][aria-pressed=true]").all()]
    assert pressed == [tried["head"][0] * n_head + tried["head"][1]]
    assert words(box.part("prompt").input_value()) == words(tried["text"])
    box.page.wait_for_function(f"Math.abs(({BARS_JS})()[0][1] - {tried['p_top_off']}) < 1e-6", timeout=10_000)
    assert same_bars(box.bars(), python_bars(reference, words(tried["text"]), 1.0, head=pressed[0]))
    assert box.bars()[0][0] == tried["top_off"] != tried["name"]    # at temperature 1: the lesson's numbers
    assert dict((w, p) for w, p, _ in box.bars()).get(tried["name"], 0) < tried["p_all"] / 2


def test_stop_halts_the_words_on_screen_at_once_and_the_story_goes_on_from_them(box):
    """No word appears after Stop, whatever the worker had sent; Step then adds one word to the words shown."""
    for seed in ("5", "6", "7", "8", "9"):      # a loaded machine may draw a whole short story in one frame
        box.start("", temperature="2", seed=seed)
        shown = box.page.evaluate("""async () => {
          const box = document.querySelector('.live-generate'), stop = box.querySelector('[data-part=stop]');
          const count = () => box.querySelectorAll('.live-word:not(.live-caret)').length;
          box.querySelector('[data-part=generate]').click();
          while (count() < 3 && !(count() > 0 && stop.disabled)) await new Promise((r) => requestAnimationFrame(r));
          if (stop.disabled) return null;                 // the run ended before Stop could be pressed
          stop.click();
          const atStop = count();
          await new Promise((r) => setTimeout(r, 600));
          return [atStop, count()];
        }""")
        if shown is not None:
            break
    assert shown is not None, "every run ended before Stop could be pressed"
    assert shown[0] == shown[1] and shown[0] < 200
    assert box.status().endswith(f" {shown[0]} words written (stopped).")
    assert box.part("stop").is_disabled()
    before = box.written()
    assert box.press("step") == "1 word written (one step)."
    assert box.written()[:-1] == before and len(box.written()) == len(before) + 1


def test_one_announcement_per_run(box):
    """The status region (role=status) changes once per run, not once per word."""
    box.start("Once upon a time", greedy=True)
    box.page.evaluate("""() => {
      window.__said = [];
      new MutationObserver(() => window.__said.push(document.querySelector('.live-generate [data-part=status]').textContent))
        .observe(document.querySelector('.live-generate [data-part=status]'), {childList: true, characterData: true, subtree: true});
    }""")
    box.part("generate").click()
    # the status may still say "written" from the run before: wait for this run's announcement
    box.page.wait_for_function("window.__said.some((s) => s.includes('written'))", timeout=30_000)
    box.page.wait_for_timeout(200)
    said = box.page.evaluate("window.__said")
    assert len(said) == 1 and said[0].endswith("written (the model ended the story).") and len(box.written()) > 20


def test_dropped_characters_are_listed_and_a_long_word_wraps(box):
    box.start("🙂 Zorblax had 3 cats, ½ a cake & x²!")
    notes = box.part("notes").inner_text()
    assert "zorblax" in notes
    assert all(c in notes.split(": ")[-1] for c in ("🙂", "3", "½", "&", "²")), notes
    box.start("Once " + "b" * 400 + " went home.")
    box.press("generate")
    out = box.part("output")
    assert out.evaluate("(o) => o.scrollWidth <= o.clientWidth")
    assert box.page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def test_the_heads_names_stay_in_view_when_the_table_scrolls_at_desktop_width(box):
    box.start("Once upon a time there was a little girl named Mia who had a red ball and a big dog named Max and "
              "they played in the park every day")
    assert box.page.evaluate("document.querySelector('.live-attention').scrollWidth > "
                             "document.querySelector('.live-attention').clientWidth")   # the newest 24 words overflow
    names = box.page.evaluate(HEAD_NAMES_JS)
    assert names["scrolled"] > 0 and len(names["heads"]) == 8 and names["hidden"] == [], names


def test_a_pasted_giant_word_is_cut_in_the_note_and_a_joined_emoji_is_one_character(box):
    """What the note (and so the status a screen reader reads out) lists, and the bars' title (the bar list's
    accessible name): a 20,000-letter word cut to its start and its length; an emoji of joined people, one with a skin tone and a flag each listed as one character."""
    box.start("Once " + "q" * 20_000 + " went home.")
    notes = box.part("notes").inner_text()
    assert "q" * 24 + "… (20,000 letters)" in notes and len(notes) < 300, notes[:300]
    box.start("Once upon a " + "q" * 20_000)           # the last word: the bars' title, the bar list's name, cut too
    title = box.page.evaluate(TITLE)
    assert title == f"The next word after “{'q' * 24}… (20,000 letters)”:", title[:300]
    box.start("A 👩‍👩‍👧 and 👍🏽 by the 🇫🇷 sea.")
    listed = box.part("notes").inner_text().split(": ")[-1].split()
    assert listed == ["👩‍👩‍👧", "👍🏽", "🇫🇷"], listed


def test_keyboard_alone_writes_steps_chooses_selects_and_stops(box):
    """Generate, Step, a bar's word, an earlier word and Stop, with keys only; focus stays on a control."""
    box.start("Once upon a time", temperature="2", seed="9")
    box.part("greedy").focus()
    box.page.keyboard.press("Tab")
    assert box.page.evaluate("document.activeElement.dataset.part") == "generate"
    box.page.keyboard.press("Enter")
    box.page.keyboard.press("Escape")                    # stops at once
    box.page.wait_for_function(f"{STATUS}.includes('written')", timeout=10_000)
    assert box.page.evaluate("document.activeElement.dataset.part") == "generate"
    box.page.keyboard.press("Tab")
    assert box.page.evaluate("document.activeElement.dataset.part") == "step"
    n = len(box.written())
    box.page.evaluate(f"{STATUS.replace('.textContent', '')}.textContent = ''")
    box.page.keyboard.press("Enter")
    # one word, or none where the stopped story had reached the model's own end (Escape may come after the run)
    box.page.wait_for_function(f"{STATUS}.endsWith('(one step).') || {STATUS}.includes('ends the story here')",
                               timeout=10_000)
    n += 1 if box.status().endswith("(one step).") else 0
    assert len(box.written()) == n
    for _ in range(30):                                   # on to the words
        box.page.keyboard.press("Tab")
        if box.page.evaluate("document.activeElement.dataset.part") == "words":
            break
    box.page.keyboard.press("Home")
    first = box.written()[0]
    box.page.wait_for_function(f"{TITLE}.startsWith('“{first}” (')", timeout=10_000)
    box.page.keyboard.press("End")                        # the next word: its bars can be chosen from
    box.page.wait_for_function(f"{TITLE}.startsWith('The next word after') && "
                               "document.querySelectorAll('.live-generate .live-bars button').length > 0", timeout=10_000)
    for _ in range(5):                                    # on to the first bar's word
        box.page.keyboard.press("Tab")
        if box.page.evaluate("document.activeElement.classList.contains('live-bar-word')"):
            break
    assert box.page.evaluate("document.activeElement.tagName === 'BUTTON' && "
                             "document.activeElement.classList.contains('live-bar-word')")
    word = box.page.evaluate("document.activeElement.textContent")
    box.page.keyboard.press("Enter")
    box.page.wait_for_function(f"{STATUS}.endsWith('(your word).')", timeout=10_000)
    assert len(box.written()) == n + 1 and box.written()[-1] == word
    box.page.wait_for_timeout(100)
    assert box.page.evaluate("document.activeElement.classList.contains('live-bar-word')")   # still on a bar


# The attention table's head names that are out of view or under another element, once the table is in view.
HEAD_NAMES_JS = """() => {
  const view = document.querySelector('.live-attention');
  view.scrollIntoView({block: 'center'});
  const box = view.getBoundingClientRect(), heads = [...view.querySelectorAll('tbody th')];
  const hidden = heads.filter((th) => {
    const r = th.getBoundingClientRect();
    return r.left < box.left - 1 || document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) !== th;
  });
  return {scrolled: view.scrollLeft, heads: heads.map((th) => th.textContent), hidden: hidden.map((th) => th.textContent)};
}"""


def test_the_box_at_375_px_by_touch(visit):
    """On a phone: nothing wider than the screen, every control on screen and at least 24 x 24 px, a tap on
    Generate writes and the newest words are in view, a tap on an earlier word selects it; axe finds nothing."""
    from conftest import ROOT
    v = visit(PATH, width=375, height=800, touch=True)
    b = Box(v).ready()
    b.part("greedy").set_checked(True)
    b.page.evaluate(f"{STATUS.replace('.textContent', '')}.textContent = ''")
    b.part("generate").tap()
    b.page.wait_for_function(f"{STATUS}.includes('written')", timeout=30_000)
    assert b.page.evaluate("document.documentElement.scrollWidth") <= 375
    controls = b.box.locator("button:visible, input:visible, textarea:visible, select:visible").all()
    assert len(controls) > 30
    for control in controls:
        rect = control.bounding_box()
        assert rect["x"] >= 0 and rect["x"] + rect["width"] <= 375, control.evaluate("(c) => c.outerHTML.slice(0, 80)")
        assert rect["width"] >= 24 and rect["height"] >= 24, control.evaluate("(c) => c.outerHTML.slice(0, 80)")
    # the words are targets in a line of text: each as tall as a target, at least as wide as its word
    heights = b.page.evaluate("[...document.querySelectorAll('.live-word > span')].map((w) => w.getBoundingClientRect().height)")
    assert len(heights) > 20 and min(heights) >= 24
    newest = b.box.locator(".live-word:not(.live-caret)").last.bounding_box()
    out = b.part("output").bounding_box()
    assert out["y"] <= newest["y"] and newest["y"] + newest["height"] <= out["y"] + out["height"] + 1
    # the attention table has scrolled to the newest words, and the heads' names stay in view beside them
    names = b.page.evaluate(HEAD_NAMES_JS)
    assert names["scrolled"] > 0 and len(names["heads"]) == 8 and names["hidden"] == [], names
    b.part("output").evaluate("(o) => { o.scrollTop = 0; }")
    b.box.locator(".live-word[data-k='3']").tap()
    assert b.box.locator(".live-word[data-k='3']").get_attribute("aria-selected") == "true"
    b.part("numbers").tap()
    assert b.box.locator(".live-attention .live-v").first.is_visible()
    b.box.locator(".live-attention td").nth(5).tap()
    assert "→" in b.part("attention-text").inner_text()
    b.page.add_script_tag(path=str(ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"))
    violations = b.page.evaluate("""async () => (await axe.run(document.querySelector('.live-generate')))
        .violations.map((v) => v.id + ': ' + v.nodes.length)""")
    assert violations == []
    assert v.console_errors == []


# The rows of the bars and of the attribution as drawn: the lines each probability takes; each part's bar and row width.
ROWS_JS = """() => {
  const g = document.querySelector('.live-generate');
  const lines = (cell) => {                        // the lines its text is set on
    const tops = new Set(), walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let t = walk.nextNode(); t; t = walk.nextNode()) {
      const r = document.createRange();
      r.selectNodeContents(t);
      for (const x of r.getClientRects()) if (x.height) tops.add(Math.round(x.top));
    }
    return tops.size;
  };
  return {bars: [...g.querySelectorAll('[data-part=bars] li .live-bar-p')].map(lines),
          room: [...g.querySelectorAll('[data-part=bars] li')].map((li) =>
            [li.querySelector('.live-bar').getBoundingClientRect().width, li.getBoundingClientRect().width]),
          why: [...g.querySelectorAll('[data-part=why] li:not(.live-why-total)')].map((li) =>
            [li.querySelector('.live-why-bar').getBoundingClientRect().width, li.getBoundingClientRect().width])};
}"""


def test_at_375_px_a_changed_models_rows_keep_to_two_lines_and_its_reading_says_the_change(visit):
    """On a phone, with a head silenced: each bar's probability and the unchanged model's take two lines at most
    and the bar a quarter of its row or more, each part's bar in the reading apart takes a third of its row or more, and the reading says which head is
    silenced."""
    v = visit(PATH, width=375, height=800, touch=True)
    b = Box(v).ready()
    b.start("Once upon a time, there was a girl named Sue.", temperature="1", heads=(1,))
    b.page.wait_for_function(f"({WHY_JS})().length > 0", timeout=10_000)
    rows = b.page.evaluate(ROWS_JS)
    assert len(rows["bars"]) == 11 and max(rows["bars"]) <= 2, rows["bars"]
    assert all(bar >= row / 4 for bar, row in rows["room"]), rows["room"]      # and the bars keep room
    assert all(bar >= row / 3 for bar, row in rows["why"]), rows["why"]
    assert b.part("why-title").text_content().endswith(" In the model with L1 H2 silenced.")
    assert v.console_errors == []


def test_the_box_with_the_handouts_settings_writes_the_handouts_sample(box):
    """The print stand-in's sample was written at build time by Python; the box, set as it says, writes it."""
    sample = box.page.locator(".live-print .sample-text").text_content()
    s = live.PRINT_SAMPLING
    box.start(live.PROMPT, temperature=s.temperature, topk=s.top_k or 0, seed=live.PRINT_SEED)
    box.press("generate")
    assert len(words(sample)) > len(words(live.PROMPT)) + 20
    assert (words(live.PROMPT) + box.written())[: len(words(sample))] == words(sample)


def test_the_model_loads_only_when_the_reader_reaches_the_box(page, built_site):
    requested = []
    page.page.on("request", lambda r: requested.append(r.url))
    page.open(PATH, figures=[])
    page.page.wait_for_timeout(500)
    assert not any(MODELS in u for u in requested)
    Box(page).ready()
    assert any(u.endswith("story-four-head.f16.bin") for u in requested)


def test_print_shows_a_sample_and_the_first_bars_instead_of_the_controls(page, built_site):
    page.page.emulate_media(media="print")
    page.open(PATH, figures=[])
    assert not page.page.locator(".live-generate").is_visible()
    note = page.page.locator(".live-print")
    assert note.is_visible() and note.locator(".sample-text").inner_text().startswith("Once upon a time")
    first, p = live.next_words()[0]
    assert f"“{first}”" in note.inner_text()


# What the box shows of the story before, read the moment a new story begins (its count of stories changes).
AT_NEW_STORY_JS = """() => {
  const b = document.querySelector('.live-generate'), n = (part, rows) => b.querySelectorAll(`[data-part=${part}] ${rows}`).length;
  window.__atNewStory = null;
  new MutationObserver((_, o) => { o.disconnect(); window.__atNewStory = [n('bars', 'li'), n('why', 'li'), n('layers', 'tr'),
    n('explain', 'option'), b.querySelector('[data-part=why-title]').textContent]; })
    .observe(b, {attributes: true, attributeFilter: ['data-stories']});
}"""


def test_an_other_start_past_the_context_is_cut_as_a_prompt_is_and_said(box, reference):
    """A patch's other start of 300 words: the patch reads its last words (Python's bars for the same patch within
    1e-4), Generate writes, and the notes say the other start was cut."""
    model, header = reference
    prompt, source = "Once upon a time, there was a girl named Sue.", " ".join(["the dog ran to the park ."] * 50)
    box.start(prompt, temperature="1")
    box.part("patch-head").select_option("2")
    box.part("source").fill(source)
    box.page.wait_for_function(f"{TITLE}.includes('patched')", timeout=10_000)
    assert f"The other start is longer than the context of {model.cfg.context} words" in box.part("notes").inner_text()
    ids, other = ids_of(reference, words(prompt)), ids_of(reference, words(source))
    want = torch.softmax(read(model, ids, patch=Patch((0, 2), tuple(other))).logits[-1], -1)
    top = int(want.argmax())
    box.page.wait_for_function(f"({BARS_JS})()[0][0] === {json.dumps(header['vocabulary'][top])}", timeout=10_000)
    assert abs(box.bars()[0][1] - float(want[top])) < 1e-4
    said = box.press("step")                     # the first run's status says the notes too
    assert said.startswith("The other start is longer") and said.endswith("1 word written (one step).")
    box.part("patch-head").select_option("")


def test_a_new_story_clears_what_read_the_last_one_apart(box):
    """The bars, the attribution, the layer view and the words to read apart of the story before are gone the
    moment a new story starts: no stale reading shows while the new one is computed."""
    box.start("Once upon a time", temperature="1", greedy=True)
    box.page.wait_for_function(f"({WHY_JS})().length > 0", timeout=10_000)
    box.page.evaluate(AT_NEW_STORY_JS)
    box.start("The dog ran to the park")
    assert box.page.evaluate("window.__atNewStory") == [0, 0, 0, 0, ""]


def test_a_word_read_apart_gives_pythons_attribution_and_layer_view_for_the_next_word_and_an_earlier_one(box, reference):
    """The likeliest next word, then an earlier written word: each part's push on its logit is Python's
    (compute.models.readout on the same export) within 1e-4, the bars add up to the logit shown, and the layer view's
    last row gives the word the model's own probability."""
    model, header = reference
    vocab = header["vocabulary"]
    prompt = "Once upon a time, there was a little girl named Mia. She had a red"
    box.start(prompt, temperature="1", greedy=True)
    ids = ids_of(reference, words(prompt))
    r = read(model, ids)
    top = int(r.logits[-1].argmax())
    box.page.wait_for_function(f"document.querySelector('.live-generate [data-part=explain]').value === '{top}' && "
                               f"({WHY_JS})().length === 12", timeout=10_000)
    want = attribution(model, r, -1, top)
    got = box.page.evaluate(WHY_JS)
    assert [name for name, _ in got] == list(want)
    assert max(abs(v - want[name]) for name, v in got) < 1e-4
    total = box.part("why").locator(".live-why-total .live-why-v").text_content()
    assert abs(float(total) - float(r.logits[-1, top])) <= 0.005 and abs(sum(v for _, v in got) - float(total)) <= 0.005
    layers = box.page.evaluate(LAYERS_JS)
    lens = torch.softmax(layer_logits(model, r, -1), -1)
    assert [row[0] for row in layers] == ["the embedding", "layer 1", "layer 2 (the model)"]
    for row, p in zip(layers, lens):               # each word quoted (a comma is one), three of them
        listed = re.findall(r"(“[^”]+”|\(the end\)) (\S+ %)", row[1])
        assert len(listed) == 3 and ", ".join(" ".join(w) for w in listed) == row[1], row[1]
        assert listed[0][0] in (f"“{vocab[int(p.argmax())]}”", "(the end)") and row[2] == view_percent(float(p[top]))
    title = box.page.locator("#st-live-layers-title").text_content()
    assert "temperature 1" in title             # not the bars' temperature: said where the two could differ
    box.press("generate")                                # greedy: the written words are the argmax chain
    written = box.written()
    box.box.locator(".live-word[data-k='4']").click()
    chosen = ids_of(reference, [written[4]])[1]
    box.page.wait_for_function(f"document.querySelector('.live-generate [data-part=explain]').value === '{chosen}' && "
                               f"({WHY_JS})().length === 12", timeout=10_000)
    earlier = ids_of(reference, words(prompt) + written[:4])
    want = attribution(model, read(model, earlier), -1, chosen)
    box.page.wait_for_function(f"Math.abs(({WHY_JS})()[0][1] - {want['embedding']}) < 1e-4", timeout=10_000)
    assert max(abs(v - want[name]) for name, v in box.page.evaluate(WHY_JS)) < 1e-4
    assert f"Why “{written[4]}”" in box.part("why-title").text_content()


def view_percent(p: float) -> str:
    """A probability as view.js's percent() writes it."""
    return "< 0.1 %" if p < 0.0005 else "> 99.9 %" if p > 0.9995 else f"{100 * p:.1f} %"


def test_the_prepared_patch_names_the_renamed_friend_beside_the_unchanged_model(box, reference):
    """Section 6's pair: with the name head patched from the renamed story, the bars give the new name Python's
    probability (the lesson's claim), each beside the unchanged model's; clearing the head restores the model."""
    pair = patch_pair()
    box.start("Once", temperature="1")
    box.part("try-patch").click()
    box.page.wait_for_function(f"{TITLE}.includes('patched')", timeout=10_000)
    want = pair["patched"][pair["head"]][pair["other"]]
    box.page.wait_for_function(f"Math.abs(({BARS_JS})()[0][1] - {want}) < 1e-6", timeout=10_000)
    bars = box.bars()
    assert bars[0][0] == pair["other"] and f"(unchanged {view_percent(pair['plain'][pair['other']])})" in bars[0][2]
    unchanged = [text for w, _, text in bars if w == pair["name"]]
    assert not unchanged or f"(unchanged {view_percent(pair['plain'][pair['name']])})" in unchanged[0]
    assert box.part("bars").locator(".live-bar-was").count() == len(bars)
    assert box.status().startswith("Section 6's story, with ")
    box.part("patch-head").select_option("")
    box.page.wait_for_function(f"({BARS_JS})()[0][0] === '{pair['name']}'", timeout=10_000)
    assert box.part("bars").locator(".live-bar-was").count() == 0 and "patched" not in box.page.evaluate(TITLE)
    assert box.status().startswith("Section 6's story as prepared no longer")   # the status follows the change
    for change in ("head", "prompt"):               # the same after a head silenced, or the story's words changed
        box.part("try-patch").click()
        box.page.wait_for_function(f"{STATUS}.startsWith(\"Section 6's story, with \")", timeout=10_000)
        if change == "head":
            box.box.locator("[data-head='0']").click()
        else:
            box.part("prompt").fill(box.part("prompt").input_value() + " more")
        box.page.wait_for_function(f"{STATUS}.startsWith(\"Section 6's story as prepared no longer\")", timeout=10_000)
    box.part("patch-head").select_option("")


def test_top_p_keeps_the_fewest_likeliest_words_as_python_does(box, reference):
    model, header = reference
    prompt = "One day, Tom went to the"
    box.start(prompt, temperature="1.3", topp="0.6")
    with torch.no_grad():
        logits = model(torch.tensor([ids_of(reference, words(prompt))]))[0, -1].numpy() / 1.3
    order = np.argsort(-logits, kind="stable")
    p = np.exp(logits[order] - logits[order].max())
    p /= p.sum()
    n = int(np.searchsorted(np.cumsum(p), 0.6) + 1)                 # the fewest whose share reaches 0.6
    kept = p[:n] / p[:n].sum()
    box.page.wait_for_function(f"({BARS_JS})().length === {min(n, 10) + (n > 10)}", timeout=10_000)
    got = box.bars()
    assert [w for w, _, _ in got[:min(n, 10)]] == ["(the end)" if i == 0 else header["vocabulary"][i] for i in order[:min(n, 10)]]
    assert np.allclose([q for _, q, _ in got[:min(n, 10)]], kept[:10], atol=1e-9) and 1 < n < 40
    box.part("topp").fill("0")
    box.page.wait_for_function("document.querySelector('.live-generate [data-part=topp-error]').textContent === "
                               "'Top-p must be a number from 0.01 to 1.'", timeout=10_000)
    box.part("topp").fill("1")


def test_at_a_slow_pace_the_bars_and_table_follow_each_word_and_stop_lands(box):
    """At five words a second the run takes its time, every word gets its own bars and attention table drawn, and
    Stop, pressed mid-run, ends it at once."""
    box.start("Once upon a time", temperature="1.2", seed="4")
    box.part("pace").select_option("5")
    box.page.evaluate("""() => {
      window.__titles = [];
      new MutationObserver(() => window.__titles.push(document.querySelector('.live-generate [data-part=bars-title]').textContent))
        .observe(document.querySelector('.live-generate [data-part=bars-title]'), {childList: true, characterData: true, subtree: true});
    }""")
    box.part("generate").click()
    box.page.wait_for_timeout(1500)
    n = len(box.written())
    assert 4 <= n <= 10, n                                # about 5 a second, not the model's full rate
    titles = box.page.evaluate("window.__titles")
    assert len(set(titles)) >= n - 1                      # a redraw for (nearly) every word, none skipped in batches
    box.page.evaluate(f"""() => document.querySelector('.live-generate [data-part=stop]').addEventListener('click',
      () => {{ window.__atStop = ({WRITTEN_JS})(); }}, {{capture: true}})""")
    box.part("stop").click()
    box.page.wait_for_function(f"{STATUS}.includes('(stopped)')", timeout=2_000)
    at_stop = [t for text in box.page.evaluate("window.__atStop") for t in words(text)]
    assert len(at_stop) >= n and box.written() == at_stop   # the press lands: the story is what was on screen
    box.part("pace").select_option("0")


def test_shading_the_story_follows_the_chosen_heads_row_of_the_table(box):
    box.start("Tom had a red ball. Tom gave the ball to", temperature="1")
    box.part("shade").select_option("1")
    box.page.wait_for_function("document.querySelectorAll('.live-generate .live-shaded').length > 0", timeout=10_000)
    shades = box.page.evaluate("""() => [...document.querySelectorAll('.live-generate .live-prompt')].map((s) =>
      [s.textContent, Number(s.dataset.weight), s.title])""")
    row = box.page.evaluate(CELLS_JS)[1]                  # L1 H2's weights on the words, <start> first
    assert len(shades) == len(row) - 1
    for (word, shade, title), cell in zip(shades, row[1:]):
        assert cell_matches(cell, shade) and title.startswith("L1 H2: ")
    box.part("shade").select_option("")
    box.page.wait_for_function("document.querySelectorAll('.live-generate .live-shaded').length === 0", timeout=10_000)


def test_a_link_writes_the_same_story_with_its_settings_heads_and_patch(box, page):
    """A story written in three runs (a seeded run, a chosen word, a step) at top-p, with a head silenced and one
    patched: its link, opened in another tab, puts every setting back and writes the same words."""
    box.start("Once upon a time, there was a girl named Sue.", temperature="1.3", topp="0.9", seed="21", heads=(6,))
    box.part("patch-head").select_option("2")
    box.part("source").fill("One day, a boy named Ben went to the park.")
    box.page.wait_for_function(f"{TITLE}.includes('patched')", timeout=10_000)
    box.part("pace").select_option("0")
    box.press("step")
    box.press("step")
    box.part("bars").locator("button").last.click()       # the least likely word the bars offer
    box.page.wait_for_function(f"{STATUS}.endsWith('(your word).')", timeout=10_000)
    box.press("go-on")
    written = box.written()
    box.part("link").click()
    url = box.part("link-text").input_value()
    assert url.split("#")[1].startswith("st-live?") and "written" not in box.status()
    page.page.goto(url)
    again = Box(page)
    page.page.wait_for_function(f"{STATUS}.includes('written')", timeout=30_000)
    page.page.wait_for_function(f"document.querySelectorAll('.live-generate .live-word:not(.live-caret)').length >= {len(written)}",
                                timeout=30_000)
    page.page.wait_for_timeout(300)
    assert again.written() == written
    for name, value in (("temperature", "1.3"), ("topp", "0.9"), ("seed", "21"), ("patch-head", "2")):
        assert again.part(name).input_value() == value
    assert again.box.locator("[data-head='6']").get_attribute("aria-pressed") == "true"
    for b in box.box.locator(".live-head[aria-pressed=true]").all():
        b.click()
    box.part("patch-head").select_option("")


def test_the_prepared_storys_name_head_pushes_the_name_as_section_6_says(box):
    """Section 6's direct push of the name head on the name's logit (its prose number) is the box's attribution
    bar for that head, within 1e-4."""
    t, f = knockout_prompt(), followed()
    (l, h) = t["head"]
    box.start(t["text"], temperature="1")
    box.page.wait_for_function(f"({WHY_JS})().length === 12 && document.querySelector('.live-generate "
                               f"[data-part=why-title]').textContent.includes('“{t['name']}”')", timeout=10_000)
    pushes = dict(box.page.evaluate(WHY_JS))
    assert abs(pushes[f"L{l + 1} H{h + 1}"] - f["direct"][t["name"]]) < 1e-4
    heads = {name: v for name, v in pushes.items() if " H" in name}
    assert max(heads, key=heads.get) == f"L{l + 1} H{h + 1}"          # of the eight heads, the name head pushes most


def test_every_new_control_is_reached_by_tab(box):
    box.part("prompt").focus()
    seen = []
    for _ in range(80):
        part = box.page.evaluate("document.activeElement.closest('.live-generate') ? "
                                 "(document.activeElement.dataset.part || document.activeElement.className) : null")
        if part is None:
            break
        seen.append(part)
        box.page.keyboard.press("Tab")
    for part in ("topp", "pace", "patch-head", "source", "try-patch", "explain", "layers", "shade", "link"):
        assert part in seen, (part, seen)


HEADER_WORDS_JS = """() => [...document.querySelectorAll('.live-generate .live-attention thead th')].slice(1)
  .map((th) => th.textContent)"""


def test_after_the_context_slides_the_table_names_the_storys_own_words(box, reference):
    """A prompt a few words short of the context, then words past it (the oldest half dropped and the rest read
    again): the attention table's columns are still the newest words of the story, in order."""
    context = reference[1]["architecture"]["context"]
    colours, things = ("red", "blue", "green", "pink", "yellow", "white", "black"), ("ball", "car", "kite", "doll", "hat")
    prompt = " ".join(f"tom had a {colours[i % 7]} {things[i % 5]} ." for i in range(40)) + " the end"
    assert context - 15 < len(words(prompt)) + 1 < context
    box.start(prompt, greedy=True)
    for _ in range(20):
        box.press("step")
    story = words(prompt) + box.written()
    assert len(story) + 1 > context
    box.page.wait_for_function(f"{TITLE}.startsWith('The next word after')", timeout=10_000)
    header = box.page.evaluate(HEADER_WORDS_JS)
    assert header == story[-len(header):] and len(header) == 24, (header, story[-24:])


# Counts every read of the layout (a size or a scroll extent) made outside a ResizeObserver's callback, where the
# layout is already done: such a read makes the browser lay the page out again at once.
LAYOUT_READS_JS = """(() => {
  window.__layoutReads = [];
  let inObserver = 0;
  const Native = window.ResizeObserver;
  window.ResizeObserver = class extends Native {
    constructor(callback) { super((...args) => { inObserver += 1; try { callback(...args); } finally { inObserver -= 1; } }); }
  };
  const note = (name) => { if (!inObserver && window.__countReads) window.__layoutReads.push(name); };
  for (const name of ['scrollHeight', 'scrollWidth', 'clientHeight', 'clientWidth', 'offsetHeight', 'offsetWidth',
                      'offsetTop', 'offsetLeft']) {
    const proto = name.startsWith('offset') ? HTMLElement.prototype : Element.prototype;
    const d = Object.getOwnPropertyDescriptor(proto, name);
    Object.defineProperty(proto, name, { get() { note(name); return d.get.call(this); }, configurable: true });
  }
  const rect = Element.prototype.getBoundingClientRect;
  Element.prototype.getBoundingClientRect = function () { note('getBoundingClientRect'); return rect.call(this); };
})();"""


def test_a_20000_letter_prompt_runs_without_laying_its_words_out_at_each_redraw(visit):
    """Defect 5 of issue 55: a 20,000-letter prompt is 4,000 words, and a run laid them all out again at every
    redraw (the attention table's scroll read the layout each frame). The box now draws the words the model reads
    (its last context - 1) and the rest as a count, and keeps the newest words and columns in view with no read of
    the layout while a run writes; the shading still lands on the words the head weighs."""
    v = visit(None, init_script=LAYOUT_READS_JS)
    v.open(PATH, figures=[])
    b = Box(v).ready()
    prompt = ("The dog ran to the park. " * 1000)[:20_000]
    n = len(words(prompt))
    b.start(prompt, temperature="0.8", seed="0")
    drawn = b.page.evaluate("document.querySelectorAll('.live-generate .live-prompt').length")
    context = b.page.evaluate("document.querySelectorAll('.live-generate .live-attention thead th').length")
    assert n > 3000 and drawn == 255
    assert b.box.locator(".live-unread").text_content() == f"[{n - 255:,} earlier words, past the context]"
    b.page.evaluate("window.__countReads = true")
    assert "written" in b.press("generate")
    assert b.page.evaluate("window.__layoutReads") == []
    b.page.evaluate("document.body.scrollHeight")                       # a read is counted: the count can fail
    b.page.evaluate("window.__countReads = false")
    assert b.page.evaluate("window.__layoutReads") == ["scrollHeight"]
    assert len(b.written()) > 10 and context > 10
    # the newest words in view, and the table at its newest columns
    newest = b.box.locator(".live-word:not(.live-caret)").last.bounding_box()
    out = b.part("output").bounding_box()
    assert out["y"] <= newest["y"] and newest["y"] + newest["height"] <= out["y"] + out["height"] + 1
    assert b.page.evaluate("(() => { const v = document.querySelector('.live-generate [data-part=attention]'); "
                           "return v.scrollLeft + v.clientWidth >= v.scrollWidth - 1; })()")
    b.start(prompt + " Tom", temperature="0.8", seed="0")
    b.part("shade").select_option("1")
    b.page.wait_for_function("document.querySelectorAll('.live-generate .live-shaded').length > 0", timeout=10_000)
    shaded = b.page.evaluate("[...document.querySelectorAll('.live-generate .live-prompt')].map((s) => s.classList.contains('live-shaded'))")
    assert all(shaded) and len(shaded) == 255           # every word the model reads is weighed, and shaded
