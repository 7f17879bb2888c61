"""What a lesson's prints are made from, as one stamp, and the seals of the PDFs made from it.

The stamp hashes the page as print reads it (its article: navigation, which every new lesson changes on every
page, is not read), the site glossary's entries, the address the prints carry, the source's date, and the
print stage's own code and template. The PDFs are sealed as they are written (sitebuild.sealed), so a damaged
or missing one is set again."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from sitebuild import sealed

STAMPS = "stamps.json"     # in the prints' folder: each lesson's stamp and its PDFs' seals
ARTICLE = re.compile(r"<article.*?</article>", re.S)


def code_hash() -> bytes:
    """The print stage's modules and template."""
    h = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*")):
        if path.suffix in (".py", ".typ"):
            h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.digest()


def printed_part(html: str) -> str:
    """What the prints read of a page: its article (the navigation, which a new lesson changes on every page,
    is not printed)."""
    found = ARTICLE.search(html)
    return found.group(0) if found else html


def lesson_stamp(html_dir: Path, stem: str, url: str | None, epoch: int) -> str:
    h = hashlib.sha256(code_hash())
    h.update(f"{url or ''}\0{epoch}\0".encode())
    h.update(printed_part((html_dir / "posts" / f"{stem}.html").read_text(encoding="utf-8")).encode())
    glossary = html_dir / "glossary.html"
    if glossary.exists():
        h.update(printed_part(glossary.read_text(encoding="utf-8")).encode())
    return h.hexdigest()


def read_stamps(out_dir: Path) -> dict:
    """The stamps as the last build left them; none (every print set again, and the summary saying so) when the
    record is unreadable."""
    stamps, flaw = sealed.read_json(out_dir / STAMPS, {})
    if flaw or not isinstance(stamps, dict):
        sealed.heal(f"{out_dir.name}/{STAMPS}", flaw or "not a record of stamps")
        return {}
    return stamps


def write_stamps(out_dir: Path, stamps: dict) -> None:
    sealed.write_json(out_dir / STAMPS, stamps)


def sealed_stamp(out_dir: Path, stamp: str, names: list[str]) -> dict:
    return {"stamp": stamp, "files": {name: sealed.digest(out_dir / name) for name in names}}


def prints_kept(out_dir: Path, record: dict) -> bool:
    """Whether every PDF of a lesson's record is there as it was sealed; a damaged one is noted (sitebuild.sealed)
    and the lesson set again."""
    seals = record.get("files") or {}
    if not seals:
        return False
    for name, seal in seals.items():
        flaw = sealed.file_flaw(out_dir / name, seal)
        if flaw:
            sealed.heal(f"print {name}", flaw)
            return False
    return True
