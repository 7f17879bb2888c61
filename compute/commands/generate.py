"""`python -m compute generate CHECKPOINT`: a story model writes on from a prompt, with the page's sampler."""
from __future__ import annotations

import sys
from pathlib import Path

import torch

from .. import progress
from ..store import CheckpointError, checkpoint_dir
from .args import positive, positive_number, prompt_text, seed_value

WEIGHTS = ("float32", "float16")


def add(sub) -> None:
    g = sub.add_parser("generate", help="write on from a prompt with a story model (published or your own)")
    g.add_argument("checkpoint", help="a published story checkpoint's name (story-four-head, story-one-head, "
                                      "story-mlp) or the path of a story checkpoint file (.safetensors)")
    g.add_argument("--prompt", type=prompt_text, default="Once upon a time",
                   help="the words to write on from, one at least (default %(default)r)")
    g.add_argument("--length", type=positive, default=60, help="new words at most; a story may end sooner "
                                                               "(default %(default)s)")
    g.add_argument("--seed", type=seed_value, default=0, help="the sampler's seed, as the page's box takes it "
                                                              "(default %(default)s)")
    g.add_argument("--temperature", type=positive_number, default=0.8,
                   help="logits divided by it, a finite number above 0 (default %(default)s)")
    g.add_argument("--top-k", type=int, default=0, help="draw only among the k best words; 0: all "
                                                        "(default %(default)s)")
    g.add_argument("--top-p", type=float, default=1.0, help="then only among the fewest best words whose "
                                                            "probability reaches p; 1: all (default %(default)s)")
    g.add_argument("--greedy", action="store_true", help="always take the best word (default: off, sample)")
    g.add_argument("--weights", choices=WEIGHTS, default="float32",
                   help="float32: the checkpoint's weights; float16: rounded as the page's box has them and "
                        "computed in float64, so the published four-head model writes the box's words "
                        "(default %(default)s)")
    g.add_argument("--quiet", action="store_true",
                   help="print only the result and any error, not each stage (default: off)")


def checkpoint_file(text: str) -> Path:
    """The checkpoint a name or path means: a published name, a .safetensors path, or its .json manifest."""
    path = Path(text)
    if path.suffix == ".json":
        path = path.with_suffix(".safetensors")
    if path.suffix != ".safetensors" and not path.exists():
        path = checkpoint_dir() / f"{text}.safetensors"
    if not path.is_file():
        published = sorted(p.stem for p in checkpoint_dir().glob("story-*.safetensors"))
        raise CheckpointError(f"{path}: no story checkpoint there (give a .safetensors file, or a published name: "
                              f"{', '.join(published)})")
    return path


def run(args) -> int:
    from ..data.tokenizer import readable, words
    from ..generate import Sampling, generate
    from ..published.story import story_checkpoint
    try:
        sampling = Sampling(temperature=args.temperature, top_k=args.top_k or None, top_p=args.top_p,
                            greedy=args.greedy, max_tokens=args.length)
    except ValueError as err:
        print(f"error: generate: {err}", file=sys.stderr)
        return 2
    with progress.command(args.quiet):
        with progress.stage("load", args.checkpoint):
            published = story_checkpoint(checkpoint_file(args.checkpoint))
            model = as_page(published.model) if args.weights == "float16" else published.model
        vocab = published.vocab
        tokens = words(args.prompt)
        unknown = list(dict.fromkeys(t for t in tokens if vocab.index(t) == 1))
        if unknown:
            print(f"note: {len(unknown)} word(s) of the prompt are not in the model's {len(vocab):,}-word "
                  f"vocabulary and are read as <unk>: {', '.join(unknown)}")
        if len(tokens) + 1 >= published.config.context:
            raise CheckpointError(f"{published.name}: the prompt has {len(tokens)} words; the model reads at most "
                                  f"{published.config.context - 1} after <eos>")
        with progress.stage("generate", f"{args.length} words at most, seed {args.seed}"):
            new = generate(model, torch.tensor([vocab.prompt(args.prompt)]), sampling, args.seed)[0]
        proper = names(vocab)
        printed = [vocab.itos[i] if vocab.index(t) != 1 else t for i, t in
                   zip(vocab.prompt(args.prompt)[1:], tokens)] + vocab.decode(new)
        print("".join(space + word for space, word in readable(printed, proper)).strip())
    return 0


def as_page(model: torch.nn.Module) -> torch.nn.Module:
    """The model as the page's box runs it: each weight rounded to float16, the arithmetic in float64."""
    import copy
    page = copy.deepcopy(model).double()
    with torch.no_grad():
        for p in page.parameters():
            p.copy_(p.to(torch.float16).double())
    return page.eval()


def names(vocab) -> set[str]:
    """The words printed with a capital: the story generator's names that the vocabulary holds."""
    from ..data.story import KINDS
    return {w for w in KINDS["name"] if w in vocab.itos}
