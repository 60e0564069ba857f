"""PL->PS writes on the simulated board: each 32-bit word is stored once, in address order.

The runtime polls the shared on-chip memory while the simulator stores into it, so a word
must never be written twice (an mmap slice assignment goes through memcpy, which for 4..7
bytes stores the tail and then the head: the same trigger word twice, and a call taken in
between came back). ``bridge.store_words`` is the only way the simulated PL stores; the
2,000-run FIR stress test (tests/stress, ``-m long``) is the end-to-end check.
"""

from __future__ import annotations

import mmap
import struct

import pytest

from pushpush.simboard import ipc as bridge


def test_store_words_content() -> None:
    mem = mmap.mmap(-1, 4096)
    bridge.store_words(mem, 8, struct.pack("<3I", 1, 0xDEADBEEF, 3))
    assert struct.unpack_from("<4I", mem, 4) == (0, 1, 0xDEADBEEF, 3)
    bridge.store_words(mem, 13, b"\xaa\xbb")  # byte strobes: bytewise
    assert mem[12:16] == b"\xef\xaa\xbb\xde"


class _Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[int, bytes]] = []


def test_every_pl_write_goes_through_store_words(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A 64-bit beat holding an argument and a trigger: one call per beat, words in order."""
    path = tmp_path / "ocm"
    path.write_bytes(bytes(4096))
    cfg = bridge.SimConfig(top="t", sources=[], simulator="icarus")
    cfg.ps_base, cfg.ps_size, cfg.ps_mem_path = 0xFFFC_0000, 4096, str(path)
    cfg.ddr_size, cfg.ddr_mem_path = 0, ""
    seen: list[tuple[int, bytes]] = []
    real = bridge.store_words

    def spy(mem, offset, data):  # type: ignore[no-untyped-def]
        seen.append((offset, bytes(data)))
        real(mem, offset, data)

    monkeypatch.setattr(bridge, "store_words", spy)
    m = bridge.SimulatedPSMemory(cfg)
    assert m.write(0xFFFC_0010, struct.pack("<2I", 7, 0xFFFC_0102))
    assert seen == [(0x10, struct.pack("<2I", 7, 0xFFFC_0102))]
    assert struct.unpack("<2I", path.read_bytes()[0x10:0x18]) == (7, 0xFFFC_0102)
