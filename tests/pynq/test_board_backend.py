"""The board path of PynqBackend, on a stand-in for PYNQ's Zynq device.

On a PYNQ-Z1, PYNQ's EmbeddedDevice is ``MEMORY_MAPPED``: ``mmap`` gives numpy views of
``/dev/mem``, and ``MMIO.array`` is such a view. :class:`FakeBoard` is that, over plain
memory, recording every store into the PL so the tests can check that a call is stored
as one slice (the arguments) and then the trigger word, never through ``MMIO.write``.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pynq.pl_server")

from pushpush.protocol import BusWriteError  # noqa: E402
from pushpush.pynq.board import PynqBackend  # noqa: E402
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
    # one store of the argument words, then the trigger word alone, last
    assert dev.log == [(slice(off, off + 1), [0xAAAA0001]), (off + 1, imp.rep_address)]


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
