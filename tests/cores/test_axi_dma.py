"""cocotb bench of cores/axi_dma (pp_axi_dma): PG021 simple-mode registers over AXI4-Lite,
memory in a cocotbext-axi AxiRam, streams through AxiStreamSource/Sink, with random pause
generators on every AXI and stream channel.

- MM2S: lengths 1 byte .. several KiB at any byte address (4 KiB boundaries crossed): the
  packet on m_axis_mm2s is the memory's bytes, TKEEP all ones but on the TLAST beat (low
  bytes), TLAST on the last beat only; IOC_Irq, Idle, mm2s_introut, IOC_Irq write-1-to-clear.
- S2MM: packets 1 byte .. several KiB into buffers at any byte address, TLAST at or before
  the buffer's end (S2MM_LENGTH reads the bytes received), memory around and after the
  packet untouched; a packet longer than the buffer: DMAIntErr, the buffer written, the
  packet's rest left on the stream.
- errors: DECERR on an MM2S read, SLVERR on an S2MM write, LENGTH 0: the PG021 error bits,
  Err_Irq (interrupt when Err_IrqEn), RS cleared, Halted; RS cannot be set again until
  DMACR.Reset, which brings every register back to its reset value.
- run/stop: RS=0 during a transfer stops the channel (Halted), and it runs again after RS=1.
- both channels at once; every burst of at most MAX_BURST beats and inside a 4 KiB page.
"""

from __future__ import annotations

import json
import os
import random
import zlib
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout
from cocotbext.axi import (AxiBus, AxiLiteBus, AxiLiteMaster, AxiRam, AxiResp, AxiStreamBus,
                           AxiStreamFrame, AxiStreamSink, AxiStreamSource)

from pushpush.build.cores import cores_rtl
from pushpush.build.sim import run_cocotb
from pushpush.testing import sim_matrix

RAM_SIZE = 0x20000
READ_ERR = (0x1C000, 0x1D000)    # DECERR for reads here
WRITE_ERR = (0x1E000, 0x1F000)   # SLVERR for writes here

# register offsets (PG021, direct register mode)
MM2S_DMACR, MM2S_DMASR, MM2S_SA, MM2S_SA_MSB, MM2S_LENGTH = 0x00, 0x04, 0x18, 0x1C, 0x28
S2MM_DMACR, S2MM_DMASR, S2MM_DA, S2MM_DA_MSB, S2MM_LENGTH = 0x30, 0x34, 0x48, 0x4C, 0x58
RS, RESET, IOC_EN, ERR_EN = 1 << 0, 1 << 2, 1 << 12, 1 << 14
HALTED, IDLE, INT_ERR, SLV_ERR, DEC_ERR, IOC_IRQ, ERR_IRQ = 1, 2, 1 << 4, 1 << 5, 1 << 6, 1 << 12, 1 << 14
DMACR_RESET_VALUE = 0x00010002
DMASR_RESET_VALUE = 0x00010001


def pause_gen(p: float, rng: random.Random):
    while True:
        yield rng.random() < p


