"""The page's model (_static/generate/) against Python in Chromium: a golden file of tokens, logits, knocked-out
logits, sampled words, attribution, the layer view and patched logits; the architecture read from the export's
header; the sampler draw for draw."""
from __future__ import annotations

import copy
import json

import numpy as np
import pytest
import torch

from compute.export.golden import golden
from compute.export.story import FILES, model_from_export
from compute.generate import Mulberry32, Sampling, choose_one

PATH = "posts/story-models.html"
MODELS = "_static/models/"

# The golden file's inputs through the page's tokenizer, model and generation loop.
GOLDEN_JS = """async ([base, golden]) => {
  const text = await import(base + '_static/generate/text.js');
  const m = await import(base + '_static/generate/model.js');
  const run = await import(base + '_static/generate/run.js');
  const model = await m.loadModel(base + '%s');
  const index = new Map(model.vocabulary.map((w, i) => [w, i]));
  const printed = (tokens) => text.readable(tokens, model.proper).map(([s, w]) => s + w).join('');
  return {
    texts: golden.texts.map((t) => {
      const words = text.words(t.text);
      return { words, dropped: text.dropped(t.text), ids: words.map((w) => (index.has(w) ? index.get(w) : 1)),
               printed: printed(t.ids.map((i) => model.vocabulary[i])), printed_words: printed(words) };
    }),
    logits: golden.logits.map((c) => Array.from(model.logitsAfter(c.ids, c.head === null ? null : new Set([c.head])))),
    samples: golden.samples.map((s) => Array.from(run.generate(model, s.prompt, s.options), (t) => t.id)),
    readouts: golden.readouts.map((c) => {
      const out = model.readAll(c.ids);
      return { logit: out.logits[c.word], attribution: model.attribution(out.parts, c.word),
               layers: model.layerLogits(out.parts).map((row) => Array.from(row)) };
    }),
    patches: golden.patches.map((c) => ({
      patched: Array.from(model.logitsAfter(c.ids, null, { head: c.head, z: model.headOutput(c.source, c.head) })),
      plain: Array.from(model.logitsAfter(c.ids)) })),
  };
}""" % MODELS


@pytest.fixture(scope="module")
def js(browser, http_server, built_site):
    """The Part III page, opened once: the tests below only import its modules and run them."""
    from conftest import new_visit
    visit, context = new_visit(browser, http_server)
    visit.page.goto(visit.base + PATH, wait_until="load")
    yield visit
    assert visit.external_requests == [] and visit.console_errors == []
    context.close()


@pytest.fixture(scope="module")
def reference(built_site):
    return model_from_export(built_site / MODELS), json.loads((built_site / MODELS / FILES[1]).read_text())


@pytest.fixture(scope="module")
def gold(built_site, tmp_path_factory):
    """The golden file, written by Python from the site's exported weights."""
    path = tmp_path_factory.mktemp("golden") / "live-golden.json"
    path.write_text(json.dumps(golden({name: (built_site / MODELS / name).read_bytes() for name in FILES})))
    return json.loads(path.read_text())


def test_the_golden_file_holds_in_the_page(js, gold):
    """Tokens, dropped characters, ids and printed text both ways equal Python's for every edge case; logits with
    every head and with each head silenced within 1e-4; seeded samples word for word."""
    got = js.page.evaluate(GOLDEN_JS, [js.base, gold])
    for want, have in zip(gold["texts"], got["texts"]):
        assert {k: have[k] for k in have} == {k: want[k] for k in have}, want["text"]
    assert sum(bool(t["dropped"]) for t in gold["texts"]) >= 4         # the digits, emoji and ² cases drop something
    assert any(1 in t["ids"] for t in gold["texts"])                   # and unknown words are read as <unk>
    for case, logits in zip(gold["logits"], got["logits"]):
        assert np.abs(np.array(logits) - np.array(case["logits"])).max() < 1e-4, (case["ids"][:6], case["head"])
    whole = {tuple(c["ids"]): np.array(c["logits"]) for c in gold["logits"] if c["head"] is None}
    for case in gold["logits"]:
        if case["head"] is not None:                                   # silencing the head changed something
            assert np.abs(np.array(case["logits"]) - whole[tuple(case["ids"])]).max() > 1e-3
    assert [s["ids"] for s in gold["samples"]] == got["samples"]
    assert len({tuple(s["ids"]) for s in gold["samples"]}) == len(gold["samples"])


