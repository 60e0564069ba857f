"""A Python call's uncached accesses on the board path, counted on the simulated board.

``pushpush bench callpath --board`` (pushpush.bench.experiments.callpath.board) loads a system
where Python calls Verilog and Python and Verilog calls Python, and counts the accesses of
each kind of call (pushpush.pynq.accesses) through PYNQ's own MMIO. Pinned here: the fixed
accesses per call, beside one per wake-up (a caller's look at its rep, a server's sweep);
before issue 45 they were 4, 3, 6 and 4 (5, 4 on the board, whose writes into the PL were
two stores: the arguments, then the trigger).
"""

from __future__ import annotations

import os

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

from pushpush.bench.experiments.callpath.board import board_rows, count_accesses, format_accesses  # noqa: E402

pytestmark = pytest.mark.slow   # a simulated board (about 15 s)


def test_accesses_per_call_kind(tmp_path):
    rows = count_accesses(tmp_path, calls=8)
    fixed = {(r["kind"], r["side"]): r["fixed_per_call"] for r in rows}
    assert fixed == {
        # the stray check of the rep, the call in one store (GP0), the status cleared
        ("python -> rtl", "caller (python)"): 3.0,
        # the trigger re-armed, the reply in one store (GP0)
        ("rtl -> python", "callee (python)"): 2.0,
        # as python -> rtl, and the callee's trigger looked at before writing (§2.2)
        ("python -> python", "caller (python)"): 4.0,
        ("python -> python", "callee (python)"): 2.0,
        ("python -> c", "caller (python)"): 4.0,
    }
    by = {(r["kind"], r["side"]): r for r in rows}
    assert by[("python -> rtl", "caller (python)")]["gp0_writes"] == 1.0
    assert by[("rtl -> python", "callee (python)")]["gp0_writes"] == 1.0
    assert by[("python -> rtl", "caller (python)")]["gp0_reads"] == 0.0   # polls are local
    est = {r["kind"]: r for r in board_rows(rows)}
    assert est["python -> rtl"]["accesses"] == 4.0 and est["python -> rtl"]["calls_per_s"] == 8333
    assert est["rtl -> python"]["accesses"] == 3.0
    assert est["python -> python"]["accesses"] == 8.0
    text = format_accesses(rows)
    assert "https://discuss.pynq.io/t/mmio-write-is-too-slow/389" in text and "8,333" in text
