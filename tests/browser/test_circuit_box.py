"""Section 6's circuit box in Chromium, driven as a reader would: the prepared pair's path patching against compute's
(the same numbers section 6's table prints), a pair the reader writes, a story past the context, another part chosen
by keyboard, and the box at 375 px by touch."""
from __future__ import annotations

import re

import torch

from compute.data.tokenizer import EOS, words
from compute.lessons.story.states import circuit
from compute.lessons.story.states.box import box_model, patch_pair
from compute.models import circuit as composition, paths
from compute.published.story import story_corpus

PATH = "posts/story-models.html"
STATUS = "document.querySelector('.circuit-box [data-part=status]').textContent"
ROWS_JS = """() => [...document.querySelectorAll('.circuit-box [data-part=table] tbody tr')].map((tr) =>
  [tr.cells[0].textContent, tr.cells[1].textContent, tr.cells[2].textContent, tr.className, tr.cells[3].textContent])"""
LABELS = {"none (the story as it is)": None, "every reader": "every", "cut from every reader": "cut"}


def open_box(visit, **options):
    v = visit(None, **options)
    v.open(PATH, figures=[])
    box = v.page.locator(".circuit-box")
    box.scroll_into_view_if_needed()
    v.page.wait_for_function(f"{STATUS}.includes('ms.')", timeout=60_000)
    return v, box


def printed(p: float, text: str) -> bool:
    """The box's four decimals (up to six, where four would print 0 or misstate it; a bound below that) against
    Python's probability, as section 6's table prints it (compute.present.numbers.honest_format)."""
    from compute.present.numbers import honest_format
    return text == honest_format(p, ".4f")


def python_rows(text: str, other: str, sender: str) -> tuple[str, str, dict]:
    """compute's probabilities of the story's likeliest next word and the other story's, for each row of the box."""
    vocab, model = story_corpus().vocab, box_model()
    ids, source = (vocab.encode([EOS] + words(t)) for t in (text, other))

    def probs(src, receivers):
        return torch.softmax(paths.path_patch(model, ids, src, sender, receivers).logits[-1], -1)

    plain = probs(None, [])
    word = int(plain.argmax())
    rival = int(torch.softmax(paths.path_patch(model, source, None, sender, []).logits[-1], -1).argmax())
    readers = paths.receivers_of(model, sender)
    rows = {None: plain, "every": probs(source, readers), "cut": probs(None, readers)}
    rows.update({r: probs(source, [r]) for r in readers})
    return vocab.itos[word], vocab.itos[rival], {k: (float(p[word]), float(p[rival])) for k, p in rows.items()}


def reader_of(label: str) -> str | None:
    if label in LABELS:
        return LABELS[label]
    if label.startswith("the final LayerNorm"):
        return "logits"
    m = re.match(r"(L\d H\d)'s (queries|keys|values)$", label)
    return f"{m[1]} {m[2][0].upper()}" if m else label


def looks(rows, text: str, other: str, sender: str) -> None:
    """Each row of a head's input: where that head looks at the last word with the patch (its largest weight) and
    its weight there unpatched, as compute's path patching gives them; no such cell in the other rows."""
    vocab, model = story_corpus().vocab, box_model()
    ids, source = (vocab.encode([EOS] + words(t)) for t in (text, other))
    labels = ["<start>"] + words(text)
    plain = paths.run(model, ids).attention
    delta = paths.change(model, ids, source, sender)
    for label, *_, look in rows:
        reader = reader_of(label)
        if not (reader and re.fullmatch(r"L\d H\d [QKV]", reader)):
            assert look == "", label
            continue
        l, g = int(reader[1]) - 1, int(reader[4]) - 1
        a = paths.run(model, ids, {reader: delta}).attention[l, g, -1]
        at = int(a.argmax())
        assert look == f"“{labels[at]}” {float(a[at]):.2f} ({float(plain[l, g, -1, at]):.2f})", (label, look)


def check_rows(rows, want: dict) -> None:
    assert {reader_of(r[0]) for r in rows} == set(want), rows
    for label, p_word, p_rival, *_ in rows:
        w_word, w_rival = want[reader_of(label)]
        assert printed(w_word, p_word) and printed(w_rival, p_rival), (label, p_word, p_rival, w_word, w_rival)


