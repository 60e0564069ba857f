"""DDR on the simulated board, and the software windows in DDR (``software_windows: ddr``).

* ``pynq.allocate`` buffers (PYNQ 3.1's path: ``Device.allocate`` -> the device's memory,
  ``PynqBuffer`` with ``coherent=False``): the PL reads and writes them through a simulated
  S_AXI_HP0 (the fixture top ``tests/pynq/rtl/pp_hp_probe.v``, its ``hp0_axi`` master on a
  :class:`~pushpush.codegen.simboard.PsMemPort`). An uncached buffer (``cacheable=0``, the
  default) is the DDR itself; a cacheable one needs ``flush()`` before the PL reads and
  ``invalidate()`` before the ARM reads what the PL wrote, exactly where the board needs them.
* The generated ``hof`` system with ``software_windows: ddr``: the windows are a
  ``pynq.allocate`` buffer, the PL reaches them through the top's ``pp_ps_window`` and HP0,
  calls go both ways and higher-order; nothing lands in the on-chip memory.
"""

from __future__ import annotations

import os
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pynq  # noqa: E402

import pushpush.pynq as ppq  # noqa: E402
from pushpush.codegen.simboard import PsMemPort  # noqa: E402
from pushpush.link import link  # noqa: E402
from pushpush.pynq.simulated.device import DDR_BASE, DDR_SIZE  # noqa: E402
from pushpush.spec import parse_system  # noqa: E402

from pynq_systems import HOF_YAML  # noqa: E402

HERE = Path(__file__).resolve().parent
PROBE_V = HERE / "rtl" / "pp_hp_probe.v"
SRC, DST, COUNT, ADD, CTRL, RESP = 0x00, 0x04, 0x08, 0x0C, 0x10, 0x14

PROBE = """
system: probe
board: pynq-z1
components:
  hw:
    kind: rtl
    module: hw
    sources: [hw.v]
    exports:
      f: "(x: i32) -> i32"
  host:
    kind: python
    imports: [hw.f]
"""


@pytest.fixture(scope="module")
def probe_ol(tmp_path_factory):
    from pushpush.pynq import write_sim_overlay

    linked = link(parse_system(textwrap.dedent(PROBE), file="probe.yaml"))
    bit = write_sim_overlay(linked, tmp_path_factory.mktemp("probe"), top="pp_hp_probe",
                            sources=[PROBE_V], parameters={"ID_WIDTH": 12, "HP_ID_WIDTH": 6},
                            hwh_options={"s_id_width": 12, "m_id_width": 12},
                            mem_ports=[PsMemPort("hp0", "hp0_axi", 32, 6)])
    ol = pynq.Overlay(str(bit))
    yield ol
    ol.free()


def _run(ol, src, dst, count: int, add: int) -> int:
    """The probe reads ``count`` words at ``src`` and writes each + ``add`` at ``dst``,
    through its HP0 master; returns the worst AXI response."""
    m = pynq.MMIO(ol.ip_dict["system_top_0"]["phys_addr"], 0x1000)
    m.write(SRC, int(src))
    m.write(DST, int(dst))
    m.write(COUNT, count)
    m.write(ADD, add)
    m.write(CTRL, 1)
    deadline = time.monotonic() + 30
    while m.read(CTRL) != 0b10:
        assert time.monotonic() < deadline, f"the probe did not finish (CTRL {m.read(CTRL):#x})"
        time.sleep(0.001)
    return m.read(RESP)


def test_allocate_is_pynqs_path_with_ddr_addresses(probe_ol):
    buf = pynq.allocate((1000,), "u4")             # PYNQ 3.1: Device.active_device.allocate
    assert isinstance(buf, pynq.buffer.PynqBuffer)
    assert not buf.coherent                         # as _xrt_allocate makes them on the board
    assert DDR_BASE <= buf.physical_address < DDR_BASE + DDR_SIZE
    big = pynq.allocate((4096,), "u1")
    assert big.physical_address % 4096 == 0        # CMA gives page-aligned blocks
    assert not buf.any()


