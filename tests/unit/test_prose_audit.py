"""Sentences a lesson's Python writes: printed without their roles, recorded with where they were written."""
from __future__ import annotations

import json

import pytest

from compute.present import prose
from sitebuild.prose.audit import as_written
from sitebuild.audit.sentences import GLUED

pytestmark = pytest.mark.unit


def test_said_prints_without_roles_and_records_the_text_as_written(tmp_path, monkeypatch):
    monkeypatch.setenv(prose.RECORD, str(tmp_path))
    shown = prose.said("Bank reads river most {claim}`bank_reads_river_in_A`. Rows sum to one {about}`design`.")
    assert shown == "Bank reads river most. Rows sum to one."
    [record] = [json.loads(line) for f in tmp_path.iterdir() for line in f.read_text().splitlines()]
    assert record["text"].endswith("{about}`design`.")
    assert record["where"].startswith("tests/unit/test_prose_audit.py, line ")


def test_each_entry_is_in_the_record_as_it_is_written_and_one_after_the_filing_starts_a_new_record(tmp_path,
                                                                                                     monkeypatch):
    # the record is opened once per kernel; what the lesson's last cell files under the page's name
    # (sitebuild.pages.stamps.PROSE_FILING) holds every entry written before, and an entry after it is kept too
    monkeypatch.setenv(prose.RECORD, str(tmp_path))
    prose.said("First {about}`design`.")
    [record] = tmp_path.iterdir()
    assert "First" in record.read_text()           # on disk before anything closes the file
    prose.said("Second {about}`design`.")
    record.rename(tmp_path / "page.jsonl")
    prose.said("Third {about}`design`.")
    texts = {f.name: [json.loads(line)["text"] for line in f.read_text().splitlines()] for f in tmp_path.iterdir()}
    assert texts == {"page.jsonl": ["First {about}`design`.", "Second {about}`design`."],
                     record.name: ["Third {about}`design`."]}


def test_said_records_nothing_outside_the_build(tmp_path, monkeypatch):
    monkeypatch.delenv(prose.RECORD, raising=False)
    assert prose.said("It rises {about}`method`.") == "It rises."
    assert not any(tmp_path.iterdir())


def test_a_labelled_value_reads_as_one_value_but_a_role_is_left_alone():
    # "near 0.030": the vocabulary word 'near' is data, not a size the sentence states
    text = as_written("Largest weights: near 0.030, river 0.21 {about}`reading`.")
    assert text.count(GLUED) == 2 and "near" not in text and text.endswith("{about}`reading`.")
    # the sentence's own words are no label: the comparison they make stays for the audit to read
    assert as_written("It falls from 0.62 to 0.31.") == f"It falls from {GLUED} to {GLUED}."