def test_the_prepared_pair_gives_section_6s_numbers(visit):
    """The box opens on section 6's pair with the name head: every row within the printed precision of compute's,
    the first layer's MLP marked as the reader that moves the most, the status saying so."""
    v, box = open_box(visit)
    rows = v.page.evaluate(ROWS_JS)
    p = circuit.name_paths()
    want = {None: (p["plain"][p["name"]], p["plain"][p["other"]]), "every": (p["every"][p["name"]], p["every"][p["other"]])}
    want.update({r: (x[p["name"]], x[p["other"]]) for r, x in p["one"].items()})
    pair = patch_pair()
    word, rival, python = python_rows(pair["text"], pair["source"], p["sender"])
    assert (word, rival) == (p["name"], p["other"])
    want["cut"] = python["cut"]
    check_rows(rows, want)
    looks(rows, pair["text"], pair["source"], p["sender"])
    marked = [r[0] for r in rows if "circuit-most" in r[3]]
    assert marked == ["L1 MLP"]
    assert "L1 MLP moves the most" in v.page.evaluate(STATUS)
    shares = v.page.evaluate("[...document.querySelectorAll('.circuit-box [data-part=shares-table] tbody td')].map((c) => c.textContent)")
    on = composition.composition_on(box_model(), story_corpus().vocab.encode([EOS] + words(pair["text"])))
    h = int(p["sender"][-1]) - 1
    want_shares = [float(on[via][h, g]) for g in range(4) for via in "QKV"]
    assert len(shares) == 12 and all(abs(float(s) - w) <= 5e-4 + 1e-12 for s, w in zip(shares, want_shares))


def test_a_pair_the_reader_writes_and_a_story_past_the_context(visit):
    """A pair of the reader's, and a story longer than the context (read as its last context - 1 words, which the
    status says), each against compute's path patching of the same words."""
    v, box = open_box(visit)
    text = "Tom met a girl named Sue at the park. Sue had a red ball. Tom asked"
    other = text.replace("Sue", "Amy")
    long_text = " ".join(["Sue and Tom went to the park."] + ["They played with a red ball in the sun."] * 30 + [text])
    for story, source in ((text, other), (long_text, long_text.replace("Sue", "Amy"))):
        box.locator("[data-part=story]").fill(story)
        box.locator("[data-part=other]").fill(source)
        v.page.evaluate(f"{STATUS.replace('.textContent', '')}.textContent = ''")
        box.locator("[data-part=run]").click()
        v.page.wait_for_function(f"{STATUS}.includes('ms.')", timeout=60_000)
        word, rival, want = python_rows(story, source, "L1 H2")
        check_rows(v.page.evaluate(ROWS_JS), want)
        title = box.locator("[data-part=result-title]").text_content()
        assert f"“{word}”" in title and f"“{rival}”" in title
    assert "is read as its last 255 words" in v.page.evaluate(STATUS)


def test_another_part_chosen_by_keyboard(visit):
    """Tab to the part's menu, choose the next part with the arrow key: the table is patched for it (its readers
    are its own), and for a part that is not a first-layer head the shares say what they are measured for."""
    v, box = open_box(visit)
    sender = box.locator("[data-part=sender]")
    sender.focus()
    v.page.keyboard.press("ArrowDown")                 # L1 H2 -> L1 H3
    v.page.wait_for_function(f"document.querySelector('.circuit-box [data-part=result-title]').textContent.startsWith('L1 H3')",
                             timeout=60_000)
    pair = patch_pair()
    _, _, want = python_rows(pair["text"], pair["source"], "L1 H3")
    v.page.wait_for_function(f"{STATUS}.includes('ms.')", timeout=60_000)
    check_rows(v.page.evaluate(ROWS_JS), want)
    sender.select_option("L2 H1")
    v.page.wait_for_function("document.querySelector('.circuit-box [data-part=result-title]').textContent.startsWith('L2 H1')",
                             timeout=60_000)
    assert [reader_of(r[0]) for r in v.page.evaluate(ROWS_JS)] == [None, "L2 MLP", "logits", "every", "cut"]
    assert "first-layer head" in box.locator("[data-part=shares-title]").text_content()
    v.page.keyboard.press("Tab")                       # to the button, and Enter patches again
    assert v.page.evaluate("document.activeElement.dataset.part") == "run"
    v.page.evaluate(f"{STATUS.replace('.textContent', '')}.textContent = ''")
    v.page.keyboard.press("Enter")
    v.page.wait_for_function(f"{STATUS}.includes('ms.')", timeout=60_000)


