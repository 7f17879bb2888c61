"""Counting the work of a context of T tokens of width d: parameters, multiply-adds, memory, the KV cache.

The counts are of what the plain implementations in compute/nn/mixers.py do
(dense matrix products, the causal mask applied after them; attention through
its explicit path, CausalSelfAttention.trace), in multiply-adds (MACs: one
product added into a sum). The fused attention kernel that the mixers' forward
pass calls, and the bench times, skips the score blocks the mask would zero
and never stores the T x T scores (Part 2B, section 3).

Training on a sequence costs its forward pass and a backward pass: each
product A B whose factors both need gradients costs two more products of its
size (the gradient for A and the one for B), so 3 x its forward MACs; a
product with a constant factor (the averaging matrix) costs one more.
"""
from __future__ import annotations

from dataclasses import dataclass

MIXERS = ("concatenate", "average", "attend")
TRAINING_FACTOR = 3


@dataclass(frozen=True)
class Costs:
    parameters: int        # trained numbers
    forward: int           # MACs to mix a whole sequence of T positions
    training: int          # MACs for one training pass over the sequence (forward + backward)
    token_cached: int      # MACs for the context of token T when what earlier tokens gave is kept
    token_uncached: int    # MACs for the context of token T, reading all T tokens again
    token_recomputed: int  # MACs for the context of token T with nothing kept, but only what it needs recomputed
    activations: int       # numbers held to mix a sequence of T (what the backward pass needs)
    kept: int              # numbers kept between tokens while generating (the cache)


def concatenate(T: int, d: int) -> Costs:
    """An MLP over the last T rows: W1 (T d x d), W2 (d x d), hidden width d."""
    per_position = T * d * d + d * d
    return Costs(parameters=(T + 1) * d * d + 2 * d, forward=T * per_position,
                 training=TRAINING_FACTOR * T * per_position, token_cached=per_position, token_uncached=per_position,
                 token_recomputed=per_position,
                 activations=T * T * d + 2 * T * d, kept=T * d)


def average(T: int, d: int) -> Costs:
    """The mean of the rows so far (as a T x T matrix product), then W (d x d); cached: a running sum."""
    forward = T * T * d + T * d * d
    return Costs(parameters=d * d, forward=forward, training=2 * T * T * d + TRAINING_FACTOR * T * d * d,
                 token_cached=d * d, token_uncached=T * d + d * d, token_recomputed=T * d + d * d,
                 activations=T * T + 2 * T * d, kept=d + 1)


def attend(T: int, d: int) -> Costs:
    """One head: Q, K, V and W_O (d x d each), scores Q K^T (T x T), mixing A V."""
    forward = 4 * T * d * d + 2 * T * T * d
    return Costs(parameters=4 * d * d, forward=forward, training=TRAINING_FACTOR * forward,
                 token_cached=4 * d * d + 2 * T * d, token_uncached=forward,
                 # every earlier key and value again (2 T d^2), but only the new token's query, score row and W_O
                 token_recomputed=2 * T * d * d + 2 * d * d + 2 * T * d,
                 activations=5 * T * d + 2 * T * T, kept=2 * T * d)


COUNTERS = {"concatenate": concatenate, "average": average, "attend": attend}


def costs(mixer: str, T: int, d: int) -> Costs:
    return COUNTERS[mixer](T, d)


@dataclass(frozen=True)
class ModelSize:
    """A decoder-only transformer's sizes, as published."""
    name: str
    n_layer: int
    d_model: int
    n_head: int
    context: int
    source: str          # where the sizes are given
    vocab: int = 0       # tokens in the vocabulary: the output projection's width (0: not given)


GPT2_SMALL = ModelSize("GPT-2 small", 12, 768, 12, 1024,
                       "Radford et al. (2019), Language Models are Unsupervised Multitask Learners, OpenAI, "
                       "Table 2 (the smallest model), section 2.3 (context of 1024 tokens) and section 2.2 "
                       "(a vocabulary of 50,257)", vocab=50257)
GPT3 = ModelSize("GPT-3 175B", 96, 12288, 96, 2048,
                 "Brown et al. (2020), Language Models are Few-Shot Learners, arXiv:2005.14165, Table 2.1, and "
                 "section 2.1 (GPT-2's model and reversible tokenization, so its vocabulary)", vocab=50257)
PUBLISHED = (GPT2_SMALL, GPT3)


def kv_cache_numbers(n_layer: int, d_model: int, T: int) -> int:
    """Keys and values of every layer for T tokens: 2 x n_layer x T x d_model numbers (heads split d_model)."""
    return 2 * n_layer * T * d_model


def kv_cache_bytes(n_layer: int, d_model: int, T: int, bytes_per_number: int = 2) -> int:
    """The KV cache of one sequence, in bytes (16-bit numbers by default, as models are served)."""
    return kv_cache_numbers(n_layer, d_model, T) * bytes_per_number


def token_macs(size: ModelSize, T: int, d_ff_factor: int = 4) -> dict[str, int]:
    """MACs per generated token at context T, per part: projections, FFN, and attention's T-dependent part."""
    d, L = size.d_model, size.n_layer
    return {"projections": L * 4 * d * d, "feed-forward": L * 2 * d * d_ff_factor * d,
            "attention over T": L * 2 * T * d}
