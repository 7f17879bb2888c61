"""The PDF handouts: one per lesson, A4, page numbers, no site chrome; reprinted only on change."""

from __future__ import annotations

import io
import re
import shutil
from concurrent.futures import ThreadPoolExecutor

import pytest
from pypdf import PdfReader

from conftest import LESSONS, ROOT, ROOT_READ
from sitebuild.prints import typeset as prints


def make_prints(*args):
    """sitebuild.prints.typeset.make_prints in a fresh thread: the session's browser fixture keeps Playwright's
    sync API busy in this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(prints.make_prints, *args).result()

A4_POINTS = (595.3, 841.9)  # 210 x 297 mm; Chromium rounds to 8.27 x 11.7 in


@pytest.mark.parametrize("stem", LESSONS)
def test_handout_is_a4_with_page_numbers(built_site, stem):
    reader = PdfReader(built_site / "handouts" / f"{stem}.pdf")
    n = len(reader.pages)
    assert n >= 1
    for page in reader.pages:
        size = (float(page.mediabox.width), float(page.mediabox.height))
        assert all(abs(got - want) < 2 for got, want in zip(size, A4_POINTS)), size
    text = [page.extract_text() for page in reader.pages]
    for i, page_text in enumerate(text, 1):
        assert f"{i} / {n}" in page_text
    title = next(line[2:] for line in (ROOT / "posts" / f"{stem}.md").read_text().splitlines()
                 if line.startswith("# "))
    assert title in text[0]
    everything = "\n".join(text)
    for chrome in ("PDF handout", "Ctrl", "Color mode", "Toggle primary sidebar"):
        assert chrome not in everything, chrome


PHOTOCOPIED = 24   # the most pages of a lesson's handout or student edition: what a teacher photocopies


@pytest.mark.parametrize("stem", LESSONS)
def test_handout_and_student_edition_fit_a_photocopied_set(built_site, stem):
    """At most 24 pages each; optional material prints in the appendix (tests/pdf/test_byhand_handout.py)."""
    pages = {edition: len(PdfReader(built_site / "handouts" / f"{stem}{edition}.pdf").pages)
             for edition in ("", "-student")}
    assert max(pages.values()) <= PHOTOCOPIED, pages


@pytest.mark.parametrize("stem", LESSONS)
def test_handout_links_never_point_at_the_printing_server(built_site, stem):
    """Links to other pages are printed as text; the PDF carries no link to the local server it was made from."""
    for edition in ("", "-student", "-key"):    # each of the lesson's three prints
        reader = PdfReader(built_site / "handouts" / f"{stem}{edition}.pdf")
        uris = [a.get_object().get("/A", {}).get("/URI", "") for page in reader.pages
                for a in page.get("/Annots", [])]
        assert not [u for u in uris if "127.0.0.1" in u or "localhost" in u], edition
        assert reader.metadata["/CreationDate"] == reader.metadata["/ModDate"]


@ROOT_READ  # copies the repository's _build/html
def test_handouts_are_reprinted_only_when_their_page_changes(built_site, tmp_path):
    html = tmp_path / "html"
    shutil.copytree(ROOT / "_build" / "html", html)
    out = tmp_path / "handouts"
    stem = min(LESSONS, key=lambda s: (html / "posts" / f"{s}.html").stat().st_size)  # the quickest to set
    assert make_prints(html, [stem], out, None, 0) == [stem]
    first = (out / f"{stem}.pdf").read_bytes()
    assert first[:5] == b"%PDF-"

    assert make_prints(html, [stem], out, None, 0) == []  # unchanged: kept

    # a new lesson in the navigation (not printed): the handout is kept, and is what setting it again gives
    page = html / "posts" / f"{stem}.html"
    text = page.read_text()
    assert text.count('<ul class="current nav bd-sidenav">') == 1
    page.write_text(text.replace('<ul class="current nav bd-sidenav">', '<ul class="current nav bd-sidenav">'
                                 '<li class="toctree-l1"><a class="reference internal" href="new.html">A new lesson'
                                 '</a></li>', 1).replace("</head>", '<link rel="next" href="new.html" /></head>', 1))
    assert make_prints(html, [stem], out, None, 0) == []
    assert make_prints(html, [stem], tmp_path / "again", None, 0) == [stem]
    assert (tmp_path / "again" / f"{stem}.pdf").read_bytes() == first

    page.write_text(page.read_text().replace("</article>", "<p>One more line.</p></article>", 1))
    assert make_prints(html, [stem], out, None, 0) == [stem]
    assert "Onemoreline." in "".join(PdfReader(out / f"{stem}.pdf").pages[-1].extract_text().split()) or \
        "One more line." in " ".join(p.extract_text() for p in PdfReader(out / f"{stem}.pdf").pages)

    assert make_prints(html, [stem], out, "https://example.org/course/", 0) == [stem]   # another address
    assert make_prints(html, [stem], out, "https://example.org/course/", 86400) == [stem]  # another date

    (out / "old-lesson.pdf").write_bytes(b"%PDF-")
    make_prints(html, [stem], out, None, 0)
    assert sorted(p.name for p in out.glob("*.pdf")) == sorted(f"{stem}{s}.pdf" for s in ("", "-key", "-student"))


def test_story_handout_prints_every_hand_written_story(built_site):
    """The folded hand-written stories are open in print: every one's number and title is in the PDF (NFKC undoes
    the ligatures the PDF's text layer keeps, 'ﬀ' for 'ff')."""
    import unicodedata
    from compute.data.handwritten import read_handwritten
    def read(name):
        reader = PdfReader(built_site / "handouts" / name)
        return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", " ".join(p.extract_text() for p in reader.pages)))
    text, appendix = read("story-models.pdf"), read("story-models-appendix.pdf")
    stories = read_handwritten()
    assert len(stories) >= 40
    def entry(h):
        return re.sub(r"\s+", " ", f"{h.number}. {h.title}")
    # the long listing prints in the appendix, a PDF of its own, with a line where it stood in the handout
    from compute.lessons.story.beyond import SHOWN_STORIES
    missing = [h.number for h in stories if entry(h) not in text + appendix]
    assert missing == []
    assert "appendix A, printed apart (story-models-appendix.pdf)" in text
    folded = stories[SHOWN_STORIES:]
    assert [h.number for h in folded if entry(h) in text] == []
    assert all(entry(h) in appendix for h in folded)
    assert entry(stories[0]) in text and text.find(entry(stories[0])) < text.rfind("What to take away")


