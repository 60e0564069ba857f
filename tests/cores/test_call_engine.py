"""cocotb tests of the PushPush call engine (cores/call_engine/pp_call_engine.v).

A cocotbext-axi AxiRamWrite (with a hook that answers SLVERR/DECERR for two address
regions) sits on the m_axi port, with pause generators on AW, W and B. A cycle-accurate
monitor samples every rising edge and checks, for every request:

- the exact AW sequence (address, AWLEN, AWSIZE, AWBURST, AWID) against a reference
  splitter (one INCR burst, split only at 4 KiB boundaries and at MAX_BURST_LEN),
- every W beat (data of the strobed bytes, WSTRB, WLAST), stability of AW/W while stalled,
- every B response and the done pulse (order, cycle, done_resp = worst of its bursts),
- latency: request handshake at t -> first AW and W beat 0 valid at t+1; no W bubble
  inside a burst; last B at u -> done_valid at u+1,
- outstanding bursts (AW presented, B not yet received) never above MAX_OUTSTANDING,
- and at the end every byte of the RAM against a model memory.

Parameters come from the CE_PARAMS environment variable (JSON) set by the pytest wrapper.
"""

from __future__ import annotations

import collections
import json
import logging
import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge
from cocotbext.axi import AxiRamWrite, AxiResp, AxiWriteBus

from pushpush.build.sim import run_cocotb
from pushpush.testing import sim_matrix

RAM_SIZE = 0x10000
# [start, end) -> response; 8-byte aligned so a strobe run is wholly in or out
ERR_REGIONS = [(0x5F00, 0x6100, int(AxiResp.SLVERR)), (0x9F80, 0xA040, int(AxiResp.DECERR))]
DEFAULTS = {"DATA_WIDTH": 32, "ADDR_WIDTH": 32, "ID_WIDTH": 1, "AXI_ID": 0,
            "MAX_WORDS": 8, "MAX_OUTSTANDING": 4, "MAX_BURST_LEN": 256, "SPLIT": 1, "STATUS": 1}


def region_code(addr: int) -> int:
    for lo, hi, code in ERR_REGIONS:
        if lo <= addr < hi:
            return code
    return 0


