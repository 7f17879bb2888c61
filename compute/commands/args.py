"""Argument types of the command line: each turns a bad value into one sentence."""
from __future__ import annotations

import argparse

from ..checks import lesson_names
from ..training.walkthrough import validate_seed


def seed_range(text: str) -> range:
    """'0-199' -> range(0, 200); one sentence of error otherwise."""
    try:
        lo, hi = (int(p) for p in text.split("-"))
        validate_seed(lo), validate_seed(hi)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed range must look like 0-199, got {text!r}") from None
    if hi < lo:
        raise argparse.ArgumentTypeError(f"seed range {text!r} ends before it starts")
    return range(lo, hi + 1)


def seed_value(text: str) -> int:
    try:
        return validate_seed(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be a whole number from 0 to 2**63-1, got {text!r}") from None


def lesson_name(text: str) -> str:
    """One of compute's lesson packages; one sentence of error otherwise."""
    if text not in lesson_names():
        raise argparse.ArgumentTypeError(f"no lesson called {text!r} (there are {', '.join(lesson_names())})")
    return text


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number above 0, got {text!r}")
    return value


def positive_number(text: str) -> float:
    """A finite number above 0 (not inf, not nan); one sentence of error otherwise."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number above 0, got {text!r}")
    return value


def prompt_text(text: str) -> str:
    """A prompt the tokenizer finds at least one word in; one sentence of error otherwise (an empty prompt, or
    one of spaces alone)."""
    from ..data.tokenizer import words
    if not words(text):
        raise argparse.ArgumentTypeError(f"must hold at least one word, got {text!r}")
    return text


def device_name(text: str) -> str:
    """'cpu', or 'cuda' / 'cuda:N' where torch finds that GPU; one sentence of error otherwise."""
    import re

    import torch
    if text == "cpu":
        return text
    if not re.fullmatch(r"cuda(:\d+)?", text):
        raise argparse.ArgumentTypeError(f"must be cpu, cuda or cuda:N, got {text!r}")
    index = int(text.partition(":")[2] or 0)
    if not torch.cuda.is_available() or index >= torch.cuda.device_count():
        raise argparse.ArgumentTypeError(f"{text}: torch finds no such GPU on this machine "
                                         f"({torch.cuda.device_count()} CUDA devices; the default, cpu, needs none)")
    return text
