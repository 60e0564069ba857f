"""The C runtime programs the memory firewall (``firewall: true``, pp_firewall.h) on the
simulated board: tests/c/data/cbuf.yaml (examples/bufargs's module) with the firewall, and a
C component (tests/c/src/cfw_main.c) that declares its DMA memory (``pp_fw_own``) and calls
``hw.scale`` / ``hw.widen``, through its imports and through a function value: correct calls
pass (a slice gets exactly its elements), and each hostile call (past the end of declared
memory, an undeclared buffer, a freed one, the component's own window in the OCM, an ``in``
buffer aimed at a secret, past the end through a function value) returns ``PP_EFIREWALL``
with the engine, address, direction, reason and call number, memory around compared byte
for byte before and after, and a correct call after each; channel calls (pp_chnl_send /
pp_chnl_recv) likewise. The same program on the system
without the firewall shows which of those calls corrupt memory there. Compiled with -Wall
-Wextra -Werror -pedantic, run under ASan + UBSan."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pynq  # noqa: E402

import pushpush.pynq as ppq  # noqa: E402
from cbuild import DATA, SANITIZE, SRC, compile_c  # noqa: E402
from pushpush.link import load  # noqa: E402
from pushpush.pynq.simulated.c_programs import CAttach  # noqa: E402

pytestmark = pytest.mark.slow   # two Icarus builds and ~20 calls with buffers on each

RUNTIME = ["pp_runtime.c", "pp_platform_linux.c", "pp_platform_simboard.c", "pp_firewall.c"]
#: case -> (engine, write, why: pp_firewall.h PP_FW_*, the memory it aims at)
EXPECTED = {"past_end": ("hw.scale.dst", True, 2, "arena"),
            "not_a_buffer": ("hw.scale.dst", True, 1, "victim"),
            "freed": ("hw.scale.dst", True, 1, "victim"),
            "own_window": ("hw.scale.dst", True, 1, None),
            "read_secret": ("hw.scale.src", False, 1, None),
            "fn_past_end": ("hw.scale.dst", True, 2, "arena")}


def _alloc(n: int, dtype, fill: int):
    b = pynq.allocate(n, dtype)
    b[:] = fill
    return b


def _run(tmp: Path, firewall: bool) -> tuple[object, str, dict[str, bool], dict[str, int]]:
    """Build the system (with or without the firewall), run cfw_main.c on it; returns the
    linked system, the program's output, which guarded memories changed, and the targets."""
    tmp.mkdir(parents=True)
    text = (DATA / "cbuf.yaml").read_text().replace("../../../examples", str(DATA.parents[2] / "examples"))
    if firewall:
        text = text.replace("clock_mhz: 100\n", "clock_mhz: 100\nfirewall: true\n")
    (tmp / "system.yaml").write_text(text)
    linked = load(tmp / "system.yaml")
    assert (linked.firewall is not None) == firewall
    bit = ppq.write_sim_overlay(linked, tmp / "cfw", simulator="icarus", parameters={"BUFFER_TIMEOUT": 3000})
    ol = ppq.load(str(bit))
    try:
        exe = compile_c(tmp / "cfw" / "c", [SRC / "cfw_main.c", "cc_pp.c", *RUNTIME], tmp / "cfw.exe",
                        flags=SANITIZE)
        if firewall:
            header = (tmp / "cfw" / "c" / "cc_pp.h").read_text()
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
        hw = linked.component("hw")
        fnslot = hw.slots[hw.export("scale").dynamic_slots[0]].address
        args = [hex(int(x)) for x in (src.physical_address, dst.physical_address, n,
                                      bsrc.physical_address, bdst.physical_address, m,
                                      arena.physical_address, victim.physical_address,
                                      secret.physical_address, fnslot)]
        with CAttach(ol.device) as att:
            proc = att.popen([str(exe), *args, "fw" if firewall else "nofw"])
            stdout, stderr = proc.communicate(timeout=600)
        assert proc.returncode == 0 and "ALL OK" in stdout, stdout + stderr
        # correct calls: the data arrived, a slice got exactly its elements
        assert f"scale {n}\n" in stdout and f"widen {m}\n" in stdout
        assert np.array_equal(dst, src * np.uint32(3))
        assert np.array_equal(bdst[1:], bsrc[1:].astype(np.int16) - 128) and bdst[0] == 999
        after = {k: bytes(np.asarray(b).tobytes()) for k, b in guarded.items()}
        changed = {k: before[k] != after[k] for k in guarded}
        targets = {"past_end": int(arena.physical_address), "not_a_buffer": int(victim.physical_address),
                   "freed": int(victim.physical_address) + 128, "own_window": linked.component("cc").base,
                   "read_secret": int(secret.physical_address), "fn_past_end": int(arena.physical_address)}
        return linked, stdout, changed, targets
    finally:
        ol.free()


