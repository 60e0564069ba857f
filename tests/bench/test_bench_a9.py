"""The Cortex-A9 estimate of bench calls' software rows (pushpush.bench.a9.count, pushpush.bench.a9.model).

The counter runs the generated C runtime of examples/pingpong/c, cross-compiled for the
Cortex-A9, under Unicorn: its counts must be the same on every run and build, and its PS-PL
accesses exactly the protocol's (a call is one burst: argument words then the trigger; a reply
is one burst: result words then the status; nothing is ever read from the PL).
"""

from __future__ import annotations

import shutil
from typing import Any

import pytest

from pushpush.bench.a9 import model as a9model
from pushpush.bench.experiments.calls import calls
from pushpush.bench.a9.count import CROSS_CC, count_call_path

pytestmark = pytest.mark.skipif(
    shutil.which(CROSS_CC) is None,
    reason=f"{CROSS_CC} is not installed (Debian package gcc-arm-linux-gnueabihf; bootstrap.sh "
           "installs it): it compiles the C runtime whose call path is counted")


@pytest.fixture(scope="module")
def counts() -> dict[str, Any]:
    pytest.importorskip("unicorn", reason="the unicorn package is missing: pip install -e '.[dev]'")
    return count_call_path()


def test_counts_are_stable_across_builds(counts: dict[str, Any]) -> None:
    again = count_call_path()
    assert again == counts


def test_caller_accesses_are_the_protocols(counts: dict[str, Any]) -> None:
    caller = counts["caller"]
    first, wait = caller["first_look"], caller["wait_iteration"]
    # one call of hw.f(x): one argument word then the trigger, into hw's slot, in that order
    assert caller["gp_write_addresses"] == ["0x43c00000", "0x43c00004"]
    assert first["gp_writes"] == 2 and first["gp_reads"] == 0
    # the own rep: the status, the result, the status cleared (no stray check: the last call
    # took its own reply, so nothing can be left there); a reply within the spin rounds: no
    # clock read
    assert (first["ocm_reads"], first["ocm_writes"]) == (2, 1)
    assert first["timer_reads"] == first["now_us_calls"] == 0
    # a spin round of waiting touches no PL and writes nothing: it reads the status only
    assert (wait["gp_writes"], wait["gp_reads"], wait["ocm_writes"]) == (0, 0, 0)
    assert wait["ocm_reads"] == 1 and wait["timer_reads"] == wait["now_us_calls"] == 0
    # the full round after the spin rounds: the status, the triggers of the 3 served slots
    # (serve while waiting) and the clock for the timeout
    full = caller["full_round"]
    assert (full["gp_writes"], full["gp_reads"], full["ocm_writes"]) == (0, 0, 0)
    assert full["ocm_reads"] == 4 and full["now_us_calls"] == 1 and full["timer_reads"] == 3
    # the call's three parts add up to it; the PL is written before the trigger only
    parts = [caller[p] for p in ("to_trigger", "trigger_to_status", "after_status")]
    assert {k: sum(p[k] for p in parts) for k in first} == first
    assert parts[0]["gp_writes"] == 2 and parts[1]["gp_writes"] == parts[2]["gp_writes"] == 0
    assert parts[0]["ocm_reads"] == 0  # nothing read before the call
    assert parts[1]["ocm_reads"] == 1  # the status, looked at once
    # no barrier: the bare-metal layer's windows are Strongly-ordered (program order is the
    # order everyone sees: pp_platform.strongly_ordered)
    assert first["barriers"] == 0 and wait["barriers"] == 0


