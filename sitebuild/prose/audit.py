"""The comparison audit of the sentences a lesson's Python wrote into its page (captions, summaries, table
captions, answers, box texts), reported at the module and line that wrote them.

While a lesson runs for the site, compute.present.prose records each text as written, roles and all, with
where it was written; the lesson's last cell files the record under the page's name
(`<build>/prose/<page>.jsonl`, sitebuild.pages.stamps). After Sphinx has run, each distinct text is audited as a page's
sentences are (sitebuild.audit.check: bound to claims that cover it, or marked), with the page's lesson's subjects
and settings, and a finding is told at the text's module and line.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from sitebuild.audit.check import AuditError, Finding, audit_page, known_claim_names, page_subjects
from sitebuild.pages.sphinx import PROSE
from sitebuild.audit.sentences import GLUED

# A value Python wrote with its label: "near 0.030", "4 near 0.03", "water 0.21". The label is
# data (a word of the sentence, a vocabulary word), not the author's: "near" there is a token, not a size. Both
# read as one value, as a glued number reads on a page. A word of the sentence's own grammar ("from 0.2 to 0.4",
# "falls to 0.31") is no label: it stays, and the value alone reads as one value.
_GRAMMAR = (r"(?:from|to|than|against|vs|versus|by|of|at|and|or|is|are|was|were|be|between|on|in|with|gives|puts|"
            r"falls|rises|drops|grows|goes|weight|share)")
LABELLED_VALUE = re.compile(rf"(?:\b\d+\s+)?(?<![\w’'-])(?!{_GRAMMAR}\b)[\w’'-]+\s+[<>]?-?\d+\.\d+%?", re.I)
VALUE = re.compile(r"[<>]?-?\d+\.\d+%?")


def as_written(text: str) -> str:
    """The text as the audit reads it: each labelled value one value (roles left as they are)."""
    parts = re.split(r"(\{\w+(?::\w+)?\}`[^`]*`)", text)
    return "".join(p if i % 2 else VALUE.sub(GLUED, LABELLED_VALUE.sub(GLUED, p)) for i, p in enumerate(parts))


@dataclass
class ProseAudit:
    page: str                                       # posts/<stem>.md
    texts: int = 0                                  # distinct texts (a place and its words)
    bound: int = 0                                  # sentences bound to claims
    marked: int = 0                                 # sentences marked method, design or general
    findings: list[Finding] = field(default_factory=list)

    def summary(self) -> str:
        return (f"{self.page}, written by Python: {self.texts} text{'' if self.texts == 1 else 's'}, "
                f"{self.bound} sentence{'' if self.bound == 1 else 's'} bound, {self.marked} marked")


def records(build_dir: Path, stem: str) -> list[dict]:
    """The distinct texts a lesson's Python wrote at its last run, each with where it was written, in order."""
    path = build_dir / PROSE / f"{stem}.jsonl"
    if not path.is_file():
        return []
    seen, out = set(), []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if "text" not in record:      # a number's record (sitebuild.prose.spelling)
            continue
        key = (record["text"], record["where"])
        if key not in seen:
            seen.add(key)
            out.append(record)
    return out


def audit_lesson(root: Path, build_dir: Path, stem: str, known, lessons: dict) -> ProseAudit:
    page = f"posts/{stem}.md"
    subjects, settings = lessons.get(page, (None, frozenset()))
    result = ProseAudit(page)
    for record in records(build_dir, stem):
        where = record["where"]
        path, _, line = where.rpartition(", line ")
        text = as_written(record["text"])
        audit = (audit_page(path, text, known, subjects, settings, typed=False) if subjects is not None
                 else audit_page(path, text, known, typed=False))
        result.texts += 1
        result.bound += len(audit.bound)
        result.marked += sum(audit.marked.values())
        for f in audit.findings:  # told where the text is written, not at a line inside the text
            result.findings.append(Finding(path, int(line) if line.isdigit() else f.line, f.problem))
    return result


def audit_prose(root: Path, build_dir: Path, stems: list[str]) -> list[ProseAudit]:
    """Every lesson's Python-written sentences audited; AuditError with one line per finding."""
    known, lessons = known_claim_names(), page_subjects(root)
    audits = [audit_lesson(root, build_dir, stem, known, lessons) for stem in stems]
    findings = [f for a in audits for f in a.findings]
    if findings:
        raise AuditError("\n".join(dict.fromkeys(str(f) for f in findings)))
    return audits
