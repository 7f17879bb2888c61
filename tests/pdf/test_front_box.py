"""Every lesson's front box, on its page and on its handout's first page: objectives, what to read first, time,
and, when the site has a public address (site.toml's url, or --url), the page's and notebook's addresses as text
and as QR codes a phone can read off the paper; without one, no address and no code, never a local one."""
from __future__ import annotations

import unicodedata

import numpy as np
import pypdfium2
import pytest
import zxingcpp
from bs4 import BeautifulSoup
from pypdf import PdfReader

from conftest import LESSONS, ROOT
from sitebuild.config import public_url
from sitebuild.pages.lessonlist import records

RECORDS = {r.page: r for r in records()}
PUBLIC = "https://example.org/course/"      # an address a build could be given


def addresses(stem: str, url: str) -> tuple[str, str]:
    return f"{url}posts/{stem}.html", f"{url}notebooks/{stem}.ipynb"


def test_the_tested_site_is_built_without_an_address():
    assert public_url(ROOT) is None       # site.toml sets none: the tests read a site that prints none


@pytest.mark.parametrize("stem", LESSONS)
def test_the_page_opens_with_its_front_box(built_site, stem):
    page = BeautifulSoup((built_site / "posts" / f"{stem}.html").read_text(), "html.parser")
    box = page.select_one("article .front-box")
    assert box is not None
    before = box.find_previous_sibling()
    if "handout-link" in (before.get("class") or []):   # the links to the prints and the notebook
        before = before.find_previous_sibling()
    assert before.name == "h1", "the box sits right under the title"
    objectives = [li.get_text(" ", strip=True) for li in box.select(".front-objectives li")]
    assert 3 <= len(objectives) <= 5
    assert len(objectives) == len(RECORDS[stem].objectives)
    assert not any("{" in o for o in objectives)           # the roles are gone
    text = box.get_text(" ", strip=True)
    assert "Read first:" in text and "Time: about" in text and "min of text" in text
    assert "Online" not in text and not box.select(".front-qr svg")     # no address set: none named, no code
    assert "localhost" not in (built_site / "posts" / f"{stem}.html").read_text()


def first_page_codes(pdf) -> list[str]:
    """The QR codes zxing reads off the handout's first page, drawn at 150 dpi as a printer would."""
    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        image = doc[0].render(scale=150 / 72, grayscale=True).to_numpy()
    finally:
        doc.close()
    return [c.text for c in zxingcpp.read_barcodes(np.ascontiguousarray(image.squeeze()))
            if c.format == zxingcpp.BarcodeFormat.QRCode]


@pytest.mark.parametrize("stem", LESSONS)
def test_the_handout_opens_with_the_box_and_no_address_when_none_is_set(built_site, stem):
    pdf = built_site / "handouts" / f"{stem}.pdf"
    first = unicodedata.normalize("NFKC", PdfReader(pdf).pages[0].extract_text())   # ﬁ as fi
    assert "You will be able to" in first and "Read first:" in first
    assert "Online" not in first and first_page_codes(pdf) == []
    for name in (f"{stem}.pdf", f"{stem}-student.pdf", f"{stem}-key.pdf"):
        text = " ".join(p.extract_text() for p in PdfReader(built_site / "handouts" / name).pages)
        assert "localhost" not in text and "127.0.0.1" not in text, name


def test_a_site_with_an_address_prints_it_and_codes_a_phone_can_read(built_site, tmp_path):
    """Set with a public address, a handout's first page names the page and its notebook and carries both as
    QR codes that read back as those addresses."""
    import shutil
    from concurrent.futures import ThreadPoolExecutor
    from sitebuild.prints.typeset import set_lesson
    html = tmp_path / "html"
    shutil.copytree(ROOT / "_build" / "html", html)
    stem = "lab"
    with ThreadPoolExecutor(1) as pool:        # the session's browser keeps this thread's event loop busy
        made = pool.submit(set_lesson, html, stem, tmp_path / "out", PUBLIC, 0).result()
    assert f"{stem}.pdf" in made
    pdf = tmp_path / "out" / f"{stem}.pdf"
    first = unicodedata.normalize("NFKC", PdfReader(pdf).pages[0].extract_text())
    page_url, notebook_url = addresses(stem, PUBLIC)
    squeezed = "".join(first.split())      # a long address may break across lines on paper
    assert page_url in squeezed and notebook_url in squeezed
    assert sorted(first_page_codes(pdf)) == sorted([page_url, notebook_url])
