"""PYNQ's own AXI DMA driver, unmodified, against cores/axi_dma in simulation.

What is real:
- ``pynq.lib.dma.DMA`` of the installed PYNQ (3.1), with its ``_SDMAChannel``:
  ``sendchannel.transfer(buf)``, ``.wait()``, ``.wait_async()``, ``.idle``, ``.running``,
  ``.transferred``, ``start()``, the error messages; PYNQ's ``MMIO`` class (its
  ``REGISTER_RW`` path, the one the simulated board uses), ``pynq.allocate`` (the function;
  it asks the device for the buffer) and ``PynqBuffer`` (with ``flush``/``invalidate``);
- the description: PYNQ's own ``.hwh`` parser (pynqmetadata's ``RuntimeMetadataParser``) on
  a real Vivado hardware handoff, ``resizer.hwh`` (shipped by pynqmetadata as test data),
  whose ``axi_dma_0`` is a real AXI DMA 7.1 in simple mode (32 bits, bursts of 256, LENGTH
  of 26 bits, no DRE, no interrupt connected). The second configuration, ``dre64_irq``, is
  that description with the parameters a Vivado user would change (64-bit data, DRE on
  both channels, both interrupts connected to an AXI interrupt controller) edited in, as
  the parser would give them;
- the core (pp_axi_dma) in Icarus, its memory a cocotbext-axi AxiRam with random pauses.

What stands in (the board is absent):
- ``CocotbDevice``: a ``pynq.Device`` with PYNQ's ``REGISTER_RW`` capability, as the
  simulated board's ``SimDevice`` has, whose ``read_registers``/``write_registers`` become
  AXI4-Lite single-word reads/writes on the core (cocotbext-axi AxiLiteMaster) while the
  driver runs in a cocotb bridge thread (simulated time passes only while it waits on a
  register), and whose ``allocate`` places buffers in the AxiRam's memory (one ``mmap``
  shared by the AxiRam and the numpy buffers: what the core writes, Python reads without
  a copy). ``flush``/``invalidate`` are recorded so the test checks PYNQ calls them in the
  right places (before MM2S, after S2MM);
- ``PinInterrupt``: in place of ``pynq.interrupt.Interrupt`` (it needs the board's UIO
  device and an AXI interrupt controller): ``await wait()`` returns when the core's
  interrupt pin is high, as the real one returns when the controller has seen the pin;
- the user's stream component: a cocotb coroutine between m_axis_mm2s and s_axis_s2mm
  that adds 1 to every byte of each packet (with random back-pressure on both streams).
"""

from __future__ import annotations

import asyncio
import copy
import json
import mmap
import os
import re
import weakref
from pathlib import Path

import cocotb
import numpy as np
import pytest
from cocotb.task import bridge, resume
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiStreamFrame

from pushpush.build.cores import cores_rtl
from pushpush.build.sim import run_cocotb

from test_axi_dma import RAM_SIZE, READ_ERR, Tb

DDR_BASE = 0x18000000          # where the simulated board's pynq.allocate buffers live
REG_READ_BUDGET = 200_000      # a wait that never ends fails after this many register reads


def resizer_dma_description() -> dict:
    """PYNQ's parser on resizer.hwh: the ip_dict entry of its axi_dma_0."""
    import pynqmetadata
    from pynqmetadata.frontends import Metadata
    try:
        from pynq.metadata.runtime_metadata_parser import RuntimeMetadataParser
    except ImportError:  # pragma: no cover - older PYNQ
        from pynqmetadata.views.runtime import RuntimeMetadataParser
    path = Path(pynqmetadata.__file__).parent / "tests" / "hwhs" / "resizer.hwh"
    if not path.is_file():
        raise FileNotFoundError(f"pynqmetadata no longer ships {path}: pick another Vivado .hwh "
                                "with an axi_dma in simple mode")
    return RuntimeMetadataParser(Metadata(input=path)).ip_dict["axi_dma_0"]


def description(config: str) -> dict:
    desc = copy.deepcopy(dict(resizer_dma_description()))
    params = desc["parameters"]
    assert params["c_include_sg"] == "0" and params["c_micro_dma"] == "0", "not simple mode"
    if config == "dre64_irq":
        for k in ("C_M_AXI_MM2S_DATA_WIDTH", "C_M_AXI_S2MM_DATA_WIDTH", "C_M_AXIS_MM2S_TDATA_WIDTH",
                  "C_S_AXIS_S2MM_TDATA_WIDTH"):
            params[k] = params[k.lower()] = "64"
        for k in ("C_INCLUDE_MM2S_DRE", "C_INCLUDE_S2MM_DRE"):
            params[k] = params[k.lower()] = "1"
        desc["interrupts"] = {
            pin: {"controller": "axi_intc_0", "index": i, "fullpath": f"axi_dma_0/{pin}"}
            for i, pin in enumerate(("mm2s_introut", "s2mm_introut"))}
    return desc


