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
  memory side's valid and handshake equal the master side's, on all five channels.

Parameters come in FW_PARAMS (pytest side), else from the DUT (the core's ``cocotb`` target).
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

MEM = 1 << 16
ENTRY0 = 0x100


def _params(dut) -> dict:
    if "FW_PARAMS" in os.environ:
        return json.loads(os.environ["FW_PARAMS"])
    return {k: int(getattr(dut, k).value) for k in
            ("DATA_WIDTH", "REG_DATA_WIDTH", "ID_WIDTH", "ENTRIES", "TAG_LSB", "TAG_BITS")} | {"pause": 0.3, "seed": 1}


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
        for base, limit, attr, owner in self.table:
            if not attr & (2 if write else 1):
                continue
            if not (attr & 4 or owner == tag):
                continue
            if first >= base and last <= limit:
                return True
        return False


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
    info = await b.reg_read(0x4)
    assert info & 0xFF == p["ENTRIES"]
    assert (info >> 8) & 0xFF == p["TAG_BITS"] and (info >> 16) & 0xFF == p["TAG_LSB"]
    assert await b.reg_read(0x0) == 1, "ENABLE is set after reset"
    for off in (0x8, 0xC, 0x10, 0x14, 0xFC, ENTRY0 + 16 * p["ENTRIES"], 0xFFC):
        assert await b.reg_read(off) == 0, hex(off)
    owner_mask = ((1 << p["TAG_BITS"]) - 1) << 8
    model = {}
    for _ in range(60):
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
    # a burst read across the first entries
    n = min(p["ENTRIES"], 3) * 4
    got = (await b.regs.read(ENTRY0, 4 * n)).data
    want = b"".join(model.get(ENTRY0 + 4 * k, 0).to_bytes(4, "little") for k in range(n))
    assert got == want
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
    for _ in range(20):
        addr = rng.randrange(MEM - 64)
        nbytes = rng.randrange(1, min(0x400, 256 * beat - beat))
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
    await b.set_entry(0, 0x1000, 0x107F, 4 | 3)
    b.ram.write(0x1078, bytes(range(1, 9)))
    r = await b.master.read(0x107C, 16, burst=AxiBurstType.FIXED, size=2)
    assert r.resp == AxiResp.OKAY and r.data[:4] == bytes([5, 6, 7, 8])
    r = await b.master.read(0x1080, 16, burst=AxiBurstType.FIXED, size=2)
    assert r.resp == AxiResp.SLVERR and r.data == bytes(16)
    r = await b.master.read(0x107C, 8, size=2)   # INCR: two beats, the second outside
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


async def _raw_write(dut, addr: int, length: int, size: int, burst: int) -> tuple[int, bool]:
    """One write burst driven by hand (AW, then its beats): (BRESP, whether its address
    reached the memory side)."""
    what = f"the write at 0x{addr:08X}"
    dut.s_axi_awaddr.value = addr
    dut.s_axi_awlen.value = length
    dut.s_axi_awsize.value = size
    dut.s_axi_awburst.value = burst
    dut.s_axi_awid.value = 0
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


async def _raw_read(dut, addr: int, length: int, size: int, burst: int) -> tuple[int, int]:
    """One read burst driven by hand: (the worst RRESP, beats)."""
    dut.s_axi_araddr.value = addr
    dut.s_axi_arlen.value = length
    dut.s_axi_arsize.value = size
    dut.s_axi_arburst.value = burst
    dut.s_axi_arid.value = 0
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


@cocotb.test()
async def zero_latency(dut):
    b = await _setup(dut)
    if b.p["pause"]:
        return   # only without pauses: the master side's handshakes are the memory side's
    await b.set_entry(0, 0, MEM - 1, 4 | 3)
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
        addr = b.rng.randrange(0, MEM - 0x200) & ~3
        data = bytes(b.rng.getrandbits(8) for _ in range(4 * b.rng.randrange(1, 64)))
        await b.master.write(addr, data, awid=b.rng.randrange(1 << b.p["ID_WIDTH"]))
        assert (await b.master.read(addr, len(data))).data == data
    w.cancel()
    assert cycles > 200


# --------------------------------------------------------------------------------- pytest

PARAM_SETS = [
    {"DATA_WIDTH": 32, "ID_WIDTH": 4, "ENTRIES": 8, "TAG_LSB": 2, "TAG_BITS": 2, "pause": 0.0},
    {"DATA_WIDTH": 32, "ID_WIDTH": 4, "ENTRIES": 8, "TAG_LSB": 2, "TAG_BITS": 2, "pause": 0.3},
    {"DATA_WIDTH": 64, "REG_DATA_WIDTH": 32, "ID_WIDTH": 6, "ENTRIES": 3, "TAG_LSB": 0, "TAG_BITS": 3,
     "pause": 0.3},
    {"DATA_WIDTH": 32, "REG_DATA_WIDTH": 64, "ID_WIDTH": 2, "ENTRIES": 1, "TAG_LSB": 1, "TAG_BITS": 1,
     "pause": 0.5},
]


def _matrix():
    from pushpush.testing import sim_matrix
    return sim_matrix(PARAM_SETS)


@pytest.mark.parametrize("simulator,params", _matrix())
def test_mem_firewall(simulator, params):
    from pushpush.build.cores import cores_rtl
    from pushpush.build.sim import run_cocotb

    p = dict(params, seed=int(sum(params.values()) * 7) + params["ENTRIES"])
    run_cocotb(toplevel="pp_mem_firewall", sources=cores_rtl(["mem_firewall"]), test_module="test_mem_firewall",
               test_dir=Path(__file__).parent,
               parameters={k: p[k] for k in ("DATA_WIDTH", "REG_DATA_WIDTH", "ID_WIDTH", "ENTRIES", "TAG_LSB",
                                             "TAG_BITS") if k in p},
               simulator=simulator, extra_env={"FW_PARAMS": json.dumps(p)})
