"""What tests/gen/test_wrapper_model.py and test_codegen_models.py share: the systems they
render (the examples at both data widths, the hof system, seeded random systems) and a walk
over a codegen model's leaves."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any, Iterator

from gensim import load_example
from randsys import random_system

from pushpush.link import DmaBlock, LinkedComponent, LinkedSystem, load

REPO = Path(__file__).resolve().parents[2]
#: A name, or "" (clk's group): what a model may hold as a string.
NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)?\Z")


def model_systems(tmp_path_factory: Any) -> list[LinkedSystem]:
    out = [load_example(ex, data_width=dw)
           for ex in ("pingpong", "bufargs", "dma_stream", "audio_fir", "channels") for dw in (32, 64)]
    out.append(load(REPO / "tests/gen/hof/system.yaml"))
    for seed in (3, 11, 23):
        out.append(random_system(seed, tmp_path_factory.mktemp(f"seed{seed}")).linked)
    return out


def leaves(obj: Any, path: str = "m") -> Iterator[tuple[str, Any]]:
    """Every leaf of a model, with its path (dataclasses, tuples and lists walked; the
    linked-model objects a model carries for the template are not walked)."""
    if isinstance(obj, (LinkedComponent, DmaBlock)):
        return
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from leaves(getattr(obj, f.name), f"{path}.{f.name}")
    elif isinstance(obj, (tuple, list)):
        for i, x in enumerate(obj):
            yield from leaves(x, f"{path}[{i}]")
    else:
        yield path, obj