def split_bursts(addr: int, nwords: int, nbytes: int, max_len: int) -> list[tuple[int, int, int]]:
    """Reference splitter: [(awaddr, beats, words)] for nwords words at addr."""
    lanes = nbytes // 4
    out = []
    while nwords > 0:
        off = (addr % nbytes) // 4
        aligned = addr - addr % nbytes
        beats = min((off + nwords + lanes - 1) // lanes, (4096 - aligned % 4096) // nbytes, max_len)
        words = min(nwords, beats * lanes - off)
        out.append((addr, beats, words))
        addr = aligned + beats * nbytes
        nwords -= words
    return out


class ErrRam(AxiRamWrite):
    """AxiRamWrite answering SLVERR/DECERR (and not writing) inside ERR_REGIONS."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._burst_resp = 0
        plain_send = self.b_channel.send

        async def send(b):
            b.bresp = max(int(b.bresp), self._burst_resp)
            self._burst_resp = 0
            await plain_send(b)

        self.b_channel.send = send

    async def _write(self, address, data):
        code = max(region_code(a) for a in range(address, address + len(data)))
        if code:
            self._burst_resp = max(self._burst_resp, code)
            return
        await super()._write(address, data)


def pause_gen(p: float, rng: random.Random):
    while True:
        yield rng.random() < p


class TB:
    def __init__(self, dut, seed: int = 1):
        self.dut = dut
        self.p = dict(DEFAULTS)
        self.p.update(json.loads(os.environ.get("CE_PARAMS", "{}")))
        self.dw = self.p["DATA_WIDTH"]
        self.nbytes = self.dw // 8
        self.lanes = self.dw // 32
        self.max_words = self.p["MAX_WORDS"]
        self.max_out = self.p["MAX_OUTSTANDING"]
        self.max_len = self.p["MAX_BURST_LEN"]
        # SPLIT=0: the engine relies on no request crossing a 4 KiB page (send() moves those)
        self.split = bool(self.p["SPLIT"])
        self.status = bool(self.p["STATUS"])
        self.rng = random.Random(seed)
        self.ram = ErrRam(AxiWriteBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=RAM_SIZE)
        self.ram.log.setLevel(logging.WARNING)
        self.model = bytearray(RAM_SIZE)
        # monitor state
        self.cyc = 0
        self.exp_aw = collections.deque()
        self.exp_w = collections.deque()
        self.exp_b = collections.deque()
        self.exp_done = collections.deque()   # (cycle, resp, req index)
        self.req_resp = []                     # expected done_resp per request
        self.done = []                         # (cycle, resp) observed
        self.req_cycles = []
        self.w_cycles = []                     # W handshake cycles
        self.b_cycles = []
        self.aw_cycles = []                    # AW handshake cycles
        self.aw_starts = []                    # first cycle each AW was valid
        self.w_starts = []                     # first cycle each W beat was valid
        self.aw_cur = None
        self.w_cur = None
        self.need_wvalid = False
        self.outstanding = 0
        self.max_outstanding_seen = 0
        self.errors = []
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())

    def set_pauses(self, aw=0.0, w=0.0, b=0.0):
        for ch, p in ((self.ram.aw_channel, aw), (self.ram.w_channel, w), (self.ram.b_channel, b)):
            if p:
                ch.set_pause_generator(pause_gen(p, random.Random(self.rng.random())))
            else:
                ch.clear_pause_generator()
                ch.pause = False

    async def reset(self):
        dut = self.dut
        dut.req_valid.value = 0
        dut.req_addr.value = 0
        dut.req_nwords.value = 0
        dut.req_data.value = 0
        dut.rst.value = 1
        for _ in range(4):
            await RisingEdge(dut.clk)
        dut.rst.value = 0
        await RisingEdge(dut.clk)
        cocotb.start_soon(self.monitor())

    def fail(self, msg):
        self.errors.append(f"cycle {self.cyc}: {msg}")
        assert False, self.errors[-1]

    # ---- reference model of one accepted request ----
    def expect_request(self, addr, nwords, data):
        idx = len(self.req_resp)
        words = [(data >> (32 * k)) & 0xFFFFFFFF for k in range(nwords)]
        bursts = split_bursts(addr, nwords, self.nbytes, self.max_len)
        worst = 0
        k = 0
        for bi, (baddr, beats, nw) in enumerate(bursts):
            first = bi == 0
            last = bi == len(bursts) - 1
            self.exp_aw.append({"addr": baddr, "len": beats - 1, "first": first, "req_cycle": self.cyc})
            pos = (baddr % self.nbytes) // 4   # lane of the first word
            k_end = k + nw
            bresp = 0
            for beat in range(beats):
                bdata = 0
                strb = 0
                for lane in range(self.lanes):
                    if (beat > 0 or lane >= pos) and k < k_end:
                        bdata |= words[k] << (32 * lane)
                        strb |= 0xF << (4 * lane)
                        waddr = (baddr - baddr % self.nbytes) + beat * self.nbytes + 4 * lane
                        for j in range(4):
                            code = region_code(waddr + j)
                            bresp = max(bresp, code)
                            if not code:
                                self.model[waddr + j] = (words[k] >> (8 * j)) & 0xFF
                        k += 1
                self.exp_w.append({"data": bdata, "strb": strb, "last": beat == beats - 1,
                                   "first": first and beat == 0, "req_cycle": self.cyc})
            worst = max(worst, bresp)
            self.exp_b.append({"resp": bresp, "last": last, "worst": worst, "req": idx})
        assert k == nwords
        self.req_resp.append(worst)

    # ---- cycle-accurate monitor ----
    async def monitor(self):
        dut = self.dut
        clk = dut.clk
        while True:
            await RisingEdge(clk)
            self.cyc += 1
            cyc = self.cyc
            awv = int(dut.m_axi_awvalid.value)
            wv = int(dut.m_axi_wvalid.value)
            bv = int(dut.m_axi_bvalid.value)
            dv = int(dut.done_valid.value)
            # AW
            if awv:
                fields = (int(dut.m_axi_awaddr.value), int(dut.m_axi_awlen.value),
                          int(dut.m_axi_awsize.value), int(dut.m_axi_awburst.value),
                          int(dut.m_axi_awid.value))
                if self.aw_cur is None:
                    if not self.exp_aw:
                        self.fail(f"unexpected AW {fields}")
                    exp = self.exp_aw[0]
                    want = (exp["addr"], exp["len"], (self.nbytes - 1).bit_length(), 1,
                            self.p["AXI_ID"])
                    if fields != want:
                        self.fail(f"AW {fields} != expected {want}")
                    if exp["first"] and cyc != exp["req_cycle"] + 1:
                        self.fail(f"first AW at {cyc}, request taken at {exp['req_cycle']}")
                    self.aw_cur = fields
                    self.aw_starts.append(cyc)
                    self.outstanding += 1
                    self.max_outstanding_seen = max(self.max_outstanding_seen, self.outstanding)
                    if self.outstanding > self.max_out:
                        self.fail(f"{self.outstanding} bursts outstanding > {self.max_out}")
                elif fields != self.aw_cur:
                    self.fail("AW changed while stalled")
                if int(dut.m_axi_awready.value):
                    self.exp_aw.popleft()
                    self.aw_cur = None
                    self.aw_cycles.append(cyc)
            elif self.aw_cur is not None:
                self.fail("AWVALID dropped before AWREADY")
            # W
            if self.need_wvalid and not wv:
                self.fail("W bubble inside a burst")
            self.need_wvalid = False
            if wv:
                fields = (int(dut.m_axi_wdata.value), int(dut.m_axi_wstrb.value),
                          int(dut.m_axi_wlast.value))
                if self.w_cur is None:
                    if not self.exp_w:
                        self.fail("unexpected W beat")
                    exp = self.exp_w[0]
                    mask = 0
                    for i in range(self.nbytes):
                        if fields[1] >> i & 1:
                            mask |= 0xFF << (8 * i)
                    got = (fields[0] & mask, fields[1], fields[2])
                    want = (exp["data"], exp["strb"], int(exp["last"]))
                    if got != want:
                        self.fail(f"W beat {[hex(x) for x in got]} != {[hex(x) for x in want]}")
                    if exp["first"] and cyc != exp["req_cycle"] + 1:
                        self.fail(f"W beat 0 at {cyc}, request taken at {exp['req_cycle']}")
                    self.w_cur = fields
                    self.w_starts.append(cyc)
                elif fields != self.w_cur:
                    self.fail("W changed while stalled")
                if int(dut.m_axi_wready.value):
                    self.need_wvalid = not self.exp_w[0]["last"]
                    self.exp_w.popleft()
                    self.w_cur = None
                    self.w_cycles.append(cyc)
            elif self.w_cur is not None:
                self.fail("WVALID dropped before WREADY")
            # done (registered from the B handshake of the previous cycle)
            if dv:
                if not self.exp_done or self.exp_done[0][0] != cyc:
                    self.fail(f"unexpected done_valid (expected {list(self.exp_done)[:1]})")
                _, resp, idx = self.exp_done.popleft()
                got = int(dut.done_resp.value)
                if got != resp:
                    self.fail(f"request {idx}: done_resp {got} != {resp}")
                self.done.append((cyc, got))
            elif self.exp_done and self.exp_done[0][0] <= cyc:
                self.fail("missing done_valid")
            # B
            if bv and int(dut.m_axi_bready.value):
                if not self.exp_b:
                    self.fail("unexpected B")
                exp = self.exp_b.popleft()
                got = int(dut.m_axi_bresp.value)
                if got != exp["resp"]:
                    self.fail(f"bresp {got} != {exp['resp']} (slave model)")
                self.outstanding -= 1
                self.b_cycles.append(cyc)
                if exp["last"]:
                    self.exp_done.append((cyc + 1, exp["worst"], exp["req"]))
            # busy: high while an accepted request has not had its done pulse
            want_busy = int(len(self.req_cycles) > len(self.done))
            if int(dut.busy.value) != want_busy:
                self.fail(f"busy {int(dut.busy.value)} != {want_busy}")
            # request handshake
            if int(dut.req_valid.value) and int(dut.req_ready.value):
                self.req_cycles.append(cyc)
                self.expect_request(int(dut.req_addr.value), int(dut.req_nwords.value),
                                    int(dut.req_data.value))

    # ---- stimulus ----
    def random_request(self, near_4k=0.3, near_err=0.0):
        n = self.rng.randint(1, self.max_words)
        r = self.rng.random()
        if r < near_err:
            lo, hi, _ = self.rng.choice(ERR_REGIONS)
            addr = self.rng.choice([lo, hi]) + 4 * self.rng.randint(-n, n)
        elif r < near_err + near_4k:
            addr = 4096 * self.rng.randint(1, RAM_SIZE // 4096 - 1) - 4 * self.rng.randint(0, n)
        else:
            addr = 4 * self.rng.randint(0, (RAM_SIZE - 4 * n) // 4)
        addr = min(max(addr, 0), RAM_SIZE - 4 * n)
        return addr, n, self.rng.getrandbits(32 * n)

    def fit(self, addr, n):
        """Without SPLIT, a request that would cross a 4 KiB page is moved down to end at it."""
        if not self.split and addr // 4096 != (addr + 4 * n - 1) // 4096:
            addr = (addr // 4096 + 1) * 4096 - 4 * n
        return addr

    async def send(self, reqs, idle=0.0):
        """Drive the requests; idle: probability of an idle cycle before each one."""
        dut = self.dut
        for addr, n, data in reqs:
            addr = self.fit(addr, n)
            while self.rng.random() < idle:
                dut.req_valid.value = 0
                dut.req_addr.value = self.rng.getrandbits(16)
                dut.req_data.value = self.rng.getrandbits(32 * self.max_words)
                await RisingEdge(dut.clk)
            dut.req_valid.value = 1
            dut.req_addr.value = addr
            dut.req_nwords.value = n
            # garbage in the unused words: the engine must not write them
            dut.req_data.value = data | (self.rng.getrandbits(32 * self.max_words) >> (32 * n) << (32 * n))
            while True:
                await RisingEdge(dut.clk)
                if int(dut.req_ready.value):
                    break
        dut.req_valid.value = 0

    async def drain(self, nreq, timeout=200000):
        for _ in range(timeout):
            if len(self.done) >= nreq and not self.exp_b and not self.exp_done:
                break
            await RisingEdge(self.dut.clk)
        assert len(self.done) == nreq, f"{len(self.done)} of {nreq} requests completed"
        for _ in range(3):
            await RisingEdge(self.dut.clk)
        assert not self.errors, self.errors
        assert not self.exp_aw and not self.exp_w and not self.exp_b
        assert int(self.dut.busy.value) == 0
        assert self.outstanding == 0
        assert self.ram.read(0, RAM_SIZE) == bytes(self.model), "RAM differs from model"
        n_err = sum(1 for r in self.req_resp if r >= 2)
        if self.status:
            assert int(self.dut.err_flag.value) == (1 if n_err else 0)
            assert int(self.dut.err_count.value) == min(n_err, 0xFFFF)
        else:
            assert int(self.dut.err_flag.value) == 0 and int(self.dut.err_count.value) == 0


def seed_of(name: str) -> int:
    return int(os.environ.get("CE_SEED", "1")) * 1000 + sum(map(ord, name))


@cocotb.test()
async def test_latency(dut):
    """Isolated requests, no back-pressure: exact cycle timeline."""
    tb = TB(dut, seed_of("latency"))
    await tb.reset()
    sizes = sorted({1, 2, 3, tb.max_words} & set(range(1, tb.max_words + 1)))
    count = 0
    for n in sizes:
        for addr in (0x100, 0x104, 0x2000 - 4 * ((n + 1) // 2)):
            addr = tb.fit(addr, n)
            assert int(dut.busy.value) == 0
            await tb.send([(addr, n, tb.rng.getrandbits(32 * n))])
            count += 1
            await tb.drain(count)
            t = tb.req_cycles[-1]
            bursts = split_bursts(addr, n, tb.nbytes, tb.max_len)
            beats = sum(b[1] for b in bursts)
            wc = tb.w_cycles[-beats:]
            if len(bursts) == 1:
                # beats at t+1 .. t+beats, one per cycle
                assert wc == list(range(t + 1, t + 1 + beats)), (t, wc)
            done_cycle = tb.done[-1][0]
            assert done_cycle == tb.b_cycles[-1] + 1
            dut._log.info("n=%d addr=0x%x: %d burst(s), %d beats; request at %d, W at %s, "
                          "last B at %d, done at %d (request->done %d cycles)",
                          n, addr, len(bursts), beats, t, wc, tb.b_cycles[-1], done_cycle,
                          done_cycle - t)


@cocotb.test()
async def test_random(dut):
    """Random requests, random back-pressure on AW/W/B and idle cycles on the request port."""
    tb = TB(dut, seed_of("random"))
    tb.set_pauses(aw=0.3, w=0.3, b=0.3)
    await tb.reset()
    n = int(os.environ.get("CE_NREQ", "120"))
    reqs = [tb.random_request(near_4k=0.3, near_err=0.1) for _ in range(n)]
    await tb.send(reqs, idle=0.3)
    await tb.drain(n)
    dut._log.info("max outstanding seen %d", tb.max_outstanding_seen)


@cocotb.test()
async def test_split_4k(dut):
    """Requests ending on, straddling and starting at 4 KiB boundaries."""
    tb = TB(dut, seed_of("split_4k"))
    tb.set_pauses(aw=0.2, w=0.2, b=0.2)
    await tb.reset()
    reqs = []
    for n in sorted({1, 2, 3, tb.max_words // 2, tb.max_words} & set(range(1, tb.max_words + 1))):
        for back in range(0, n + 2):
            addr = 0x3000 - 4 * back
            reqs.append((addr, n, tb.rng.getrandbits(32 * n)))
    await tb.send(reqs, idle=0.1)
    await tb.drain(len(reqs))
    nbursts = sum(len(split_bursts(tb.fit(a, n), n, tb.nbytes, tb.max_len)) for a, n, _ in reqs)
    assert nbursts > len(reqs) or tb.max_words == 1 or not tb.split


@cocotb.test()
async def test_back_to_back(dut):
    """Requests always valid, no back-pressure: count the idle W cycles."""
    tb = TB(dut, seed_of("b2b"))
    await tb.reset()
    reqs = [tb.random_request(near_4k=0.2) for _ in range(40)]
    await tb.send(reqs, idle=0.0)
    await tb.drain(len(reqs))
    beats = len(tb.w_cycles)
    span = tb.w_cycles[-1] - tb.w_cycles[0] + 1
    idle = span - beats
    # requests accepted in the cycle of the previous request's last W beat, at the latest
    first_beats = []
    late = 0
    k = 0
    for a, n, _ in reqs:
        first_beats.append(k)
        k += sum(b[1] for b in split_bursts(tb.fit(a, n), n, tb.nbytes, tb.max_len))
    for i in range(1, len(reqs)):
        prev_last_w = tb.w_cycles[first_beats[i] - 1]
        if tb.req_cycles[i] > prev_last_w:
            late += 1
    dut._log.info("back-to-back: %d beats in %d cycles (%d idle), %d requests accepted after "
                  "the previous one's last beat, max outstanding %d",
                  beats, span, idle, late, tb.max_outstanding_seen)
    # exact rule: burst j starts (AW and W beat 0 valid) the cycle after the last of: the
    # previous burst's last W beat, the previous burst's AW handshake, and the B that brings
    # the outstanding count below MAX_OUTSTANDING
    nbeats = [b[1] for a, n, _ in reqs for b in split_bursts(tb.fit(a, n), n, tb.nbytes, tb.max_len)]
    first_beat = [sum(nbeats[:j]) for j in range(len(nbeats))]
    for j in range(1, len(nbeats)):
        bound = max(tb.w_cycles[first_beat[j] - 1], tb.aw_cycles[j - 1])
        if j >= tb.max_out:
            bound = max(bound, tb.b_cycles[j - tb.max_out])
        assert tb.w_starts[first_beat[j]] == bound + 1, (j, tb.w_starts[first_beat[j]], bound)
        assert tb.aw_starts[j] == bound + 1, (j, tb.aw_starts[j], bound)
    if tb.max_out >= 4:
        assert idle == 0 and late == 0


@cocotb.test()
async def test_aw_starved(dut):
    """AW heavily paused, W and B free: W beats run ahead of their AW."""
    tb = TB(dut, seed_of("aw_starved"))
    tb.set_pauses(aw=0.8, w=0.0, b=0.0)
    await tb.reset()
    reqs = [tb.random_request(near_4k=0.3) for _ in range(30)]
    await tb.send(reqs, idle=0.0)
    await tb.drain(len(reqs))


@cocotb.test()
async def test_errors(dut):
    """Requests into and across the SLVERR and DECERR regions; done_resp per request."""
    tb = TB(dut, seed_of("errors"))
    tb.set_pauses(aw=0.2, w=0.2, b=0.2)
    await tb.reset()
    reqs = [tb.random_request(near_4k=0.0, near_err=0.8) for _ in range(60)]
    await tb.send(reqs, idle=0.2)
    await tb.drain(len(reqs))
    seen = {r for r in tb.req_resp}
    assert seen >= {0, 2, 3}, seen


@cocotb.test()
async def test_outstanding(dut):
    """B heavily paused: the MAX_OUTSTANDING limit is reached and never exceeded."""
    tb = TB(dut, seed_of("outstanding"))
    tb.set_pauses(aw=0.1, w=0.1, b=0.85)
    await tb.reset()
    reqs = [(4 * tb.rng.randint(0, 0x1000), 1, tb.rng.getrandbits(32)) for _ in range(40)]
    await tb.send(reqs, idle=0.0)
    await tb.drain(len(reqs))
    dut._log.info("max outstanding seen %d (limit %d)", tb.max_outstanding_seen, tb.max_out)
    assert tb.max_outstanding_seen == tb.max_out


# ---------------------------------------------------------------- pytest wrappers

REPO = Path(__file__).resolve().parents[2]
SOURCES = [REPO / "cores" / "call_engine" / "pp_call_engine.v"]

PARAM_SETS = [
    {"DATA_WIDTH": 32, "MAX_WORDS": 8, "MAX_OUTSTANDING": 4},
    {"DATA_WIDTH": 64, "MAX_WORDS": 8, "MAX_OUTSTANDING": 4},
    {"DATA_WIDTH": 32, "MAX_WORDS": 1, "MAX_OUTSTANDING": 1},
    {"DATA_WIDTH": 64, "MAX_WORDS": 1, "MAX_OUTSTANDING": 4},
    {"DATA_WIDTH": 64, "MAX_WORDS": 64, "MAX_OUTSTANDING": 1, "MAX_BURST_LEN": 4},
    {"DATA_WIDTH": 32, "MAX_WORDS": 64, "MAX_OUTSTANDING": 4, "MAX_BURST_LEN": 3},
    {"DATA_WIDTH": 64, "MAX_WORDS": 64, "MAX_OUTSTANDING": 4, "ID_WIDTH": 4, "AXI_ID": 9},
    {"DATA_WIDTH": 32, "MAX_WORDS": 8, "MAX_OUTSTANDING": 3, "MAX_BURST_LEN": 2},
    # one burst per request, no error counter: what a generated wrapper uses
    {"DATA_WIDTH": 32, "MAX_WORDS": 2, "MAX_OUTSTANDING": 4, "SPLIT": 0, "STATUS": 0,
     "ID_WIDTH": 12},
    {"DATA_WIDTH": 64, "MAX_WORDS": 8, "MAX_OUTSTANDING": 3, "SPLIT": 0, "MAX_BURST_LEN": 5},
]


def _run(simulator, params, extra=None):
    env = {"CE_PARAMS": json.dumps(params)}
    env.update(extra or {})
    run_cocotb(toplevel="pp_call_engine", sources=SOURCES, test_module="test_call_engine",
               test_dir=Path(__file__).parent, parameters=params, simulator=simulator,
               extra_env=env)


@pytest.mark.parametrize("simulator,params", sim_matrix(PARAM_SETS))
def test_call_engine(simulator, params):
    _run(simulator, params)


@pytest.mark.long
@pytest.mark.parametrize("simulator,params", sim_matrix(PARAM_SETS, verilator_sets=2))
@pytest.mark.parametrize("seed", [2, 3])
def test_call_engine_long(simulator, params, seed):
    _run(simulator, params, {"CE_NREQ": "2000", "CE_SEED": str(seed)})