class ErrRam(AxiRam):
    """AxiRam answering DECERR for reads in READ_ERR, SLVERR (nothing written) for writes in
    WRITE_ERR."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        plain_read = self.read_if._read

        async def read(address, length):
            if READ_ERR[0] <= address % self.size < READ_ERR[1]:
                raise ValueError("decode error")
            return await plain_read(address, length)

        self.read_if._read = read
        plain_r_send = self.read_if.r_channel.send

        async def r_send(r):
            if int(r.rresp) == int(AxiResp.SLVERR):
                r.rresp = AxiResp.DECERR
            await plain_r_send(r)

        self.read_if.r_channel.send = r_send
        self._bresp = 0
        plain_b_send = self.write_if.b_channel.send

        async def b_send(b):
            b.bresp = max(int(b.bresp), self._bresp)
            self._bresp = 0
            await plain_b_send(b)

        self.write_if.b_channel.send = b_send
        plain_write = self.write_if._write

        async def write(address, data):
            address %= self.size
            if WRITE_ERR[0] <= address + len(data) - 1 and address < WRITE_ERR[1]:
                self._bresp = int(AxiResp.SLVERR)
                return
            await plain_write(address, data)

        self.write_if._write = write


class Tb:
    """The DUT with its AXI/stream models and a few helpers; used by both benches."""

    def __init__(self, dut, params: dict, mem=None) -> None:
        self.dut = dut
        self.p = params
        self.nb = params["DATA_WIDTH"] // 8
        self.max_burst = params["MAX_BURST"]
        # above 32 address bits the transfers use addresses above 4 GiB (the RAM wraps)
        self.hi = (0x3 << 32) if params.get("ADDR_WIDTH", 32) > 32 else 0
        self.rng = random.Random(params.get("seed", 1))
        pause = params.get("pause", 0.0)
        self.ram = ErrRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=RAM_SIZE, mem=mem)
        self.regs = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst)
        self.src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis_s2mm"), dut.clk, dut.rst)
        self.sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis_mm2s"), dut.clk, dut.rst)
        if pause:
            chans = [self.ram.write_if.aw_channel, self.ram.write_if.w_channel,
                     self.ram.write_if.b_channel, self.ram.read_if.ar_channel,
                     self.ram.read_if.r_channel]
            for c in chans:
                c.set_pause_generator(pause_gen(pause, random.Random(self.rng.getrandbits(32))))
            self.src.set_pause_generator(pause_gen(pause, random.Random(self.rng.getrandbits(32))))
            self.sink.set_pause_generator(pause_gen(pause, random.Random(self.rng.getrandbits(32))))
        self.frames: list[tuple[bytes, list[int]]] = []   # (bytes, tkeep of each beat)
        self._cur = bytearray()
        self._keeps: list[int] = []
        self.bursts = {"ar": 0, "aw": 0}
        self.uppers: set[int] = set()     # address bits 63:32 seen on AR/AW

    async def start(self) -> None:
        cocotb.start_soon(Clock(self.dut.clk, 10, unit="ns").start())
        self.dut.rst.value = 1
        await ClockCycles(self.dut.clk, 5)
        self.dut.rst.value = 0
        await ClockCycles(self.dut.clk, 2)
        cocotb.start_soon(self._monitor())

    async def _monitor(self) -> None:
        """Stream beats into frames; every AR/AW burst checked (length, 4 KiB, size)."""
        d = self.dut
        full = (1 << self.nb) - 1
        while True:
            await RisingEdge(d.clk)
            if int(d.m_axis_mm2s_tvalid.value) and int(d.m_axis_mm2s_tready.value):
                keep = int(d.m_axis_mm2s_tkeep.value)
                data = int(d.m_axis_mm2s_tdata.value).to_bytes(self.nb, "little")
                last = int(d.m_axis_mm2s_tlast.value)
                n = bin(keep).count("1")
                assert keep == (1 << n) - 1 and n > 0, f"TKEEP {keep:#x} is not low-justified"
                assert last or keep == full, f"TKEEP {keep:#x} on a beat without TLAST"
                self._cur += data[:n]
                self._keeps.append(keep)
                if last:
                    self.frames.append((bytes(self._cur), self._keeps))
                    self._cur, self._keeps = bytearray(), []
            for ch in ("ar", "aw"):
                if int(getattr(d, f"m_axi_{ch}valid").value) and int(getattr(d, f"m_axi_{ch}ready").value):
                    addr = int(getattr(d, f"m_axi_{ch}addr").value)
                    beats = int(getattr(d, f"m_axi_{ch}len").value) + 1
                    assert int(getattr(d, f"m_axi_{ch}size").value) == self.nb.bit_length() - 1
                    assert addr % self.nb == 0, f"{ch} address {addr:#x} not aligned"
                    self.uppers.add(addr >> 32)
                    assert beats <= self.max_burst, f"{ch} burst of {beats} beats > {self.max_burst}"
                    assert addr // 4096 == (addr + beats * self.nb - 1) // 4096, \
                        f"{ch} burst {addr:#x}+{beats} beats crosses a 4 KiB boundary"
                    self.bursts[ch] += 1

    def drop_partial_frame(self) -> None:
        self._cur, self._keeps = bytearray(), []

    async def rd(self, off: int) -> int:
        return await self.regs.read_dword(off)

    async def wr(self, off: int, val: int) -> None:
        await self.regs.write_dword(off, val)

    async def wait_sr(self, base: int, mask: int, what: str, cycles: int = 200000) -> int:
        """Poll DMASR until (sr & mask) == mask; fail naming ``what`` after ``cycles``."""
        sr = 0
        for _ in range(cycles // 8):
            sr = await self.rd(base + 4)
            if sr & mask == mask:
                return sr
            await ClockCycles(self.dut.clk, 4)
        raise AssertionError(f"{what}: DMASR bits {mask:#x} not set after {cycles} cycles "
                             f"(DMASR {sr:#010x})")

    async def run(self, base: int) -> None:
        await self.wr(base, RS | IOC_EN | ERR_EN)
        for _ in range(100):
            if not (await self.rd(base + 4)) & HALTED:
                return
        raise AssertionError(f"channel at {base:#x} still halted after RS=1")

    async def soft_reset(self) -> None:
        await self.wr(MM2S_DMACR, RESET)
        for _ in range(1000):
            if not (await self.rd(MM2S_DMACR)) & RESET:
                break
        else:
            raise AssertionError("DMACR.Reset did not clear")
        for off, want in ((MM2S_DMACR, DMACR_RESET_VALUE), (MM2S_DMASR, DMASR_RESET_VALUE),
                          (S2MM_DMACR, DMACR_RESET_VALUE), (S2MM_DMASR, DMASR_RESET_VALUE),
                          (MM2S_SA, 0), (MM2S_LENGTH, 0), (S2MM_DA, 0), (S2MM_LENGTH, 0)):
            got = await self.rd(off)
            assert got == want, f"after the soft reset register {off:#04x} reads {got:#010x}, not {want:#010x}"

    async def mm2s(self, addr: int, length: int) -> bytes:
        """One MM2S transfer; returns the packet received (checks IOC, Idle, introut)."""
        n_before = len(self.frames)
        addr |= self.hi
        await self.wr(MM2S_SA, addr & 0xFFFFFFFF)
        await self.wr(MM2S_SA_MSB, addr >> 32)
        await self.wr(MM2S_LENGTH, length)
        sr = await self.wait_sr(MM2S_DMACR, IDLE | IOC_IRQ, f"MM2S of {length} bytes from {addr:#x}")
        assert sr & (INT_ERR | SLV_ERR | DEC_ERR | HALTED) == 0, f"DMASR {sr:#x}"
        assert int(self.dut.mm2s_introut.value) == 1
        await self.wr(MM2S_DMASR, IOC_IRQ)
        assert not (await self.rd(MM2S_DMASR)) & IOC_IRQ
        assert int(self.dut.mm2s_introut.value) == 0
        for _ in range(1000):
            if len(self.frames) > n_before:
                break
            await RisingEdge(self.dut.clk)
        assert len(self.frames) == n_before + 1, "no single packet on m_axis_mm2s"
        data, keeps = self.frames[-1]
        assert len(keeps) == -(-length // self.nb), f"{len(keeps)} beats for {length} bytes"
        return data

    async def s2mm(self, addr: int, buflen: int, packet: "bytes | None") -> int:
        """One S2MM transfer of ``packet`` (None: what the source still holds) into a buffer
        of ``buflen`` bytes; returns S2MM_LENGTH."""
        addr |= self.hi
        await self.wr(S2MM_DA, addr & 0xFFFFFFFF)
        await self.wr(S2MM_DA_MSB, addr >> 32)
        await self.wr(S2MM_LENGTH, buflen)
        if packet is not None:
            await self.src.send(AxiStreamFrame(packet))
        sr = await self.wait_sr(S2MM_DMACR, IDLE | IOC_IRQ, f"S2MM of {buflen} bytes to {addr:#x}")
        assert sr & (INT_ERR | SLV_ERR | DEC_ERR | HALTED) == 0, f"DMASR {sr:#x}"
        assert int(self.dut.s2mm_introut.value) == 1
        await self.wr(S2MM_DMASR, IOC_IRQ)
        assert int(self.dut.s2mm_introut.value) == 0
        return await self.rd(S2MM_LENGTH)


def _params(dut) -> dict:
    """pytest's parameters (AXIDMA_PARAMS), else (FuseSoC's cocotb target) the DUT's."""
    if os.environ.get("AXIDMA_PARAMS"):
        return json.loads(os.environ["AXIDMA_PARAMS"])
    p = {"DATA_WIDTH": int(dut.DATA_WIDTH.value), "MAX_BURST": int(dut.MAX_BURST.value),
         "ADDR_WIDTH": int(dut.ADDR_WIDTH.value), "pause": 0.3, "steps": 12, "seed": 1}
    cocotb.log.info("configuration from the DUT's parameters: %s", json.dumps(p))
    return p


