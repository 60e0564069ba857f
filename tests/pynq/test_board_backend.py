"""The board path of PynqBackend, on a stand-in for PYNQ's Zynq device.

On a PYNQ-Z1, PYNQ's EmbeddedDevice is ``MEMORY_MAPPED``: ``mmap`` gives numpy views of
``/dev/mem``, and ``MMIO.array`` is such a view. :class:`FakeBoard` is that, over plain
memory, recording every store into the PL so the tests can check that a call is stored
as one slice (the arguments and the trigger word, in address order), never through
``MMIO.write``; and the uncached accesses a call makes (pushpush.pynq.accesses).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pynq.pl_server")

from pushpush.protocol import BusWriteError  # noqa: E402
from pushpush.pynq.accesses import counting  # noqa: E402
from pushpush.pynq.board import PynqBackend  # noqa: E402
from pushpush.pynq.words import load_words, store_words  # noqa: E402
from pushpush.pynq.ocm import OCM_CFG_OFFSET, SLCR_BASE, OcmMappingError, check_ocm_mapping  # noqa: E402
from pushpush.runtime import SyncRuntime  # noqa: E402

from pynq_systems import loop, two  # noqa: E402


class Recording(np.ndarray):
    def __setitem__(self, key, value):
        self.log.append((key, np.array(value).tolist()))
        super().__setitem__(key, value)


class FakeBoard:
    """PYNQ's Zynq device as the backend sees it: capabilities and mmap."""

    def __init__(self, regions, ocm_cfg=0x1F):
        self.capabilities = {"MEMORY_MAPPED": True, "REGISTER_RW": False}
        self.regions = {base: np.zeros(size // 4, np.uint32) for base, size in regions}
        # the SLCR, with OCM_CFG as the boot loader left it (0x1F: the OCM mapped high)
        self.regions[SLCR_BASE] = np.zeros(0x1000 // 4, np.uint32)
        self.regions[SLCR_BASE][OCM_CFG_OFFSET // 4] = ocm_cfg
        self.log: list = []

    def has_capability(self, cap):
        return self.capabilities.get(cap, False)

    def mmap(self, base, length):
        for rbase, arr in self.regions.items():
            if rbase <= base and base + length <= rbase + 4 * arr.size:
                off = (base - rbase) // 4
                view = arr[off:off + length // 4].view(Recording)
                view.log = self.log
                return view
        raise ValueError(hex(base))


@pytest.fixture
def board():
    linked = loop()
    pl = {"phys_addr": 0x43C00000, "addr_range": 0x10000}
    dev = FakeBoard([(linked.ps.base, linked.ps.size), (0x43C00000, 0x10000)])
    return linked, dev, PynqBackend(linked, "host", dev, pl=pl)


def test_call_into_the_pl_is_a_slice_then_the_trigger(board):
    linked, dev, be = board
    imp = linked.component("host").import_("hw.f")
    dev.log.clear()
    be.write(imp.cep_address, [0xAAAA0001, imp.rep_address])
    pl = dev.regions[0x43C00000]
    off = (imp.cep_address - 0x43C00000) // 4
    assert pl[off:off + 2].tolist() == [0xAAAA0001, imp.rep_address]
    # one slice store of the argument words and the trigger (numpy stores a list's items in
    # address order: test_a_list_is_stored_item_by_item_in_address_order): one access
    assert dev.log == [(slice(off, off + 2), [0xAAAA0001, imp.rep_address])]


def test_a_list_is_stored_item_by_item_in_address_order():
    """What makes one slice store keep the protocol's order (the trigger word last): numpy
    packs a list into the array item by item, in index order, each a 32-bit store. Seen from
    outside: an item that fails leaves the ones before it stored and none after it."""
    import warnings

    a = np.zeros(8, np.uint32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # numpy < 2 warns for -1, numpy 2 raises
        with pytest.raises((DeprecationWarning, OverflowError)):
            store_words(a, 2, [7, 8, -1, 9])
    assert a.tolist() == [0, 0, 7, 8, 0, 0, 0, 0]
    store_words(a, 2, (1, 2, 0xFFFFFFFF))      # a tuple too (stored as a list)
    assert a.tolist() == [0, 0, 1, 2, 0xFFFFFFFF, 0, 0, 0]


def test_local_reads_read_the_highest_address_first():
    """read_local's contract (pushpush.runtime.backend): one read through a reversed view,
    so a status or trigger word is loaded before the words below it; words in address order."""
    keys = []

    class Keys(np.ndarray):
        def __getitem__(self, key):
            keys.append(key)
            return super().__getitem__(key)

    a = np.arange(16, dtype=np.uint32).view(Keys)
    assert load_words(a, 4, 3) == [4, 5, 6] and keys[-1] == slice(6, 3, -1)
    assert load_words(a, 0, 2) == [0, 1] and keys[-1] == slice(1, None, -1)
    assert load_words(a, 9, 1) == [9] and keys[-1] == 9


def test_accesses_of_a_python_to_python_call():
    """The uncached accesses of one call between two Python components on the board path
    (pushpush.pynq.accesses; the issue 45 counts): the caller 4 and one per look at its rep
    (the stray check, the callee's trigger looked at, the call in one store, the status
    cleared), the callee 2 and one per sweep (the trigger re-armed, the reply in one store)."""
    linked = two()
    dev = FakeBoard([(linked.ps.base, linked.ps.size)])
    a = SyncRuntime(linked, "a", PynqBackend(linked, "a", dev, poll_s=1e-4), workers=0)
    b = SyncRuntime(linked, "b", PynqBackend(linked, "b", dev, poll_s=1e-4), workers=0)
    b.export("add", lambda x, y: x + y)
    bcomp = linked.component("b")
    calls = 20
    with counting(a.backend) as alog, counting(b.backend) as blog:
        with b:
            for i in range(calls):
                assert a.b.add(i, 2) == i + 2
    sweeps = sum(1 for x in blog.log if x.op == "r" and x.address == bcomp.base and x.words == bcomp.words_used)
    assert alog.accesses() == 4 * calls + (calls + alog.wakes)   # one look, one more per wait
    assert alog.accesses("ps", "w") == 2 * calls and alog.accesses("gp0") == 0
    assert blog.accesses() == 2 * calls + sweeps
    assert blog.accesses("ps", "w") == 2 * calls


def test_local_window_and_errors(board):
    linked, dev, be = board
    host = linked.component("host")
    be.write_local(host.base + 8, [1, 2, 3])
    assert be.read_local(host.base + 8, 3) == [1, 2, 3]
    assert dev.regions[linked.ps.base][(host.base - linked.ps.base) // 4 + 2] == 1
    with pytest.raises(BusWriteError):
        be.write(0x10000000, [1])


def test_runtime_over_the_board_backend():
    """Two software components in on-chip memory: the whole call path of the runtime
    (argument slice, trigger, polling the window, the reply, a lent callback) through
    PynqBackend's mapped-memory path."""
    linked = two()
    dev = FakeBoard([(linked.ps.base, linked.ps.size)])
    a = SyncRuntime(linked, "a", PynqBackend(linked, "a", dev, poll_s=1e-4))
    b = SyncRuntime(linked, "b", PynqBackend(linked, "b", dev, poll_s=1e-4))
    a.export("inc", lambda x: x + 1)
    b.export("add", lambda x, y: x + y)
    b.export("apply", lambda f, x: f(f(x)))
    with a, b:
        assert a.b.add(40, 2) == 42
        assert b.a.inc(9) == 10
        assert a.function(linked.component("b").export("apply").dynamic_slots and
                          linked.component("b").slots[linked.component("b").export("apply").dynamic_slots[0]].address,
                          "(f: (x: i32) -> i32, x: i32) -> i32")(lambda x: 3 * x, 2) == 18


# ------------------------------------------------------------ where the OCM is (OCM_CFG)


@pytest.mark.parametrize("cfg, base, size, ok", [
    (0x1F, 0xFFFC0000, 0x4000, True),
    (0x0F, 0xFFFC0000, 0x40000, True),
    (0x18, 0xFFFF0000, 0x4000, True),      # the BootROM's mapping: only the top bank high
    (0x18, 0xFFFC0000, 0x4000, False),
    (0x1E, 0xFFFCF000, 0x2000, False),     # straddles banks 0 and 1, bank 0 low
    (0x00, 0x10000000, 0x4000, True),      # in DDR: not the OCM's high range
])
def test_check_ocm_mapping(cfg, base, size, ok):
    if ok:
        check_ocm_mapping(cfg, base, size)
    else:
        with pytest.raises(OcmMappingError, match=r"OCM_CFG \(SLCR 0xF8000910\)"):
            check_ocm_mapping(cfg, base, size)


def test_low_ocm_fails_at_load_on_the_board_path():
    linked = loop()
    dev = FakeBoard([(linked.ps.base, linked.ps.size)], ocm_cfg=0x18)
    with pytest.raises(OcmMappingError) as e:
        PynqBackend(linked, "host", dev)
    msg = str(e.value)
    assert f"system '{linked.name}'" in msg and "0x18" in msg
    assert "bank 3 (0xFFFF0000..0xFFFFFFFF) high" in msg and "bank 0 (0xFFFC0000..0xFFFCFFFF) low" in msg
    assert "move regions.ps" in msg and "OCM_CFG = 0x1F" in msg


def test_low_ocm_fails_on_the_simulated_board():
    """The simulated board models the SLCR: set OCM_CFG to the BootROM's mapping and the
    runtime refuses, naming the register, the banks and the fix."""
    import struct

    from pushpush.pynq.simulated.device import SimDevice

    linked = loop()
    dev = SimDevice()
    assert struct.unpack("<I", dev.read_registers(SLCR_BASE + OCM_CFG_OFFSET, 4))[0] == 0x1F
    PynqBackend(linked, "host", dev)                  # mapped high: fine
    dev.write_registers(SLCR_BASE + OCM_CFG_OFFSET, struct.pack("<I", 0x18))
    with pytest.raises(OcmMappingError, match="maps bank 3 .* high and leaves bank 0"):
        PynqBackend(linked, "host", dev)
