"""False sentences planted in the site's pages and in the prose its Python writes: the audit refuses each one,
reading it against the site's own claims and subjects, and passes every true sentence of the site.

Each planted sentence is appended to a real page (or audited as a text a lesson's Python wrote) and must draw a
finding at its line. The kinds are those of the sentences a careful reader found wrong: a reversed order, a
flipped direction, a negation, a number typed by hand, a subject the claim does not name, a pronoun that points
at the wrong model, a superlative or a quantifier the claim does not state, a result marked as method, a range
the claim does not cover, a comparison bound to nothing. `python -m pytest tests/lessons/test_planted_sentences.py
-s` prints the table of what was caught, by kind."""
from __future__ import annotations

from collections import Counter

import pytest

from conftest import ROOT
from sitebuild.audit.check import audit_page, audit_pages, audited_pages, known_claim_names, page_subjects
from sitebuild.prose.audit import as_written

CP, ST, WT, BH = "posts/context-cost.md", "posts/story-models.md", "posts/trained-walkthrough.md", "posts/attention-by-hand.md"
LB = "posts/lab.md"
PYTHON = "written by Python"

# (where, kind, the false sentence)
PLANTED = [
    # the order of two subjects around a directed word
    (ST, "order", "The one-head model leads the four-head model on names {claim}`four_heads_lead_but_colours_tie`."),
    (ST, "order", "The MLP keeps its cast more often than the four-head model {claim}`four_heads_keep_their_cast`."),
    (CP, "order", "At every T concatenation has fewer parameters than attention {claim}`concatenation_pays_in_parameters`."),
    (CP, "order", "At the longest T attention's forward pass takes longer than averaging's "
                  "{claim}`averaging_is_timed_slower_at_length`."),
    (ST, "order", "Between two mentioned names the MLP beats the one-head model "
                  "{claim}`one_head_beats_a_coin_between_two_names`."),
    # a direction flipped
    (ST, "direction", "Validation loss rises from the MLP to the one-head to the four-head model "
                      "{claim}`loss_falls_with_attention_and_heads`."),
    (ST, "direction", "For both transformers, colour accuracy rises at every step from 1–8 tokens back to more than 64 "
                      "{claim}`colours_fall_with_distance`."),
    (CP, "direction", "Concatenation's parameter count falls at every step of T from 16 to 2048 "
                      "{claim}`concat_weights_grow_with_the_window`."),
    (BH, "direction", "Dividing the fixed scores by a larger number sharpens the weights: the largest weight rises "
                      "{claim}`divisor_flattens_weights`."),
    # a negation the claim does not state
    (ST, "negation", "The one-head model does not copy objects and colours {claim}`one_head_copies_objects_and_colours`."),
    (ST, "negation", "Copying is not enough for the four-head model on the hand-written stories "
                     "{claim}`hand_written_copies_a_mentioned_word`."),
    (WT, "negation", "Row 13 of A never puts its largest weight on *fall* {claim}`row_13_attends_fall`."),
    (CP, "negation", "The KV cache does not make a new token cheaper {claim}`the_cache_cuts_a_new_tokens_count`."),
    (ST, "negation", "The four-head model fails to lead the one-head model on names "
                     "{claim}`four_heads_lead_but_colours_tie`."),
    # numbers typed by hand
    (ST, "typed number", "The four-head model leads the one-head model on names by 12% "
                         "{claim}`four_heads_lead_but_colours_tie`."),
    (ST, "typed number", "3 of 4 first-layer heads look at objects {claim}`several_first_layer_heads_look_at_objects`."),
    (WT, "typed number", "Row 13 puts 0.93 of its weight on *fall* {claim}`row_13_attends_fall`."),
    (CP, "typed number", "With the cache a new token is 40 times cheaper {claim}`the_cache_cuts_a_new_tokens_count`."),
    (BH, "typed number", "Bank gives *river* 62 percent of its attention {claim}`bank_gives_river_most_of_its_weight`."),
    (WT, "typed number", "The loss ends 0.05% above the floor {about}`method`."),
    # a subject the claim does not name
    (ST, "subject", "The MLP copies objects and colours {claim}`one_head_copies_objects_and_colours`."),
    (ST, "subject", "The one-head model's name accuracy falls at every step from 1–8 tokens back to more than 64 "
                    "{claim}`four_head_names_fall_with_distance`."),
    (CP, "subject", "Averaging's parameter count is the same at every T from 16 to 2048 "
                    "{claim}`attention_parameters_do_not_depend_on_T`."),
    (ST, "subject", "Objects fall at every step from 9–16 to 33–64 tokens back {claim}`objects_fall_from_9_to_64_tokens`."),
    # a pronoun that points at what the claim does not name
    (ST, "pronoun", "The MLP was trained on the same stories {about}`design`. It copies objects and colours "
                    "{claim}`one_head_copies_objects_and_colours`."),
    (ST, "pronoun", "Stories were written by hand {about}`design`. It keeps its cast more often than the others "
                    "{claim}`four_heads_keep_their_cast`."),
    (CP, "pronoun", "Averaging was timed too {about}`method`. Its parameter count is the same at every T from 16 to "
                    "2048 {claim}`attention_parameters_do_not_depend_on_T`."),
    # an order, a quantifier or a size the claim does not state
    (ST, "superlative", "The one-head model copies objects and colours best of all "
                        "{claim}`one_head_copies_objects_and_colours`."),
    (WT, "superlative", "Every position predicts its word with the highest certainty of any model "
                        "{claim}`determined_words_are_certain`."),
    (ST, "quantifier", "No model copies objects {claim}`one_head_copies_objects_and_colours`."),
    (BH, "quantifier", "Bank gives *river* all of its attention in sentence A {claim}`bank_reads_river_in_A`."),
    (ST, "strength", "The four-head model keeps its cast twice as often as the one-head model "
                     "{claim}`four_heads_keep_their_cast`."),
    (CP, "strength", "The GPT-3 cache takes exactly a gigabyte {claim}`gpt3_cache_in_gigabytes`."),
    # a result marked as method or general
    (ST, "marked result", "The four-head model leads the MLP on every kind {about}`method`."),
    (CP, "marked result", "Attention is timed slower than averaging at every length {about}`method`."),
    (ST, "marked result", "Objects rise fastest of all for the one-head model {about}`general`."),
    # a range the claim does not state
    (ST, "range", "For both transformers, object accuracy falls at every step from 1–8 tokens back to 33–64 "
                  "{claim}`objects_fall_from_9_to_64_tokens`."),
    (CP, "range", "Attention's parameter count is the same at every T from 8 to 4096 "
                  "{claim}`attention_parameters_do_not_depend_on_T`."),
    # a comparison bound to nothing, or a sameness its claim does not state
    (ST, "unbound", "The four-head model copies names better than the one-head model."),
    (CP, "unbound", "Attention matches averaging at short lengths."),
    (ST, "sameness", "On names the one-head model matches the four-head model {claim}`hand_written_falls_short`."),
    # a word of strength its claims do not check at the site's meaning (compute.strength)
    (ST, "strength", "The one-head model copies names from far back {claim}`one_head_learns_names_in_part`."),
    (ST, "strength", "On names the one-head model stays near chance {claim}`one_head_learns_names_in_part`."),
    (CP, "strength", "Attention's time per new token stays flat as T grows {claim}`the_cache_beats_both_ways_at_length`."),
    (LB, "strength", "Beyond its window the MLP copies objects {claim}`head_finds_what_the_window_hides`."),
    (ST, "strength", "The four-head model leads the one-head model on colours {claim}`one_head_copies_objects_and_colours`."),
    # an order that its claim's data reverse, in other words than the claim's statement uses
    (ST, "order (data)", "The MLP beats the one-head model on validation loss "
                         "{claim}`loss_falls_with_attention_and_heads`."),
    (ST, "order (data)", "The one-head model's validation loss is higher than the four-head model's and lower than "
                         "the MLP's, so the MLP is better than the four-head model {claim}`loss_falls_with_attention_and_heads`."),
    (ST, "order (data)", "In keeping its cast the MLP is ahead of the four-head model {claim}`four_heads_keep_their_cast`."),
    # a superlative bound to a claim that states only a bound, and a measure moved against its claim's data
    (ST, "superlative", "The MLP keeps its objects' colours least often of the three {claim}`four_heads_keep_their_cast`."),
    (ST, "superlative", "Objects lean on their head least {claim}`object_copying_is_shared`."),
    (CP, "direction (data)", "The MLP's time per new token rises sharply with T {claim}`mlp_time_is_flat`."),
    (BH, "direction (data)", "At every step of the divisor the largest weight rises {claim}`divisor_flattens_weights`."),
    # an order the audit cannot read: refused, not passed
    (ST, "unreadable", "Set against the one-head model, the four-head model is ahead on names "
                       "{claim}`four_heads_lead_but_colours_tie`."),
    # prose written by Python (reported at the module and line that wrote it)
    (PYTHON, "order", "The MLP leads the four-head model on names {claim}`four_heads_lead_but_colours_tie`."),
    (PYTHON, "negation", "The one-head model does not copy objects {claim}`one_head_copies_objects_and_colours`."),
    (PYTHON, "marked result", "The four-head model leads the MLP on 0.42 of the probes {about}`method`."),
    (PYTHON, "direction", "Validation loss rises from the MLP to the four-head model "
                          "{claim}`loss_falls_with_attention_and_heads`."),
]


