"""pushpush.build.synth's flattened measurement: each wrapper synthesised flat with only its
user module kept apart (as Vivado flattens), against the hierarchy-kept attribution."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from pushpush.build.synth import WRAPPER_OWN, SynthError, costs_table, flat_component_costs

pytestmark = pytest.mark.usefixtures("yosys")   # tests/conftest.py: fails, with the fix, when it is missing

# a core whose 32-bit 2:1 multiplexer folds when the wrapper ties its select to a constant,
# a parametrised user module (kept apart: its $paramod name must still be found), a wrapper
# and a top, as FuseSoC's Edalize Yosys flow would read them
DESIGN = """
module pp_mux2(input wire clk, input wire s, input wire [31:0] a, input wire [31:0] b,
               output reg [31:0] y);
always @(posedge clk) y <= s ? a : b;
endmodule
module usr #(parameter W = 8) (input wire clk, input wire [W-1:0] d, output reg [W-1:0] q);
always @(posedge clk) q <= q + d;
endmodule
module w_wrapper(input wire clk, input wire s, input wire [31:0] a, output wire [31:0] y,
                 output wire [11:0] q);
wire [31:0] m;
pp_mux2 core (.clk(clk), .s(1'b1), .a(a), .b({32{s}}), .y(m));
usr #(.W(12)) pp_user_inst (.clk(clk), .d(m[11:0]), .q(q));
assign y = m;
endmodule
module t_top(input wire clk, input wire s, input wire [31:0] a, output wire [31:0] y,
             output wire [11:0] q);
w_wrapper w (.clk(clk), .s(s), .a(a), .y(y), .q(q));
endmodule
"""


def _work_root(tmp: Path) -> tuple[Path, Path]:
    (tmp / "design.v").write_text(DESIGN)
    (tmp / "edalize_yosys_procs.tcl").write_text(
        "proc load_plugins {} {\n}\nproc set_defines {} {\n}\nproc set_incdirs {} {\n}\n"
        "proc read_files {} {\nread_verilog {design.v}\n}\nproc set_params {} {\n}\n")
    hier = tmp / "hier.json"
    subprocess.run(["yosys", "-q", "-p", "read_verilog -defer design.v; "
                    f"synth_xilinx -family xc7 -top t_top; write_json {hier}"],
                   cwd=tmp, check=True, capture_output=True)
    return tmp, hier


def test_flattened_against_hierarchy_kept(tmp_path: Path) -> None:
    root, hier = _work_root(tmp_path)
    costs = flat_component_costs(root, "t_top", hier, {"w_wrapper": "w"}, {"w_wrapper": "usr"})
    c = costs["w"]
    assert c.user_module == "usr"
    # hierarchy kept: the core's multiplexer is 32 LUTs (its constant input is a port there)
    assert set(c.cores) == {"pp_mux2"} and c.cores["pp_mux2"].luts >= 32
    assert c.cores["pp_mux2"].ffs == 32 and c.cores["pp_mux2"].lut_levels == 1
    # flat: the constant select folds, the core is its 32 FFs
    assert c.pushpush.luts == 0
    assert c.pushpush.ffs == 32
    # the user module, kept apart in both runs, is the same: a 12-bit accumulator
    assert c.user.ffs == 12 and c.user.carry4 == 3
    # depth through the whole flat wrapper, user module included
    assert c.pushpush.lut_levels is not None and c.pushpush.lut_levels >= 1
    assert c.pushpush.depth_path and c.pushpush.depth_path.startswith(f"{c.pushpush.lut_levels} LUT levels")
    table = costs_table(costs)
    assert "w: PushPush logic, flattened" in table and "user module usr (kept apart)" in table


def test_wrapper_own_cells_are_attributed(tmp_path: Path) -> None:
    root, hier_file = _work_root(tmp_path)
    hier = json.loads(hier_file.read_text())
    # a cell of the wrapper's own (not in a core) shows as the wrapper row
    mod = next(m for name, m in hier["modules"].items() if name.endswith("w_wrapper"))
    mod["cells"]["own_lut"] = {"type": "LUT2", "port_directions": {"I0": "input", "I1": "input", "O": "output"},
                               "connections": {"I0": [2], "I1": [3], "O": [4]}}
    costs = flat_component_costs(root, "t_top", hier, {"w_wrapper": "w"}, {"w_wrapper": "usr"})
    assert costs["w"].cores[WRAPPER_OWN].luts == 1


def test_wrong_user_module_is_reported(tmp_path: Path) -> None:
    root, hier = _work_root(tmp_path)
    with pytest.raises(SynthError, match="expected only its user module nosuch"):
        flat_component_costs(root, "t_top", hier, {"w_wrapper": "w"}, {"w_wrapper": "nosuch"})


def test_not_a_work_root(tmp_path: Path) -> None:
    with pytest.raises(SynthError, match="not an Edalize Yosys work root"):
        flat_component_costs(tmp_path, "t_top", tmp_path / "x.json", {"w_wrapper": "w"},
                             {"w_wrapper": "usr"})