def test_attribution_the_layer_view_and_patching_hold_in_the_page(js, gold):
    """Each part's push on a word's logit, the logits read after each layer and the logits with a head patched in
    from another prompt within 1e-4 of Python's, on prompts the page does not prepare; the bars add up to the logit
    the page shows."""
    got = js.page.evaluate(GOLDEN_JS, [js.base, gold])
    assert len(gold["readouts"]) >= 12 and len(gold["patches"]) >= 10
    for want, have in zip(gold["readouts"], got["readouts"]):
        assert [name for name, _ in have["attribution"]] == [name for name, _ in want["attribution"]]
        pushes = np.array([v for _, v in have["attribution"]])
        assert np.abs(pushes - np.array([v for _, v in want["attribution"]])).max() < 1e-4, want["ids"][-3:]
        assert abs(pushes.sum() - have["logit"]) < 1e-4 and abs(have["logit"] - want["logit"]) < 1e-4
        assert np.abs(np.array(have["layers"]) - np.array(want["layers"])).max() < 1e-4
        assert abs(have["layers"][-1][want["word"]] - have["logit"]) < 1e-9   # the last layer's is the model's
    for want, have in zip(gold["patches"], got["patches"]):
        patched = np.array(have["patched"])
        assert np.abs(patched - np.array(want["logits"])).max() < 1e-4, (want["head"], want["source"][-3:])
        assert np.abs(patched - np.array(have["plain"])).max() > 1e-3                # each patch changes something


# Path patching and the composition scores (_static/generate/paths.js, composition.js) on the golden file's pairs and
# stories.
PATHS_JS = """async ([base, golden]) => {
  const m = await import(base + '_static/generate/model.js');
  const paths = await import(base + '_static/generate/paths.js');
  const composition = await import(base + '_static/generate/composition.js');
  const model = await m.loadModel(base + '%s');
  const started = performance.now();
  const patched = golden.paths.map((c) => {
    const r = paths.pathPatch(model, c.ids, c.source, c.sender, c.receivers);
    return { logits: Array.from(r.logits), attention: r.attention.map((l) => l.map((a) => Array.from(a))) };
  });
  return { patched, ms: (performance.now() - started) / golden.paths.length,
           receivers: paths.receiversOf(model, 'L1 H2'),
           weights: composition.composition(model), on: golden.composition.on.map((c) => composition.compositionOn(model, c.ids)) };
}""" % MODELS


def test_path_patching_and_composition_hold_in_the_page(js, gold):
    """A part's write from a second story (each first-layer head, the first MLP, a second-layer head) given to one
    reader at a time, to every reader and cut from every reader: the last word's logits and every head's attention
    there within 1e-4 of Python's (compute.models.paths), on pairs the page does not prepare (one past the context
    window, one with words the model has never seen); the composition scores of the weights and on three stories
    within 1e-4 of compute.models.circuit's."""
    got = js.page.evaluate(PATHS_JS, [js.base, gold])
    assert len(gold["paths"]) == len(got["patched"]) >= 100
    assert {"L1 MLP", "L2 H3"} <= {c["sender"] for c in gold["paths"]}
    singles = [c["receivers"][0] for c in gold["paths"] if c["sender"] == "L1 H2" and len(c["receivers"]) == 1]
    assert got["receivers"] == singles[:len(got["receivers"])] and len(singles) > len(got["receivers"])
    lengths = {len(c["ids"]) for c in gold["paths"]}
    assert max(lengths) > 256 and any(1 in c["ids"] for c in gold["paths"])      # past the context; <unk> read
    plain = {}
    for want, have in zip(gold["paths"], got["patched"]):
        logits = np.array(have["logits"])
        assert np.abs(logits - np.array(want["logits"])).max() < 1e-4, (want["sender"], want["receivers"][:2])
        for w_layer, h_layer in zip(want["attention"], have["attention"]):
            for w_head, h_head in zip(w_layer, h_layer):
                assert np.abs(np.array(h_head) - np.array(w_head)).max() < 1e-4
        plain.setdefault(tuple(want["ids"]), []).append(logits)
    for runs in plain.values():                                                    # the patches do differ
        assert max(np.abs(a - runs[0]).max() for a in runs) > 1e-2
    for via in ("Q", "K", "V"):
        assert np.abs(np.array(got["weights"][via]) - np.array(gold["composition"]["weights"][via])).max() < 1e-4
        for want, have in zip(gold["composition"]["on"], got["on"]):
            assert np.abs(np.array(have[via]) - np.array(want[via])).max() < 1e-4


