"""The C runtime programs the memory firewall (``firewall: true``, pp_firewall.h) on the
simulated board: tests/c/data/cbuf.yaml (examples/bufargs's module) with the firewall, and a
C component (tests/c/src/cfw_main.c) that declares its DMA memory (``pp_fw_own``) and calls
``hw.scale`` / ``hw.widen``: correct calls pass (a slice gets exactly its elements), and each
hostile call (past the end of declared memory, an undeclared buffer, a freed one, the
component's own window in the OCM, an ``in`` buffer aimed at a secret) returns
``PP_EFIREWALL`` with the engine, address, direction, reason and call number, memory around
compared byte for byte before and after, and a correct call after each. Compiled with
-Wall -Wextra -Werror -pedantic, run under ASan + UBSan."""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pynq  # noqa: E402

import pushpush.pynq as ppq  # noqa: E402
from cbuild import DATA, SANITIZE, SRC, compile_c  # noqa: E402
from pushpush.link import load  # noqa: E402
from pushpush.pynq.simulated.c_programs import CAttach  # noqa: E402

pytestmark = pytest.mark.slow   # an Icarus build and ~15 calls with buffers

RUNTIME = ["pp_runtime.c", "pp_platform_linux.c", "pp_platform_simboard.c", "pp_firewall.c"]
#: case -> (engine, first byte refused relative to its target, write, why: pp_firewall.h PP_FW_*)
EXPECTED = {"past_end": ("hw.scale.dst", True, 2), "not_a_buffer": ("hw.scale.dst", True, 1),
            "freed": ("hw.scale.dst", True, 1), "own_window": ("hw.scale.dst", True, 1),
            "read_secret": ("hw.scale.src", False, 1)}


def _alloc(n: int, dtype, fill: int):
    b = pynq.allocate(n, dtype)
    b[:] = fill
    return b


def test_c_runtime_opens_the_firewalls_ranges(tmp_path):
    (tmp_path / "system.yaml").write_text(
        (DATA / "cbuf.yaml").read_text().replace("clock_mhz: 100\n", "clock_mhz: 100\nfirewall: true\n")
        .replace("../../../examples", str(DATA.parents[2] / "examples")))
    linked = load(tmp_path / "system.yaml")
    assert linked.firewall is not None
    out = tmp_path / "cfw"
    bit = ppq.write_sim_overlay(linked, out, simulator="icarus", parameters={"BUFFER_TIMEOUT": 3000})
    ol = ppq.load(str(bit))
    try:
        exe = compile_c(out / "c", [SRC / "cfw_main.c", "cc_pp.c", *RUNTIME], out / "cfw", flags=SANITIZE)
        header = (out / "c" / "cc_pp.h").read_text()
        assert f"#define CC_FW_BASE 0x{linked.firewall.base:08X}u" in header
        assert "#define CC_FW_FIRST 0u" in header and "#define CC_FW_COUNT 8u" in header
        n, m = 40, 77
        src, dst = _alloc(n, np.uint32, 0), _alloc(n, np.uint32, 0)
        src[:] = np.arange(n, dtype=np.uint32) * np.uint32(2654435761)
        bsrc, bdst = _alloc(m + 1, np.uint8, 0), _alloc(m + 1, np.int16, 999)
        bsrc[:] = np.arange(m + 1) % 256
        arena = _alloc(64, np.uint32, 0x5A5A5A5A)
        victim = _alloc(64, np.uint32, 0x11111111)
        secret = _alloc(64, np.uint32, 0x44444444)
        guarded = {"arena": arena, "victim": victim, "secret": secret}
        before = {k: bytes(np.asarray(b).tobytes()) for k, b in guarded.items()}
        args = [hex(int(x)) for x in (src.physical_address, dst.physical_address, n,
                                      bsrc.physical_address, bdst.physical_address, m,
                                      arena.physical_address, victim.physical_address,
                                      secret.physical_address)]
        with CAttach(ol.device) as att:
            proc = att.popen([str(exe), *args])
            stdout, stderr = proc.communicate(timeout=600)
        assert proc.returncode == 0 and "ALL OK" in stdout, stdout + stderr
        # correct calls: the data arrived, a slice got exactly its elements
        assert f"scale {n}\n" in stdout and f"widen {m}\n" in stdout
        assert np.array_equal(dst, src * np.uint32(3))
        assert np.array_equal(bdst[1:], bsrc[1:].astype(np.int16) - 128) and bdst[0] == 999
        # every hostile call refused: memory unchanged byte for byte
        after = {k: bytes(np.asarray(b).tobytes()) for k, b in guarded.items()}
        assert after == before, [k for k in before if before[k] != after[k]]
        targets = {"past_end": int(arena.physical_address), "not_a_buffer": int(victim.physical_address),
                   "freed": int(victim.physical_address) + 128, "own_window": linked.component("cc").base,
                   "read_secret": int(secret.physical_address)}
        calls = []
        for case, (engine, write, why) in EXPECTED.items():
            line = next(x for x in stdout.splitlines() if x.startswith(f"case {case} ")).split()
            assert line[2] == "-105" and line[3] == engine, line          # PP_EFIREWALL
            addr, nbytes = int(line[4], 16), int(line[5])
            assert targets[case] <= addr < targets[case] + 64 and nbytes > 0, line
            assert (line[6], int(line[7])) == (str(int(write)), why), line
            calls.append(int(line[8]))
        assert calls == sorted(calls) and len(set(calls)) == len(calls)
        assert "why past_end no range was open: the buffer runs past the end" in stdout
        refused = int(next(x for x in stdout.splitlines() if x.startswith("refused ")).split()[1])
        assert refused >= len(EXPECTED)
    finally:
        ol.free()