@pytest.fixture(scope="module")
def site():
    """The site's claims, each lesson page's subjects and settings, and its pages' texts."""
    pages = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in audited_pages(ROOT)}
    return known_claim_names(), page_subjects(ROOT), pages


def caught(site, where: str, sentence: str) -> list[str]:
    """The findings the audit makes at the planted sentence (appended to its page, or as a text Python wrote)."""
    known, subjects, pages = site
    if where == PYTHON:
        subject, settings = subjects[ST]
        return [f.problem for f in audit_page(ST, as_written(sentence), known, subject, settings, typed=False).findings]
    subject, settings = subjects[where]
    text = pages[where].rstrip("\n") + "\n\n" + sentence + "\n"
    line = text.count("\n")
    found = audit_page(where, text, known, subject, settings).findings
    return [f.problem for f in found if f.line >= line - sentence.count("\n")]


def test_there_are_forty_planted_sentences_of_every_kind_across_pages_and_python():
    assert len(PLANTED) >= 40
    assert {w for w, _, _ in PLANTED} == {CP, ST, WT, BH, LB, PYTHON}


def test_at_least_95_percent_of_the_planted_sentences_are_refused(site):
    table = Counter()
    missed = []
    for where, kind, sentence in PLANTED:
        found = caught(site, where, sentence)
        table[kind, bool(found)] += 1
        if not found:
            missed.append(f"{where} [{kind}] {sentence}")
    print("\nkind | caught | missed")
    for kind in dict.fromkeys(k for _, k, _ in PLANTED):
        print(f"{kind} | {table[kind, True]} | {table[kind, False]}")
    print("missed:", *missed, sep="\n  ")
    assert len(missed) <= 0.05 * len(PLANTED), missed


@pytest.mark.parametrize("where, kind, sentence", [p for p in PLANTED if p[1] in ("order", "negation", "typed number",
                                                                                 "pronoun", "marked result")])
def test_each_new_reading_refuses_its_planted_sentence(site, where, kind, sentence):
    assert caught(site, where, sentence), f"[{kind}] {sentence}"


def test_no_true_sentence_of_the_site_is_refused(site):
    known, _, _ = site
    audits = audit_pages(ROOT, audited_pages(ROOT), known)
    assert [str(f) for a in audits for f in a.findings] == []
    assert sum(len(a.bound) for a in audits) > 200           # the site's bound sentences were read
