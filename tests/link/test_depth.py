"""pushpush.build.depth: the longest register-to-register path in LUT levels."""

from __future__ import annotations

from pathlib import Path

import pytest

from pushpush.build.depth import DepthError, netlist_depth


def cell(t: str, ins: dict[str, list[int]], outs: dict[str, list[int]]) -> dict:
    return {"type": t, "port_directions": {**{p: "input" for p in ins}, **{p: "output" for p in outs}},
            "connections": {**ins, **outs}}


def netlist(cells: dict[str, dict]) -> dict:
    return {"modules": {"top": {"cells": cells}}}


def test_chain_counts_luts_not_carry_or_muxf() -> None:
    # FF(1) -> LUT6 -> CARRY4 -> MUXF7 -> LUT2 -> FF ; and a parallel 1-LUT path
    n = netlist({
        "ff0": cell("FDRE", {"D": [10], "C": [2]}, {"Q": [1]}),
        "l1": cell("LUT6", {"I0": [1]}, {"O": [3]}),
        "c1": cell("CARRY4", {"S": [3]}, {"CO": [4]}),
        "m1": cell("MUXF7", {"I0": [4], "S": [1]}, {"O": [5]}),
        "l2": cell("LUT2", {"I0": [5], "I1": [1]}, {"O": [6]}),
        "ff1": cell("FDRE", {"D": [6], "C": [2]}, {"Q": [7]}),
        "l3": cell("LUT1", {"I0": [7]}, {"O": [10]}),
    })
    d = netlist_depth(n, "top")
    assert d.lut_levels == 2
    assert [t for t, _ in d.path] == ["LUT6", "CARRY4", "MUXF7", "LUT2"]
    assert d.describe() == "2 LUT levels (1 CARRY4, 1 LUT2, 1 LUT6, 1 MUXF7)"


def test_distributed_ram_read_is_a_level_from_its_address_only() -> None:
    # LUT -> RAM address -> LUT: 3 levels; LUT -> RAM data -> (registered) does not chain
    n = netlist({
        "la": cell("LUT4", {"I0": [1]}, {"O": [2]}),
        "ram": cell("RAM32M", {"ADDRA": [2], "DIA": [5], "WE": [6], "WCLK": [9]}, {"DOA": [3]}),
        "lb": cell("LUT3", {"I0": [3]}, {"O": [4]}),
        "ld": cell("LUT6", {"I0": [4]}, {"O": [5]}),   # feeds the RAM's data pin: no loop
    })
    d = netlist_depth(n, "top")
    assert d.lut_levels == 4 and [t for t, _ in d.path] == ["LUT4", "RAM32M", "LUT3", "LUT6"]


def test_combinational_loop_is_reported() -> None:
    n = netlist({"a": cell("LUT2", {"I0": [2]}, {"O": [1]}), "b": cell("LUT2", {"I0": [1]}, {"O": [2]})})
    with pytest.raises(DepthError, match="combinational loop through LUT2"):
        netlist_depth(n, "top")


def test_hierarchical_netlist_is_refused() -> None:
    n = {"modules": {"top": {"cells": {"u": cell("sub", {}, {})}}, "sub": {"cells": {}}}}
    with pytest.raises(DepthError, match="not flat"):
        netlist_depth(n, "top")


@pytest.mark.usefixtures("yosys")
def test_synth_reports_depth(tmp_path: Path) -> None:
    from pushpush.build.synth import synth_resources

    src = tmp_path / "xt.v"
    src.write_text("module xt(input wire clk, input wire [63:0] a, output reg y);\n"
                   "reg [63:0] r;\nalways @(posedge clk) begin r <= a; y <= ^r; end\nendmodule\n")
    res = synth_resources([src], "xt")
    # 64 inputs: 8-input functions (LUT6 + MUXF7 + MUXF8) of 8 groups, then one of those 8
    assert res.lut_levels == 2
    assert "depth 2 LUT levels" in res.summary()
