"""One lesson's prints as Typst sources, written from its finished page (_build/html/posts/<stem>.html).

Three files per lesson under _build/prints/<stem>/ (and a fourth where the lesson has optional listings):

  lesson.typ    the chapter: cover (title, edition, front box, contents), the lesson, its answers and glossary;
                set as the handout or the student edition by `sys.inputs.edition`
  key.typ       the answer key: each question and its answer, with the section and page where it is asked
  appendix.typ  the listings the page marks `print-appendix` (Part III's stories), printed apart

The page is read once; every sentence, number, table and figure comes from it, as the web shows them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from bs4 import BeautifulSoup, Tag

from sitebuild.prints.markup import Page, blocks, escape, inline, label, string
from sitebuild.prints.qr import codes

TEMPLATE = "/prints/chapter.typ"     # copied beside the sources (sitebuild.prints.typeset.sources)


@dataclass
class Lesson:
    stem: str
    title: str                  # as markup
    plain_title: str
    body: str                   # the chapter's markup, questions and all
    questions: list[dict]       # n, question, answer, section (markup), label
    appendix: list[tuple[str, str]] = field(default_factory=list)   # (title, markup)
    glossary: list[tuple[str, str]] = field(default_factory=list)   # (term, definition) as markup
    notation: list[tuple[str, str]] = field(default_factory=list)   # (symbols, meaning) as markup
    notation_intro: str = ""    # the glossary's sentence before its notation table
    front: str = ""             # the front box's call


def answer_sections(article: Tag) -> list[Tag]:
    """The sections that answer a page's exercises: "<x>-answers" beside an "<x>-exercises" (the lab's), marked
    so the markup prints them with the other answers (a section whose title merely ends in "answers" is not)."""
    found = []
    for section in article.select("section[id$='-exercises']"):
        answers = article.find("section", id=section["id"].removesuffix("-exercises") + "-answers")
        if answers is not None:
            answers["data-answers"] = "exercises"
            found.append(answers)
    return found


def exercises(article: Tag) -> list[tuple[Tag, Tag | None]]:
    """The numbered exercises of an "...-exercises" section and their answers, in order, from its answers
    section (answer_sections)."""
    asked = [p for section in article.select("section[id$='-exercises']") for p in section.find_all("p")
             if (strong := p.find("strong")) is not None and re.fullmatch(r"\d+\.", strong.get_text(strip=True))
             and p.contents and p.contents[0] == strong]
    answers = [li for section in answer_sections(article) for li in section.find_all("li")]
    return [(p, answers[k] if k < len(answers) else None) for k, p in enumerate(asked)]


def mark_questions(article: Tag, page: Page) -> list[dict]:
    """Every question of the page numbered in order: each "check yourself" reveal and each exercise, replaced by
    a placeholder the markup turns into the chapter's `question`."""
    questions = []
    found: list[tuple[Tag, Tag, Tag | None]] = []
    for details in article.select("details.answer"):
        summary = details.find("summary")
        if summary:
            summary.extract()
        found.append((details, summary, details))
    for p, answer in exercises(article):
        p.find("strong").extract()
        found.append((p, p, answer))
    order = {id(el): k for k, el in enumerate(article.find_all(["details", "p"]))}
    found.sort(key=lambda item: order.get(id(item[0]), 0))
    for n, (el, asked, answer) in enumerate(found, 1):
        heading = el.find_previous(["h2", "h3"])
        section = heading.find_parent("section") if heading else None
        question = "".join(inline(c, page) for c in asked.children).strip() if asked is not None else ""
        reply = "\n".join(blocks(answer, page)) if answer is not None else ""
        questions.append({"n": n, "question": question, "answer": reply,
                          "section": "".join(inline(c, page) for c in heading.children).strip() if heading else "",
                          "label": label(section["id"]) if section and section.get("id") else ""})
        marker = BeautifulSoup("<p></p>", "html.parser").p
        marker["data-question"] = str(n)
        el.replace_with(marker)
    return questions


class ApartError(ValueError):
    """A part of the page marked to be printed apart that cannot be: it holds a question of the chapter."""