@pytest.mark.parametrize("stem", LESSONS)
def test_every_answer_prints_after_the_last_section(built_site, stem):
    """A question with an answer (details.answer) stays where it is and points to its answer; the answers follow
    the lesson's last section, in order, each with the words the web page opens under its question."""
    html = (built_site / "posts" / f"{stem}.html").read_text()
    answers = [re.sub(r"<[^>]+>", "", a) for a in re.findall(r'<details class="answer"><summary>.*?</summary><p>(.*?)</p>', html)]
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(built_site / "handouts" / f"{stem}.pdf").pages))
    refs = [text.find(f"(answer {k} at the end)") for k in range(1, len(answers) + 1)]
    assert all(r >= 0 for r in refs) and refs == sorted(refs)
    if answers:
        end = text.rfind("Answers")
        # the lesson's sections, less a section of answers to its exercises (labelled `<x>-answers`), whose
        # answers print under the same heading at the end
        sections = [title for label, title in re.findall(r"^(?:\((\S+)\)=\n)?## (.+)$",
                                                         (ROOT / "posts" / f"{stem}.md").read_text(), re.M)
                    if not label.endswith("-answers")]
        last = text.rfind(re.sub(r"[`*$\\]", "", sections[-1])[:20])
        assert end > max(last, refs[-1])                         # after the last section begins and the last question
        found = [text.find(html_unescape(a)[:30], end) for a in answers]
        assert all(f > end for f in found) and found == sorted(found), found


def html_unescape(s: str) -> str:
    import html
    return re.sub(r"\s+", " ", html.unescape(s))


FOOTER_TOP = 30      # pt from the page's foot: the footer line (title and page number) sits below this


def lowest_body_text(page) -> float:
    """The height above the page's foot (pt) of the lowest line of text above the footer: how far down the
    page its content reaches (a figure's axis labels are text too)."""
    ys = []

    def visit(text, cm, tm, font, size):
        y = tm[5] * cm[3] + tm[4] * cm[1] + cm[5]
        if text.strip() and y > FOOTER_TOP:
            ys.append(y)
    page.extract_text(visitor_text=visit)
    return min(ys, default=float(page.mediabox.height))


def section_starts(reader) -> dict[int, float]:
    """For each page index, the highest point (pt) at which an outline entry (a section or subsection) starts."""
    starts: dict[int, float] = {}

    def walk(entries):
        for e in entries:
            if isinstance(e, list):
                walk(e)
            else:
                i = reader.get_destination_page_number(e)
                starts[i] = max(starts.get(i, 0.0), float(e.top))
    walk(reader.outline)
    return starts