def test_the_box_at_375_px_by_touch(visit):
    """On a phone: a tap patches, nothing is wider than the screen, every control is on screen and 24 x 24 px, and a
    head of the graph tapped is silenced and the graph drawn again without it."""
    v, box = open_box(visit, width=375, height=800, touch=True)
    v.page.evaluate(f"{STATUS.replace('.textContent', '')}.textContent = ''")
    box.locator("[data-part=run]").tap()
    v.page.wait_for_function(f"{STATUS}.includes('ms.')", timeout=60_000)
    assert v.page.evaluate("document.documentElement.scrollWidth") <= 375
    v.page.wait_for_function("document.querySelectorAll('.circuit-box .circuit-node').length > 10", timeout=60_000)
    controls = box.locator("button:visible, textarea:visible, select:visible, input:visible").all()
    assert len(controls) == 4 + 2 + 8                 # the stories, the part, the button; the threshold, silence or patch; eight heads
    for control in controls:
        rect = control.bounding_box()
        assert rect["x"] >= 0 and rect["x"] + rect["width"] <= 375
        assert rect["width"] >= 24 and rect["height"] >= 24
    table = box.locator("[data-part=result]").bounding_box()
    assert table["x"] >= 0 and table["x"] + table["width"] <= 375
    before = wait_graph(v)
    head = box.locator(".circuit-node[data-node='L2 H3']")
    head.tap()
    got = wait_graph(v, before["summary"])
    assert head.get_attribute("aria-pressed") == "true" and "with L2 H3 silenced" in got["title"]
    assert got["edges"] and not any("L2 H3" in e for e in got["edges"])


GRAPH_JS = """() => ({
  nodes: [...document.querySelectorAll('.circuit-box .circuit-node')].map((n) => n.dataset.node),
  edges: [...document.querySelectorAll('.circuit-box .circuit-graph path')].map((p) => p.dataset.edge),
  summary: document.querySelector('.circuit-box [data-part=graph-summary]').textContent,
  title: document.querySelector('.circuit-box [data-part=graph-title]').textContent })"""


IDLE = "document.querySelector('.circuit-box [data-part=graph]').dataset.measuring === '0'"


def python_graph(silenced=(), patched=()):
    """compute's graph of the prepared story's next word, heads silenced or patched from the prepared other story."""
    from compute.models import graph
    pair, vocab, model = patch_pair(), story_corpus().vocab, box_model()
    ids, source = (vocab.encode([EOS] + words(pair[k])) for k in ("text", "source"))
    word = int(paths.run(model, ids).logits[-1].argmax())
    return graph.prediction_graph(model, ids, word, silenced=silenced, patched=paths.borrowed(model, source, patched))


def wait_graph(v, before: str = ""):
    v.page.wait_for_function(f"document.querySelector('.circuit-box [data-part=graph-summary]').textContent.includes('ms.') "
                             f"&& document.querySelector('.circuit-box [data-part=graph-summary]').textContent !== {before!r}",
                             timeout=60_000)
    return v.page.evaluate(GRAPH_JS)


