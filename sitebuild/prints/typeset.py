"""Typeset each lesson's prints with Typst: the handout, the student edition, the answer key and, where the page
has optional listings, the appendix (sitebuild.prints.lesson writes their sources from the finished page).

A lesson is set again only when what its prints are made from changed: its page as print reads it (the HTML less
the navigation, sitebuild.prints.stamps), the site glossary, the public address, the source's date and the code
and template that set it. Each PDF is sealed (sitebuild.sealed) in `stamps.json` beside them; a damaged one is
set again and the summary says so. The fonts are the ones Typst carries (no system font is read) and the
document's date is the source's (sitebuild.sourcedate), so two builds of one source give the same bytes.
Lessons are set side by side, one per core, each in a process started afresh (spawned, not forked: a fork of a
process that runs threads, a browser driver's or torch's, can copy a lock another thread holds and wait on it for
ever).
"""
from __future__ import annotations

import json
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from sitebuild import cores, progress, sealed
from sitebuild.prints.stamps import lesson_stamp, prints_kept, read_stamps, sealed_stamp, write_stamps

SOURCES = "prints"          # the Typst sources, beside the built pages (_build/prints/<stem>/); Typst reads from
                            # their common folder (_build/), so the pages' pictures and the templates are in reach
TEMPLATES = ("chapter.typ", "slides.typ")


class PrintError(Exception):
    """A print could not be set: names the lesson and Typst's message."""


def typst_date(epoch: int) -> str:
    t = time.gmtime(epoch)
    return (f"datetime(year: {t.tm_year}, month: {t.tm_mon}, day: {t.tm_mday}, hour: {t.tm_hour}, "
            f"minute: {t.tm_min}, second: {t.tm_sec})")


def compile_typst(source: Path, root: Path, out: Path, edition: str | None = None) -> None:
    import typst
    inputs = {"edition": edition} if edition else {}
    try:
        typst.compile(str(source), output=str(out), root=str(root), ignore_system_fonts=True, sys_inputs=inputs)
    except typst.TypstError as exc:
        detail = getattr(exc, "diagnostic", "") or str(exc)
        raise PrintError(f"{source}: Typst could not set it ({edition or 'key'}): "
                         f"{str(exc)}\n{detail}") from None


def question_pages(source: Path, root: Path) -> dict[int, int]:
    """{question number: page} in the student edition."""
    import typst
    found = typst.query(str(source), "<question-page>", field="value", root=str(root), ignore_system_fonts=True,
                        sys_inputs={"edition": "student"})
    return {item["n"]: item["page"] for item in json.loads(found)}


def sources(html_dir: Path) -> Path:
    """The sources' folder, with the templates copied in (the sources import them from there)."""
    folder = html_dir.parent / SOURCES
    folder.mkdir(parents=True, exist_ok=True)
    for name in TEMPLATES:
        text = (Path(__file__).parent / name).read_text(encoding="utf-8")
        if not (folder / name).exists() or (folder / name).read_text(encoding="utf-8") != text:
            (folder / name).write_text(text, encoding="utf-8")
    return folder


def set_lesson(html_dir: Path, stem: str, out_dir: Path, url: str | None, epoch: int) -> list[str]:
    """Write a lesson's Typst sources and set its prints into out_dir; the names of the PDFs made."""
    from sitebuild.prints.lesson import ApartError, appendix_source, chapter_source, key_source, read_lesson
    root = html_dir.parent
    out_dir.mkdir(parents=True, exist_ok=True)
    folder = sources(html_dir) / stem
    folder.mkdir(parents=True, exist_ok=True)
    try:
        lesson = read_lesson(html_dir, stem, root, url, folder)
    except ApartError as exc:
        raise PrintError(f"posts/{stem}.md: {exc}") from None
    date = typst_date(epoch)
    chapter = folder / "lesson.typ"
    chapter.write_text(chapter_source(lesson, date), encoding="utf-8")
    compile_typst(chapter, root, out_dir / f"{stem}.pdf", "handout")
    compile_typst(chapter, root, out_dir / f"{stem}-student.pdf", "student")
    key = folder / "key.typ"
    key.write_text(key_source(lesson, date, question_pages(chapter, root)), encoding="utf-8")
    compile_typst(key, root, out_dir / f"{stem}-key.pdf")
    made = [f"{stem}.pdf", f"{stem}-student.pdf", f"{stem}-key.pdf"]
    if lesson.appendix:
        appendix = folder / "appendix.typ"
        appendix.write_text(appendix_source(lesson, date), encoding="utf-8")
        compile_typst(appendix, root, out_dir / f"{stem}-appendix.pdf")
        made.append(f"{stem}-appendix.pdf")
    return made


def make_prints(html_dir: Path, stems: list[str], out_dir: Path, url: str | None, epoch: int) -> list[str]:
    """Set the prints of every lesson in `stems` whose stamp changed; the stems set this time. Prints of lessons
    no longer in `stems` are removed. Raises PrintError."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stamps = {s: h for s, h in read_stamps(out_dir).items() if s in stems and isinstance(h, dict)}
    now = {stem: lesson_stamp(html_dir, stem, url, epoch) for stem in stems}
    todo = [stem for stem in stems if not (stamps.get(stem, {}).get("stamp") == now[stem]
                                           and prints_kept(out_dir, stamps[stem]))]
    if todo:
        progress.expect(len(todo))
        spawn = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(min(cores.at_once(), len(todo)), mp_context=spawn) as pool:
            jobs = {stem: pool.submit(set_lesson, html_dir, stem, out_dir, url, epoch) for stem in todo}
            for stem in todo:
                made = jobs[stem].result()
                stamps[stem] = sealed_stamp(out_dir, now[stem], made)
                progress.advance(stem)
    write_stamps(out_dir, stamps)
    listed = {name for stem in stems for name in stamps[stem]["files"]}
    for pdf in out_dir.glob("*.pdf"):
        if pdf.name not in listed:
            pdf.unlink()                        # a lesson gone, or an appendix a lesson no longer has
    return todo


def printed_files(out_dir: Path, stems: list[str]) -> list[Path]:
    """Every PDF the stage made for `stems`, as its stamps list them."""
    stamps = read_stamps(out_dir)
    return [out_dir / name for stem in stems for name in stamps.get(stem, {}).get("files", {})]