def test_callee_accesses_are_the_protocols(counts: dict[str, Any]) -> None:
    callee = counts["callee"]
    take, empty = callee["take_call"], callee["empty_sweep"]
    # the reply: result word then status, one burst into the Verilog caller's rep
    assert take["gp_writes"] == 2 and take["gp_reads"] == 0
    # the trigger and the argument read, the trigger re-armed: a spin round found it
    assert take["ocm_writes"] == 1 and take["ocm_reads"] == 2
    assert take["barriers"] == 0 and empty["barriers"] == 0  # Strongly-ordered (as the caller's)
    # a spin round reads the trigger of the slot that took the last call, nothing else
    assert (empty["gp_writes"], empty["gp_reads"], empty["ocm_writes"], empty["ocm_reads"]) == (0, 0, 0, 1)
    # the full sweep after the spin rounds: the 3 served slots' triggers
    full = callee["full_round"]
    assert (full["gp_writes"], full["gp_reads"], full["ocm_writes"], full["ocm_reads"]) == (0, 0, 0, 3)
    assert take["instructions"] > empty["instructions"]


def test_the_default_wait_mode_counts_as_poll(counts: dict[str, Any]) -> None:
    # sleep (the default) pauses in a full round only: a reply or call within the spin
    # rounds costs what it costs in poll; the full round calls the platform's idle once
    poll, sleep = counts["modes"]["poll"], counts["modes"]["sleep"]
    assert counts["spin_rounds"] == 16
    for side, parts in (("caller", ("to_trigger", "trigger_to_status", "after_status", "wait_iteration")),
                        ("callee", ("take_call", "empty_sweep"))):
        for p in parts:
            assert {k: v for k, v in sleep[side][p].items() if k != "it_skipped"} == \
                   {k: v for k, v in poll[side][p].items() if k != "it_skipped"}, (side, p)
            assert poll[side][p]["idle_calls"] == 0
        assert poll[side]["full_round"]["idle_calls"] == 0 and sleep[side]["full_round"]["idle_calls"] == 1


#: instructions and uncached accesses per call of each row, as the estimate adds them up
#: (pushpush.bench.a9.model.path_counts; gcc 12.2, -O2 -mcpu=cortex-a9, Thumb-2): a change of
#: the runtime's call path shows here
ROW_COUNTS = {"c_rtl": (39, 4.5), "rtl_c": (98.5, 5.5), "c_c": (137.5, 10)}


def test_row_counts_are_exact(counts: dict[str, Any]) -> None:
    if "12.2." not in counts["compiler"]:
        pytest.skip(f"the exact counts are of gcc 12.2's code (Debian bookworm's arm-linux-gnueabihf-gcc, "
                    f"which ./bootstrap.sh installs); this is {counts['compiler']}: "
                    "python -m pushpush.bench.a9.model prints its counts")
    for mode in ("poll", "sleep"):
        for kind, (instructions, uncached) in ROW_COUNTS.items():
            pc = a9model.path_counts(kind, counts["modes"][mode], 0.0 if kind == "c_c" else 10.0)
            assert (pc["instructions"], a9model._uncached(pc)) == (instructions, uncached), (mode, kind)


