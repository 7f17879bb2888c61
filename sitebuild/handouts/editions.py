"""The three prints of a lesson, declared once: the handout (answers at its end), the student edition (no answer;
room to write under each question) and the answer key (the answers alone). sitebuild.handouts.printer prints them,
sitebuild.pages.extension links them under each lesson's title, sitebuild.pages.lessonlist lists them on the landing page.
What each edition does to the page before it prints is here too (the scripts sitebuild.handouts.printer.prepare runs)."""
from __future__ import annotations

# edition -> (file suffix, the words of its link)
EDITIONS = {"handout": ("", "handout"), "student": ("-student", "student edition"), "key": ("-key", "answer key")}
SUFFIXES = tuple(suffix for suffix, _ in EDITIONS.values())


def files(stem: str) -> list[str]:
    """The file names of a lesson's prints: <stem>.pdf, <stem>-student.pdf, <stem>-key.pdf."""
    return [f"{stem}{suffix}.pdf" for suffix in SUFFIXES]


# A "check yourself" answer (<details class="answer">) prints at the end of the handout, numbered,
# where a reader who wants to try first does not see it under the question.
MOVE_ANSWERS_JS = """() => {
  const answers = [...document.querySelectorAll('article details.answer')];
  if (!answers.length) return 0;
  const end = document.createElement('section');
  end.className = 'handout-answers';
  end.innerHTML = '<h2>Answers</h2>';
  answers.forEach((d, k) => {
    const n = k + 1, summary = d.querySelector('summary');
    const question = summary ? summary.textContent.trim() : '';
    const here = document.createElement('p');
    here.className = 'answer-ref';
    here.innerHTML = '<b>' + n + '.</b> ';
    here.append(question + ' ');
    const ref = document.createElement('i');
    ref.textContent = '(answer ' + n + ' at the end)';
    here.append(ref);
    d.replaceWith(here);
    const head = document.createElement('h3');
    head.textContent = n + '. ' + question;
    if (summary) summary.remove();
    const body = document.createElement('div');
    body.append(...d.childNodes);
    end.append(head, body);
  });
  (document.querySelector('article.bd-article') || document.body).append(end);
  return answers.length;
}"""


# A long listing (an element of class print-appendix, titled by data-appendix) prints in an appendix after the
# lesson, lettered, with a line where it stood saying where it is; a folded one (<details>) without its
# summary. On the web page it stays where it is.
APPENDIX_JS = """() => {
  const items = [...document.querySelectorAll('article .print-appendix')];
  if (!items.length) return 0;
  const end = document.createElement('section');
  end.className = 'handout-appendix';
  end.innerHTML = '<h2>Appendix</h2>';
  items.forEach((el, k) => {
    const letter = String.fromCharCode(65 + k), title = el.dataset.appendix;
    const here = document.createElement('p');
    here.className = 'appendix-ref';
    here.textContent = title + ': appendix ' + letter + ', at the end of this handout.';
    el.replaceWith(here);
    const head = document.createElement('h3');
    head.textContent = letter + '. ' + title;
    const body = document.createElement('div');
    if (el.tagName === 'DETAILS') {
      el.querySelector(':scope > summary')?.remove();
      body.append(...el.childNodes);
    } else {
      body.append(el);
    }
    end.append(head, body);
  });
  (document.querySelector('article.bd-article') || document.body).append(end);
  return items.length;
}"""


# The three prints of a lesson: the handout (answers at the end), the student edition (no answer; each question
# keeps room to write) and the answer key (the answers alone). Questions are the "check yourself" reveals
# (details.answer) and the numbered exercises of an "...-exercises" section, whose answers stand in its
# "...-answers" section (the lab's).
EXERCISES_JS = """() => [...document.querySelectorAll("article section[id$='-exercises'] p")]
  .filter((p) => /^\\d+\\.$/.test((p.querySelector(':scope > strong:first-child') || {}).textContent || ''))"""
STUDENT_JS = """() => {
  const exercises = (%s)();
  const room = () => { const d = document.createElement('div'); d.className = 'write-space'; return d; };
  document.querySelectorAll('article details.answer').forEach((d, k) => {
    const summary = d.querySelector('summary');
    const here = document.createElement('p');
    here.className = 'answer-ref';
    here.innerHTML = '<b>' + (k + 1) + '.</b> ';
    here.append(summary ? summary.textContent.trim() : '');
    d.replaceWith(here, room());
  });
  exercises.forEach((p) => p.after(room()));
  document.querySelectorAll("article section[id$='-answers']").forEach((s) => s.remove());
  document.documentElement.classList.add('student-edition');
}""" % EXERCISES_JS
KEY_JS = """() => {
  const article = document.querySelector('article.bd-article');
  const title = article.querySelector('h1').cloneNode(true);
  title.querySelectorAll('a.headerlink').forEach((a) => a.remove());
  title.append(': answer key');
  const out = [title];
  const item = (n, question, body) => {
    const head = document.createElement('h3');
    head.textContent = n + '. ' + question;
    out.push(head, body);
  };
  document.querySelectorAll('article details.answer').forEach((d, k) => {
    const summary = d.querySelector('summary');
    const question = summary ? summary.textContent.trim() : '';
    if (summary) summary.remove();
    const body = document.createElement('div');
    body.append(...d.childNodes);
    item(k + 1, question, body);
  });
  const answers = [...document.querySelectorAll("article section[id$='-answers'] li")];
  (%s)().forEach((p, k) => {
    const question = p.cloneNode(true);
    question.querySelector('strong').remove();
    const body = document.createElement('div');
    if (answers[k]) body.append(...answers[k].childNodes);
    item(k + 1, question.textContent.trim(), body);
  });
  article.replaceChildren(...out);
  document.documentElement.classList.add('answer-key');
  return out.length;
}""" % EXERCISES_JS
