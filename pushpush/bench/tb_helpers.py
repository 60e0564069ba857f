"""What the cocotb benches of ``pushpush bench`` share (chain_tb, scaling_tb, riscv_tb).

- :func:`callee_model`: the state machine of the benchmark callees (examples/pingpong's
  ``pingpong_callee`` with one argument, :mod:`pushpush.bench.pairs_system`'s
  ``bench_callee`` with several): ``rotl(state, 5) ^ (x0 ^ x1 ^ ...) + 0x9E3779B9``;
- :func:`signed`: a 32-bit word as the ``i32`` a Python callee returns;
- :class:`CycleCounter`: counts clock cycles from when it is started;
- :class:`ResultMonitor`: the cycle of every result handshake at every ``caller<p>`` module's
  import group ``callee<p>_f``, and :meth:`ResultMonitor.busy_window`, the window in which
  every pair is busy (from the cycle by which every pair has its first result to the cycle
  the first pair has its last).

Example (in a cocotb test)::

    mon = ResultMonitor(dut, pairs)
    cocotb.start_soon(mon.run())
    ...  # every caller<p>.run(calls)
    window, per_pair = mon.busy_window(min_cycles=1)
"""

from __future__ import annotations

from typing import Any, Sequence

from cocotb.triggers import RisingEdge

__all__ = ["MASK", "GOLDEN", "callee_model", "signed", "CycleCounter", "ResultMonitor"]

MASK = 0xFFFF_FFFF
GOLDEN = 0x9E3779B9


def callee_model(state: int, args: Sequence[int]) -> int:
    """The callee's next state (and result) after a call with ``args``.

    >>> hex(callee_model(0, [5]))
    '0x9e3779be'
    """
    mix = 0
    for a in args:
        mix ^= a & MASK
    rot = ((state << 5) | (state >> 27)) & MASK
    return ((rot ^ mix) + GOLDEN) & MASK


def signed(v: int) -> int:
    """The 32-bit word ``v`` as a signed ``i32``."""
    v &= MASK
    return v - (1 << 32) if v & 0x8000_0000 else v


class CycleCounter:
    """Rising clock edges of ``dut.clk`` since :meth:`run` was started (``cycle``)."""

    def __init__(self, dut: Any) -> None:
        self.clk = dut.clk
        self.cycle = 0

    def tick(self) -> None:
        """Called once per rising edge (a subclass samples its signals here)."""

    async def run(self) -> None:
        while True:
            await RisingEdge(self.clk)
            self.cycle += 1
            self.tick()


class ResultMonitor(CycleCounter):
    """Cycle numbers of the result handshakes of every caller module's import group."""

    def __init__(self, dut: Any, pairs: int) -> None:
        super().__init__(dut)
        self.sigs = []
        for p in range(pairs):
            user = getattr(dut, f"caller{p}_inst").pp_user_inst
            self.sigs.append((getattr(user, f"callee{p}_f_result_valid"),
                              getattr(user, f"callee{p}_f_result_ready")))
        self.results: list[list[int]] = [[] for _ in range(pairs)]

    def tick(self) -> None:
        for p, (v, r) in enumerate(self.sigs):
            if v.value == 1 and r.value == 1:
                self.results[p].append(self.cycle)

    def busy_window(self, min_cycles: int = 1) -> tuple[int, list[int]]:
        """``(cycles, results of every pair)`` in the window in which every pair is busy: from
        every pair's first result to the first pair's last result (the results in
        ``(start, end]``); fewer than ``min_cycles`` cycles: AssertionError (make more calls)."""
        start = max(r[0] for r in self.results)
        end = min(r[-1] for r in self.results)
        assert end - start >= min_cycles, \
            f"no common window (start {start}, end {end}): more calls"
        return end - start, [sum(1 for c in r if start < c <= end) for r in self.results]