def test_each_row_has_its_protocol_limit(counts: dict[str, Any]) -> None:
    est = a9model.row_estimates(counts, {("python", "rtl"): 10.0, ("rtl", "python"): 10.0})
    f = a9model.CPU_MHZ / 1000
    gp, ocm, bus = a9model.GP0_NS.value * f, a9model.OCM_NS.value * f, 10 * a9model.CPU_MHZ / a9model.PL_MHZ
    # c -> rtl: 2 GP0 writes, then the answer (the bus, half a wait round: the status read
    # alone) or the first status read, whichever is longer, then the result read and the clear
    c_rtl = 2 * gp + max(ocm, bus + ocm / 2) + 2 * ocm
    assert a9model.protocol_limit("c_rtl", 10.0)["cycles"] == pytest.approx(c_rtl, abs=0.1)
    assert est[("c", "rtl")]["limit_mcalls"] == pytest.approx(a9model.CPU_MHZ / c_rtl, abs=1e-3)
    # issue 45's plain sum (two GP0 writes, the status and result reads, the clear, the bus)
    assert a9model.protocol_limit("c_rtl", 10.0)["serial_mcalls"] == pytest.approx(
        a9model.CPU_MHZ / (2 * gp + 3 * ocm + bus), abs=1e-3)
    # rtl -> c: half an empty round (the trigger read), the take (2 OCM reads, the re-arm, 2
    # GP0 writes), the bus; c -> c: 10 OCM accesses
    rtl_c = ocm / 2 + 3 * ocm + 2 * gp + bus
    assert a9model.protocol_limit("rtl_c", 10.0)["cycles"] == pytest.approx(rtl_c, abs=0.1)
    assert a9model.protocol_limit("rtl_c", 10.0)["accesses"] == 5
    assert a9model.protocol_limit("c_c", 0.0)["accesses"] == 10
    # the limit is the estimate's formula on a runtime of no instruction: like with like
    for kind, b in (("c_rtl", 10.0), ("rtl_c", 10.0), ("c_c", 0.0)):
        assert a9model.protocol_limit(kind, b)["mcalls"] == a9model.estimate_path(kind, a9model.PROTOCOL_PATHS,
                                                                                  b)["mcalls"]
    for pair in (("c", "rtl"), ("rtl", "c"), ("c", "c")):
        e = est[pair]
        assert e["of_limit"] == pytest.approx(e["mcalls"] / e["limit_mcalls"], abs=1e-3)
        assert 0 < e["of_limit"] < 1
        assert set(e["modes"]) == {"poll", "sleep"}
    md = a9model.model_markdown(counts, est, 2.48, 1.58)
    assert "| c -> rtl | sleep (default) |" in md and "of the limit" in md


def test_c_to_rtl_is_at_ninety_percent_of_its_limit(counts: dict[str, Any]) -> None:
    # issue 45's bar for c -> rtl, in poll and in the default wait mode (sleep); rtl -> c and
    # c -> c are below it (the serve path's instructions: the report itemises them)
    est = a9model.row_estimates(counts, {("python", "rtl"): 10.0, ("rtl", "python"): 10.0})
    for mode in ("poll", "sleep"):
        assert est[("c", "rtl")]["modes"][mode]["of_limit"] >= 0.90, mode


def test_empty_sweep_equals_the_hand_count(counts: dict[str, Any]) -> None:
    if "12.2." not in counts["compiler"]:
        pytest.skip(f"the hand count was made on gcc 12.2's code (Debian bookworm's "
                    f"arm-linux-gnueabihf-gcc, which ./bootstrap.sh installs); this is {counts['compiler']}")
    assert counts["callee"]["empty_sweep"]["instructions"] == a9model.HAND_COUNT_EMPTY_SWEEP
    # Unicorn skips condition-failed IT instructions without a hook: the counter adds them
    # (the call path's IT block on the SEQ bit is skipped every other call, the instructions
    # stay the same); the spin round has none
    assert counts["callee"]["empty_sweep"]["it_skipped"] == 0
    firsts = {counts["modes"][m]["caller"]["first_look"]["instructions"] for m in ("poll", "sleep")}
    assert len(firsts) == 1


def test_estimate_is_the_formula() -> None:
    c = {"instructions": 100, "gp_reads": 1, "gp_writes": 2, "ocm_reads": 3, "ocm_writes": 1, "timer_reads": 1}
    e = a9model.estimate_cycles(c, bus_pl=10)
    f = a9model.CPU_MHZ / 1000
    want = (100 * a9model.CPI.value + 3 * a9model.GP0_NS.value * f + 5 * a9model.OCM_NS.value * f
            + 10 * a9model.CPU_MHZ / a9model.PL_MHZ)
    assert e["cycles"] == pytest.approx(want, abs=0.1)
    assert e["mcalls"] == pytest.approx(a9model.CPU_MHZ / want, abs=1e-3)
    assert e["mcalls_low"] < e["mcalls"] < e["mcalls_high"]


