"""What every lesson table must have, checked by the lesson tests: a caption, column headers, labelled rows."""

from __future__ import annotations

from bs4 import BeautifulSoup


def unlabelled(html: str) -> list[str]:
    """A sentence for each table in `html` that lacks a caption, a column header or a row label (none: [])."""
    tables = BeautifulSoup(html, "html.parser").find_all("table")
    problems = [] if tables else ["no table"]
    for i, t in enumerate(tables):
        caption = t.find("caption")
        if not (caption and caption.get_text(strip=True)):
            problems.append(f"table {i} has no caption")
        if not t.find_all("th", scope="col"):
            problems.append(f"table {i} has no column headers")
        body = t.find("tbody") or t
        if any((r.find(["th", "td"]) or t).name != "th" for r in body.find_all("tr")):
            problems.append(f"table {i} has a row without its label")
    return problems