def hdl_parameters(desc: dict) -> dict:
    """The core's parameters for a description (what the linker will pass)."""
    p = desc["parameters"]
    assert p["c_m_axi_mm2s_data_width"] == p["c_m_axi_s2mm_data_width"]
    assert p["c_mm2s_burst_size"] == p["c_s2mm_burst_size"]
    burst = int(p["c_mm2s_burst_size"])
    return {"DATA_WIDTH": int(p["c_m_axi_mm2s_data_width"]), "ADDR_WIDTH": int(p["c_addr_width"]),
            "LEN_WIDTH": int(p["c_sg_length_width"]), "MAX_BURST": burst,
            "FIFO_LOG2": max(6, (2 * burst - 1).bit_length())}


def _device_class():
    from pynq.pl_server.device import Device

    class CocotbDevice(Device):
        """Stand-in for the board (see the module docstring); no ``_probe_``, so PYNQ never
        picks it on its own."""

        def __init__(self, tb: Tb, base: int, mem: mmap.mmap) -> None:
            super().__init__("pushpush_cocotb_axi_dma")
            self.capabilities = {"REGISTER_RW": True, "MEMORY_MAPPED": False, "CALLABLE": False}
            self.name = "cocotb bench of cores/axi_dma"
            self.tb, self.base, self.mem = tb, base, mem
            self.log: list[tuple[str, int]] = []
            self.reads = 0
            self._used: dict[object, tuple[int, int]] = {}

        def _check(self, address: int, length: int) -> int:
            off = address - self.base
            if not (0 <= off and off + length <= 0x10000) or off % 4 or length % 4:
                raise ValueError(f"register access {address:#x}+{length} outside the DMA's "
                                 f"64 KiB at {self.base:#x} or unaligned")
            return off

        def read_registers(self, address: int, length: int) -> bytes:
            off = self._check(address, length)
            self.reads += 1
            if self.reads > REG_READ_BUDGET:
                raise TimeoutError(f"the DMA driver read {REG_READ_BUDGET} registers of the "
                                   f"core at {self.base:#x} without finishing: a transfer that "
                                   "never completes")
            words = [resume(self.tb.rd)(off + 4 * i) for i in range(length // 4)]
            self.log.append(("read", off))
            return b"".join(w.to_bytes(4, "little") for w in words)

        def write_registers(self, address: int, data: bytes) -> None:
            data = bytes(data)
            off = self._check(address, len(data))
            for i in range(0, len(data), 4):
                resume(self.tb.wr)(off + i, int.from_bytes(data[i:i + 4], "little"))
                self.log.append(("write", off + i))

        def buffer_at(self, offset: int, shape, dtype):
            from pynq.buffer import PynqBuffer
            return PynqBuffer(shape, dtype, buffer=self.mem, offset=offset,
                              device_address=DDR_BASE + offset, coherent=False, device=self,
                              bo=offset)

        def allocate(self, shape, dtype, **kwargs):
            """First fit in [0x1000, READ_ERR), 64-byte aligned (not page-aligned, so bursts
            cross 4 KiB boundaries); freed when the buffer is collected."""
            nbytes = max(64, (int(np.prod(shape)) * np.dtype(dtype).itemsize + 63) // 64 * 64)
            at = 0x1040
            for lo, hi in sorted(self._used.values()):
                if at + nbytes <= lo:
                    break
                at = max(at, hi)
            if at + nbytes > READ_ERR[0]:
                raise MemoryError(f"the bench's DDR stand-in has no room for {nbytes} bytes")
            buf = self.buffer_at(at, shape, dtype)
            key = object()
            self._used[key] = (at, at + nbytes)
            weakref.finalize(buf, self._used.pop, key, None)
            return buf

        def flush(self, bo, offset, vaddr, nbytes):
            self.log.append(("flush", DDR_BASE + bo + offset))

        def invalidate(self, bo, offset, vaddr, nbytes):
            self.log.append(("invalidate", DDR_BASE + bo + offset))

    return CocotbDevice


class PinInterrupt:
    """Stand-in for ``pynq.interrupt.Interrupt``: ``wait()`` returns once the pin is high."""

    def __init__(self, tb: Tb, pin) -> None:
        self.tb, self.pin = tb, pin

    async def _high(self) -> None:
        for _ in range(2_000_000):
            if int(self.pin.value):
                return
            await RisingEdge(self.tb.dut.clk)
        raise TimeoutError(f"{self.pin._name} never went high")

    async def wait(self) -> None:
        resume(self._high)()


def notebook(dev, desc: dict, config: str, irq_pins: dict) -> None:
    """A user's PYNQ DMA notebook, run with the real driver (in a bridge thread)."""
    import pynq.overlay
    from pynq import allocate
    from pynq.lib.dma import DMA

    desc = dict(desc, device=dev)
    plain_interrupt = pynq.overlay.Interrupt
    pynq.overlay.Interrupt = lambda fullpath: irq_pins[fullpath.rsplit("/", 1)[1]]
    try:
        dma = DMA(desc)
    finally:
        pynq.overlay.Interrupt = plain_interrupt
    dre = config == "dre64_irq"
    assert dma.sendchannel is not None and dma.recvchannel is not None
    assert dma.buffer_max_size == (1 << 26) - 1
    assert dma.sendchannel.running and dma.recvchannel.running
    assert not dma.sendchannel.idle            # PG021: Idle is 0 before the first transfer

    def wait_both():
        if dre:   # interrupts connected: the coroutine PYNQ offers, on an asyncio loop
            async def both():
                await dma.sendchannel.wait_async()
                await dma.recvchannel.wait_async()
            asyncio.run(both())
        else:
            dma.sendchannel.wait()
            dma.recvchannel.wait()

    # whole buffers of u32, 1 word .. 24 KiB: the usual notebook
    for n in (1, 3, 256, 1000, 6144):
        inp = allocate(shape=(n,), dtype=np.uint32, target=dev)
        out = allocate(shape=(n,), dtype=np.uint32, target=dev)
        inp[:] = (np.arange(n, dtype=np.uint64) * 2654435761 % (1 << 32)).astype(np.uint32)
        dev.log.clear()
        dma.sendchannel.transfer(inp)
        dma.recvchannel.transfer(out)
        wait_both()
        want = np.frombuffer(bytes((b + 1) & 0xFF for b in inp.tobytes()), dtype=np.uint32)
        assert np.array_equal(out, want), f"{n} words: the data differs"
        assert dma.recvchannel.transferred == inp.nbytes
        assert dma.sendchannel.idle and dma.recvchannel.idle
        log = dev.log
        assert log.index(("flush", inp.physical_address)) < log.index(("write", 0x28)), \
            "PYNQ flushes the send buffer before MM2S_LENGTH"
        assert log.index(("invalidate", out.physical_address)) > log.index(("write", 0x58))
        if dre:
            assert int(irq_pins["mm2s_introut"].pin.value) == 0, "wait_async clears IOC_Irq"

    # unaligned byte lengths, a receive buffer larger than the packet (TLAST early)
    for nbytes in (1, 7, 1001, 4097):
        inp = allocate(shape=(nbytes + 16,), dtype=np.uint8, target=dev)
        out = allocate(shape=(8192,), dtype=np.uint8, target=dev)
        inp[:] = np.random.default_rng(nbytes).integers(0, 256, nbytes + 16, dtype=np.uint8)
        start = 3 if dre else 8
        dma.sendchannel.transfer(inp, start=start, nbytes=nbytes)
        dma.recvchannel.transfer(out, start=5 if dre else 0)
        wait_both()
        assert dma.recvchannel.transferred == nbytes, \
            f"S2MM_LENGTH {dma.recvchannel.transferred} after a packet of {nbytes}"
        got = out[5:5 + nbytes] if dre else out[:nbytes]
        assert np.array_equal(got, (inp[start:start + nbytes] + 1).astype(np.uint8))
    if not dre:   # PYNQ itself rejects an unaligned start when the IP has no DRE
        try:
            dma.sendchannel.transfer(inp, start=1, nbytes=8)
        except RuntimeError as e:
            assert "unaligned" in str(e)
        else:
            raise AssertionError("PYNQ took an unaligned start without DRE")

    # a buffer the PL cannot reach (DECERR): PYNQ's wait raises, a soft reset recovers
    bad = dev.buffer_at(READ_ERR[0], (64,), np.uint32)
    dma.sendchannel.transfer(bad)
    try:
        dma.sendchannel.wait()
    except RuntimeError as e:
        assert "Decode Error" in str(e), e
    else:
        raise AssertionError("wait() returned on a DECERR")
    assert dma.sendchannel.error and not dma.sendchannel.running
    dma.mmio.write(0x00, 0x4)                       # MM2S_DMACR.Reset: the whole core
    while dma.mmio.read(0x00) & 0x4:
        pass
    assert not dma.sendchannel.error
    dma.sendchannel.start()
    dma.recvchannel.start()
    inp = allocate(shape=(100,), dtype=np.uint32, target=dev)
    out = allocate(shape=(100,), dtype=np.uint32, target=dev)
    inp[:] = np.arange(100, dtype=np.uint32)
    dma.sendchannel.transfer(inp)
    dma.recvchannel.transfer(out)
    dma.sendchannel.wait()
    dma.recvchannel.wait()
    assert np.array_equal(out.view(np.uint8), (inp.view(np.uint8) + 1).astype(np.uint8))


async def plus_one(tb: Tb) -> None:
    """The user's stream component: every packet back with 1 added to each byte."""
    while True:
        frame = await tb.sink.recv()
        await tb.src.send(AxiStreamFrame(bytes((b + 1) & 0xFF for b in frame.tdata)))


@cocotb.test()
async def pynq_dma_driver(dut):
    config = os.environ.get("AXIDMA_PYNQ_CONFIG", "resizer")
    desc = description(config)
    hdl = hdl_parameters(desc)
    mem = mmap.mmap(-1, RAM_SIZE)
    tb = Tb(dut, dict(hdl, pause=0.2, seed=7), mem=mem)
    await tb.start()
    cocotb.start_soon(plus_one(tb))
    dev = _device_class()(tb, desc["phys_addr"], mem)
    pins = {name: PinInterrupt(tb, getattr(dut, name)) for name in ("mm2s_introut", "s2mm_introut")}
    await bridge(notebook)(dev, desc, config, pins)
    await ClockCycles(dut.clk, 10)
    dut._log.info("PYNQ's DMA driver (%s): %d register reads", config, dev.reads)


@pytest.mark.parametrize("config", ["resizer", "dre64_irq"])
def test_axi_dma_pynq(config):
    hdl = hdl_parameters(description(config))
    run_cocotb(toplevel="pp_axi_dma", sources=cores_rtl(["axi_dma"]), test_module="test_axi_dma_pynq",
               test_dir=Path(__file__).parent, parameters=hdl, simulator="icarus",
               extra_env={"AXIDMA_PYNQ_CONFIG": config})


def test_register_map_is_vivados():
    """The register offsets and bits the bench checks the core against (test_axi_dma's
    constants) are those of the real IP's register metadata in the .hwh."""
    import test_axi_dma as t

    regs = resizer_dma_description()["registers"]
    for ch in ("MM2S", "S2MM"):
        for name in ("DMACR", "DMASR", "SA" if ch == "MM2S" else "DA", "SA_MSB" if ch == "MM2S" else "DA_MSB",
                     "LENGTH"):
            assert regs[f"{ch}_{name}"]["address_offset"] == getattr(t, f"{ch}_{name}"), f"{ch}_{name}"
        cr, sr = regs[f"{ch}_DMACR"]["fields"], regs[f"{ch}_DMASR"]["fields"]
        for field, mask in (("RS", t.RS), ("Reset", t.RESET), ("IOC_IrqEn", t.IOC_EN), ("Err_IrqEn", t.ERR_EN)):
            assert 1 << cr[field]["bit_offset"] == mask, field
        for field, mask in (("Halted", t.HALTED), ("Idle", t.IDLE), ("DMAIntErr", t.INT_ERR),
                            ("DMASlvErr", t.SLV_ERR), ("DMADecErr", t.DEC_ERR), ("IOC_Irq", t.IOC_IRQ),
                            ("Err_Irq", t.ERR_IRQ)):
            assert 1 << sr[field]["bit_offset"] == mask, field
        assert cr["IRQThreshold"]["bit_offset"] == 16 and sr["IRQThresholdSts"]["bit_offset"] == 16
    import pynqmetadata
    hwh = (Path(pynqmetadata.__file__).parent / "tests" / "hwhs" / "resizer.hwh").read_text()
    for ch in ("MM2S", "S2MM"):
        body = re.search(rf'<REGISTER NAME="{ch}_DMACR">(.*?)</REGISTER>', hwh, re.S).group(1)
        reset = re.search(r'NAME="RESET_VALUE" VALUE="([^"]*)"', body).group(1)
        assert int(reset, 16) == t.DMACR_RESET_VALUE, f"{ch}_DMACR reset value {reset}"
