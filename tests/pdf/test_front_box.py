"""Every lesson's front box, on its page and on its handout's first page: objectives, what to read first, time,
and the page's and notebook's addresses as text and as QR codes a phone can read off the paper."""
from __future__ import annotations

import unicodedata

import numpy as np
import pypdfium2
import pytest
import zxingcpp
from bs4 import BeautifulSoup
from pypdf import PdfReader

from conftest import LESSONS
from sitebuild.pages.frontbox import DEFAULT_URL
from sitebuild.pages.lessonlist import records

RECORDS = {r.page: r for r in records()}


def addresses(stem: str) -> tuple[str, str]:
    """The addresses a default build prints (no --url: the local preview's)."""
    return f"{DEFAULT_URL}posts/{stem}.html", f"{DEFAULT_URL}notebooks/{stem}.ipynb"


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
    page_url, notebook_url = addresses(stem)
    assert page_url in text and notebook_url in text
    assert len(box.select(".front-qr svg")) == 2


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
def test_the_handout_opens_with_the_box_and_codes_a_phone_can_read(built_site, stem):
    pdf = built_site / "handouts" / f"{stem}.pdf"
    first = unicodedata.normalize("NFKC", PdfReader(pdf).pages[0].extract_text())   # ﬁ as fi
    page_url, notebook_url = addresses(stem)
    assert "You will be able to" in first and "Read first:" in first
    squeezed = "".join(first.split())      # a long address may break across lines on paper
    assert page_url in squeezed and notebook_url in squeezed
    assert sorted(first_page_codes(pdf)) == sorted([page_url, notebook_url])
