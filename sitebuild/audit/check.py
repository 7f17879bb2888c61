"""The comparison audit: a sentence that compares or characterises values is bound to a claim or marked.

A sentence that states a direction, an order, a comparison, a quantifier or a
qualitative size ("falls", "the highest", "more than", "every", "near chance")
is found by the word patterns of sitebuild.audit.coverage.TRIGGERS. Each such sentence of a page
must either

* name the claims that back it: {claim}`claim_name` (several: space-separated,
  or several roles), rendered as nothing; or
* say that it is not about computed values: {about}`method` (how something is
  computed or done), {about}`design` (true by construction of the code, the
  data generator or a hand-set model), {about}`general` (about language models
  or the field, not our numbers), also rendered as nothing; or
* say that it reads values out in the order the code picked them:
  {about}`reading` ("the largest weight in each row: ...", "the likeliest next
  words are ..."), for a summary that puts a figure into words. Such a
  sentence may cite computed values, but its only comparing words are those
  of the pick itself (largest, most, likeliest, best, highest, top): the code
  that wrote the values chose them by that very order, so the word says how
  they were chosen and cannot drift from them. Any other comparison in it
  rests on a claim.

Anything else fails the build, naming the file and line. A page's title (its
`#` heading) names the page and is not audited; every other heading is. Names are checked
against compute's claims (`compute.checks.claim_lessons`), so a bound sentence
never names a claim that does not exist; every lesson's claims are checked
when the site builds, and a failing one is reported at each sentence bound to
it (`sentences_for`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from sitebuild.audit import coverage, reading, strength
from sitebuild.audit.coverage import TRIGGERS, caught, triggers  # noqa: F401 (the audit's words, re-exported)
from sitebuild.prose.spelling import site_spellings
from sitebuild.audit.sentences import Sentence, _mask as _masked, _plain as _plain_text, sentences, with_before
from sitebuild.computechecks import compute_checks

MARKS = ("method", "design", "general", "reading")  # the reasons {about} accepts
# The words of a pick, all a sentence marked {about}`reading` may compare with.
PICKED = re.compile(r"most|largest|likeliest|highest|best|top|strongest", re.I)


class AuditError(Exception):
    """Sentences that compare computed values without a claim, or that name claims that do not exist."""


@dataclass(frozen=True)
class Finding:
    path: str        # the page, relative to the site's root
    line: int
    problem: str     # one sentence, naming the words found and what to do

    def __str__(self) -> str:
        return f"{self.path}, line {self.line}: {self.problem}"


@dataclass
class PageAudit:
    path: str
    bound: list[tuple[Sentence, list[str]]] = field(default_factory=list)  # sentences and their claims
    marked: Counter = field(default_factory=Counter)                        # {reason: sentences}
    findings: list[Finding] = field(default_factory=list)

    def summary(self) -> str:
        claims = {c for _, names in self.bound for c in names}
        marks = ", ".join(f"{k} {v}" for k, v in sorted(self.marked.items()))
        return (f"{self.path}: {_count(len(self.bound), 'sentence')} bound to {_count(len(claims), 'claim')}, "
                f"{sum(self.marked.values())} marked{f' ({marks})' if marks else ''}")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def claim_names(sentence: Sentence) -> list[str]:
    return [name for content in sentence.role_contents("claim") for name in content.split()]


def quote(sentence: Sentence, width: int = 120) -> str:
    """The sentence as a reader would recognise it: roles shown by their content, shortened."""
    text = re.sub(r"\{glue(?::\w+)?\}`([^`:]*)[^`]*`", r"<\1>", sentence.source)
    text = re.sub(r"\s*\{(?:claim|about)\}`[^`]*`", "", text)
    text = re.sub(r"\{[\w:-]+\}`([^`]*)`", r"\1", text)
    return f'"{text if len(text) <= width else text[:width - 1] + "…"}"'


def glued(sentence: Sentence) -> list[str]:
    """The names of the glued values a sentence prints ({glue:text}`name:spec`)."""
    return [content.split(":")[0] for name, content in sentence.roles if name.startswith("glue")]


def clauses(sentence: Sentence) -> list[tuple[str, list[str]]]:
    """A bound sentence's clauses (split at semicolons) with the claims each rests on: its own roles, or, for a
    clause without one, every claim of the sentence; a clause marked {about} and bound to no claim is left out.
    Words mentioned (*rise*) are masked: they state nothing."""
    masked, _ = _masked(sentence.source)
    cuts = [0] + [m.end() for m in re.finditer(r";\s", masked)] + [len(masked)]
    out = []
    for a, b in zip(cuts, cuts[1:]):
        part = sentence.source[a:b]
        own = [n for c in re.findall(r"\{claim\}`([^`]*)`", part) for n in c.split()]
        if not own and "{about}`" in part:
            continue  # a clause marked as method, design or general rests on no claim
        mentions = coverage.MENTION.sub("\u2058", sentence.source[a:b])
        out.append((_plain_text(mentions), own or claim_names(sentence)))
    return out


def audit_page(path: str, text: str, known_claims: dict[str, str] | set[str] | None,
               subjects: coverage.Subjects = coverage.NO_SUBJECTS, settings: frozenset[str] = frozenset(),
               conditions: dict[str, str] | None = None, typed: bool = True) -> PageAudit:
    """Bound and marked sentences of one page, and a finding for every sentence that is neither, that says what
    its claims do not, or that is marked but cites computed values.

    `known_claims`: every claim there is, {name: statement} (a set of names: names are checked, what the claims
    cover is not; None: neither, as in a project without claims). `subjects`: the page's lesson's subjects;
    `settings`: the glued values that are settings (chosen, not computed), which a marked sentence may cite.
    `conditions`: {claim: the condition it needs} (compute.checks.claim_conditions): a sentence bound to such a
    claim must sit in an `{only} <condition>` block, so that it is not published where the claim is not checked.
    `typed`: refuse numbers typed into the text (sitebuild.audit.reading.typed_numbers); off for the sentences
    Python wrote, whose numbers it formatted from computed values.
    """
    result = PageAudit(path)
    statements = known_claims if isinstance(known_claims, dict) else None
    for s, before in with_before(sentences(text)):        # before: what a pronoun refers back to
        if s.heading == 1:
            continue  # the page's title names it
        by_hand = reading.typed_numbers(s.plain) if typed else []
        if by_hand:
            result.findings.append(Finding(path, s.line, f"{quote(s)} {reading.typed_problem(by_hand)}"))
        names, marks = claim_names(s), s.role_contents("about")
        for mark in marks:
            if mark not in MARKS:
                result.findings.append(Finding(path, s.line, f"{{about}}`{mark}` is not one of {', '.join(MARKS)}"))
        unknown = [n for n in names if known_claims is not None and n not in known_claims]
        for n in unknown:
            result.findings.append(Finding(path, s.line, f"no claim is called {n!r}: {quote(s)}"))
        if names:
            result.bound.append((s, names))
            for n in names:
                needed = (conditions or {}).get(n)
                if needed and s.only != needed:
                    result.findings.append(Finding(
                        path, s.line, f"{quote(s)} rests on claim {n}, which is checked only where {needed} holds: "
                                      f"put the sentence in a ':::{{only}} {needed}' block, so that it is published "
                                      "only where the claim is checked"))
            if statements is not None and not unknown:
                gaps = [g for part, claims in clauses(s)
                        for g in coverage.uncovered(part, [statements[n] for n in claims], subjects,
                                                    f"{before} {s.plain}")
                        + reading.disagreements(part, [statements[n] for n in claims], subjects.places)
                        + strength.data_gaps(part, claims, statements, subjects)]
                if gaps:
                    result.findings.append(Finding(
                        path, s.line, f"{quote(s)} rests on claim{'s' if len(names) > 1 else ''} {', '.join(names)}, "
                                      f"which {'do' if len(names) > 1 else 'does'} not cover: "
                                      f"{'; '.join(dict.fromkeys(gaps))}"))
        elif marks and marks[0] == "reading":
            result.marked["reading"] += 1
            beyond = [w for w in triggers(coverage.MENTION.sub("\u2058", s.plain)) if not PICKED.fullmatch(w)]
            if beyond:
                result.findings.append(Finding(
                    path, s.line, f"{quote(s)} is marked {{about}}`reading` but says more than which values were "
                                  f"picked ({', '.join(dict.fromkeys(beyond))}): bind it to a claim with "
                                  "{claim}`name`"))
        elif marks:
            result.marked[marks[0]] += 1
            stated = reading.results_stated(s.plain, subjects) if marks[0] in ("method", "general") else ""
            if stated:
                result.findings.append(Finding(path, s.line, f"{quote(s)} is marked {{about}}`{marks[0]}` but "
                                                             f"{reading.result_problem(stated)}"))
            computed = [g for g in glued(s) if g not in settings]
            digits = [m.group() for m in coverage.DIGITS_WRITTEN.finditer(s.plain)]
            if computed or digits:
                cited = ", ".join(dict.fromkeys(computed + digits))
                result.findings.append(Finding(
                    path, s.line, f"{quote(s)} is marked {{about}}`{marks[0]}` but cites computed values ({cited}): "
                                  "a sentence about computed values rests on a claim ({claim}`name`)"))
        else:
            words = triggers(coverage.MENTION.sub("\u2058", s.plain))  # words mentioned state nothing
            if words:
                listed = ", ".join(dict.fromkeys(words))
                result.findings.append(Finding(
                    path, s.line, f"unbound comparison ({listed}) in {quote(s)}: bind it to a claim with "
                                  "{claim}`name` or mark it {about}`method` (or design, general)"))
    return result


def known_claim_names() -> dict[str, str] | set[str] | None:
    """Every claim of every lesson with its statement (compute.checks.claim_statements), its names only in a
    project whose compute has no statements, or None in a project without claims."""
    checks = compute_checks()
    if checks is None:
        return None
    if hasattr(checks, "claim_statements"):
        return strength.Statements(checks.claim_statements(), checks)
    return set(checks.claim_lessons()) if hasattr(checks, "claim_lessons") else None


def known_claim_conditions() -> dict[str, str]:
    """{claim: the condition it needs} (compute.checks.claim_conditions); none in a project without them."""
    checks = compute_checks()
    return checks.claim_conditions() if hasattr(checks, "claim_conditions") else {}


def page_subjects(root: Path) -> dict[str, tuple[coverage.Subjects, frozenset[str]]]:
    """{page path: (its lesson's subjects, its settings)} from the lesson records (none in a project without)."""
    from sitebuild.pages.lessonlist import records
    out = {}
    for r in records(root):
        subjects = coverage.Subjects(getattr(r, "subjects", None) or {}, getattr(r, "wholes", None) or {})
        out[f"posts/{r.page}.md"] = (subjects, frozenset(getattr(r, "settings", None) or ()))
    return out


def audited_pages(root: Path) -> list[Path]:
    """The pages a reader reads: index.md, 404.md, glossary.md and every lesson under posts/."""
    return [p for p in [root / "index.md", root / "404.md", root / "glossary.md", *sorted((root / "posts").glob("*.md"))]
            if p.is_file()]


def page_text(path: Path, root: Path) -> str:
    """A page's text; AuditError naming the page, the first byte that is not UTF-8 and where it is."""
    blob = path.read_bytes()
    try:
        return blob.decode("utf-8")
    except UnicodeDecodeError as err:
        before = blob[:err.start]
        line, column = before.count(b"\n") + 1, err.start - (before.rfind(b"\n") + 1) + 1
        raise AuditError(f"{path.relative_to(root).as_posix()}: not UTF-8 text (byte 0x{blob[err.start]:02x} at "
                         f"line {line}, column {column}); save it as UTF-8") from None


def record_texts(root: Path) -> list[tuple[str, str]]:
    """(file, text) of every sentence-bearing field of the lesson records (sitebuild.pages.lessonlist writes them into
    the landing page), the text shifted by blank lines to sit at its line in the record's file."""
    from sitebuild.pages.lessonlist import records
    out = []
    for r in records(root):
        path = root / "compute" / "lessons" / r.package / "__init__.py"
        source = path.read_text(encoding="utf-8") if path.is_file() else ""
        for value in (r.does, r.reading, *getattr(r, "objectives", ()), getattr(r, "first", "")):
            at = source.find(value.splitlines()[0]) if value.strip() else -1
            line = source[:at].count("\n") if at >= 0 else 0
            out.append((path.relative_to(root).as_posix(), "\n" * line + value.lstrip(",; ")))
    return out


def record_sentences(root: Path) -> list[tuple[str, Sentence]]:
    return [(page, s) for page, text in record_texts(root) for s in sentences(text)]


def record_audit(root: Path, known: set[str] | None) -> PageAudit:
    """The landing page's lesson list, audited where the records write it."""
    result = PageAudit("index.md")
    for page, text in record_texts(root):
        part = audit_page(page, text, known)
        result.bound += part.bound
        result.marked.update(part.marked)
        result.findings += part.findings
    return result


def unlisted_pages(root: Path) -> list[str]:
    """A sentence for every lesson page without a record and every record without its page (none in a project
    without records)."""
    from sitebuild.pages.lessonlist import records
    listed = {r.page: r for r in records(root)}
    if not listed:
        return []
    pages = {p.stem for p in (root / "posts").glob("*.md")}
    return ([f"posts/{page}.md: no lesson record lists this page (add LESSON = Lesson(page=\"{page}\", ...) to "
             "its package's __init__.py under compute/lessons)" for page in sorted(pages - set(listed))]
            + [f"compute/lessons/{listed[page].package}/__init__.py: its LESSON's page posts/{page}.md does not exist"
               for page in sorted(set(listed) - pages)])


def audit_pages(root: Path, paths: list[Path], known: set[str] | None) -> list[PageAudit]:
    """Each page's audit; the landing page's includes the lesson list its records write."""
    lessons, conditions = page_subjects(root), known_claim_conditions()
    audits = []
    for p in paths:
        rel = p.relative_to(root).as_posix()
        subjects, settings = lessons.get(rel, (coverage.NO_SUBJECTS, frozenset()))
        audits.append(audit_page(rel, page_text(p, root), known, subjects, settings, conditions))
    for a in audits:
        if a.path == "index.md":
            listed = record_audit(root, known)
            a.bound += listed.bound
            a.marked.update(listed.marked)
            a.findings += listed.findings
    return audits


def audit_site(root: Path) -> list[PageAudit]:
    """Audit every page (the landing page with its lesson list, from the records); raise AuditError listing every
    finding (one line each)."""
    audits = audit_pages(root, audited_pages(root), known_claim_names())
    problems = (unlisted_pages(root) + site_spellings(root, audited_pages(root))
                + [str(f) for a in audits for f in a.findings])
    if problems:
        raise AuditError("\n".join(problems))
    return audits


def sentences_for(root: Path, claim: str) -> list[tuple[str, Sentence]]:
    """(page, sentence) for every sentence bound to `claim`, in page order."""
    out = []
    for p in audited_pages(root):
        for s in sentences(p.read_text(encoding="utf-8", errors="replace")):
            if claim in claim_names(s):
                out.append((p.relative_to(root).as_posix(), s))
        if p.name == "index.md" and p.parent == root:
            out += [(page, s) for page, s in record_sentences(root) if claim in claim_names(s)]
    return out


_FAILED = re.compile(r"claim (\w+) fails: ")  # compute.claims.Registry.require_all: 'claim x fails: S [numbers]'


def failed_claims(message: str) -> list[tuple[str, str, str, str]]:
    """(name, statement, evidence, what follows) of each failing claim in a ClaimError's message.

    Claims are '; '-separated; what follows the last one is the checked source, '(path)', if any."""
    parts = _FAILED.split(message)
    out = []
    for name, text in zip(parts[1::2], parts[2::2]):
        end, depth = text.rfind("]"), 0
        for start in range(end, -1, -1):  # the '[' that opens the last bracketed group: the evidence
            depth += {"]": 1, "[": -1}.get(text[start], 0)
            if depth == 0:
                break
        if end <= 0:
            out.append((name, text.strip(), "", ""))
        else:
            out.append((name, text[:start].rstrip(), text[start + 1:end], text[end + 1:].strip().strip(";").strip()))
    return out


def locate_failed_claims(message: str, root: Path) -> str:
    """A ClaimError's message, each failing claim reported at the sentences bound to it, one line each.

    'claim x fails: S [numbers] (source)' becomes 'posts/p.md, line 12: "the sentence" rests on claim x,
    which fails: S [numbers] (source)'. A message whose failing claims are bound to no sentence (they back
    a table or a figure) is returned as it was.
    """
    failures = failed_claims(message)
    source = failures[-1][3] if failures else ""
    lines, located = [], False
    for name, statement, evidence, _ in failures:
        places = sentences_for(root, name)
        located |= bool(places)
        failure = f"{statement} [{evidence}]{f' {source}' if source else ''}"
        lines += ([f"{page}, line {s.line}: {quote(s, 90)} rests on claim {name}, which fails: {failure}"
                   for page, s in places] or [f"claim {name} fails: {failure}"])
    return "\n".join(lines) if located else message


def main(argv: list[str] | None = None) -> int:
    """python -m sitebuild.audit [--list] [PAGE ...]: the findings (exit 1), or each page's counts (exit 0).

    --list prints every comparing sentence with its claims or mark: the review an author reads.
    """
    import argparse
    import sys

    from sitebuild import ROOT
    parser = argparse.ArgumentParser(prog="python -m sitebuild.audit", description=main.__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="*", help="pages to audit, relative to the site's root (default: all)")
    parser.add_argument("--list", action="store_true", help="print every comparing sentence and its binding")
    args = parser.parse_args(argv)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    known = known_claim_names()
    paths = [ROOT / p for p in args.pages] or audited_pages(ROOT)
    audits = audit_pages(ROOT, paths, known)
    for page, a in zip(paths, audits):
        if args.list:
            for s in sentences(page.read_text(encoding="utf-8")):
                words, names, marks = triggers(s.plain), claim_names(s), s.role_contents("about")
                if words or names or marks:
                    binding = " ".join(names) or (f"[{marks[0]}]" if marks else "UNBOUND")
                    why = "; ".join(caught(s.plain))
                    print(f"{a.path}:{s.line}: {binding}: {quote(s, 150)}{f' [{why}]' if why else ''}")
        for f in a.findings:
            print(f"error: {f}")
        print(a.summary())
    return 1 if any(a.findings for a in audits) else 0


if __name__ == "__main__":
    raise SystemExit(main())
