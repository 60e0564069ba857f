"""Tests of the AXI4 interconnect core (cores/interconnect, top pp_axi_interconnect).

cocotb cannot bind to slices of the core's flattened port vectors, so each configuration
(S_COUNT x M_COUNT) gets a generated Verilog wrapper, ``pp_ic_wrap_<S>x<M>``, that splits
them into per-port ``sNN_axi_*`` / ``mNN_axi_*`` signals (in the manner of verilog-axi's
test wrappers). A cocotbext-axi AxiMaster drives every slave port, an AxiRam answers on
every master port; run_random puts random pause generators on every channel.

Tests:
- ``run_latency``: no back-pressure; measures, in exact clock cycles, the handshake of
  every AW/W/B/AR/R beat on both sides and asserts 1 cycle added per direction.
- ``run_throughput``: back-to-back bursts stream without bubbles; distinct paths overlap in
  the crossbar.
- ``run_pipeline``: every master keeps many short bursts in flight (the pingpong pattern,
  two-beat writes): without back-pressure the shared bus moves a W beat every cycle (the
  next AW is granted while the current burst streams); then, under random back-pressure on
  every channel, short writes and reads with the same IDs to several slaves and to unmapped
  addresses, 4 in flight per master; ``IdMonitor`` checks that every B / R burst reaches the
  master that issued it, answering an outstanding request of that ID, and that the master
  index in the IDs at the slave ports is right; data checked by read-back and RAM contents.
- ``run_fairness``: a 256-beat bursting master against a single-beat master on one slave:
  round robin alternates transactions, deficit round robin (ARBITRATION=1) shares beats.
- ``run_random``: all masters (two workers each) concurrently write and read random bursts
  (random length and alignment, explicit IDs drawn from a small set so the same ID goes to
  different slaves) to random slaves and to unmapped addresses. Each worker owns a region
  of every slave; every write response (OKAY / DECERR), every read byte and response is
  checked against a model, and at the end every RAM byte is compared with the model.
"""

from __future__ import annotations

import logging
import os
import random
from pathlib import Path

import pytest

# -------------------------------------------------------------------------------------
# configuration shared by the pytest side and the cocotb side

S_ID_WIDTH = 4
WINDOW_BITS = 12  # each slave answers 4 KiB


def base_addr(j: int) -> int:
    """Base address of slave j; the gaps between windows are unmapped."""
    return 0x4000_0000 + j * 0x1_0000


def unmapped_addr(j: int) -> int:
    return base_addr(j) + 0x8000


# -------------------------------------------------------------------------------------
# cocotb side

try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import RisingEdge, Timer, with_timeout
    from cocotbext.axi import AxiBus, AxiMaster, AxiRam, AxiResp
except ImportError:  # collected by pytest without cocotb's simulator context
    cocotb = None


def _cfg(dut):
    """IC_* (set by the pytest side), else the wrapper's own parameters and port counts: the
    ``cocotb`` target of interconnect.core (top ``tb/pp_ic_wrap_2x2.v``), run through FuseSoC
    (``python -m pushpush.build.cocotb_fusesoc interconnect``), passes Verilog parameters only."""
    if "IC_S" not in os.environ:
        cfg = {k: int(getattr(dut, p).value) for k, p in (
            ("S", "S_COUNT"), ("M", "M_COUNT"), ("DW", "DATA_WIDTH"), ("TOPOLOGY", "TOPOLOGY"),
            ("ARBITRATION", "ARBITRATION"), ("READ_TOPOLOGY", "READ_TOPOLOGY"),
            ("SKID_BUFFERS", "SKID_BUFFERS"))}
        cfg["OPS"] = int(os.environ.get("IC_OPS", "20"))
        cfg["M_CONNECT"] = int(dut.M_CONNECT.value)
        dut._log.info("configuration from the DUT's parameters: %s", cfg)
        return cfg
    return {
        "S": int(os.environ["IC_S"]),
        "M": int(os.environ["IC_M"]),
        "DW": int(os.environ["IC_DW"]),
        "TOPOLOGY": int(os.environ["IC_TOPOLOGY"]),
        "ARBITRATION": int(os.environ.get("IC_ARBITRATION", "0")),
        "READ_TOPOLOGY": int(os.environ.get("IC_READ_TOPOLOGY", "0")),
        "SKID_BUFFERS": int(os.environ.get("IC_SKID_BUFFERS", "1")),
        "OPS": int(os.environ.get("IC_OPS", "20")),
        "M_CONNECT": int(os.environ["IC_M_CONNECT"]) if "IC_M_CONNECT" in os.environ else None,
    }


class TB:
    def __init__(self, dut):
        self.dut = dut
        cfg = _cfg(dut)
        self.S, self.M, self.DW = cfg["S"], cfg["M"], cfg["DW"]
        self.cfg = cfg
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        self.masters = [
            AxiMaster(AxiBus.from_prefix(dut, f"s{i:02d}_axi"), dut.clk, dut.rst)
            for i in range(self.S)
        ]
        self.rams = [
            AxiRam(AxiBus.from_prefix(dut, f"m{j:02d}_axi"), dut.clk, dut.rst,
                   size=2**WINDOW_BITS)
            for j in range(self.M)
        ]
        for port in self.masters + self.rams:
            for log in (port.write_if.log, port.read_if.log):
                log.setLevel(logging.WARNING)
        # M_CONNECT: bit j*S + i = master i may address slave j (None: all)
        mask = cfg.get("M_CONNECT")
        self.mask = (1 << (self.S * self.M)) - 1 if mask is None else mask

    def conn(self, i: int, j: int) -> bool:
        return bool((self.mask >> (j * self.S + i)) & 1)

    def set_pauses(self, rng: random.Random, prob: float):
        def gen(seed):
            r = random.Random(seed)
            while True:
                yield r.random() < prob

        chans = []
        for m in self.masters:
            chans += [m.write_if.aw_channel, m.write_if.w_channel, m.write_if.b_channel,
                      m.read_if.ar_channel, m.read_if.r_channel]
        for r in self.rams:
            chans += [r.write_if.aw_channel, r.write_if.w_channel, r.write_if.b_channel,
                      r.read_if.ar_channel, r.read_if.r_channel]
        for c in chans:
            c.set_pause_generator(gen(rng.getrandbits(32)))

    async def reset(self):
        self.dut.rst.value = 1
        for _ in range(4):
            await RisingEdge(self.dut.clk)
        self.dut.rst.value = 0
        for _ in range(2):
            await RisingEdge(self.dut.clk)


class HandshakeLog:
    """Records the clock cycle of every handshake on the named channels."""

    def __init__(self, dut, prefixes):
        self.dut = dut
        self.cycle = 0
        self.sigs = {}
        for p in prefixes:
            for ch in ("aw", "w", "b", "ar", "r"):
                self.sigs[(p, ch)] = (getattr(dut, f"{p}_{ch}valid"),
                                      getattr(dut, f"{p}_{ch}ready"))
        self.log = {k: [] for k in self.sigs}
        self.ids = {k: [] for k in self.sigs if k[1] != "w"}
        cocotb.start_soon(self._run())

    async def _run(self):
        while True:
            await RisingEdge(self.dut.clk)
            self.cycle += 1
            for k, (v, r) in self.sigs.items():
                if v.value == 1 and r.value == 1:
                    self.log[k].append(self.cycle)
                    if k in self.ids:
                        self.ids[k].append(int(getattr(self.dut, f"{k[0]}_{k[1]}id").value))

    def clear(self):
        for k in self.log:
            self.log[k] = []
        for k in self.ids:
            self.ids[k] = []