def test_the_graph_of_the_prediction_its_threshold_and_a_silenced_head(visit):
    """The graph of the prepared story's next word: compute's nodes, its edges at or above the threshold, the
    strongest named in words; the threshold raised by keyboard hides the weaker; a head silenced by a click has no
    edge left and the title gives the silenced model's logit; the summary is a live region."""
    v, box = open_box(visit)
    got, want = wait_graph(v), python_graph()
    assert got["nodes"] == want.nodes
    assert sorted(got["edges"]) == sorted(f"{e.sender}>{e.receiver}" for e in want.edges if abs(e.effect) >= 0.5)
    strongest = max(want.edges, key=lambda e: abs(e.effect))
    assert f"{strongest.effect:.2f}" in got["summary"] and f"logit {want.logit:.2f}" in got["title"]
    # the summary is read out when it changes (a head clicked, the threshold moved), not only when found
    assert box.locator("[data-part=graph-summary]").get_attribute("aria-live") == "polite"
    box.locator("[data-part=threshold]").focus()
    for _ in range(5):
        v.page.keyboard.press("ArrowRight")                        # 0.5 -> 1.0
    got = v.page.evaluate(GRAPH_JS)
    assert sorted(got["edges"]) == sorted(f"{e.sender}>{e.receiver}" for e in want.edges if abs(e.effect) >= 1.0)
    head = box.locator(".circuit-node[data-node='L1 H2']")
    v.page.wait_for_function(f"{IDLE}", timeout=60_000)          # every graph one click away measured ahead
    head.click()
    assert head.get_attribute("aria-pressed") == "true"
    got, want = wait_graph(v, got["summary"]), python_graph({(0, 1)})
    assert "Measured earlier" in got["summary"]                      # drawn from the graph measured ahead
    assert "with L1 H2 silenced" in got["title"] and f"logit {want.logit:.2f}" in got["title"]
    assert got["edges"] and not any("L1 H2" in e for e in got["edges"])
    assert sorted(got["edges"]) == sorted(f"{e.sender}>{e.receiver}" for e in want.edges if abs(e.effect) >= 1.0)


def test_a_head_patched_from_the_other_story_by_keyboard_and_the_graph_measured_again(visit):
    """"Patched" chosen by keyboard, a head pressed with Enter: the graph is compute's with that head writing what it
    writes on the other story (it reads nothing then, and still sends), the title and the head's name say so;
    pressed again, the graph is the story's own."""
    v, box = open_box(visit)
    first = wait_graph(v)
    box.locator("[data-part=alter]").focus()
    v.page.keyboard.press("ArrowDown")                             # silenced -> patched
    assert box.locator("[data-part=alter]").input_value() == "patched"
    head = box.locator(".circuit-node[data-node='L1 H2']")
    head.focus()
    v.page.keyboard.press("Enter")
    got, want = wait_graph(v, first["summary"]), python_graph(patched=[(0, 1)])
    assert head.get_attribute("aria-label") == "L1 H2, patched" and head.get_attribute("aria-pressed") == "true"
    assert "with L1 H2 patched from the other story" in got["title"] and f"logit {want.logit:.2f}" in got["title"]
    assert f"logit {python_graph().logit:.2f}" not in got["title"]          # the patch moved the logit
    shown = sorted(f"{e.sender}>{e.receiver}" for e in want.edges if abs(e.effect) >= 0.5)
    assert sorted(got["edges"]) == shown and any(e.startswith("L1 H2>") for e in shown)
    assert not any(e.endswith(">L1 H2") for e in got["edges"])
    head.focus()
    v.page.keyboard.press("Enter")
    again = wait_graph(v, got["summary"])
    assert again["edges"] == first["edges"] and head.get_attribute("aria-pressed") == "false"


def test_the_head_under_the_pointer_is_measured_before_the_others(visit):
    """Pointing at a head puts the graph its click would give ahead of the others one click away (measured ahead
    in the graph's order, L1 H1 first, L2 H4 last): pointed at as soon as the story's graph is drawn, L2 H4's is
    measured while L2 H3's is not yet, and the click draws it from what was measured."""
    v, box = open_box(visit)
    first = wait_graph(v)
    last, before_it = (box.locator(f".circuit-node[data-node='{n}']") for n in ("L2 H4", "L2 H3"))
    last.hover()
    v.page.wait_for_function("document.querySelector(\".circuit-box .circuit-node[data-node='L2 H4']\")"
                             ".dataset.measured === 'true'", timeout=60_000)
    assert before_it.get_attribute("data-measured") == "false"
    last.click()
    got, want = wait_graph(v, first["summary"]), python_graph({(1, 3)})
    assert "Measured earlier" in got["summary"] and "with L2 H4 silenced" in got["title"]
    assert sorted(got["edges"]) == sorted(f"{e.sender}>{e.receiver}" for e in want.edges if abs(e.effect) >= 0.5)
