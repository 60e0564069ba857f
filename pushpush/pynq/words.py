"""Words in and out of uncached memory from Python, one access each, in the protocol's order.

The board path's two primitives (:class:`pushpush.pynq.board.PynqBackend`, and the simulated
board's attached programs, :mod:`pushpush.pynq.simulated.c_programs`), over uint32 numpy
views of uncached memory: the PL's GP0 window (``MMIO.array`` on a PYNQ-Z1) and the software
windows (the on-chip memory mapped from ``/dev/mem``, or shared memory on the simulated
board). On the board each Python-level access costs tens of microseconds (the interpreter's
work around the loads and stores, :mod:`pushpush.pynq.accesses`), so a call's words are one
store and a poll one load:

* :func:`store_words`: a call's (or a reply's) words in one slice assignment, the last word
  (the trigger, or the status) stored last;
* :func:`load_words`: words read from the highest address down (a trigger or status word
  first, then the words below it, which are then at least as new), returned in address order.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["store_words", "load_words"]


def store_words(array: np.ndarray, i: int, words: Sequence[int]) -> None:
    """Store ``words`` at word ``i`` of a uint32 view of uncached memory (the PL's GP0 window
    through ``MMIO.array`` on the board, or the on-chip memory), in address order: one
    slice assignment from a Python list, which numpy packs item by item, each one aligned
    32-bit store, so the last word (a call's trigger, a reply's status) is stored last. One
    Python-level access for a call's words (tests/pynq/test_board_backend.py pins the order).
    (numpy packs a list in place since its array-coercion rewrite in 1.20; pyproject asks for
    1.21.) From an ndarray numpy would copy with memmove, whose store order is not defined:
    never here."""
    array[i:i + len(words)] = words if type(words) is list else list(words)


def load_words(array: np.ndarray, i: int, count: int) -> list[int]:
    """``count`` words at word ``i`` of a uint32 view, in address order, read from the highest
    address down (the ``read_local`` contract, :mod:`pushpush.runtime.backend`): a status or
    trigger word and the words below it in one Python-level access, the words below read
    after it (``tolist`` of a reversed view reads in the view's order)."""
    if count == 1:
        return [int(array[i])]
    words: list[int] = array[i + count - 1:i - 1 if i else None:-1].tolist()
    words.reverse()
    return words
