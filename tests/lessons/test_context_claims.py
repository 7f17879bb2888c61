"""Part 2B's claims hold on the stored timings, and the ones about what was measured fail on timings that say
otherwise: averaging faster than attention, attention storing its scores, matrices that fit the cache, a cache
that stops paying on one step. The bench's memory record is checked on the real kernels."""
from __future__ import annotations

import json

import pytest
import torch

from compute.lessons.context import claims
from compute.published import timings as published
from compute.measure.context import memory
from compute.nn.mixers import AttentionMixer, AverageMixer
from compute.store import checkpoint_dir

KEPT = claims.KEPT


def test_every_claim_holds_on_the_stored_timings():
    broken = [(c.name, o.evidence) for c, o in claims.check_all() if not o.holds]
    assert not broken


@pytest.fixture
def timings_file(tmp_path, monkeypatch):
    """A copy of the stored timings in a checkpoint folder of its own; `edit(fn)` changes it and reloads."""
    data = json.loads((checkpoint_dir() / published.TIMINGS).read_text())
    monkeypatch.setenv("COMPUTE_CHECKPOINTS", str(tmp_path))

    def edit(fn):
        fn(data)
        (tmp_path / published.TIMINGS).write_text(json.dumps(data))
        published._load.cache_clear()
    edit(lambda d: None)
    yield edit
    published._load.cache_clear()


def check(name: str):
    return claims.CONTEXT.claims[name].check()


def rows(data, model, measure="forward", T=None):
    return [r for r in data["results"] if r["model"] == model and r["measure"] == measure and (T is None or r["T"] == T)]


T_MAX = 2048


def scale(model, factor, T=T_MAX, measure="forward"):
    def damage(d):
        for r in rows(d, model, measure, T):
            r["seconds"] *= factor
    return damage


def set_field(model, field, value, T=T_MAX):
    def damage(d):
        for r in rows(d, model, T=T):
            r[field] = value
    return damage


def test_the_copy_holds_like_the_stored_file(timings_file):
    assert check("averaging_is_timed_slower_at_length").holds
    assert check("matrices_fill_the_cache").holds


def test_averaging_faster_than_attention_breaks_the_measured_order(timings_file):
    timings_file(scale("average", 0.1))
    out = check("averaging_is_timed_slower_at_length")
    assert not out.holds and "average" in out.evidence and "attend" in out.evidence


def test_attention_that_stores_its_scores_breaks_the_memory_claim(timings_file):
    timings_file(set_field("attend", "largest_bytes", 4 * T_MAX * T_MAX))
    out = check("attention_stores_no_score_matrix")
    assert not out.holds and f"T = {T_MAX}" in out.evidence


def test_averaging_without_its_matrix_breaks_the_allocation_claim(timings_file):
    timings_file(set_field("average", "largest_bytes", 4 * T_MAX * 64))
    assert not check("averaging_allocates_its_matrix_every_call").holds


def test_a_bigger_cache_or_none_recorded_breaks_the_cache_claim(timings_file):
    timings_file(lambda d: d["measured_on"].update(last_level_cache_bytes=256 * 2 ** 20))
    assert not check("matrices_fill_the_cache").holds
    timings_file(lambda d: d["measured_on"].pop("last_level_cache_bytes"))
    out = check("matrices_fill_the_cache")
    assert not out.holds and "does not record" in out.evidence


def test_a_slow_product_breaks_the_split_of_averagings_time(timings_file):
    timings_file(scale(KEPT, 3.0))
    assert not check("averaging_product_alone_beats_attention").holds
    assert not check("building_the_matrix_outgrows_the_count").holds


def test_one_step_against_the_trend_breaks_a_claim_about_every_step(timings_file):
    """The cache claim checks each doubling: a cached token that grows faster than an uncached one on the last
    step fails it, whatever the fitted slopes say."""
    timings_file(scale("attend", 5.0, measure="token cached"))
    out = check("uncached_grows_faster_than_cached")
    assert not out.holds and "1024->2048" in out.evidence


def test_a_running_sum_as_slow_as_attention_breaks_its_claim(timings_file):
    timings_file(scale(claims.RUNNING, 30.0))
    assert not check("running_sum_is_far_faster").holds


@pytest.mark.parametrize("T", [256, 1024])
def test_the_bench_memory_record_sees_the_averaging_matrix_and_no_score_matrix(T):
    """What the bench records, on the real kernels: averaging builds T x T matrices (three, two held at once),
    the same product with its matrix kept builds none, and the fused attention kernel stores no T x T scores."""
    torch.manual_seed(0)
    X, square = torch.randn(1, T, 64), 4 * T * T
    avg, att = AverageMixer(64), AttentionMixer(64, T)
    means = AverageMixer.matrix(T)
    with torch.no_grad():
        a, k, t = memory(lambda: avg(X)), memory(lambda: avg(X, means)), memory(lambda: att(X))
    assert a["largest_bytes"] == square and a["allocated_bytes"] >= 3 * square and a["peak_bytes"] >= 2 * square
    assert k["largest_bytes"] < square
    assert t["largest_bytes"] < square


def test_an_output_projection_that_adds_no_work_breaks_the_lower_share_claim(monkeypatch):
    from compute.lessons.context.states import scale
    real = scale.scale_rows()
    assert claims.the_output_projection_lowers_the_share().holds
    same = [{**r, "attention_share_with_output": r["attention_share"]} for r in real]   # the output counted as nothing
    monkeypatch.setattr(claims, "scale_rows", lambda: same)
    outcome = claims.the_output_projection_lowers_the_share()
    assert not outcome.holds and "with the output" in outcome.evidence