@pytest.mark.parametrize("stem", LESSONS)
def test_no_page_is_less_than_half_full_unless_a_section_ends_there(built_site, stem):
    """A page whose content stops above its middle is allowed only where the next page begins with a section
    (a heading at its top), or at the end; a long table breaks between rows instead of leaving a page empty."""
    reader = PdfReader(built_site / "handouts" / f"{stem}.pdf")
    starts = section_starts(reader)
    assert starts, "the handout has no outline"
    short = []
    for i, page in enumerate(reader.pages[:-1]):
        height = float(page.mediabox.height)
        if lowest_body_text(page) <= height / 2:
            continue
        if starts.get(i + 1, 0.0) < 0.85 * height:               # the next page does not open with a heading
            short.append(f"page {i + 1}: content ends {height - lowest_body_text(page):.0f} pt from the top of "
                         f"{height:.0f}, and page {i + 2} opens with no heading")
    assert short == []


@pytest.mark.parametrize("stem", LESSONS)
def test_every_section_of_the_page_is_in_its_handout(built_site, stem):
    """Each section the page shows prints, in order (the lab's answers section prints as the answers at the end:
    its title is the handout's own "Answers")."""
    import unicodedata
    from bs4 import BeautifulSoup
    page = BeautifulSoup((built_site / "posts" / f"{stem}.html").read_text(), "html.parser")
    titles = [unicodedata.normalize("NFKC", h.get_text(" ", strip=True).rstrip("#").strip())
              for h in page.select("article section > h2")]
    pages = PdfReader(built_site / "handouts" / f"{stem}.pdf").pages
    text = "".join(unicodedata.normalize("NFKC", " ".join(p.extract_text() for p in pages)).split())
    first = "".join(titles[0].split())[:20]
    body = text[text.find(first, text.find(first) + 1):]          # from the first section, past the contents' list
    missing, start = [], 0
    for title in titles:                   # each after the one before it
        found = body.find("".join(title.split())[:30], start)
        if found < 0:
            missing.append(title)
        start = max(start, found)
    assert len(titles) >= 5 and missing == [], stem


MODEL_LESSONS = {"attention-by-hand", "trained-walkthrough", "story-models", "lab"}   # Part 2B counts and times


@pytest.mark.parametrize("stem", LESSONS)
def test_a_lesson_with_a_model_draws_it_on_the_page_and_on_paper(built_site, stem):
    """The model's block diagram (compute.present.diagram) is on the page of every lesson that has a model, and
    is printed, as a numbered figure, in its handout."""
    import unicodedata
    from bs4 import BeautifulSoup
    page = BeautifulSoup((built_site / "posts" / f"{stem}.html").read_text(), "html.parser")
    drawn = page.select("article figure.block-figure svg.block-diagram")
    assert bool(drawn) == (stem in MODEL_LESSONS)
    if drawn:
        caption = unicodedata.normalize("NFKC", drawn[0].find_parent("figure").find("figcaption").get_text(" ", True))
        pages = PdfReader(built_site / "handouts" / f"{stem}.pdf").pages
        text = "".join(unicodedata.normalize("NFKC", " ".join(p.extract_text() for p in pages)).split())
        assert re.search(r"Figure\d+:" + re.escape("".join(caption.split())[:40]), text), caption


@pytest.mark.parametrize("stem", LESSONS)
def test_the_handout_prints_the_glossary_terms_its_page_links_and_its_notation(built_site, stem):
    """Every term the page links to the glossary (in what it prints) is defined at the handout's end, with the site glossary's own
    words; the notation rows used throughout follow."""
    import unicodedata
    from bs4 import BeautifulSoup
    page = BeautifulSoup((built_site / "posts" / f"{stem}.html").read_text(), "html.parser")
    glossary = BeautifulSoup((built_site / "glossary.html").read_text(), "html.parser")
    linked = {a["href"].partition("#")[2] for a in page.select("article a.glossary-link")
              if a.find_parent(class_="web-only") is None}                # what paper prints of the page
    entries = [(dt.get_text(" ", strip=True).rstrip("#"), dt.find_next_sibling("dd"))
               for dt in glossary.select("dl.glossary dt[id]") if dt["id"] in linked]
    # white space, and the hyphens of words broken at a line's end, out
    squeeze = lambda t: "".join(unicodedata.normalize("NFKC", t).split()).replace("-", "")
    pages = PdfReader(built_site / "handouts" / f"{stem}.pdf").pages
    text = squeeze(" ".join(p.extract_text() for p in pages))
    end = text.rfind("Glossaryandnotation")
    assert len(entries) >= 3 and end > 0
    plain = [(t, dd.get_text(" ", strip=True)) for t, dd in entries if not dd.find("mjx-container")]   # no math
    assert len(plain) >= 3 and [t for t, d in plain if squeeze(f"{t}. {d}")[:60] not in text[end:]] == []
    throughout = [tr.find_all("td")[1].get_text(" ", strip=True) for tr in glossary.select("section#notation tbody tr")
                  if "throughout" in tr.find_all("td")[2].get_text()]
    assert throughout and all(squeeze(m) in text[end:] for m in throughout)
