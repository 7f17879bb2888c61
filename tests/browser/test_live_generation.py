"""Live generation in Chromium: the JavaScript model against Python, and the box driven as a reader would."""
from __future__ import annotations

import copy
import json

import numpy as np
import pytest
import torch

from compute.data.story import generate as stories
from compute.data.tokenizer import words
from compute.export.story import model_from_export
from compute.generate import Mulberry32, Sampling, choose_one, generate
from compute.lessons.story import live

PATH = "posts/story-models.html"
MODELS = "_static/models/"

LOAD_JS = """async (base) => {
  const m = await import(base + '_static/generate/model.js');
  const run = await import(base + '_static/generate/run.js');
  window.__model = await m.loadModel(base + '%s');
  window.__run = run;
  return window.__model.vocabulary.length;
}""" % MODELS
LOGITS_JS = "(prompts) => prompts.map((ids) => Array.from(window.__model.logitsAfter(ids)))"
GENERATE_JS = """([prompts, options]) => prompts.map((ids) =>
  Array.from(window.__run.generate(window.__model, ids.slice(1), options), (t) => t.id))"""


def prompts(n: int, vocab: list[str], length: int) -> list[list[int]]:
    """The first `length` tokens of n validation-like stories, as ids after <eos>."""
    index = {w: i for i, w in enumerate(vocab)}
    return [[0] + [index.get(w, 1) for w in s.tokens[:length]] for s in stories(123, n)]


@pytest.fixture
def js(page, built_site):
    page.open(PATH)
    page.page.evaluate(LOAD_JS, page.base)
    yield page
    assert page.external_requests == [] and page.console_errors == []


@pytest.fixture(scope="module")
def reference(built_site):
    return model_from_export(built_site / MODELS), json.loads((built_site / MODELS / "story-four-head.json").read_text())


def test_javascript_logits_equal_python_on_20_prompts(js, reference):
    model, header = reference
    ps = [p[: 3 + 7 * k] for k, p in enumerate(prompts(20, header["vocabulary"], 140))]
    got = np.array([row for row in js.page.evaluate(LOGITS_JS, ps)], dtype=object)
    for ids, logits in zip(ps, got):
        with torch.no_grad():
            want = model(torch.tensor([ids]))[0, -1].numpy()
        assert np.abs(np.array(logits) - want).max() < 1e-4


SILENCED_JS = "([ids, heads]) => heads.map((h) => Array.from(window.__model.logitsAfter(ids, new Set([h]))))"