def test_c_runtime_opens_the_firewalls_ranges(tmp_path):
    _, stdout, changed, targets = _run(tmp_path / "fw", True)
    assert not any(changed.values()), changed            # memory unchanged byte for byte
    calls = []
    for case, (engine, write, why, _) in EXPECTED.items():
        line = next(x for x in stdout.splitlines() if x.startswith(f"case {case} ")).split()
        assert line[2] == "-105" and line[3] == engine, line          # PP_EFIREWALL
        addr, nbytes = int(line[4], 16), int(line[5])
        assert targets[case] <= addr < targets[case] + 64 and nbytes > 0, line
        assert (line[6], int(line[7])) == (str(int(write)), why), line
        calls.append(int(line[8]))
    assert calls == sorted(calls) and len(set(calls)) == len(calls)
    assert "why past_end no range was open: the buffer runs past the end" in stdout
    assert "why not_a_buffer no range was open: the buffer is not in memory the program declared" in stdout
    refused = int(next(x for x in stdout.splitlines() if x.startswith("refused ")).split()[1])
    assert refused >= len(EXPECTED)

    # the same program without the firewall: the hostile calls pass and corrupt memory
    _, stdout, changed, _ = _run(tmp_path / "nofw", False)
    for case in ("past_end", "not_a_buffer", "freed", "fn_past_end"):
        assert f"case {case} 0 none" in stdout, stdout
    assert changed["arena"] and changed["victim"] and not changed["secret"], changed


def test_c_channels_open_their_buffers_range(tmp_path):
    """pp_chnl_send / pp_chnl_recv (tests/c/src/cfwchan_main.c on tests/c/data/cchan.yaml
    with the firewall): a loopback through declared memory passes; a send from and a receive
    into undeclared memory are refused (PP_EFIREWALL, the channel's engine), the victim
    unchanged, and the component still serves."""
    text = (DATA / "cchan.yaml").read_text().replace("../../../examples", str(DATA.parents[2] / "examples"))
    (tmp_path / "system.yaml").write_text(text.replace("clock_mhz: 100\n", "clock_mhz: 100\nfirewall: true\n"))
    linked = load(tmp_path / "system.yaml")
    assert linked.firewall is not None
    bit = ppq.write_sim_overlay(linked, tmp_path / "out", simulator="icarus")
    ol = ppq.load(str(bit))
    try:
        exe = compile_c(tmp_path / "out" / "c", [SRC / "cfwchan_main.c", "cc_pp.c", *RUNTIME],
                        tmp_path / "cfwchan", flags=SANITIZE)
        n = 37
        src, dst = _alloc(n, np.uint32, 0), _alloc(n, np.uint32, 0)
        src[:] = np.arange(n, dtype=np.uint32) * np.uint32(2654435761)
        victim = _alloc(64, np.uint32, 0x11111111)
        before = bytes(np.asarray(victim).tobytes())
        args = [hex(int(x)) for x in (src.physical_address, dst.physical_address, n, victim.physical_address)]
        with CAttach(ol.device) as att:
            proc = att.popen([str(exe), *args])
            stdout, stderr = proc.communicate(timeout=600)
        assert proc.returncode == 0 and "ALL OK" in stdout, stdout + stderr
        assert f"loop {n} {n}\n" in stdout and np.array_equal(dst, src)
        assert bytes(np.asarray(victim).tobytes()) == before
        v = int(victim.physical_address)
        for name, engine, write in (("send_victim", "hw.loop_rx.data", "0"), ("recv_victim", "hw.loop_tx.data", "1")):
            line = next(x for x in stdout.splitlines() if x.startswith(name + " ")).split()
            assert line[1] == "-105" and line[2] == engine and line[4] == write and line[5] == "1", line
            assert v <= int(line[3], 16) < v + 64, line
    finally:
        ol.free()
