"""Python models of the soak's callees and the soak's invariants (tests/soak/test_soak.py).

Pure functions, no I/O: the test feeds them what it observed.
"""

from __future__ import annotations

from typing import Iterable, Sequence

MASK = 0xFFFF_FFFF
GOLDEN = 0x9E37_79B9


def s32(v: int) -> int:
    """``v`` as a signed 32-bit integer (wrapping)."""
    return ((v + (1 << 31)) & MASK) - (1 << 31)


def rotl5(s: int) -> int:
    return ((s << 5) | (s >> 27)) & MASK


def rotr5(s: int) -> int:
    return ((s >> 5) | (s << 27)) & MASK


def pingpong_step(state: int, x: int) -> int:
    """examples/pingpong's callee: the state after f(x) (also f's result, unsigned)."""
    return ((rotl5(state & MASK) ^ (x & MASK)) + GOLDEN) & MASK


def pingpong_before(after: int, x: int) -> int:
    """The state before the call f(x) that returned ``after`` (the step is invertible)."""
    return rotr5(((after & MASK) - GOLDEN) & MASK ^ (x & MASK))


def run_model(state: int, n: int) -> int:
    """The callee's state after pingpong_caller's run(n): n calls in a dependency loop, the
    first argument n, every later one the previous result."""
    x = n
    for _ in range(n):
        state = pingpong_step(state, x)
        x = state
    return state


def fir_model(coeffs: Sequence[int], xs: Sequence[int]) -> list[int]:
    """examples/audio_fir's fir_core: y[k] = sum(coeffs[t] * xs[k - t]), int32 wrapping."""
    return [s32(sum(coeffs[t] * xs[k - t] for t in range(len(coeffs)) if t <= k))
            for k in range(len(xs))]


def scale_model(xs: Iterable[int], gain: int, offset: int) -> list[int]:
    """examples/dma_stream's stream_scale: gain * x + offset, int32 wrapping."""
    return [s32(gain * int(x) + offset) for x in xs]


def csrv_model(x: int) -> int:
    """tests/soak/csrv.c's f: 5x + 7, int32 wrapping."""
    return s32(5 * x + 7)


def chain_segments(calls: Sequence[tuple[int, int]], start: int = 0) -> tuple[int, list[str]]:
    """The calls ``(x, result)`` of one pingpong callee, from every caller, as chains of states.

    Every call moves the callee from one state to the next; each state's successor is unique,
    so the calls that really happened, each exactly once, form one chain from ``start`` (the
    state after reset). Calls whose result nobody saw (a caller killed mid-call) cut the
    observed chain into pieces: with ``u`` unseen calls there are at most ``u + 1``.

    Returns (pieces, problems). Pieces count the segments of observed calls, plus one if no
    segment starts at ``start`` (the calls from the reset state on were not seen). A problem
    is a state left twice (a call taken twice, or two calls answered from one state) or
    observed calls that loop.
    """
    after: dict[int, int] = {}
    problems: list[str] = []
    for x, r in calls:
        before = pingpong_before(r, x)
        if before in after:
            problems.append(f"state 0x{before:08X} left twice (x={x}, result={r})")
            continue
        after[before] = r & MASK
    starts = set(after) - set(after.values())
    seen = 0
    for s in starts:
        while s in after:
            s = after[s]
            seen += 1
    if seen != len(after):
        problems.append(f"{len(after) - seen} calls form a loop, not a chain")
    return len(starts) + (0 if start in starts or not after else 1), problems