def test_pl_reads_and_writes_uncached_buffers_in_place(probe_ol):
    src = pynq.allocate((64,), "u4")
    dst = pynq.allocate((64,), "u4")
    src[:] = np.arange(64, dtype=np.uint32) * 3
    src.flush()                                     # a no-op for an uncached buffer, as on the board
    assert _run(probe_ol, src.physical_address, dst.physical_address, 64, 5) == 0
    dst.invalidate()
    assert (dst == src + 5).all()
    # a slice is a PynqBuffer at its own physical address (numpy view of the same memory)
    part = dst[10:20]
    assert part.physical_address == dst.physical_address + 40
    assert _run(probe_ol, part.physical_address, part.physical_address, 10, 1) == 0
    assert (dst[10:20] == src[10:20] + 6).all() and (dst[:10] == src[:10] + 5).all()


def test_cacheable_buffers_need_flush_and_invalidate(probe_ol):
    src = pynq.allocate((16,), "u4", cacheable=1)
    dst = pynq.allocate((16,), "u4", cacheable=1)
    src[:] = 100
    # not flushed: the PL reads DDR, which still holds zeros
    assert _run(probe_ol, src.physical_address, dst.physical_address, 16, 1) == 0
    dst.invalidate()
    assert (dst == 1).all()
    src.flush()
    assert _run(probe_ol, src.physical_address, dst.physical_address, 16, 1) == 0
    assert (dst == 1).all()                         # the ARM's cached copy: stale until invalidated
    dst.invalidate()
    assert (dst == 101).all()
    # invalidate drops what the ARM wrote and did not flush (the board's bo.sync does too)
    dst[:] = 7
    dst.invalidate()
    assert (dst == 101).all()


def test_pl_access_outside_memory_is_decerr(probe_ol):
    assert _run(probe_ol, 0x0800_0000, DDR_BASE, 1, 0) == 3     # not simulated memory: DECERR


# ------------------------------------------------------------------ software_windows: ddr