if cocotb is not None:

    @cocotb.test()
    async def run_latency(dut):
        """Exact latency of every channel with no contention and no back-pressure."""
        tb = TB(dut)
        await tb.reset()
        nb = tb.DW // 8
        pairs = [(0, tb.M - 1), (tb.S - 1, 0)]
        for mi, sj in pairs:
            sp, mp = f"s{mi:02d}_axi", f"m{sj:02d}_axi"
            hs = HandshakeLog(dut, [sp, mp])
            master = tb.masters[mi]
            for beats in (1, 4, 16):
                addr = base_addr(sj) + 0x100
                data = bytes(random.getrandbits(8) for _ in range(beats * nb))
                hs.clear()
                xid = beats % 2**S_ID_WIDTH
                resp = await master.write(addr, data, awid=xid)
                assert resp.resp == AxiResp.OKAY
                for _ in range(4):
                    await RisingEdge(dut.clk)
                lg = hs.log
                s_aw, m_aw = lg[(sp, "aw")], lg[(mp, "aw")]
                s_w, m_w = lg[(sp, "w")], lg[(mp, "w")]
                s_b, m_b = lg[(mp, "b")], lg[(sp, "b")]
                assert len(s_aw) == len(m_aw) == 1
                assert len(s_w) == len(m_w) == beats
                assert m_aw[0] - s_aw[0] == 1, f"AW latency {m_aw[0] - s_aw[0]}"
                # ID extended with the master index in the upper bits
                ext = (mi << S_ID_WIDTH) | xid if tb.S > 1 else xid
                assert hs.ids[(mp, "aw")] == [ext], hs.ids[(mp, "aw")]
                assert hs.ids[(mp, "b")] == [ext] and hs.ids[(sp, "b")] == [xid]
                assert [b - a for a, b in zip(s_w, m_w)] == [1] * beats, (s_w, m_w)
                if s_aw[0] == s_w[0]:
                    assert m_aw[0] == m_w[0], "AW and first W must leave together"
                assert m_b[0] - s_b[0] == 1, f"B latency {m_b[0] - s_b[0]}"
                dut._log.info(
                    "write %d beats s%02d->m%02d: s AW@%d W@%s | m AW@%d W@%s | m B@%d s B@%d",
                    beats, mi, sj, s_aw[0], s_w, m_aw[0], m_w, s_b[0], m_b[0])

                hs.clear()
                rd = await master.read(addr, beats * nb, arid=xid)
                assert rd.data == data and rd.resp == AxiResp.OKAY
                for _ in range(4):
                    await RisingEdge(dut.clk)
                s_ar, m_ar = lg[(sp, "ar")], lg[(mp, "ar")]
                m_r, s_r = lg[(mp, "r")], lg[(sp, "r")]
                assert m_ar[0] - s_ar[0] == 1, f"AR latency {m_ar[0] - s_ar[0]}"
                assert hs.ids[(mp, "ar")] == [ext], hs.ids[(mp, "ar")]
                assert hs.ids[(mp, "r")] == [ext] * beats and hs.ids[(sp, "r")] == [xid] * beats
                assert len(m_r) == len(s_r) == beats
                assert [b - a for a, b in zip(m_r, s_r)] == [1] * beats, (m_r, s_r)
                dut._log.info(
                    "read %d beats s%02d->m%02d: s AR@%d m AR@%d | m R@%s s R@%s",
                    beats, mi, sj, s_ar[0], m_ar[0], m_r, s_r)

    @cocotb.test()
    async def run_throughput(dut):
        """Back-to-back bursts and concurrency, no back-pressure (cycle counts logged)."""
        tb = TB(dut)
        await tb.reset()
        nb = tb.DW // 8
        xbar = tb.cfg["TOPOLOGY"] == 0
        # one master, four 16-beat writes then reads to one slave, issued together
        hs = HandshakeLog(dut, ["s00_axi", "m00_axi"])
        data = [bytes(random.getrandbits(8) for _ in range(16 * nb)) for _ in range(4)]
        await cocotb.triggers.Combine(*[
            cocotb.start_soon(tb.masters[0].write(base_addr(0) + k * 16 * nb, data[k], awid=k))
            for k in range(4)])
        m_w = hs.log[("m00_axi", "w")]
        s_w = hs.log[("s00_axi", "w")]
        dut._log.info("4x16-beat writes: W beats at master port in %d cycles, at slave port "
                      "in %d cycles", s_w[-1] - s_w[0] + 1, m_w[-1] - m_w[0] + 1)
        assert len(m_w) == 64
        # the interconnect adds no bubble to what the master offers
        assert m_w[-1] - m_w[0] == s_w[-1] - s_w[0]
        hs.clear()
        reads = await cocotb.triggers.Combine(*[
            cocotb.start_soon(tb.masters[0].read(base_addr(0) + k * 16 * nb, 16 * nb, arid=k))
            for k in range(4)])
        del reads
        m_r = hs.log[("m00_axi", "r")]
        s_r = hs.log[("s00_axi", "r")]
        dut._log.info("4x16-beat reads: R beats at slave port in %d cycles, at master port "
                      "in %d cycles", m_r[-1] - m_r[0] + 1, s_r[-1] - s_r[0] + 1)
        assert m_r[-1] - m_r[0] == s_r[-1] - s_r[0]
        for k in range(4):
            assert tb.rams[0].read(k * 16 * nb, 16 * nb) == data[k]

        # every master writes 16 beats to its own slave at the same time
        n = min(tb.S, tb.M)
        hs = HandshakeLog(dut, [f"s{i:02d}_axi" for i in range(n)])
        payload = bytes(16 * nb)
        await cocotb.triggers.Combine(*[
            cocotb.start_soon(tb.masters[i].write(base_addr(i) + 0x800, payload))
            for i in range(n)])
        first = min(hs.log[(f"s{i:02d}_axi", "aw")][0] for i in range(n))
        last = max(hs.log[(f"s{i:02d}_axi", "b")][-1] for i in range(n))
        dut._log.info("%d masters x 16 beats to %d distinct slaves: %d cycles (AW to last B)",
                      n, n, last - first + 1)
        if xbar:
            # concurrent paths: as fast as one write alone (16 W + 1 in + RAM + 1 out)
            assert last - first + 1 <= 16 + 6, last - first + 1

    @cocotb.test()
    async def run_fairness(dut):
        """Master 0 sends 256-beat bursts, master 1 single beats, to the same slave.

        Round robin alternates transactions (master 1 gets one beat per 256 of master 0);
        deficit round robin (ARBITRATION=1) shares the slave in beats."""
        tb = TB(dut)
        await tb.reset()
        if tb.S < 2:
            return
        nb = tb.DW // 8
        state = {"stop": False, "small": 0}

        async def small(k):
            while not state["stop"]:
                await tb.masters[1].write(base_addr(0) + 0xC00 + 8 * k, bytes(4), awid=k)
                state["small"] += 1

        # eight workers keep master 1 backlogged (MAX_OUTSTANDING = 8)
        smalls = [cocotb.start_soon(small(k)) for k in range(8)]
        for _ in range(20):
            await RisingEdge(dut.clk)
        hs = HandshakeLog(dut, ["m00_axi"])
        start = state["small"]
        bigs = [cocotb.start_soon(tb.masters[0].write(base_addr(0), bytes(256 * nb), awid=k))
                for k in range(4)]
        for t in bigs:
            await with_timeout(t, 1, "ms")
        cycles = hs.cycle
        during = state["small"] - start
        state["stop"] = True
        for t in smalls:
            await t
        dut._log.info("fairness (ARBITRATION=%d): 4 x 256-beat writes of master 0 took %d "
                      "cycles, master 1 completed %d single-beat writes meanwhile",
                      tb.cfg["ARBITRATION"], cycles, during)
        if tb.cfg["ARBITRATION"] == 0:
            # one transaction each in turn
            assert during <= 12, during
        else:
            # beat-fair: master 1 gets a comparable share of the beats
            assert during >= 256, during

    class IdMonitor:
        """Response routing and ordering at every port: per master port, every B (R burst)
        answers an outstanding AW (AR) of that master with the same ID, oldest first; at
        every slave port, the master index in the upper ID bits of every AW (AR) is that of
        a master that issued one (counted at the end)."""

        def __init__(self, tb):
            self.tb, self.dut = tb, tb.dut
            self.pending = {(i, d): {} for i in range(tb.S) for d in "wr"}
            self.issued = {(i, d): 0 for i in range(tb.S) for d in "wr"}
            self.arrived = {(i, d): 0 for i in range(tb.S) for d in "wr"}
            self.errors: list[str] = []
            cocotb.start_soon(self._run())

        def _sig(self, name):
            return getattr(self.dut, name).value

        async def _run(self):
            tb, d = self.tb, self.dut
            cycle = 0
            while True:
                await RisingEdge(d.clk)
                cycle += 1
                for i in range(tb.S):
                    p = f"s{i:02d}_axi"
                    for dr, a, resp in (("w", "aw", "b"), ("r", "ar", "r")):
                        q = self.pending[(i, dr)]
                        if self._sig(f"{p}_{a}valid") == 1 and self._sig(f"{p}_{a}ready") == 1:
                            q.setdefault(int(self._sig(f"{p}_{a}id")), []).append(cycle)
                            self.issued[(i, dr)] += 1
                        if self._sig(f"{p}_{resp}valid") == 1 and self._sig(f"{p}_{resp}ready") == 1:
                            if resp == "r" and self._sig(f"{p}_rlast") != 1:
                                continue
                            xid = int(self._sig(f"{p}_{resp}id"))
                            if not q.get(xid):
                                self.errors.append(f"cycle {cycle}: {resp.upper()} id {xid} at master "
                                                   f"{i} with no outstanding {a.upper()} of that id")
                            else:
                                q[xid].pop(0)
                for j in range(tb.M):
                    p = f"m{j:02d}_axi"
                    for dr, a in (("w", "aw"), ("r", "ar")):
                        if self._sig(f"{p}_{a}valid") == 1 and self._sig(f"{p}_{a}ready") == 1:
                            mi = int(self._sig(f"{p}_{a}id")) >> S_ID_WIDTH if tb.S > 1 else 0
                            if mi >= tb.S:
                                self.errors.append(f"cycle {cycle}: {a.upper()} at slave {j} from "
                                                   f"master {mi}")
                            else:
                                self.arrived[(mi, dr)] += 1

        def check(self, unmapped=False):
            assert not self.errors, "\n".join(self.errors[:10])
            for k, q in self.pending.items():
                left = {x: v for x, v in q.items() if v}
                assert not left, f"master {k[0]}: {k[1]} responses missing for ids {left}"
            if not unmapped:
                assert self.arrived == self.issued, (self.arrived, self.issued)

    @cocotb.test()
    async def run_pipeline(dut):
        """Many short bursts in flight from every master (the pingpong pattern: two-beat
        writes, plus reads), the same IDs to several slaves and to unmapped addresses.

        Without back-pressure the shared bus must move a W beat every cycle (the next
        master's AW is granted while the current burst streams); with random back-pressure
        on every channel, every response must reach its master in order per ID (IdMonitor)
        and every byte must land (RAM and read-back checks)."""
        tb = TB(dut)
        cfg = tb.cfg
        seed = int(os.environ.get("IC_SEED", "1"))
        rng = random.Random(seed + 100)
        S, M, nb = tb.S, tb.M, tb.DW // 8
        await tb.reset()

        # 1. no back-pressure: every master streams two-beat writes to its own slave
        mon = IdMonitor(tb)
        hs = HandshakeLog(dut, [f"m{j:02d}_axi" for j in range(M)])
        # masters mi, mi + M, ... share slave mi % M; each writes its own part of the
        # upper half of the window
        sharing = -(-S // M)
        per = min(24, 2**(WINDOW_BITS - 1) // (sharing * 2 * nb))

        def part(mi):
            return 0x800 + (mi // M) * per * 2 * nb

        async def stream(mi):
            j = mi % M
            base = base_addr(j) + part(mi)
            tasks = [cocotb.start_soon(tb.masters[mi].write(base + k * 2 * nb,
                                                            bytes([mi, k]) * nb, awid=k % 4))
                     for k in range(per)]
            for t in tasks:
                resp = await with_timeout(t, 100, "us")
                assert resp.resp == AxiResp.OKAY

        await cocotb.triggers.Combine(*[cocotb.start_soon(stream(mi)) for mi in range(S)])
        beats = sorted(c for j in range(M) for c in hs.log[(f"m{j:02d}_axi", "w")])
        span = beats[-1] - beats[0] + 1
        dut._log.info("%d masters x %d two-beat writes: %d W beats at the slaves in %d cycles",
                      S, per, len(beats), span)
        assert len(beats) == S * per * 2
        if cfg["TOPOLOGY"] == 1 and S > 1:
            # one beat per cycle on the shared W path, no bubble between bursts
            assert span == len(beats), (span, len(beats))
        for mi in range(S):
            j = mi % M
            base = part(mi)
            for k in range(per):
                assert tb.rams[j].read(base + k * 2 * nb, 2 * nb) == bytes([mi, k]) * nb
        mon.check()

        # 2. random back-pressure: short writes and reads, many in flight, same IDs to
        # several slaves and to unmapped addresses
        tb.set_pauses(rng, float(os.environ.get("IC_PAUSE", "0.3")))
        mon = IdMonitor(tb)
        region = 2**WINDOW_BITS // (2 * S)
        model = {(j, mi): bytearray(region) for j in range(M) for mi in range(S)}
        counts = {"writes": 0, "reads": 0, "decerr": 0}

        async def op(mi, r, j, unmapped, is_write, length, off, xid):
            master = tb.masters[mi]
            roff = mi * region
            addr = (unmapped_addr(j) if unmapped else base_addr(j)) + roff + off
            mem = model[(j, mi)]
            if is_write:
                data = bytes(r.getrandbits(8) for _ in range(length))
                resp = await with_timeout(master.write(addr, data, awid=xid), 500, "us")
                if unmapped:
                    assert resp.resp == AxiResp.DECERR, (mi, hex(addr), resp)
                    counts["decerr"] += 1
                else:
                    assert resp.resp == AxiResp.OKAY, (mi, hex(addr), resp)
                    counts["writes"] += 1
                return data
            rd = await with_timeout(master.read(addr, length, arid=xid), 500, "us")
            if unmapped:
                assert rd.resp == AxiResp.DECERR, (mi, hex(addr), rd)
                counts["decerr"] += 1
            else:
                assert rd.resp == AxiResp.OKAY, (mi, hex(addr), rd)
                assert rd.data == bytes(mem[off:off + length]), (mi, hex(addr), length)
                counts["reads"] += 1
            return None

        async def worker(mi):
            r = random.Random(rng.getrandbits(32))
            for _ in range(cfg["OPS"]):
                ops = []
                slot = region // 4
                tasks = []
                for k in range(4):
                    j = r.randrange(M)
                    length = min(r.choice([4, 2 * nb, 2 * nb, 4 * nb, r.randint(1, slot)]), slot)
                    off = k * slot + r.randint(0, slot - length)
                    unmapped = r.random() < 0.1
                    is_write = r.random() < 0.6
                    o = (j, unmapped, is_write, length, off, r.randrange(2))
                    ops.append(o)
                    tasks.append(cocotb.start_soon(op(mi, r, *o)))
                for o, t in zip(ops, tasks):
                    data = await t
                    j, unmapped, is_write, length, off, _ = o
                    if is_write and not unmapped:
                        model[(j, mi)][off:off + length] = data

        await cocotb.triggers.Combine(*[cocotb.start_soon(worker(mi)) for mi in range(S)])
        for (j, mi), mem in model.items():
            assert tb.rams[j].read(mi * region, region) == bytes(mem), f"slave {j} master {mi}"
        mon.check(unmapped=True)
        dut._log.info("pipelined random traffic done: %s", counts)

    @cocotb.test()
    async def run_reads(dut):
        """Reads only, from every master to several slaves at once (each master switches
        slaves with reads in flight, the same ID to both slaves), with random back-pressure:
        every read's data and response checked, per-ID order at every master (IdMonitor), no
        deadlock (every read within a timeout). With READ_TOPOLOGY = 1 (crossbar) the R beats leave
        the slaves one per cycle in total (one shared R path): asserted on every cycle."""
        tb = TB(dut)
        cfg = tb.cfg
        seed = int(os.environ.get("IC_SEED", "1"))
        rng = random.Random(seed + 7)
        S, M, nb = tb.S, tb.M, tb.DW // 8
        region = 2**WINDOW_BITS // S
        # known contents: every RAM byte a function of (slave, offset)
        for j in range(M):
            tb.rams[j].write(0, bytes((j * 37 + k * 11) & 0xFF for k in range(2**WINDOW_BITS)))
        shared_r = cfg["TOPOLOGY"] == 1 or cfg.get("READ_TOPOLOGY", 0) == 1
        overlaps = []

        async def watch_r():
            while True:
                await RisingEdge(dut.clk)
                n = sum(1 for j in range(M) if getattr(dut, f"m{j:02d}_axi_rvalid").value == 1
                        and getattr(dut, f"m{j:02d}_axi_rready").value == 1)
                if n > 1:
                    overlaps.append(n)

        cocotb.start_soon(watch_r())
        mon = IdMonitor(tb)
        tb.set_pauses(rng, float(os.environ.get("IC_PAUSE", "0.3")))
        await tb.reset()
        done = {"reads": 0}

        async def one(mi, j, off, length, xid):
            rd = await with_timeout(tb.masters[mi].read(base_addr(j) + off, length, arid=xid),
                                    500, "us")
            assert rd.resp == AxiResp.OKAY, (mi, j, rd)
            want = bytes((j * 37 + k * 11) & 0xFF for k in range(off, off + length))
            assert rd.data == want, f"master {mi} read slave {j} +{off:#x}/{length}"
            done["reads"] += 1

        async def reader(mi):
            r = random.Random(rng.getrandbits(32))
            for _ in range(max(4, cfg["OPS"] // 2)):
                # a group of 4 concurrent reads, two slaves per group so the master
                # switches slaves with reads outstanding
                js = [r.randrange(M), r.randrange(M)]
                group = []
                for k in range(4):
                    length = r.choice([4, nb, 4 * nb, 16 * nb, r.randint(1, region)])
                    length = min(length, region)
                    off = mi * region + r.randint(0, region - length)
                    group.append(cocotb.start_soon(one(mi, js[k % 2], off, length, k // 2)))
                for t in group:
                    await t

        tasks = [cocotb.start_soon(reader(mi)) for mi in range(S)]
        for t in tasks:
            await t
        mon.check()
        dut._log.info("concurrent reads done: %d reads, shared R path %s", done["reads"], shared_r)
        if shared_r:
            assert not overlaps, f"{len(overlaps)} cycles with more than one R beat taken from the slaves"
        await Timer(100, unit="ns")

    @cocotb.test()
    async def run_random(dut):
        """Concurrent random traffic from all masters, with back-pressure everywhere."""
        tb = TB(dut)
        cfg = tb.cfg
        seed = int(os.environ.get("IC_SEED", "1"))
        rng = random.Random(seed)
        # back-pressure probability per channel: 0.3 by default, varied by seed in long runs
        tb.set_pauses(rng, float(os.environ.get("IC_PAUSE", "0.3")))
        await tb.reset()
        S, M, nb = tb.S, tb.M, tb.DW // 8
        workers = 2
        region = 2**WINDOW_BITS // (S * workers)
        model = {}  # (slave, address offset) region bytes per worker
        counts = {"writes": 0, "reads": 0, "decerr_w": 0, "decerr_r": 0}

        async def worker(mi, wk):
            r = random.Random(rng.getrandbits(32))
            master = tb.masters[mi]
            roff = (mi * workers + wk) * region
            for j in range(M):
                model[(j, roff)] = bytearray(region)
            for _ in range(cfg["OPS"]):
                j = r.randrange(M)
                unmapped = r.random() < 0.08
                length = r.choice([1, 2, 3, 4, nb, 2 * nb, r.randint(1, region)])
                length = min(length, region)
                off = r.randint(0, region - length)
                xid = r.randrange(2)  # few IDs: the same ID goes to several slaves
                mem = model[(j, roff)]
                if unmapped:
                    addr = unmapped_addr(j) + roff + off
                else:
                    addr = base_addr(j) + roff + off
                if r.random() < 0.5:
                    data = bytes(r.getrandbits(8) for _ in range(length))
                    resp = await with_timeout(master.write(addr, data, awid=xid), 500, "us")
                    if unmapped:
                        assert resp.resp == AxiResp.DECERR, (hex(addr), resp)
                        counts["decerr_w"] += 1
                    else:
                        assert resp.resp == AxiResp.OKAY, (hex(addr), resp)
                        mem[off:off + length] = data
                        counts["writes"] += 1
                else:
                    rd = await with_timeout(master.read(addr, length, arid=xid), 500, "us")
                    assert len(rd.data) == length
                    if unmapped:
                        assert rd.resp == AxiResp.DECERR, (hex(addr), rd)
                        counts["decerr_r"] += 1
                    else:
                        assert rd.resp == AxiResp.OKAY, (hex(addr), rd)
                        assert rd.data == bytes(mem[off:off + length]), (
                            f"master {mi} worker {wk} read {hex(addr)}+{length}")
                        counts["reads"] += 1

        tasks = [cocotb.start_soon(worker(mi, wk)) for mi in range(S) for wk in range(workers)]
        for t in tasks:
            await t
        # every byte of every RAM against the model
        for (j, roff), mem in model.items():
            assert tb.rams[j].read(roff, region) == bytes(mem), f"slave {j} region {roff:#x}"
        # the ID-extended slave side never saw a foreign region: untouched bytes stay 0
        dut._log.info("random traffic done: %s", counts)
        await Timer(100, unit="ns")


if cocotb is not None:

    @cocotb.test()
    async def run_sparse(dut):
        """M_CONNECT: every (master, slave) pair, connected or not, then random traffic.

        1. No back-pressure, pair by pair: a connected pair has exactly the latencies of
           run_latency (AW, every W, B, AR, every R beat: 1 cycle each) and its data lands;
           an unconnected pair's write drains its W beats and gets one B with DECERR, its
           read gets ARLEN+1 beats of DECERR, and nothing reaches the slave's port.
        2. Random back-pressure on every channel, all masters at once (two workers each),
           random slaves (connected or not) and unmapped addresses: every response (OKAY /
           DECERR by the mask), every read byte, response routing (IdMonitor) and at the
           end every RAM byte (the regions of unconnected masters stay zero)."""
        tb = TB(dut)
        S, M, nb = tb.S, tb.M, tb.DW // 8
        seed = int(os.environ.get("IC_SEED", "1"))
        rng = random.Random(seed + 31)
        await tb.reset()
        dut._log.info("M_CONNECT = %s", [[int(tb.conn(i, j)) for j in range(M)] for i in range(S)])

        # 1. pair by pair (each master its own aligned part of every window)
        slot = (2**WINDOW_BITS // S) & ~0x3F
        for mi in range(S):
            for sj in range(M):
                sp, mp = f"s{mi:02d}_axi", f"m{sj:02d}_axi"
                hs = HandshakeLog(dut, [sp, mp])
                beats = 4
                addr = base_addr(sj) + mi * slot
                data = bytes(rng.getrandbits(8) for _ in range(beats * nb))
                xid = (mi + sj) % 2**S_ID_WIDTH
                resp = await with_timeout(tb.masters[mi].write(addr, data, awid=xid), 50, "us")
                for _ in range(4):
                    await RisingEdge(dut.clk)
                lg = hs.log
                if tb.conn(mi, sj):
                    assert resp.resp == AxiResp.OKAY, (mi, sj, resp)
                    s_aw, m_aw = lg[(sp, "aw")], lg[(mp, "aw")]
                    s_w, m_w = lg[(sp, "w")], lg[(mp, "w")]
                    assert len(s_aw) == len(m_aw) == 1 and len(s_w) == len(m_w) == beats
                    assert m_aw[0] - s_aw[0] == 1, (mi, sj, s_aw, m_aw)
                    assert [b - a for a, b in zip(s_w, m_w)] == [1] * beats, (mi, sj, s_w, m_w)
                    assert lg[(sp, "b")][0] - lg[(mp, "b")][0] == 1, (mi, sj)
                    ext = (mi << S_ID_WIDTH) | xid if S > 1 else xid
                    assert hs.ids[(mp, "aw")] == [ext] and hs.ids[(sp, "b")] == [xid]
                    assert tb.rams[sj].read(mi * slot, beats * nb) == data
                else:
                    assert resp.resp == AxiResp.DECERR, (mi, sj, resp)
                    assert len(lg[(sp, "w")]) == beats and len(lg[(sp, "b")]) == 1
                    assert hs.ids[(sp, "b")] == [xid]
                    assert not lg[(mp, "aw")] and not lg[(mp, "w")], (mi, sj, "reached the slave")
                    assert tb.rams[sj].read(mi * slot, beats * nb) == bytes(beats * nb)
                hs.clear()
                rd = await with_timeout(tb.masters[mi].read(addr, beats * nb, arid=xid), 50, "us")
                for _ in range(4):
                    await RisingEdge(dut.clk)
                assert len(lg[(sp, "r")]) == beats and hs.ids[(sp, "r")] == [xid] * beats
                if tb.conn(mi, sj):
                    assert rd.resp == AxiResp.OKAY and rd.data == data, (mi, sj, rd)
                    m_ar, s_ar = lg[(mp, "ar")], lg[(sp, "ar")]
                    assert m_ar[0] - s_ar[0] == 1, (mi, sj, s_ar, m_ar)
                    assert [b - a for a, b in zip(lg[(mp, "r")], lg[(sp, "r")])] == [1] * beats
                else:
                    assert rd.resp == AxiResp.DECERR, (mi, sj, rd)
                    assert not lg[(mp, "ar")], (mi, sj, "read reached the slave")
        # clear what phase 1 wrote
        for j in range(M):
            tb.rams[j].write(0, bytes(2**WINDOW_BITS))

        # 2. random traffic under back-pressure
        tb.set_pauses(rng, float(os.environ.get("IC_PAUSE", "0.3")))
        mon = IdMonitor(tb)
        workers = 2
        region = 2**WINDOW_BITS // (S * workers)
        model = {}
        counts = {"ok": 0, "decerr_unconnected": 0, "decerr_unmapped": 0}

        async def worker(mi, wk):
            r = random.Random(rng.getrandbits(32))
            master = tb.masters[mi]
            roff = (mi * workers + wk) * region
            for j in range(M):
                model[(j, roff)] = bytearray(region)
            for _ in range(tb.cfg["OPS"]):
                j = r.randrange(M)
                unmapped = r.random() < 0.08
                length = min(r.choice([1, 4, nb, 2 * nb, 4 * nb, r.randint(1, region)]), region)
                off = r.randint(0, region - length)
                xid = r.randrange(2)
                addr = (unmapped_addr(j) if unmapped else base_addr(j)) + roff + off
                ok = tb.conn(mi, j) and not unmapped
                mem = model[(j, roff)]
                if r.random() < 0.5:
                    data = bytes(r.getrandbits(8) for _ in range(length))
                    resp = (await with_timeout(master.write(addr, data, awid=xid), 500, "us")).resp
                    if ok:
                        mem[off:off + length] = data
                else:
                    rd = await with_timeout(master.read(addr, length, arid=xid), 500, "us")
                    resp = rd.resp
                    assert len(rd.data) == length
                    if ok:
                        assert rd.data == bytes(mem[off:off + length]), (mi, wk, hex(addr), length)
                assert resp == (AxiResp.OKAY if ok else AxiResp.DECERR), (mi, j, hex(addr), resp)
                counts["ok" if ok else ("decerr_unmapped" if unmapped else "decerr_unconnected")] += 1

        tasks = [cocotb.start_soon(worker(mi, wk)) for mi in range(S) for wk in range(workers)]
        for t in tasks:
            await t
        for (j, roff), mem in model.items():
            assert tb.rams[j].read(roff, region) == bytes(mem), f"slave {j} region {roff:#x}"
        mon.check(unmapped=True)
        dut._log.info("sparse random traffic done: %s", counts)
        await Timer(100, unit="ns")


if cocotb is not None:

    @cocotb.test()
    async def run_rready_hold(dut):
        """A master that holds RREADY low stalls no other master's reads from another slave.

        Master 0 issues reads to slave 0 (bursts, more beats than ARB_READ_AHEAD) and never
        takes their data (its R channel paused throughout). Meanwhile every other master,
        under random back-pressure on every other channel, reads from the other slaves (the
        slaves it is connected to, M_CONNECT), many reads of random lengths, each within a
        simulated-time timeout; every byte and response checked, responses routed right
        (IdMonitor). Master 0's reads stay unanswered meanwhile (it did hold its data); a read
        of the last master from slave 0 itself waits behind master 0's beats (AXI: slave 0's
        R channel holds master 0's beat until it is taken) and completes once master 0 takes
        its data; then master 0's data is checked too."""
        tb = TB(dut)
        cfg = tb.cfg
        seed = int(os.environ.get("IC_SEED", "1"))
        rng = random.Random(seed + 29)
        S, M, nb = tb.S, tb.M, tb.DW // 8
        assert S >= 2 and M >= 2, "needs two masters and two slaves"
        assert tb.conn(0, 0), "master 0 must reach slave 0"
        region = 2**WINDOW_BITS // S
        for j in range(M):
            tb.rams[j].write(0, bytes((j * 37 + k * 11) & 0xFF for k in range(2**WINDOW_BITS)))

        def want(j, off, length):
            return bytes((j * 37 + k * 11) & 0xFF for k in range(off, off + length))

        tb.set_pauses(rng, float(os.environ.get("IC_PAUSE", "0.3")))
        tb.masters[0].read_if.r_channel.set_pause_generator(iter(lambda: True, None))
        mon = IdMonitor(tb)
        await tb.reset()

        # master 0: 4 reads of 8 beats (32 beats outstanding) to slave 0, data never taken
        held = [cocotb.start_soon(tb.masters[0].read(base_addr(0) + k * 8 * nb, 8 * nb, arid=k % 2))
                for k in range(4)]
        for _ in range(100):
            await RisingEdge(dut.clk)
        assert not any(t.done() for t in held), "master 0 got data it never took"
        # the last master (of three or more) reads slave 0 too: its read waits behind master
        # 0's (and, as a master reads one slave at a time, it reads nothing else meanwhile)
        bm = S - 1 if S >= 3 and tb.conn(S - 1, 0) else None
        behind = None
        if bm is not None:
            behind = cocotb.start_soon(tb.masters[bm].read(base_addr(0) + bm * region, 4 * nb, arid=3))

        done = {"reads": 0}

        async def reader(mi):
            r = random.Random(rng.getrandbits(32))
            slaves = [j for j in range(1, M) if tb.conn(mi, j)]
            if not slaves:
                return
            for _ in range(max(6, cfg["OPS"])):
                j = r.choice(slaves)
                length = min(region, r.choice([4, nb, 4 * nb, 16 * nb, r.randint(1, region)]))
                off = mi * region + r.randint(0, region - length)
                rd = await with_timeout(tb.masters[mi].read(base_addr(j) + off, length,
                                                            arid=r.randrange(2)), 200, "us")
                assert rd.resp == AxiResp.OKAY, (mi, j, rd)
                assert rd.data == want(j, off, length), f"master {mi} read slave {j} +{off:#x}/{length}"
                done["reads"] += 1

        await with_timeout(cocotb.triggers.Combine(
            *[cocotb.start_soon(reader(mi)) for mi in range(1, S) if mi != bm]), 2, "ms")
        assert done["reads"] > 0
        assert not any(t.done() for t in held), "master 0's reads completed while it held RREADY low"
        dut._log.info("%d reads of masters 1..%d done while master 0 held RREADY low", done["reads"], S - 1)

        # master 0 takes its data: its reads and the one behind them complete
        tb.masters[0].read_if.r_channel.set_pause_generator(iter(lambda: False, None))
        for k, t in enumerate(held):
            rd = await with_timeout(t, 100, "us")
            assert rd.resp == AxiResp.OKAY and rd.data == want(0, k * 8 * nb, 8 * nb), (k, rd)
        if behind is not None:
            rd = await with_timeout(behind, 100, "us")
            assert rd.resp == AxiResp.OKAY and rd.data == want(0, bm * region, 4 * nb), rd
        mon.check()
        await Timer(100, unit="ns")


# -------------------------------------------------------------------------------------
# pytest side

REPO = Path(__file__).resolve().parents[2]
CORE = REPO / "cores" / "interconnect"
SOURCES = [CORE / f for f in ("pp_axi_interconnect.v", "pp_axi_ic_decode.v", "pp_axi_ic_xbar.v",
                              "pp_axi_ic_xbar_wr.v", "pp_axi_ic_xbar_rd.v", "pp_axi_ic_xbar_arb.v",
                              "pp_axi_ic_xbar_resp.v", "pp_axi_ic_shared.v",
                              "pp_axi_ic_req.v", "pp_axi_ic_ordering.v", "pp_axi_ic_order.v",
                              "pp_axi_ic_rd_beats.v", "pp_axi_ic_resp.v", "pp_arbiter.v", "pp_axi_ic_reg.v",
                              "pp_axi_ic_decerr.v", "pp_axi_ic_mux.v")]

_PORT_SIGNALS = [
    # name, width expression, direction on the interconnect's slave port
    ("awid", "S_ID_WIDTH", "input"), ("awaddr", "ADDR_WIDTH", "input"), ("awlen", "8", "input"),
    ("awsize", "3", "input"), ("awburst", "2", "input"), ("awlock", "1", "input"),
    ("awcache", "4", "input"), ("awprot", "3", "input"), ("awqos", "4", "input"),
    ("awvalid", "1", "input"), ("awready", "1", "output"),
    ("wdata", "DATA_WIDTH", "input"), ("wstrb", "STRB_WIDTH", "input"), ("wlast", "1", "input"),
    ("wvalid", "1", "input"), ("wready", "1", "output"),
    ("bid", "S_ID_WIDTH", "output"), ("bresp", "2", "output"), ("bvalid", "1", "output"),
    ("bready", "1", "input"),
    ("arid", "S_ID_WIDTH", "input"), ("araddr", "ADDR_WIDTH", "input"), ("arlen", "8", "input"),
    ("arsize", "3", "input"), ("arburst", "2", "input"), ("arlock", "1", "input"),
    ("arcache", "4", "input"), ("arprot", "3", "input"), ("arqos", "4", "input"),
    ("arvalid", "1", "input"), ("arready", "1", "output"),
    ("rid", "S_ID_WIDTH", "output"), ("rdata", "DATA_WIDTH", "output"),
    ("rresp", "2", "output"), ("rlast", "1", "output"), ("rvalid", "1", "output"),
    ("rready", "1", "input"),
]


def wrapper_name(s_count: int, m_count: int) -> str:
    return f"pp_ic_wrap_{s_count}x{m_count}"


def write_wrapper(s_count: int, m_count: int, out_dir: Path) -> Path:
    """Write a wrapper splitting pp_axi_interconnect's flattened ports per port."""
    name = wrapper_name(s_count, m_count)
    bases = "".join(f"32'h{base_addr(j):08x}" + ("" if j == 0 else ", ")
                    for j in reversed(range(m_count)))
    widths = ", ".join([f"32'd{WINDOW_BITS}"] * m_count)
    lines = [
        "// generated by tests/cores/test_interconnect.py: per-port wrapper for cocotb",
        "`default_nettype none",
        "",
        f"module {name} #",
        "(",
        "    // data bus width",
        "    parameter DATA_WIDTH = 32,",
        "    // 0 = crossbar, 1 = shared",
        "    parameter TOPOLOGY = 0,",
        "    // arbitration policy: 0 = round robin, 1 = deficit round robin over beats",
        "    parameter ARBITRATION = 0,",
        "    // crossbar's read path: 0 = crossbar, 1 = one shared AR and R path",
        "    parameter READ_TOPOLOGY = 0,",
        "    // 1 = skid buffers, 0 = single registers",
        "    parameter SKID_BUFFERS = 1,",
        "    // connectivity: bit j*S_COUNT+i = master i may address slave j",
        f"    parameter [{s_count * m_count}-1:0] M_CONNECT = {{{s_count * m_count}{{1'b1}}}}",
        ")",
        "(",
        "    input  wire clk,",
        "    input  wire rst,",
    ]
    ports = []
    for side, count in (("s", s_count), ("m", m_count)):
        for k in range(count):
            for sig, width, direction in _PORT_SIGNALS:
                if side == "m":
                    direction = "output" if direction == "input" else "input"
                    width = "M_ID_WIDTH" if width == "S_ID_WIDTH" else width
                rng = "" if width == "1" else f"[{width}-1:0] "
                ports.append(f"    {direction:6s} wire {rng}{side}{k:02d}_axi_{sig}")
    lines.append(",\n".join(ports))
    lines += [
        ");",
        "",
        f"localparam S_COUNT = {s_count};",
        f"localparam M_COUNT = {m_count};",
        "localparam ADDR_WIDTH = 32;",
        "localparam STRB_WIDTH = DATA_WIDTH/8;",
        f"localparam S_ID_WIDTH = {S_ID_WIDTH};",
        "localparam M_ID_WIDTH = S_ID_WIDTH + $clog2(S_COUNT);",
        "",
        "pp_axi_interconnect #(",
        "    .S_COUNT(S_COUNT),",
        "    .M_COUNT(M_COUNT),",
        "    .DATA_WIDTH(DATA_WIDTH),",
        "    .ADDR_WIDTH(ADDR_WIDTH),",
        "    .S_ID_WIDTH(S_ID_WIDTH),",
        "    .M_ID_WIDTH(M_ID_WIDTH),",
        f"    .M_BASE_ADDR({{{bases}}}),",
        f"    .M_ADDR_WIDTH({{{widths}}}),",
        "    .TOPOLOGY(TOPOLOGY),",
        "    .ARBITRATION(ARBITRATION),",
        "    .READ_TOPOLOGY(READ_TOPOLOGY),",
        "    .SKID_BUFFERS(SKID_BUFFERS),",
        "    .M_CONNECT(M_CONNECT)",
        ")",
        "dut (",
        "    .clk(clk),",
        "    .rst(rst),",
    ]
    conns = []
    for side, count in (("s", s_count), ("m", m_count)):
        for sig, _, _ in _PORT_SIGNALS:
            cat = ", ".join(f"{side}{k:02d}_axi_{sig}" for k in reversed(range(count)))
            conns.append(f"    .{side}_axi_{sig}({{{cat}}})")
    lines.append(",\n".join(conns))
    lines += [");", "", "endmodule", "", "`default_nettype wire", ""]
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name}.v"
    text = "\n".join(lines)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return path


#: the cocotb tests of a fully connected configuration (run_sparse, which walks every
#: (master, slave) pair, runs on the sets with an M_CONNECT; through FuseSoC it runs too)
FULL_TESTS = ["run_latency", "run_throughput", "run_fairness", "run_pipeline", "run_reads", "run_random"]


def run_config(simulator, params, ops=20, seed=1, testcase=None, pause=0.3, build_args=()):
    from pushpush.build.sim import default_build_root, run_cocotb

    if testcase is None and "M_CONNECT" not in params:
        testcase = FULL_TESTS

    s_count, m_count = params["S_COUNT"], params["M_COUNT"]
    wrap = write_wrapper(s_count, m_count, default_build_root() / "pp_ic_wrappers")
    hdl_params = {"DATA_WIDTH": params["DATA_WIDTH"], "TOPOLOGY": params["TOPOLOGY"],
                  "ARBITRATION": params.get("ARBITRATION", 0),
                  "READ_TOPOLOGY": params.get("READ_TOPOLOGY", 0),
                  "SKID_BUFFERS": params.get("SKID_BUFFERS", 1)}
    extra = {}
    if "M_CONNECT" in params:
        hdl_params["M_CONNECT"] = params["M_CONNECT"]
        extra["IC_M_CONNECT"] = str(params["M_CONNECT"])
    run_cocotb(
        toplevel=wrapper_name(s_count, m_count),
        sources=[*SOURCES, wrap],
        test_module="test_interconnect",
        test_dir=Path(__file__).parent,
        parameters=hdl_params,
        simulator=simulator,
        extra_env={
            "IC_S": str(s_count),
            "IC_M": str(m_count),
            "IC_DW": str(params["DATA_WIDTH"]),
            "IC_TOPOLOGY": str(params["TOPOLOGY"]),
            "IC_ARBITRATION": str(params.get("ARBITRATION", 0)),
            "IC_READ_TOPOLOGY": str(params.get("READ_TOPOLOGY", 0)),
            "IC_SKID_BUFFERS": str(params.get("SKID_BUFFERS", 1)),
            "IC_OPS": str(ops),
            "IC_SEED": str(seed),
            "IC_PAUSE": str(pause),
            **extra,
        },
        testcase=testcase,
        seed=seed,
        extra_build_args=build_args,
    )


def _sets(*cfgs):
    """(S_COUNT, M_COUNT, DATA_WIDTH, TOPOLOGY[, ARBITRATION[, READ_TOPOLOGY[, SKID_BUFFERS]]])
    tuples to parameter dicts."""
    out = []
    for cfg in cfgs:
        s, m, dw, t = cfg[:4]
        d = {"S_COUNT": s, "M_COUNT": m, "DATA_WIDTH": dw, "TOPOLOGY": t}
        for name, value in zip(("ARBITRATION", "READ_TOPOLOGY", "SKID_BUFFERS"), cfg[4:]):
            d[name] = value
        out.append(d)
    return out


def _matrix(sets, verilator_sets=1):
    from pushpush.testing import sim_matrix

    return sim_matrix(sets, verilator_sets=verilator_sets)


DEFAULT_SETS = _sets(
    (4, 4, 32, 0),
    (1, 1, 32, 0),
    (2, 2, 64, 0),
    (4, 4, 64, 1),
    (2, 3, 32, 1),
    (4, 4, 32, 0, 1),
    (2, 3, 64, 1, 1),
    (8, 4, 32, 1),
    (1, 2, 64, 1),
    # the crossbar as pushpush systems use it: shared read path, single registers
    (4, 4, 32, 0, 0, 1, 0),
    (4, 4, 32, 0, 1, 1, 0),
    (3, 5, 64, 0, 0, 1, 1),
    (1, 2, 32, 0, 0, 1, 0),
    (3, 2, 32, 0, 0, 0, 0),
)

LONG_SETS = _sets(
    (1, 1, 64, 1),
    (4, 4, 32, 0),
    (4, 4, 32, 1),
    (4, 4, 64, 0),
    (8, 8, 32, 0),
    (8, 8, 64, 0),
    (8, 8, 32, 1),
    (3, 5, 32, 0),
    (8, 8, 32, 0, 1),
    (4, 4, 32, 1, 1),
    (8, 8, 32, 0, 0, 1, 0),
    (8, 8, 32, 0, 1, 1, 0),
)


@pytest.mark.parametrize("simulator,params", _matrix(DEFAULT_SETS))
def test_interconnect(simulator, params):
    run_config(simulator, params, ops=20)


#: pp_axi_ic_req.v and pp_axi_ic_mux.v keep a text for synthesis (`ifdef SYNTHESIS:
#: the crossbar's request/ready block and the multiplexer tree as Yosys maps them smallest;
#: tests/cores/test_ic_equiv.py proves each equal to its simulation text)
#: beside the one simulators run fastest; the synthesis text, simulated, must pass the same
#: bench (what the board runs is what was tested).
SYNTHESIS_SETS = _sets((4, 4, 32, 0), (4, 4, 32, 0, 0, 1, 0), (3, 5, 64, 0, 1, 1, 0),
                       (2, 3, 32, 1))


@pytest.mark.parametrize("params", SYNTHESIS_SETS,
                         ids=lambda p: f"{p['S_COUNT']}x{p['M_COUNT']}-dw{p['DATA_WIDTH']}-t{p['TOPOLOGY']}"
                                       f"-r{p.get('READ_TOPOLOGY', 0)}")
def test_interconnect_synthesis_text(params):
    run_config("icarus", params, ops=20, seed=5, build_args=("-DSYNTHESIS",))


def mask_of(s_count: int, rows: list[list[int]]) -> int:
    """M_CONNECT from rows[i] = the slaves master i may address."""
    return sum(1 << (j * s_count + i) for i, row in enumerate(rows) for j in row)


def _sparse(cfg, rows):
    d = _sets(cfg)[0]
    d["M_CONNECT"] = mask_of(d["S_COUNT"], rows)
    return d


#: M_CONNECT (run_sparse): both topologies, both read paths, skid buffers or not, both
#: arbitrations; masks as generated systems have them (master 0 the ARM, reaching every
#: slave; the others a few), a slave no master reaches and a master that reaches none
SPARSE_SETS = [
    _sparse((4, 4, 32, 0, 0, 1, 0), [[0, 1, 2, 3], [2, 3], [1, 3], [3]]),
    _sparse((4, 4, 32, 0, 1, 1, 0), [[0, 1, 2, 3], [2], [1, 2], [0]]),
    _sparse((4, 4, 32, 0, 0, 0, 1), [[0, 1, 2], [1], [0, 2], []]),
    _sparse((3, 5, 64, 0, 1, 0, 0), [[0, 2, 4], [1, 2, 3], [4]]),
    _sparse((4, 4, 32, 1), [[0, 1, 2, 3], [2, 3], [1], [0, 3]]),
    _sparse((2, 3, 32, 1, 1), [[0, 2], [1]]),
]


def _sparse_id(p):
    return (f"{p['S_COUNT']}x{p['M_COUNT']}-dw{p['DATA_WIDTH']}-t{p['TOPOLOGY']}-a{p.get('ARBITRATION', 0)}"
            f"-r{p.get('READ_TOPOLOGY', 0)}-k{p.get('SKID_BUFFERS', 1)}-c{p['M_CONNECT']:x}")


@pytest.mark.parametrize("params", SPARSE_SETS, ids=_sparse_id)
def test_interconnect_sparse(params):
    run_config("icarus", params, ops=20, testcase="run_sparse")


@pytest.mark.parametrize("params", [SPARSE_SETS[0], SPARSE_SETS[3]], ids=_sparse_id)
def test_interconnect_sparse_synthesis_text(params):
    run_config("icarus", params, ops=20, seed=5, testcase="run_sparse", build_args=("-DSYNTHESIS",))


@pytest.mark.slow   # the Verilator leg (second tier; the Icarus legs above run in the default tier)
@pytest.mark.parametrize("params", [SPARSE_SETS[1]], ids=_sparse_id)
def test_interconnect_sparse_verilator(params):
    run_config("verilator", params, ops=20, testcase="run_sparse")


#: run_rready_hold: the crossbar's two read paths (the shared one as generated systems have
#: it: single registers), both arbitrations (deficit round robin's read-ahead limit is
#: exceeded by the held beats), skid buffers or not, and a sparse mask (the last master does
#: not reach slave 0: no read waits behind the held ones). Not the shared bus (TOPOLOGY=1):
#: its one address path stalls when a slave does not take a read, by design (README,
#: "A master that does not take its data")
HOLD_SETS = [*_sets(
    (3, 3, 32, 0, 0, 1, 0),
    (4, 4, 32, 0, 1, 1, 1),
    (2, 2, 64, 0, 0, 0, 1),
    (3, 4, 64, 0, 1, 0, 0),
    (2, 3, 32, 0, 0, 1, 1),
), _sparse((4, 4, 32, 0, 0, 1, 0), [[0, 1, 2, 3], [2, 3], [0, 1, 3], [1]])]


def _hold_id(p):
    c = p.get("M_CONNECT")
    return (f"{p['S_COUNT']}x{p['M_COUNT']}-dw{p['DATA_WIDTH']}-t{p['TOPOLOGY']}-a{p.get('ARBITRATION', 0)}"
            f"-r{p.get('READ_TOPOLOGY', 0)}-k{p.get('SKID_BUFFERS', 1)}" + (f"-c{c:x}" if c is not None else ""))


@pytest.mark.parametrize("params", HOLD_SETS, ids=_hold_id)
def test_interconnect_rready_hold(params):
    run_config("icarus", params, ops=12, testcase="run_rready_hold")


@pytest.mark.slow   # the Verilator leg (second tier; the Icarus legs above run in the default tier)
@pytest.mark.parametrize("params", [HOLD_SETS[0]], ids=_hold_id)
def test_interconnect_rready_hold_verilator(params):
    run_config("verilator", params, ops=12, testcase="run_rready_hold")


@pytest.mark.long
@pytest.mark.parametrize("simulator,params", _matrix(LONG_SETS, verilator_sets=2))
@pytest.mark.parametrize("seed,pause", [(11, 0.3), (12, 0.0), (13, 0.6)])
def test_interconnect_long(simulator, params, seed, pause):
    run_config(simulator, params, ops=300, seed=seed, pause=pause)


#: 32 ports per side (a system of 31 rtl components and the ARM has 32 masters and 32
#: slaves; pushpush.link allows up to MAX_INTERCONNECT_PORTS), both topologies. Icarus.
#: The default run has what generated systems use (the crossbar with its shared read path
#: and single registers, the shared bus); the full crossbar of the core's defaults (9 min of
#: Icarus on its own, the suite's longest test) runs under ``-m long``.
WIDE_SETS = _sets((32, 32, 32, 1), (32, 32, 32, 0, 0, 1, 0))
WIDE_LONG_SETS = _sets((32, 32, 32, 0))


@pytest.mark.slow   # 57 and 54 s of Icarus: second tier (the default tier's widest is 8x4)
@pytest.mark.parametrize("params", WIDE_SETS, ids=["shared32x32", "crossbar32x32-shared-reads"])
def test_interconnect_32_ports(params):
    run_config("icarus", params, ops=4)


@pytest.mark.long
@pytest.mark.parametrize("params", WIDE_LONG_SETS, ids=["crossbar32x32"])
def test_interconnect_32_ports_long(params):
    run_config("icarus", params, ops=4)