def _lengths(rng: random.Random, nb: int, steps: int) -> list[int]:
    fixed = [1, 2, 3, nb - 1, nb, nb + 1, 4095, 4096, 4097, 5003]
    return fixed + [rng.randint(1, 6000) for _ in range(steps)]


def _addr(rng: random.Random, length: int, nb: int) -> int:
    if rng.random() < 0.3:   # end just past a 4 KiB boundary, any alignment
        page = rng.randint(1, 5) * 0x1000
        return max(0, page - rng.randint(1, min(length, 3 * 64 * nb) or 1))
    return rng.randint(0, 0x18000 - length - 1)


@cocotb.test()
async def mm2s_transfers(dut):
    p = _params(dut)
    tb = Tb(dut, p)
    await tb.start()
    await tb.run(MM2S_DMACR)
    rng = tb.rng
    for length in _lengths(rng, tb.nb, p["steps"]):
        addr = _addr(rng, length, tb.nb)
        data = bytes(rng.getrandbits(8) for _ in range(length))
        tb.ram.write(addr, data)
        got = await tb.mm2s(addr, length)
        assert got == data, f"MM2S {length} bytes from {addr:#x}: the packet differs"
        assert await tb.rd(MM2S_LENGTH) == length
    assert tb.bursts["ar"] > 0 and tb.uppers == {tb.hi >> 32}