def _hof_ddr_yaml(tmp: Path) -> Path:
    text = HOF_YAML.read_text().replace("system: hof\n", "system: hofddr\nsoftware_windows: ddr\n")
    text = text.replace("sources: [rtl/", f"sources: [{HOF_YAML.parent / 'rtl'}/")
    path = tmp / "system.yaml"
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def hof_ddr(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hofddr")
    ol = ppq.load(_hof_ddr_yaml(tmp), outdir=tmp / "out")
    yield ol
    ol.free()


def test_windows_are_an_allocated_buffer_the_pl_is_told_about(hof_ddr):
    linked = hof_ddr.system.linked
    assert linked.software_windows == "ddr"
    w = hof_ddr.system.windows
    assert w.memory == "ddr" and isinstance(w.buffer, pynq.buffer.PynqBuffer)
    assert DDR_BASE <= w.phys_base < DDR_BASE + DDR_SIZE and w.phys_base % 4096 == 0
    assert w.buffer.nbytes == linked.ps.size
    reg = pynq.MMIO(linked.ps_window_register, 0x1000)
    assert reg.read(0x0) == w.phys_base | 1
    assert (reg.read(0x4), reg.read(0x8)) == (linked.ps.base, linked.ps.size)
    top = hof_ddr.ip_dict["system_top_0"]
    assert top["phys_addr"] <= linked.ps_window_register < top["phys_addr"] + top["addr_range"]


def test_calls_both_ways_through_the_ddr_windows(hof_ddr):
    logs = []
    hof_ddr.export("log", logs.append)
    hof_ddr.export("neg", lambda x: -x)
    ocm = hof_ddr.device.ps_mem.mem
    ocm_before = bytes(ocm)
    assert hof_ddr.mixer.mix(1, 2, 3, True) == 4                 # software -> hardware
    assert hof_ddr.mapper.apply(lambda x: 3 * x, 5) == 46        # hardware -> software, twice
    hof_ddr.mixer.store(1234)                                    # hardware calls host.log first
    assert hof_ddr.mixer.load() == 1234
    assert logs == [1234]
    for i in range(20):                                          # pingpong-style, both ways
        assert hof_ddr.mapper.apply(lambda x: x + i, i) == 3 * i + 1
    assert bytes(ocm) == ocm_before, "the PL wrote into the on-chip memory"
    host = hof_ddr.system.linked.component("host")
    w = hof_ddr.system.windows
    lo = (host.base - hof_ddr.system.linked.ps.base) // 4
    assert w.view[lo:lo + host.size // 4].any(), "the PL's calls are not in the DDR buffer"
    counters = hof_ddr.counters()
    assert all(v == 0 for c in counters.values() for v in c.values()), counters


def test_the_ocm_check_applies_only_to_ocm_windows(hof_ddr, monkeypatch):
    from pushpush.pynq.windows import SoftwareWindows
    dev = hof_ddr.device
    saved = bytes(dev._slcr[0x910:0x914])
    dev._slcr[0x910:0x914] = (0x18).to_bytes(4, "little")   # the BootROM's mapping: one bank high
    try:
        w = SoftwareWindows.open(hof_ddr.system.linked, dev)   # ddr: no OCM_CFG check
        assert w.memory == "ddr"
        w.close()
    finally:
        dev._slcr[0x910:0x914] = saved
        pynq.MMIO(hof_ddr.system.linked.ps_window_register, 0x1000).write(
            0, hof_ddr.system.windows.phys_base | 1)


def test_interrupt_mode_with_ddr_windows(hof_ddr, monkeypatch):
    """The interrupt block watches the PL's writes at their link addresses (before the
    window register translates them to the buffer): with DDR windows a runtime in
    ``interrupt`` mode, with no fallback sweep, is woken for every call and reply."""
    from pushpush.pynq import board

    assert hof_ddr.system.linked.irq is not None
    assert hof_ddr.system.linked.irq.base != hof_ddr.system.linked.ps_window_register
    monkeypatch.setattr(board, "IRQ_WAIT_S", 30.0)
    rt = hof_ddr.runtime()
    rt.wait = "interrupt"
    rt.timeout = 20.0
    try:
        logs: list[int] = []
        hof_ddr.export("log", logs.append)
        hub = rt.backend._hub
        fired = hub.generation
        for i in range(15):
            hof_ddr.mixer.store(1000 + i)                       # hardware calls host.log
            assert hof_ddr.mapper.apply(lambda y: y + 7, i) == i + 15
        assert logs == [1000 + i for i in range(15)]
        assert hub.generation > fired                           # the interrupt did the waking
    finally:
        rt.wait = "sleep"


# Last in this file: it loads its own overlay, and loading (and freeing) one stops the
# simulator of the module's hof_ddr overlay (one simulated board per process, as on the board).
def test_the_pl_waits_while_the_window_register_is_disabled(tmp_path):
    """BASE's ENABLE cleared: the PL's write toward software waits (nothing lands anywhere);
    set again, the held write lands in the buffer, and the system serves on (the late
    answer is a stray the caller drops, docs/architecture.md §2.2)."""
    from pushpush.protocol import CallTimeout

    ol = ppq.load(_hof_ddr_yaml(tmp_path), outdir=tmp_path / "out")
    try:
        linked, w = ol.system.linked, ol.system.windows
        reg = pynq.MMIO(linked.ps_window_register, 0x1000)
        ocm_before = bytes(ol.device.ps_mem.mem)
        assert ol.mapper.apply(lambda x: x + 1, 1) == 4
        reg.write(0x0, 0)
        before = w.view.copy()
        with pytest.raises(CallTimeout):
            ol.mapper.apply(lambda x: x + 1, 1, timeout=0.5)   # mapper's call into software waits
        assert (w.view == before).all(), "a PL write passed the closed gate"
        assert bytes(ol.device.ps_mem.mem) == ocm_before
        reg.write(0x0, w.phys_base | 1)
        deadline = time.monotonic() + 10
        while (w.view == before).all():
            assert time.monotonic() < deadline, "the held PL write never landed"
            time.sleep(0.01)
        time.sleep(0.5)        # let the late call finish (its answer is a stray)
        assert ol.mapper.apply(lambda x: 2 * x, 3) == 13   # f(f(3)) + 1
    finally:
        ol.free()