def appendix(article: Tag, page: Page) -> list[tuple[str, str]]:
    """The page's optional material, printed apart: each listing marked `print-appendix` replaced by a line saying
    where it is printed; a section so marked (`{.print-appendix}` before its heading) keeps its heading, and the
    line stands for its body. What is linked inside it is named by its appendix (page.apart)."""
    out = []
    marked = [el for el in article.select(".print-appendix") if el.find_parent(class_="print-appendix") is None]
    for k, el in enumerate(marked):
        letter = chr(65 + k)
        heading = el.find(re.compile(r"^h[2-6]$"), recursive=False) if el.name == "section" else None
        asked = el.select_one("p[data-question]")
        if asked is not None:
            raise ApartError(f"the part printed apart as appendix {letter} holds question {asked['data-question']}"
                             f" of the chapter; a question is printed where it is asked")
        title = el.get("data-appendix", "") or section_title(heading)
        summary = el.find("summary", recursive=False)
        if summary:
            summary.extract()
        if heading is not None:
            heading.extract()
        out.append((f"{letter}. {escape(title)}", "\n".join(blocks(el, page))))
        page.apart.update({node["id"]: letter for node in [el, *el.find_all(id=True)] if node.get("id")})
        line = BeautifulSoup("<p></p>", "html.parser").p
        if heading is None:
            line.string = f"{title}: appendix {letter}, printed apart ({page.stem}-appendix.pdf)."
            el.replace_with(line)
        else:
            page.apart.pop(el.get("id", ""), None)       # the heading stays: a link to the section finds it here
            line.string = f"This section is printed apart, as appendix {letter} ({page.stem}-appendix.pdf)."
            el.clear()
            el.extend([heading, line])
    return out


def section_title(heading: Tag | None) -> str:
    """A section's title as its appendix names it: "Section 4: A fixed window" for "4. A fixed window"."""
    if heading is None:
        return ""
    heading = BeautifulSoup(str(heading), "html.parser").find(True)
    for a in heading.select("a.headerlink"):
        a.decompose()
    text = heading.get_text(" ", strip=True)
    numbered = re.fullmatch(r"(\d+)\.\s+(.*)", text)
    return f"Section {numbered[1]}: {numbered[2]}" if numbered else text


def glossary(html_dir: Path, terms: dict[str, str], page: Page) -> list[tuple[str, str]]:
    """The site glossary's entries for the terms the lesson links, in the glossary's order."""
    source = html_dir / "glossary.html"
    if not terms or not source.exists():
        return []
    soup = BeautifulSoup(source.read_text(encoding="utf-8"), "html.parser")
    out = []
    for dt in soup.select("dl.glossary dt[id]"):
        if dt["id"] in terms:
            dd = dt.find_next_sibling("dd")
            term = "".join(inline(c, page) for c in dt.children).strip()
            words = [inline(c, page) for p in (dd.find_all("p") if dd else []) for c in p.children]
            out.append((term, "".join(words).strip()))
    return out


def short_name(title: str) -> str:
    """How the glossary's notation table names a lesson: its title before the colon, less an article
    ("A trained walkthrough: ..." is named "the trained walkthrough" there)."""
    name = title.split(":")[0].strip().lower()
    return re.sub(r"^(a|the) ", "", name)


def notation(html_dir: Path, title: str, page: Page) -> tuple[str, list[tuple[str, str]]]:
    """The site's notation (glossary.html#notation): its opening sentence, and the rows this lesson uses (those
    used throughout and those whose "where" names it)."""
    source = html_dir / "glossary.html"
    if not source.exists():
        return "", []
    soup = BeautifulSoup(source.read_text(encoding="utf-8"), "html.parser")
    intro = soup.select_one("section#notation > p")
    name, out = short_name(title), []
    for tr in soup.select("section#notation tbody tr"):
        cells = tr.find_all("td")
        where = cells[2].get_text(" ", strip=True).lower() if len(cells) > 2 else ""
        if "throughout" in where or name in where:
            symbol, meaning = ("".join(inline(c, page) for p in cell.find_all("p") for c in p.children).strip()
                               for cell in cells[:2])
            out.append((symbol, meaning))
    return ("".join(inline(c, page) for c in intro.children).strip() if intro else ""), out