@cocotb.test()
async def s2mm_transfers(dut):
    p = _params(dut)
    tb = Tb(dut, p)
    await tb.start()
    await tb.run(S2MM_DMACR)
    rng = tb.rng
    for length in _lengths(rng, tb.nb, p["steps"]):
        buflen = length + (rng.choice([0, 1, tb.nb, rng.randint(0, 300)]))   # early TLAST
        addr = _addr(rng, buflen, tb.nb)
        lo, hi = max(0, addr - 64), min(RAM_SIZE, addr + buflen + 64)
        fill = bytes(rng.getrandbits(8) for _ in range(hi - lo))
        tb.ram.write(lo, fill)
        packet = bytes(rng.getrandbits(8) for _ in range(length))
        got = await tb.s2mm(addr, buflen, packet)
        assert got == length, f"S2MM_LENGTH {got}, {length} bytes were sent (buffer {buflen})"
        want = bytearray(fill)
        want[addr - lo:addr - lo + length] = packet
        mem = tb.ram.read(lo, hi - lo)
        assert mem == bytes(want), (f"S2MM {length} bytes to {addr:#x} (buffer {buflen}): memory "
                                    f"differs at {next(i for i in range(len(mem)) if mem[i] != want[i]) + lo:#x}")
    assert tb.bursts["aw"] > 0 and tb.uppers == {tb.hi >> 32}


@cocotb.test()
async def both_channels_at_once(dut):
    p = _params(dut)
    tb = Tb(dut, p)
    await tb.start()
    await tb.run(MM2S_DMACR)
    await tb.run(S2MM_DMACR)
    rng = tb.rng

    async def sender():
        for _ in range(4):
            n = rng.randint(1, 3000)
            addr = rng.randint(0, 0x8000 - n)
            data = bytes(rng.getrandbits(8) for _ in range(n))
            tb.ram.write(addr, data)
            assert await tb.mm2s(addr, n) == data

    async def receiver():
        for _ in range(4):
            n = rng.randint(1, 3000)
            addr = 0x8000 + rng.randint(0, 0x8000 - n)
            packet = bytes(rng.getrandbits(8) for _ in range(n))
            assert await tb.s2mm(addr, n + 7, packet) == n
            assert tb.ram.read(addr, n) == packet

    t1, t2 = cocotb.start_soon(sender()), cocotb.start_soon(receiver())
    await with_timeout(t1, 5, "ms")
    await with_timeout(t2, 5, "ms")