GRAPH_JS = """async ([base, golden]) => {
  const m = await import(base + '_static/generate/model.js');
  const g = await import(base + '_static/generate/graph.js');
  const p = await import(base + '_static/generate/paths.js');
  const model = await m.loadModel(base + '%s');
  return golden.graphs.map((c) => {
    const started = performance.now();
    const patched = c.source ? p.borrowed(model, c.source, c.patched) : new Map();
    const graph = g.predictionGraph(model, c.ids, c.word, new Set(c.silenced), patched);
    const ms = performance.now() - started;
    // measured in two shares, as two workers measure it, and merged
    const halves = [0, 1].map((i) => g.predictionGraph(model, c.ids.slice(), c.word, new Set(c.silenced), patched, undefined, [i, 2]));
    // measured on a story whose graph was measured a moment before with no head altered, and one with the second
    // layer's last head silenced: what paths.js kept of those edges is taken again where it holds
    const story = c.ids.slice(), last = 2 * model.cfg.n_head - 1;
    g.predictionGraph(model, story, c.word);
    g.predictionGraph(model, story, c.word, new Set([last]));
    const again = g.predictionGraph(model, story, c.word, new Set(c.silenced), patched).edges;
    return { ...graph, ms, merged: g.mergeShares(halves).edges, halves: halves.map((h) => h.edges.length), again };
  });
}""" % MODELS


def test_the_graph_of_a_prediction_holds_in_the_page(js, gold):
    """The graph of one prediction (_static/generate/graph.js): the same nodes and edges as compute.models.graph's,
    each edge's effect within 1e-4, on prompts the page does not prepare (one cut from past the context, one with
    words the model has never seen), with a head silenced (which then has no edge) and with a head patched from
    another story (which then sends and, where that story is shorter, reads); the same to the last bit when measured
    in two shares and merged, and when measured after other graphs of the same story (what paths.js keeps of each
    edge, taken again)."""
    got = js.page.evaluate(GRAPH_JS, [js.base, gold])
    assert len(got) == len(gold["graphs"]) == 7
    assert max(len(c["ids"]) for c in gold["graphs"]) == 255 and any(1 in c["ids"] for c in gold["graphs"])
    for want, have in zip(gold["graphs"], got):
        assert have["nodes"] == want["nodes"] and abs(have["logit"] - want["logit"]) < 1e-4
        edges = {(s, r): v for s, r, v in want["edges"]}
        assert {(e["sender"], e["receiver"]) for e in have["edges"]} == set(edges)
        for e in have["edges"]:
            assert abs(e["effect"] - edges[(e["sender"], e["receiver"])]) < 1e-4, e
        assert max(abs(v) for v in edges.values()) > 0.5
        assert have["merged"] == have["edges"] and min(have["halves"]) >= len(edges) // 3
        assert have["again"] == have["edges"]          # to the last bit
    silenced = gold["graphs"][1]
    assert silenced["silenced"] == [1] and not any("L1 H2" in (s, r) for s, r, _ in silenced["edges"])
    whole, short, short_first = gold["graphs"][4:]
    assert whole["patched"] == [1] and len(whole["source"]) == len(whole["ids"])
    assert not any(r == "L1 H2" for _, r, _ in whole["edges"]) and any(s == "L1 H2" for s, _, _ in whole["edges"])
    assert short["patched"] == [4] and len(short["source"]) < len(short["ids"])
    assert any(r == "L2 H1" for _, r, _ in short["edges"])
    # a first-layer head patched from a shorter story: its own rows past that story's end, as in the clean pass
    assert short_first["patched"] == [2] and len(short_first["source"]) < len(short_first["ids"])
    assert any(r == "L1 H3" for _, r, _ in short_first["edges"])
    plain = {(s, r): v for s, r, v in gold["graphs"][0]["edges"]}
    assert any(abs(v - plain[(s, r)]) > 0.01 for s, r, v in whole["edges"] if (s, r) in plain)


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
    ids = [0] + [header["vocabulary"].index(w) for w in "once upon a time , there was a little girl named mia".split()]
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


SAMPLER_JS = """async ([base, seed, rows, settings]) => {
  const s = await import(base + '_static/generate/sample.js');
  const draws = s.seeded(seed), random = s.seeded(seed);
  return {draws: Array.from({length: 5}, draws), ids: rows.map((row) => s.choose(row, settings, random))};
}"""


@pytest.mark.parametrize("sampling", [Sampling(temperature=0.8), Sampling(temperature=1.7, top_k=5),
                                      Sampling(temperature=0.3, top_k=1), Sampling(greedy=True),
                                      Sampling(temperature=1.1, top_p=0.8), Sampling(temperature=1.4, top_k=12, top_p=0.5)])