def _c(instructions: int) -> dict[str, float]:
    return {"instructions": instructions, "gp_reads": 0, "gp_writes": 1, "ocm_reads": 1, "ocm_writes": 0,
            "timer_reads": 0}


def test_paths_combine_as_documented() -> None:
    counts = {"caller": {"to_trigger": _c(10), "trigger_to_status": _c(5), "after_status": _c(3),
                         "wait_iteration": _c(20)},
              "callee": {"take_call": _c(30), "empty_sweep": _c(8)}}

    def cyc(kind: str, bus: float) -> float:  # CPI 1, free accesses: instructions only
        return a9model.path_cycles(kind, counts, bus, 1.0, 0.0, 0.0)
    bus = 100 * a9model.CPU_MHZ / a9model.PL_MHZ
    assert cyc("c_rtl", 100) == 10 + 3 + max(5, bus + 20 / 2)
    assert cyc("c_rtl", 0) == 10 + 3 + max(5, 0 + 20 / 2)
    assert cyc("rtl_c", 100) == 30 + 8 / 2 + bus
    assert cyc("c_c", 0) == 10 + 3 + max(5, (30 + 8 / 2) + 20 / 2)
    # c -> c: every access is the OCM's (both windows there)
    assert a9model.path_cycles("c_c", counts, 0, 0.0, 1000.0, 0.0) == 0
    with pytest.raises(ValueError, match="unknown row kind"):
        cyc("c_py", 0)


def test_rows_without_counts_or_with_python_say_why() -> None:
    est = a9model.row_estimates(None, {}, "no compiler")
    assert "no compiler" in est[("c", "rtl")]["reason"]
    assert est[("python", "rtl")]["reason"] == a9model.PYTHON_REASON
    assert ("rtl", "rtl") not in est


def _row(caller: str, callee: str, hw: bool = False, sim: float | None = None, meaning: str | None = None,
         wall: int | None = None) -> dict[str, Any]:
    return {"caller": caller, "callee": callee, "k": 0, "topology": "crossbar", "calls": 10,
            "cycles_per_call": 6.0 if hw else None, "mcalls": 16.67 if hw else None,
            "sim_cycles_per_call": sim, "sim_cycles_meaning": meaning,
            "mcalls_reason": None if hw else calls.NO_ARM_MCALLS, "protocol_cycles": 6.0 if hw else None,
            "note": "", "paper_mcalls": 2.48, **({"wall_calls_per_s": wall} if wall else {})}


def test_calls_markdown_shows_the_estimate_and_its_model(counts: dict[str, Any]) -> None:
    bus = calls.SIM_CYCLES_BUS_ONLY
    rows = [_row("rtl", "rtl", hw=True), _row("python", "rtl", sim=10.0, meaning=bus),
            _row("rtl", "python", sim=10.0, meaning=bus), _row("c", "rtl", sim=268.0, meaning=calls.SIM_CYCLES_HOST),
            _row("rtl", "c", sim=266.0, meaning=calls.SIM_CYCLES_HOST), _row("c", "c", wall=1_000_000)]
    a9 = calls._a9_estimates(rows, lambda m: None)
    by = {(r["caller"], r["callee"]): r for r in rows}
    want = a9model.estimate_path("c_rtl", counts, 10.0)
    assert by[("c", "rtl")]["a9_mcalls"] == want["mcalls"]
    assert by[("python", "rtl")]["a9_mcalls"] is None and by[("python", "rtl")]["a9_reason"]
    assert "a9_mcalls" not in by[("rtl", "rtl")]
    md = calls._markdown(rows, {"ok": True}, None, a9)
    assert "Cortex-A9 estimate MCalls/s @650 MHz" in md
    assert f"| {want['mcalls']:.2f} ({want['mcalls_low']:.2f}-{want['mcalls_high']:.2f}), est. |" in md
    assert "### Cortex-A9 estimate: the model" in md and "UG585" in md
    assert "10.00 (bus only)" in md  # the simulated bus-only figure stays, in its own column
