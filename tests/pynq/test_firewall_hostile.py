"""The hostile-input run (issue 46): the memory firewall on the simulated board.

examples/bufargs (an rtl ``scale(src: in u32[], dst: out u32[], k: u32) -> u32`` whose
buffer engines read ``src`` and write ``dst`` in PS memory) is loaded twice: with
``firewall: true`` (pp_mem_firewall between the buffer engines and ``buf_axi``) and without.
The same hostile calls go to both; each aims the engine at memory the caller must not reach:

- ``past_end``: an out buffer's length 8 words past its end, into the next words of the
  same allocation (a raw ``(address, n)`` pair: the runtime refuses n > size for a buffer);
- ``other_window``: the ARM's own window (the OCM at ``regions.ps``, where the software
  components' windows live);
- ``slot_table``: the caller's rep slot of ``hw.add`` and the words after it (the
  runtime's slot table);
- ``freed``: the address of a ``pynq.allocate`` buffer freed before the call (its memory
  since allocated to a victim: first fit gives it back);
- ``other_process``: a buffer this runtime was not given (another process's, passed by its
  physical address: from the PL's side the same as a process passing another's address);
- ``not_a_buffer``: an address in DDR that no buffer argument names;
- ``read_secret``: an ``in`` buffer aimed at a victim buffer (a read: nothing changes in
  memory, but the data must not reach the module: the call fails instead).

With the firewall every case raises :class:`FirewallRefused` naming the component, the
engine, the address and the call; the victim memory (every buffer around, and the host's
window in the OCM) is compared byte for byte before and after; a correct call follows each case.
Without it, the run records which cases changed memory, and asserts that the DDR cases did
(the corruption the firewall prevents); ``HOSTILE_REPORT`` (a path) gets the table.
"""

from __future__ import annotations

import gc
import json
import os
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pynq  # noqa: E402

import pushpush.pynq as ppq  # noqa: E402
from pushpush.link import load  # noqa: E402
from pushpush.protocol import CallError  # noqa: E402
from pushpush.runtime.firewall import FirewallRefused  # noqa: E402

pytestmark = pytest.mark.slow   # two Icarus builds of the system and ~20 calls on each

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bufargs"
CASES = ["past_end", "other_window", "slot_table", "freed", "other_process", "not_a_buffer",
         "read_secret"]


def _overlay(tmp: Path, firewall: bool):
    tmp.mkdir(parents=True, exist_ok=True)
    text = (EXAMPLE / "system.yaml").read_text()
    if firewall:
        text = text.replace("board: pynq-z1\n", "board: pynq-z1\nfirewall: true\n")
    (tmp / "system.yaml").write_text(text)
    (tmp / "buf_core.v").write_text((EXAMPLE / "buf_core.v").read_text())
    linked = load(tmp / "system.yaml")
    assert (linked.firewall is not None) == firewall
    bit = ppq.write_sim_overlay(linked, tmp / "overlay", simulator="icarus",
                                parameters={"BUFFER_TIMEOUT": 3000})
    return linked, ppq.load(str(bit))


def _alloc(n: int, fill: int):
    b = pynq.allocate(shape=(n,), dtype=np.uint32, cacheable=False)
    b[:] = fill
    return b