def front(box: Tag | None, page: Page, url: str | None, codes_dir: Path) -> str:
    """The front box's call: objectives, what to read first, the time; the address and its codes only when the
    site has a public address."""
    if box is None:
        return ""
    objectives = [f"[{''.join(inline(c, page) for c in li.children).strip()}]"
                  for li in box.select(".front-objectives li")]
    fields = {"Read first:": "[]", "Time:": "[]"}
    for p in box.select(".front-text > p"):
        strong = p.find("strong")
        if strong and strong.get_text(strip=True) in fields:
            strong.extract()
            fields[strong.get_text(strip=True)] = "[" + "".join(inline(c, page) for c in p.children).strip() + "]"
    online, images = "[]", []
    if url:
        address = f"{url}posts/{page.stem}.html"
        notebook = f"{url}notebooks/{page.stem}.ipynb"
        online = (f"[the page, #link({string(address)})[{escape(address)}]; its notebook, "
                  f"#link({string(notebook)})[{escape(notebook)}].]")
        images = [string(p) for p in codes([address, notebook], codes_dir, page.root)]
    return (f"#front(({', '.join(objectives)},), {fields['Read first:']}, {fields['Time:']}, {online}, "
            f"({', '.join(images)}{',' if images else ''}))")


def read_lesson(html_dir: Path, stem: str, root: Path, url: str | None, out_dir: Path) -> Lesson:
    """A lesson's parts, from its finished page."""
    path = html_dir / "posts" / f"{stem}.html"
    soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    article = soup.select_one("article") or soup.body
    css = html_dir / "_static" / "site.css"
    page = Page(path.parent, root, stem=stem, folder=out_dir,
                css=css.read_text(encoding="utf-8") if css.exists() else "")
    h1 = article.find("h1")
    for a in h1.select("a.headerlink"):
        a.decompose()
    title = "".join(inline(c, page) for c in h1.children).strip()
    plain = h1.get_text(" ", strip=True)
    h1.decompose()
    box = article.select_one("aside.front-box")
    front_call = front(box, page, url, out_dir)
    if box:
        box.decompose()
    questions = mark_questions(article, page)
    page.questions = {q["n"]: q for q in questions}
    listings = appendix(article, page)
    body = "\n\n".join(blocks(article, page))
    intro, symbols = notation(html_dir, plain, page)
    return Lesson(stem, title, plain, body, questions, listings, glossary(html_dir, page.terms, page),
                  symbols, intro, front_call)


def chapter_source(lesson: Lesson, epoch_date: str) -> str:
    """lesson.typ: the handout or the student edition, by `sys.inputs.edition`."""
    terms = ", ".join(f"([{t}], [{d}])" for t, d in lesson.glossary)
    symbols = ", ".join(f"([{s}], [{m}])" for s, m in lesson.notation)
    return "\n".join([
        f'#import "{TEMPLATE}": *',
        f'#let kind = if edition == "student" {{"Student edition"}} else {{"Handout"}}',
        f"#show: chapter.with(title: [{lesson.title}], short: {string(lesson.plain_title)}, kind: kind, "
        f"date: {epoch_date})",
        f"#cover([{lesson.title}], kind)",
        "#student-line()",
        lesson.front,
        "#contents()",
        lesson.body,
        "#answers-at-end()",
        f"#glossary(({terms}{',' if lesson.glossary else ''}), ({symbols}{',' if lesson.notation else ''}), "
        f"[{lesson.notation_intro}])",
        "",
    ])


def key_source(lesson: Lesson, epoch_date: str, pages: dict[int, int]) -> str:
    """key.typ: every question, its section and page in the student edition, and its answer."""
    items = []
    for q in lesson.questions:
        where = f"[{q['section']}]" if q["section"] else "[]"
        items.append(f"(n: {q['n']}, question: [{q['question']}], section: {where}, page: {pages.get(q['n'], 0)}, "
                     f"answer: [{q['answer']}])")
    return "\n".join([
        f'#import "{TEMPLATE}": *',
        f"#show: chapter.with(title: [{lesson.title}], short: {string(lesson.plain_title)}, kind: \"Answer key\", "
        f"date: {epoch_date})",
        f'#cover([{lesson.title}], "Answer key")',
        f"#key-items(({', '.join(items)}{',' if items else ''}))",
        "",
    ])


def appendix_source(lesson: Lesson, epoch_date: str) -> str:
    parts = [f'#import "{TEMPLATE}": *',
             f"#show: chapter.with(title: [{lesson.title}], short: {string(lesson.plain_title)}, "
             f"kind: \"Appendix\", date: {epoch_date})",
             f'#cover([{lesson.title}], "Appendix")']
    for k, (title, body) in enumerate(lesson.appendix):   # figures and tables numbered by part: A.1, A.2, B.1
        letter = chr(65 + k)
        parts += ["#counter(figure.where(kind: image)).update(0)", "#counter(figure.where(kind: table)).update(0)",
                  f'#set figure(numbering: n => "{letter}." + str(n))', f"#heading(level: 1)[{title}]", body]
    return "\n\n".join(parts) + "\n"
