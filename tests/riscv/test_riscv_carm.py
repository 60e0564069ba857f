"""C on the soft RISC-V core <-> C on the ARM, on the simulated board (issue 33, item 3: "RISC-V
<-> Python and C on the ARM"; tests/riscv/test_riscv_pairs.py covers riscv <-> riscv, riscv <->
python and higher-order calls in cocotb, where no C program runs on the ARM).

tests/riscv/carm/system.yaml: the C program ``arm`` (compiled with -Wall -Wextra -Werror
-pedantic, run under ASan + UBSan, attached to the simulated board) calls the core's ``rv.g``
in a chain; Python then asks the core for ``rv.to_c(n)``, n chained calls of the C program's
``arm.p``. Every result is checked against the pingpong state machine's model, and neither side
counts a collision, duplicate, stray or write error."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "c"))

import pushpush.pynq as ppq  # noqa: E402
from cbuild import SANITIZE, compile_c  # noqa: E402
from pushpush.pynq.simulated.c_programs import CAttach  # noqa: E402
from test_c_simboard import pairs, read_until  # noqa: E402

HERE = Path(__file__).resolve().parent / "carm"
MASK = 0xFFFF_FFFF
GOLDEN = 0x9E37_79B9
RUNTIME = ["pp_runtime.c", "pp_platform_linux.c", "pp_platform_simboard.c"]
#: seconds a call may take: the soft core's program is simulated, slowly on a loaded host
T = 600.0


def model(state: int, x: int) -> int:
    rot = ((state << 5) | (state >> 27)) & MASK
    return ((rot ^ (x & MASK)) + GOLDEN) & MASK


def signed(v: int) -> int:
    return v - (1 << 32) if v >> 31 else v


def test_c_on_the_arm_and_c_on_the_soft_core_call_each_other(tmp_path: Path) -> None:
    n = 4
    ol = ppq.load(HERE / "system.yaml", outdir=str(tmp_path / "ol"), simulator="icarus")
    try:
        exe = compile_c(tmp_path / "ol" / "c", [HERE / "arm.c", "arm_pp.c", *RUNTIME], tmp_path / "arm",
                        flags=SANITIZE)
        ol.runtime(timeout=T)
        with CAttach(ol.device) as att:
            arm = att.popen([str(exe), str(n)])
            try:
                out = read_until(arm, "SERVING", T)
                assert "SERVING" in out, out + arm.stderr.read()
                # C on the ARM -> C on the core: the core's state machine from reset
                got = pairs(out)
                state, x = 0, 11
                want = []
                for _ in range(n):
                    state = model(state, x)
                    want.append((signed(x), signed(state)))
                    x = state
                assert got == want
                # C on the core -> C on the ARM: rv.to_c(n) chains arm.p from x = 5
                r = ol.rv.to_c(n, timeout=T)
                astate, x = 0, 5
                for _ in range(n):
                    astate = model(astate, x)
                    x = astate
                assert r & MASK == astate, f"rv.to_c({n}) = {r} (a negative value is a PP_E* code)"
                # Python -> the core: its state went on from the C program's calls
                assert ol.rv.g(7, timeout=T) & MASK == model(state, 7)
            finally:
                if arm.poll() is None:
                    arm.send_signal(signal.SIGTERM)
            rest, err = arm.communicate(timeout=T)
        assert arm.returncode == 0 and "ALL OK" in rest, rest + err
        assert "counters c0 d0 s0 w0" in rest, rest
    finally:
        ol.free()