class Memory:
    """Snapshots of the memory a hostile call may reach: named buffers and the host's window."""

    def __init__(self, linked) -> None:
        self.bufs: dict[str, object] = {}
        self.reused = False   # the freed buffer's memory went to the victim
        host = linked.component("host")
        self.window = pynq.MMIO(host.base, host.size)   # the ARM's window, slot table included
        # every word but the rep slot of hw.scale, which the hostile calls' own replies write
        rep = next(s for s in host.slots if s.function == "hw.scale" and not s.is_cep)
        self.window_words = [i for i in range(host.size // 4)
                             if not rep.offset <= i < rep.offset + rep.words]

    def snapshot(self) -> dict[str, bytes]:
        out = {k: np.array(b, dtype=np.uint32).tobytes() for k, b in self.bufs.items()}
        out["window"] = b"".join(int(self.window.read(4 * i)).to_bytes(4, "little")
                                 for i in self.window_words)
        return out


def _run_case(case: str, rt, linked, mem: Memory) -> tuple[object, list[str]]:
    """Make the hostile call of ``case``; returns (its outcome: a result or the exception,
    the names of the memories that changed)."""
    src = _alloc(16, 0)
    src[:] = np.arange(1, 17, dtype=np.uint32)
    mem.bufs.clear()
    mem.bufs["src"] = src
    host = linked.component("host")
    if case == "past_end":
        arena = _alloc(64, 0x5A5A5A5A)
        mem.bufs["arena"] = arena
        dst = (int(arena.physical_address), 16)          # 8 words owned, 16 written
        args = (src, dst, 3)
    elif case == "other_window":
        args = (src, (host.base, 16), 3)
    elif case == "slot_table":
        rep = next(s for s in host.slots if s.function == "hw.add" and not s.is_cep)
        args = (src, (rep.address, 16), 3)
    elif case == "freed":
        gone = _alloc(16, 0)
        addr = int(gone.physical_address)
        gone.freebuffer()
        del gone            # the simulated board frees a buffer when its last view goes
        gc.collect()
        victim = _alloc(16, 0x11111111)
        mem.bufs["victim"] = victim
        args = (src, (addr, 16), 3)   # a use after free: the address kept
        mem.reused = int(victim.physical_address) == addr
    elif case == "other_process":
        theirs = _alloc(16, 0x22222222)
        mem.bufs["theirs"] = theirs
        args = (src, (int(theirs.physical_address), 16), 3)
    elif case == "not_a_buffer":
        region = _alloc(1024, 0x33333333)
        mem.bufs["region"] = region
        args = (src, (int(region.physical_address) + 2048, 16), 3)
    elif case == "read_secret":
        secret = _alloc(16, 0x44444444)
        dst = _alloc(16, 0)
        mem.bufs.update(secret=secret, dst=dst)
        args = ((int(secret.physical_address), 16), dst, 1)
    else:
        raise AssertionError(case)
    before = mem.snapshot()
    try:
        outcome: object = rt.hw.scale(*args)
    except CallError as e:
        outcome = e
    after = mem.snapshot()
    changed = [k for k in before if before[k] != after[k]]
    if case == "read_secret" and not isinstance(outcome, CallError):
        if np.array_equal(np.asarray(mem.bufs["dst"]), np.full(16, 0x44444444, np.uint32)):
            changed.append("secret leaked into dst")
    return outcome, changed


def _check_next_call(rt) -> None:
    """Calls with buffers the runtime vouches for still work, exactly."""
    src = _alloc(8, 0)
    src[:] = np.arange(8, dtype=np.uint32)
    dst = _alloc(8, 0)
    assert rt.hw.scale(src, dst, 5) == 8
    assert list(dst) == [5 * i for i in range(8)]
    assert rt.hw.add(2, 3) == 5
    # numpy arrays: the runtime's own temporary buffers get their ranges too; a slice of a
    # buffer gets exactly its elements (its neighbours stay unreachable and unchanged)
    a = (np.arange(300) % 256).astype(np.uint8)
    b = np.zeros(300, dtype=np.int16)
    assert rt.hw.widen(a, b) == 300
    assert np.array_equal(b, a.astype(np.int16) - 128)
    whole = _alloc(32, 7)
    assert rt.hw.scale(src, whole[8:16], 2) == 8
    assert list(whole[8:16]) == [2 * i for i in range(8)]
    assert list(whole[:8]) == [7] * 8 and list(whole[16:]) == [7] * 16


def test_hostile_calls_with_and_without_the_firewall(tmp_path):
    report = {}
    for firewall in (True, False):
        linked, ol = _overlay(tmp_path / ("fw" if firewall else "nofw"), firewall)
        try:
            rt = ol.runtime()
            rt.timeout = 60.0
            mem = Memory(linked)
            _check_next_call(rt)
            rows = {}
            for case in CASES:
                outcome, changed = _run_case(case, rt, linked, mem)
                rows[case] = {"outcome": (type(outcome).__name__ + ": " + str(outcome))
                              if isinstance(outcome, Exception) else f"returned {outcome}",
                              "changed": changed}
                if case == "freed":
                    rows[case]["victim_reused_freed_memory"] = mem.reused
                if firewall:
                    assert isinstance(outcome, FirewallRefused), (case, outcome)
                    assert changed == [], (case, changed)
                    msg = str(outcome)
                    assert "memory firewall refused engine hw.scale." in msg, msg
                    assert "call #" in msg and "hw.scale" in msg
                    param = "src" if case == "read_secret" else "dst"
                    assert outcome.refusal.owner == ("hw", "scale", param), outcome.refusal
                    assert f"no range was open for buffer '{param}'" in msg, msg
                _check_next_call(rt)
            report["with firewall" if firewall else "without firewall"] = rows
        finally:
            ol.free()
    off = report["without firewall"]
    for case in ("past_end", "other_window", "slot_table", "other_process", "not_a_buffer"):
        assert off[case]["changed"], f"{case}: without the firewall memory should have changed: {off[case]}"
    assert "secret leaked into dst" in off["read_secret"]["changed"], off["read_secret"]
    if off["freed"]["victim_reused_freed_memory"]:
        assert off["freed"]["changed"], off["freed"]
    if os.environ.get("HOSTILE_REPORT"):
        Path(os.environ["HOSTILE_REPORT"]).write_text(json.dumps(report, indent=1))