def test_a_silenced_head_gives_pythons_knocked_out_logits(js, reference):
    """Each of the eight heads silenced in turn: the JavaScript logits are the Python model's with that head's
    output zeroed (compute's head_mask, as section 6 knocks heads out), within 1e-4."""
    model, header = reference
    L, H = header["architecture"]["n_layer"], header["architecture"]["n_head"]
    for ids in prompts(3, header["vocabulary"], 40):
        got = js.page.evaluate(SILENCED_JS, [ids, list(range(L * H))])
        with torch.no_grad():
            whole = model(torch.tensor([ids]))[0, -1].numpy()
        for k, logits in enumerate(got):
            mask = torch.ones(L, H, dtype=torch.float64)
            mask[k // H, k % H] = 0.0
            with torch.no_grad():
                want = model(torch.tensor([ids]), head_mask=mask)[0, -1].numpy()
            assert np.abs(np.array(logits) - want).max() < 1e-4, (ids[:5], k)
            assert np.abs(want - whole).max() > 1e-3        # silencing the head changed something


# A model built in the page from the exported header with its architecture changed (null: unchanged):
# the logits after `ids`, or the sentence the model refuses the header with.
CHANGED_JS = """async ([base, changes, ids]) => {
  const m = await import(base + '_static/generate/model.js');
  const header = await (await fetch(base + '%s' + m.HEADER)).json();
  const buffer = await (await fetch(base + '%sstory-four-head.f16.bin')).arrayBuffer();
  Object.assign(header.architecture, changes);
  try { return {logits: Array.from(new m.StoryModel(header, buffer).logitsAfter(ids))}; }
  catch (err) { return {error: err.message}; }
}""" % (MODELS, MODELS)


def test_the_page_takes_the_rope_base_and_layernorm_eps_from_the_header(js, reference):
    """model.js types no architecture number: a header with another RoPE base and LayerNorm eps gives the Python
    model's logits with those numbers."""
    model, header = reference
    ids = prompts(1, header["vocabulary"], 30)[0]
    got = js.page.evaluate(CHANGED_JS, [js.base, {"rope_base": 500.0, "norm_eps": 0.05}, ids])
    model = copy.deepcopy(model)
    for block in model.blocks:
        block.attn.rope_base = 500.0
    for module in model.modules():
        if isinstance(module, torch.nn.LayerNorm):
            module.eps = 0.05
    with torch.no_grad():
        want = model(torch.tensor([ids]))[0, -1].numpy()
    assert np.abs(np.array(got["logits"]) - want).max() < 1e-4


@pytest.mark.parametrize("changes, sentence", [
    ({"activation": "gelu"}, 'its activation is "gelu"'),
    ({"positions": "learned"}, 'its positions is "learned"'),
    ({"n_head": 3}, "its tensor blocks.0.attn.W_Q is [96,96], not [96,72]"),
    ({"norm_eps": -1}, "its norm_eps is -1, not a number above 0"),
    ({"d_k": 23}, "its d_k is 23, and rotary positions turn pairs of coordinates"),
])
def test_a_header_the_page_cannot_run_is_refused_in_one_sentence(js, changes, sentence):
    got = js.page.evaluate(CHANGED_JS, [js.base, changes, [0, 5, 6]])
    assert got["error"].startswith(f"story-four-head.json: {sentence}; this page runs "), got
    assert ". " not in got["error"]                    # one sentence


def test_greedy_generation_equals_python_for_10_prompts(js, reference):
    model, header = reference
    ps = prompts(10, header["vocabulary"], 12)
    got = js.page.evaluate(GENERATE_JS, [ps, {"greedy": True, "maxTokens": 50}])
    for ids, js_ids in zip(ps, got):
        want = generate(model, torch.tensor([ids]), Sampling(greedy=True, max_tokens=50), seed=0)[0]
        assert js_ids == want and len(js_ids) > 10


SAMPLER_JS = """async ([base, seed, rows, settings]) => {
  const s = await import(base + '_static/generate/sample.js');
  const draws = s.seeded(seed), random = s.seeded(seed);
  return {draws: Array.from({length: 5}, draws), ids: rows.map((row) => s.choose(row, settings, random))};
}"""


@pytest.mark.parametrize("sampling", [Sampling(temperature=0.8), Sampling(temperature=1.7, top_k=5),
                                      Sampling(temperature=0.3, top_k=1), Sampling(greedy=True)])
def test_the_page_samples_as_python_does(js, sampling):
    """sample.js and compute.generate: the same draws for a seed, the same word from the same logits, ties too."""
    rows = np.round(np.random.default_rng(5).normal(scale=3, size=(300, 40)), 1).tolist()  # rounded: ties
    settings = {"greedy": sampling.greedy, "temperature": sampling.temperature, "topK": sampling.top_k or 0}
    got = js.page.evaluate(SAMPLER_JS, [js.base, 11, rows, settings])
    draws, random = Mulberry32(11), Mulberry32(11)
    assert got["draws"] == [draws() for _ in range(5)]
    want = [choose_one(row, sampling, random) for row in rows]
    assert got["ids"] == want and len(set(want)) > 10


def test_the_box_with_the_handouts_settings_writes_the_handouts_sample(page, built_site):
    """The print stand-in's sample was written at build time by Python; the box, set as it says, writes it."""
    page.open(PATH)
    sample = page.page.locator(".live-print .sample-text").text_content()
    s = live.PRINT_SAMPLING
    text = generate_in_box(page, live.PROMPT, greedy=False, temperature=s.temperature, topk=s.top_k or 0,
                           seed=live.PRINT_SEED)
    assert len(words(sample)) > len(words(live.PROMPT)) + 20
    assert words(text)[: len(words(sample))] == words(sample)


def test_seeded_sampling_repeats_for_a_seed_and_changes_with_it(js):
    ps = [[0]]
    run = {"temperature": 1.0, "topK": 0, "maxTokens": 60}
    a = js.page.evaluate(GENERATE_JS, [ps, {**run, "seed": 7}])
    b = js.page.evaluate(GENERATE_JS, [ps, {**run, "seed": 7}])
    c = js.page.evaluate(GENERATE_JS, [ps, {**run, "seed": 8}])
    assert a == b and a != c


STATUS = "document.querySelector('.live-generate [data-part=status]').textContent"


def generate_in_box(p, prompt: str, **controls) -> str:
    box = p.page.locator(".live-generate")
    box.scroll_into_view_if_needed()
    p.page.wait_for_function(f"{STATUS}.includes('ready') || {STATUS}.includes('written')", timeout=30_000)
    box.locator("[data-part=prompt]").fill(prompt)
    for name, value in controls.items():
        field = box.locator(f"[data-part={name}]")
        field.set_checked(value) if name == "greedy" else field.fill(str(value))
    box.locator("[data-part=generate]").click()
    p.page.wait_for_function(f"{STATUS}.includes('written') || {STATUS}.includes('wrong')", timeout=30_000)
    return box.locator("[data-part=output]").inner_text()


BARS_JS = """() => [...document.querySelectorAll('.live-generate [data-part=bars] li')].map((li) =>
  [li.querySelector('.live-bar-word').textContent, Number(li.dataset.p), li.querySelector('.live-bar-p').textContent])"""
TITLE = "document.querySelector('.live-generate [data-part=bars-title]').textContent"


def python_bars(model, vocab, prompt: str, temperature: float, top_k: int = 0) -> list[tuple[str, float]]:
    """The ten likeliest next words after the prompt and the rest, from the float16 export in float64."""
    ids = [0] + [vocab.index(w) if w in vocab else 1 for w in words(prompt)]
    with torch.no_grad():
        logits = model(torch.tensor([ids]))[0, -1].numpy() / temperature
    order = sorted(range(len(logits)), key=lambda i: (-logits[i], i))[: top_k or len(logits)]
    p = np.exp(logits[order] - logits[order].max())
    p /= p.sum()
    rows = [(vocab[i], float(q)) for i, q in zip(order[:10], p[:10])]
    return rows + ([(f"all {len(order) - 10} others", float(p[10:].sum()))] if len(order) > 10 else [])


def test_the_bars_show_the_next_words_distribution_before_any_word(page, reference):
    """Before Generate: the ten likeliest next words and the rest, as Python's model gives them at the box's
    temperature and top-k, summing to one; changing either redraws the bars, and no word is written."""
    model, header = reference
    vocab = header["vocabulary"]
    page.open(PATH, figures=[])
    box = page.page.locator(".live-generate")
    box.scroll_into_view_if_needed()
    page.page.wait_for_function(f"{STATUS}.includes('ready')", timeout=30_000)
    prompt = "Once upon a time, there was a little girl named Mia. She had a red"
    box.locator("[data-part=prompt]").fill(prompt)
    page.page.wait_for_function(f"{TITLE}.includes('“red”')", timeout=10_000)
    for temperature, top_k in ((0.8, 0), (1.7, 0), (1.7, 3)):
        box.locator("[data-part=temperature]").fill(str(temperature))
        box.locator("[data-part=topk]").fill(str(top_k))
        want = python_bars(model, vocab, prompt, temperature, top_k)
        page.page.wait_for_function(f"() => ({BARS_JS})().length === {len(want)} && "
                                    f"Math.abs(({BARS_JS})()[0][1] - {want[0][1]}) < 1e-6", timeout=10_000)
        got = page.page.evaluate(BARS_JS)
        assert [w for w, _, _ in got] == [w for w, _ in want]
        assert np.allclose([p for _, p, _ in got], [p for _, p in want], atol=1e-6)
        assert abs(sum(p for _, p, _ in got) - 1) < 1e-9
        assert all(text.endswith(" %") and text not in ("0.0 %", "100.0 %") for _, _, text in got)
    assert box.locator("[data-part=output]").inner_text() == ""
    assert page.console_errors == [] and page.external_requests == []


def test_a_setting_out_of_range_is_named_next_to_it_and_nothing_is_written(page, reference):
    """Never a silent default: a field that is empty or out of range gets a message beside it, and Generate
    writes nothing until it is fixed."""
    vocab = len(reference[1]["vocabulary"])
    page.open(PATH, figures=[])
    box = page.page.locator(".live-generate")
    box.scroll_into_view_if_needed()
    page.page.wait_for_function(f"{STATUS}.includes('ready')", timeout=30_000)
    valid = {"temperature": "0.8", "topk": "0", "seed": "0"}
    cases = [("temperature", "5", "Temperature must be a number from 0.1 to 2."),
             ("temperature", "", "Temperature must be a number from 0.1 to 2."),
             ("topk", "-1", f"Top-k must be a whole number from 0 to {vocab}."),
             ("topk", str(vocab + 1), f"Top-k must be a whole number from 0 to {vocab}."),
             ("seed", "2.5", "Seed must be a whole number from 0 to 4294967295.")]
    for part, value, message in cases:
        for name, good in valid.items():
            box.locator(f"[data-part={name}]").fill(value if name == part else good)
        error = f"document.querySelector('.live-generate [data-part={part}-error]').textContent"
        page.page.evaluate(f"{error} = ''")    # what the click writes, not what an earlier one left
        box.locator("[data-part=generate]").click()
        page.page.wait_for_function(f"{error} === {json.dumps(message)}", timeout=10_000)
        assert "Nothing was written" in page.page.evaluate(STATUS)
        assert box.locator(f"[data-part={part}]").get_attribute("aria-invalid") == "true"
        assert box.locator("[data-part=output]").inner_text() == ""
        others = [n for n in valid if n != part]
        assert [box.locator(f"[data-part={n}-error]").text_content() for n in others] == ["", ""]
    text = generate_in_box(page, "Once upon a time", greedy=True, **valid)
    assert text.startswith("Once upon a time") and "written" in page.page.evaluate(STATUS)
    assert [box.locator(f"[data-part={n}-error]").inner_text() for n in valid] == ["", "", ""]
    assert page.console_errors == []


def test_the_model_loads_only_when_the_reader_reaches_the_box(page, built_site):
    requested = []
    page.page.on("request", lambda r: requested.append(r.url))
    page.open(PATH)
    page.page.wait_for_timeout(500)
    assert not any(MODELS in u for u in requested)
    page.page.locator(".live-generate").scroll_into_view_if_needed()
    page.page.wait_for_function(f"{STATUS}.includes('ready')", timeout=30_000)
    assert any(u.endswith("story-four-head.f16.bin") for u in requested)


def test_generate_stop_and_the_controls(page, built_site):
    page.open(PATH)
    first = generate_in_box(page, "Once upon a time", greedy=True)
    again = generate_in_box(page, "Once upon a time", greedy=True)
    assert first == again and first.startswith("Once upon a time") and len(first.split()) > 20
    assert page.page.locator(".live-attention td").count() >= 8             # every head, for the newest word
    assert "strongest look back" in page.page.locator("[data-part=attention-text]").inner_text()
    seeded = [generate_in_box(page, "", greedy=False, seed=s, temperature=1.2) for s in (1, 1, 2)]
    assert seeded[0] == seeded[1] != seeded[2]
    assert generate_in_box(page, "Once upon a time", greedy=False, topk=1) == first   # top-1 is greedy
    # Stop: the run ends early, and says so
    box = page.page.locator(".live-generate")
    box.locator("[data-part=prompt]").fill("")
    box.locator("[data-part=greedy]").set_checked(False)
    box.locator("[data-part=temperature]").fill("2")
    page.page.evaluate("""async () => {     // Stop as soon as the run has started (it is quick)
      const box = document.querySelector('.live-generate');
      box.querySelector('[data-part=generate]').click();
      await new Promise((resolve) => setTimeout(resolve, 0));
      box.querySelector('[data-part=stop]').click();
    }""")
    page.page.wait_for_function(f"{STATUS}.includes('written')", timeout=30_000)
    assert "(stopped)" in page.page.evaluate(STATUS)
    assert page.console_errors == [] and page.external_requests == []


def test_bad_prompts_are_explained(page, built_site):
    page.open(PATH)
    generate_in_box(page, "Zorblax and the quantum toaster went home.", greedy=True)
    status = page.page.evaluate(STATUS)
    assert "zorblax" in status and "quantum" in status and "toaster" in status
    assert page.page.locator(".live-output .live-unknown").count() == 3
    generate_in_box(page, "", greedy=True)
    assert "starts a story of its own" in page.page.evaluate(STATUS)
    long = " ".join(["the dog ran ."] * 80)                                  # 320 tokens, past the context
    generate_in_box(page, long, greedy=True)
    assert "longer than the context" in page.page.evaluate(STATUS)
    assert page.console_errors == []


def test_the_box_at_375_px_and_by_keyboard(visit):
    p = visit(PATH, width=375, height=800).page
    box = p.locator(".live-generate")
    box.scroll_into_view_if_needed()
    width = p.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
    for part in ("prompt", "temperature", "topk", "seed", "greedy", "generate"):
        rect = box.locator(f"[data-part={part}]").bounding_box()
        assert rect["x"] >= 0 and rect["x"] + rect["width"] <= 375, part
    box.locator("[data-part=prompt]").focus()
    p.keyboard.type(" Tom")
    for _ in range(5):                 # temperature, top-k, seed, greedy, Generate
        p.keyboard.press("Tab")
    assert p.evaluate("document.activeElement.dataset.part") == "generate"
    p.keyboard.press("Enter")
    p.wait_for_function(f"{STATUS}.includes('written')", timeout=30_000)


def test_print_shows_a_sample_instead_of_the_controls(page, built_site):
    page.page.emulate_media(media="print")
    page.open(PATH)
    assert not page.page.locator(".live-generate").is_visible()
    sample = page.page.locator(".live-print .sample-text")
    assert sample.is_visible() and sample.inner_text().startswith("Once upon a time")
    assert words(sample.inner_text())


def test_odd_input_never_makes_a_console_error_and_axe_passes_after_a_run(page, built_site):
    from conftest import ROOT
    page.open(PATH)
    for text in ("🙂 123 <script>alert(1)</script>", "'''\"\"\"", "a " * 300, "Mia's mom's friend's dog!"):
        generate_in_box(page, text, greedy=True)
    assert page.console_errors == []
    page.page.add_script_tag(path=str(ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"))
    violations = page.page.evaluate("""async () => (await axe.run(document.querySelector('.live-generate')))
        .violations.filter((v) => ['serious', 'critical'].includes(v.impact)).map((v) => v.id)""")
    assert violations == []