def test_the_page_samples_as_python_does(js, sampling):
    """sample.js and compute.generate: the same draws for a seed, the same word from the same logits, ties too."""
    rows = np.round(np.random.default_rng(5).normal(scale=3, size=(300, 40)), 1).tolist()  # rounded: ties
    settings = {"greedy": sampling.greedy, "temperature": sampling.temperature, "topK": sampling.top_k or 0,
                "topP": sampling.top_p}
    got = js.page.evaluate(SAMPLER_JS, [js.base, 11, rows, settings])
    draws, random = Mulberry32(11), Mulberry32(11)
    assert got["draws"] == [draws() for _ in range(5)]
    want = [choose_one(row, sampling, random) for row in rows]
    assert got["ids"] == want and len(set(want)) > 10


# A session resumed from the words on screen holds what one that wrote them word by word holds (the worker
# resumes after Stop, a silenced head or a new seed), past the context's slide too.
RESUME_JS = """async ([base, prompt, n]) => {
  const m = await import(base + '_static/generate/model.js');
  const run = await import(base + '_static/generate/run.js');
  const model = await m.loadModel(base + '%s');
  const patch = { head: 5, z: model.headOutput([0, 7, 8, 9], 5) };
  const options = { seed: 4, silenced: [1], patch }, settings = { temperature: 1.2, topK: 0, topP: 0.95, greedy: false };
  const s = new run.Session(model, prompt, options);
  for (let k = 0; k < n; k++) { const id = s.draw(settings); s.take(id === 0 ? 5 : id); }
  const r = run.Session.resume(model, prompt, s.written, { ...options, draws: s.draws });
  const next = [s.draw(settings), r.draw(settings)];
  return { ids: [s.ids, r.ids], logits: [Array.from(s.out.logits), Array.from(r.out.logits)], next, n: s.written.length };
}""" % MODELS


def test_a_resumed_story_is_the_story_written_word_by_word(js, reference):
    _, header = reference
    context = header["architecture"]["context"]
    for prompt, n in (([5, 6, 7], 20), ([5] * (context - 10), 30)):   # the second slides past the context
        got = js.page.evaluate(RESUME_JS, [js.base, prompt, n])
        assert got["n"] == n and got["ids"][0] == got["ids"][1] and len(got["ids"][0]) <= context
        assert np.abs(np.array(got["logits"][0]) - np.array(got["logits"][1])).max() < 1e-9
        assert got["next"][0] == got["next"][1]


# The page's own loop writes on from a prompt (its tokenizer, model and sampler), as the box does.
PAGE_WRITES_JS = """async ([base, prompt, options]) => {
  const text = await import(base + '_static/generate/text.js');
  const m = await import(base + '_static/generate/model.js');
  const run = await import(base + '_static/generate/run.js');
  const model = await m.loadModel(base + '%s');
  const index = new Map(model.vocabulary.map((w, i) => [w, i]));
  const ids = text.words(prompt).map((w) => (index.has(w) ? index.get(w) : 1));
  return Array.from(run.generate(model, ids, options), (t) => model.vocabulary[t.id]);
}""" % MODELS


@pytest.mark.parametrize("flags, options", [
    (["--temperature", "1.3", "--top-k", "5"], {"greedy": False, "temperature": 1.3, "topK": 5, "topP": 1}),
    (["--temperature", "1.1", "--top-p", "0.8"], {"greedy": False, "temperature": 1.1, "topK": 0, "topP": 0.8}),
    (["--greedy"], {"greedy": True, "temperature": 0.8, "topK": 0, "topP": 1}),
])
def test_the_generate_command_writes_the_boxs_words(js, capsys, monkeypatch, built_site, flags, options):
    """`python -m compute generate story-four-head --weights float16` and the page's loop, same prompt, seed and
    settings: the same words, the unknown word of the prompt reported by the command."""
    from compute.cli import main
    from compute.data.tokenizer import words
    prompt = "Once upon a time, a girl named Mia met Zorblax at the park."
    assert main(["generate", "story-four-head", "--weights", "float16", "--prompt", prompt, "--seed", "7",
                 "--length", "30", "--quiet", *flags]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith("note: 1 word(s)") and out[0].endswith(": zorblax")
    page = js.page.evaluate(PAGE_WRITES_JS, [js.base, prompt, {**options, "seed": 7, "maxTokens": 30}])
    assert words(out[-1]) == words(prompt) + page and len(page) > 5