@cocotb.test()
async def errors_and_reset(dut):
    p = _params(dut)
    tb = Tb(dut, p)
    await tb.start()
    assert await tb.rd(MM2S_DMACR) == DMACR_RESET_VALUE
    assert await tb.rd(MM2S_DMASR) == DMASR_RESET_VALUE
    # no other register: 0x2C (SG_CTL), 0x100 (DMACR's offset + 0x100) read 0, writes ignored
    await tb.wr(0x100, RS)
    await tb.wr(0x2C, 0xFFFFFFFF)
    assert [await tb.rd(o) for o in (0x100, 0x2C, 0x3FC)] == [0, 0, 0]
    assert await tb.rd(MM2S_DMACR) == DMACR_RESET_VALUE
    # LENGTH while halted: no effect
    await tb.wr(MM2S_LENGTH, 100)
    await ClockCycles(dut.clk, 50)
    assert await tb.rd(MM2S_DMASR) == DMASR_RESET_VALUE
    assert not tb.frames

    # DECERR on an MM2S read (from the start, and after a 4 KiB crossing into the region)
    for addr, n in ((READ_ERR[0] + 8, 200), (READ_ERR[0] - 100, 900)):
        await tb.run(MM2S_DMACR)
        await tb.wr(MM2S_SA, addr)
        await tb.wr(MM2S_LENGTH, n)
        sr = await tb.wait_sr(MM2S_DMACR, HALTED | DEC_ERR | ERR_IRQ, "MM2S DECERR")
        assert sr & (IDLE | IOC_IRQ | SLV_ERR | INT_ERR) == 0, f"DMASR {sr:#x}"
        assert not (await tb.rd(MM2S_DMACR)) & RS, "RS not cleared by the error"
        assert int(dut.mm2s_introut.value) == 1
        await tb.wr(MM2S_DMACR, RS | ERR_EN)          # no restart with an error bit set
        await ClockCycles(dut.clk, 10)
        assert (await tb.rd(MM2S_DMASR)) & HALTED
        await tb.wr(MM2S_DMASR, ERR_IRQ)                # Err_Irq is write-1-to-clear
        assert not (await tb.rd(MM2S_DMASR)) & ERR_IRQ and (await tb.rd(MM2S_DMASR)) & DEC_ERR
        assert int(dut.mm2s_introut.value) == 0
        await tb.soft_reset()
        tb.drop_partial_frame()
    assert not tb.frames, "a packet with TLAST came out of a transfer that failed"

    # SLVERR on an S2MM write
    await tb.run(S2MM_DMACR)
    await tb.wr(S2MM_DA, WRITE_ERR[0] - 64)
    await tb.wr(S2MM_LENGTH, 1000)
    await tb.src.send(AxiStreamFrame(bytes(range(256)) * 3))
    sr = await tb.wait_sr(S2MM_DMACR, HALTED | SLV_ERR | ERR_IRQ, "S2MM SLVERR")
    assert sr & (IDLE | IOC_IRQ | DEC_ERR | INT_ERR) == 0, f"DMASR {sr:#x}"
    assert int(dut.s2mm_introut.value) == 1
    await tb.soft_reset()
    assert int(dut.s2mm_introut.value) == 0
    await ClockCycles(dut.clk, 5)
    if not tb.src.idle():       # the packet's rest is still on the stream: take it
        await tb.run(S2MM_DMACR)
        await tb.s2mm(0x7000, 4096, None)
        await tb.soft_reset()

    # LENGTH 0: DMAIntErr
    await tb.run(MM2S_DMACR)
    await tb.wr(MM2S_LENGTH, 0)
    await tb.wait_sr(MM2S_DMACR, HALTED | INT_ERR | ERR_IRQ, "MM2S LENGTH 0")
    await tb.soft_reset()

    # a packet longer than the buffer: DMAIntErr, the buffer written, the rest still on the stream
    await tb.run(S2MM_DMACR)
    packet = bytes(tb.rng.getrandbits(8) for _ in range(301))
    buflen = 150
    addr = 0x4003
    tb.ram.write(addr, bytes(400))
    await tb.wr(S2MM_DA, addr)
    await tb.wr(S2MM_LENGTH, buflen)
    await tb.src.send(AxiStreamFrame(packet))
    await tb.wait_sr(S2MM_DMACR, HALTED | INT_ERR | ERR_IRQ, "S2MM overflow")
    assert await tb.rd(S2MM_LENGTH) == buflen
    assert tb.ram.read(addr, 400) == packet[:buflen] + bytes(400 - buflen)
    await tb.soft_reset()
    taken = -(-buflen // tb.nb) * tb.nb            # the beat that filled the buffer was taken
    await tb.run(S2MM_DMACR)
    assert await tb.s2mm(0x5000, 4096, None) == len(packet) - taken
    assert tb.ram.read(0x5000, len(packet) - taken) == packet[taken:]

    # run/stop: RS=0 while S2MM waits for a packet halts it, RS=1 runs it again
    await tb.wr(S2MM_DA, 0x6000)
    await tb.wr(S2MM_LENGTH, 64)
    await ClockCycles(dut.clk, 20)
    assert not (await tb.rd(S2MM_DMASR)) & (HALTED | IDLE)
    await tb.wr(S2MM_DMACR, 0)
    await tb.wait_sr(S2MM_DMACR, HALTED, "S2MM stop")
    assert not (await tb.rd(S2MM_DMASR)) & IDLE
    await tb.run(S2MM_DMACR)
    assert await tb.s2mm(0x6000, 64, bytes(range(64))) == 64
    # RS=0 during a long MM2S transfer: halts, then a new transfer is whole
    await tb.run(MM2S_DMACR)
    tb.ram.write(0, bytes(tb.rng.getrandbits(8) for _ in range(8192)))
    await tb.wr(MM2S_SA, 0)
    await tb.wr(MM2S_LENGTH, 8192)
    await ClockCycles(dut.clk, 100)
    await tb.wr(MM2S_DMACR, 0)
    await tb.wait_sr(MM2S_DMACR, HALTED, "MM2S stop")
    tb.drop_partial_frame()
    await tb.run(MM2S_DMACR)
    assert await tb.mm2s(3, 1000) == tb.ram.read(3, 1000)


@cocotb.test()
async def throughput(dut):
    """Cycle counts (exact, no back-pressure): MM2S from the LENGTH write to the TLAST beat,
    S2MM from the first stream beat to IOC_Irq, and the first-beat latencies. Logged (the
    bench run prints them), data checked."""
    p = dict(_params(dut), pause=0.0)
    tb = Tb(dut, p)
    await tb.start()
    await tb.run(MM2S_DMACR)
    await tb.run(S2MM_DMACR)
    d = tb.dut
    ev: dict[str, int] = {}
    cycle = [0]

    async def watch():
        while True:
            await RisingEdge(d.clk)
            cycle[0] += 1
            c = cycle[0]
            if int(d.s_axil_awvalid.value) and int(d.s_axil_awready.value):
                a = int(d.s_axil_awaddr.value)
                if a in (MM2S_LENGTH, S2MM_LENGTH):
                    ev[f"len{a:x}"] = c
            if int(d.m_axi_arvalid.value) and int(d.m_axi_arready.value):
                ev.setdefault("ar", c)
            if int(d.m_axis_mm2s_tvalid.value) and int(d.m_axis_mm2s_tready.value):
                ev.setdefault("t0", c)
                if int(d.m_axis_mm2s_tlast.value):
                    ev["tlast"] = c
            if int(d.s_axis_s2mm_tvalid.value) and int(d.s_axis_s2mm_tready.value):
                ev.setdefault("s0", c)
                if int(d.s_axis_s2mm_tlast.value):
                    ev["slast"] = c
            if int(d.m_axi_awvalid.value) and int(d.m_axi_awready.value):
                ev.setdefault("aw", c)
            if int(d.s2mm_introut.value):
                ev.setdefault("irq", c)

    cocotb.start_soon(watch())
    rows = []
    for n in (8, 64, 1024, 4096, 65536):
        data = bytes(tb.rng.getrandbits(8) for _ in range(n))
        tb.ram.write(0, data)
        ev.clear()
        assert await tb.mm2s(0, n) == data
        mm = ev["tlast"] - ev["len28"] + 1
        ar_lat, t_lat = ev["ar"] - ev["len28"], ev["t0"] - ev["len28"]
        ev.clear()
        await tb.src.send(AxiStreamFrame(data))
        await ClockCycles(d.clk, 2 * n // tb.nb + 10)          # the packet waits on the stream
        ev.clear()
        tb.ram.write(0, bytes(n))
        assert await tb.s2mm(0, n, None) == n and tb.ram.read(0, n) == data
        ss = ev["irq"] - ev["s0"] + 1
        irq_lat = ev["irq"] - ev["slast"]
        ideal = -(-n // tb.nb)
        rows.append((n, mm, ss, ideal, ar_lat, t_lat, irq_lat))
    for n, mm, ss, ideal, *_ in rows:
        dut._log.info("axi_dma DATA_WIDTH=%d MAX_BURST=%d: %6d bytes  MM2S %6d cycles (%.1f%% of %d beats)  "
                      "S2MM %6d cycles (%.1f%%)", 8 * tb.nb, tb.max_burst, n, mm, 100 * ideal / mm, ideal,
                      ss, 100 * ideal / ss)
    with open(os.environ.get("AXIDMA_BENCH_OUT", os.devnull), "a") as f:
        f.write(json.dumps({"DATA_WIDTH": 8 * tb.nb, "MAX_BURST": tb.max_burst,
                            "rows": [dict(bytes=n, mm2s_cycles=mm, s2mm_cycles=ss, beats=i,
                                          length_to_ar=a, length_to_tvalid=t, tlast_to_irq=q)
                                     for n, mm, ss, i, a, t, q in rows]}) + "\n")


PARAM_SETS = [
    {"DATA_WIDTH": 32, "MAX_BURST": 16, "FIFO_LOG2": 5, "pause": 0.3},
    {"DATA_WIDTH": 64, "MAX_BURST": 256, "FIFO_LOG2": 9, "pause": 0.3},
    {"DATA_WIDTH": 64, "MAX_BURST": 16, "FIFO_LOG2": 6, "ADDR_WIDTH": 64, "LEN_WIDTH": 14, "pause": 0.0},
    {"DATA_WIDTH": 32, "MAX_BURST": 256, "FIFO_LOG2": 8, "pause": 0.6},
]


@pytest.mark.parametrize("simulator,params", sim_matrix(PARAM_SETS))
def test_axi_dma(simulator, params):
    p = dict({"DATA_WIDTH": 32, "MAX_BURST": 16}, **params)
    p = dict(p, steps=12, seed=zlib.crc32(json.dumps(params, sort_keys=True).encode()))
    hdl = {k: v for k, v in params.items() if k.isupper()}
    run_cocotb(toplevel="pp_axi_dma", sources=cores_rtl(["axi_dma"]), test_module="test_axi_dma",
               test_dir=Path(__file__).parent, parameters=hdl, simulator=simulator,
               extra_env={"AXIDMA_PARAMS": json.dumps(p)}, testcase=TESTS)


TESTS = ["mm2s_transfers", "s2mm_transfers", "both_channels_at_once", "errors_and_reset"]


@pytest.mark.bench
@pytest.mark.parametrize("params", [{"DATA_WIDTH": 32, "MAX_BURST": 16, "FIFO_LOG2": 6},
                                    {"DATA_WIDTH": 64, "MAX_BURST": 16, "FIFO_LOG2": 6},
                                    {"DATA_WIDTH": 64, "MAX_BURST": 256, "FIFO_LOG2": 9}])
def test_axi_dma_throughput(params, tmp_path):
    """Cycles per transfer (exact) with no back-pressure; prints a table."""
    out = tmp_path / "bench.jsonl"
    run_cocotb(toplevel="pp_axi_dma", sources=cores_rtl(["axi_dma"]), test_module="test_axi_dma",
               test_dir=Path(__file__).parent, parameters=params, simulator="icarus",
               extra_env={"AXIDMA_PARAMS": json.dumps(dict(params, steps=0, seed=1)),
                          "AXIDMA_BENCH_OUT": str(out)}, testcase="throughput")
    for line in out.read_text().splitlines():
        r = json.loads(line)
        print(f"\naxi_dma DATA_WIDTH={r['DATA_WIDTH']} MAX_BURST={r['MAX_BURST']} (cocotbext-axi AxiRam, no pauses)")
        print(f"{'bytes':>8} {'beats':>6} {'MM2S cycles':>12} {'eff':>6} {'S2MM cycles':>12} {'eff':>6} "
              f"{'LENGTH->AR':>11} {'LENGTH->TVALID':>15} {'TLAST->IRQ':>11}")
        for row in r["rows"]:
            print(f"{row['bytes']:>8} {row['beats']:>6} {row['mm2s_cycles']:>12} "
                  f"{100 * row['beats'] / row['mm2s_cycles']:>5.1f}% {row['s2mm_cycles']:>12} "
                  f"{100 * row['beats'] / row['s2mm_cycles']:>5.1f}% {row['length_to_ar']:>11} "
                  f"{row['length_to_tvalid']:>15} {row['tlast_to_irq']:>11}")
