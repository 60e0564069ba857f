"""Bench of cores/irq (pp_irq_pending): the system top's interrupt block.

One lock-step cocotb loop drives, at random with random back-pressure on every channel:

- the watched PL-to-PS write port: write bursts into the N windows and elsewhere (random
  AW handshakes), and their B responses in any order (random B handshakes), with up to 12
  bursts outstanding;
- the register slave: write bursts (INCR and FIXED, 1..4 beats, random strobes, mostly
  write-1-to-clear of random masks at offset 0, enable set (0x4) and clear (0x8) of random
  masks, some at other offsets) and read bursts, each channel's valid and ready held back
  at random.

Every cycle it checks, against a model of README.md:

- ``pending`` equals the model (armed windows, outstanding count, set on B, clear by W1C,
  a set winning over a clear in the same cycle) and ``irq`` is the OR of the pending bits
  that are enabled (enable bits: 0 after reset, write-1-to-set at 0x4, write-1-to-clear at
  0x8);
- **no lost wake-up**: in the cycle after the B handshake of any burst into window i,
  ``pending[i]`` is 1, whatever the register slave cleared in that cycle;
- **no spurious bit**: ``pending[i]`` only rises after a B handshake while a burst into
  window i was outstanding;
- read beats return, per 32-bit lane, the pending bits at offset 0, the enable bits at 0x4,
  the cycle counter at 0x10 (rising edges since reset) and at 0x14 its high word (latched by
  the last read of 0x10 on 32 bits), 0 elsewhere; B and R carry the request's ID, R the right ``rlast``.

Parameter sets: 1, 3 and 32 bits, 32- and 64-bit data. Icarus, the first set on Verilator
too. Without IRQ_CFG (the ``cocotb`` target of irq.core) the bench takes its configuration
from the DUT's parameters.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import FallingEdge, RisingEdge
except ImportError:  # collected by pytest outside a simulator
    cocotb = None


#: The cycle counter's value at the bench's first cycle (the falling edge after reset).
COUNTER_AT_0 = 0


def _u(sig) -> int:
    return int(sig.value)


def _windows(n: int) -> list[tuple[int, int]]:
    """(base, log2 size) of window i: 4 KiB .. 16 KiB windows, size-aligned, spread out."""
    return [(0xFFF00000 + i * 0x4000, 12 + i % 3) for i in range(n)]


if cocotb is not None:

    def _config(dut) -> dict:
        if "IRQ_CFG" in os.environ:
            return json.loads(os.environ["IRQ_CFG"])
        cfg = {k: _u(getattr(dut, k)) for k in ("N", "DATA_WIDTH", "ID_WIDTH")}
        dut._log.info("configuration from the DUT's parameters: %s", json.dumps(cfg))
        return cfg

    @cocotb.test()
    async def random_traffic(dut):
        cfg = _config(dut)
        n, dw, idw = cfg["N"], cfg["DATA_WIDTH"], cfg["ID_WIDTH"]
        bb = dw // 8
        rng = random.Random(cfg.get("seed", 1))
        cycles = int(os.environ.get("IRQ_CYCLES", "4000"))
        p = cfg.get("p", 0.5)
        wins = _windows(n) if "IRQ_CFG" in os.environ else None
        if wins is None:  # the .core's cocotb target: the DUT's default windows (all at 0)
            wins = [(0, 12)] * n
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        for name in ("mon_awaddr", "mon_awvalid", "mon_awready", "mon_bvalid", "mon_bready",
                     "s_axi_awid", "s_axi_awaddr", "s_axi_awlen", "s_axi_awsize", "s_axi_awburst",
                     "s_axi_awlock", "s_axi_awcache", "s_axi_awprot", "s_axi_awvalid",
                     "s_axi_wdata", "s_axi_wstrb", "s_axi_wlast", "s_axi_wvalid", "s_axi_bready",
                     "s_axi_arid", "s_axi_araddr", "s_axi_arlen", "s_axi_arsize", "s_axi_arburst",
                     "s_axi_arlock", "s_axi_arcache", "s_axi_arprot", "s_axi_arvalid",
                     "s_axi_rready"):
            getattr(dut, name).value = 0
        dut.rst.value = 1
        for _ in range(3):
            await RisingEdge(dut.clk)
        dut.rst.value = 0
        await FallingEdge(dut.clk)

        def window_of(addr: int) -> int:
            """The mask of the windows holding addr (several when windows coincide: the
            .core's cocotb target runs with the DUT's default windows, all at 0)."""
            m = 0
            for i, (base, bits) in enumerate(wins):
                if (addr ^ base) >> bits == 0:
                    m |= 1 << i
            return m

        full = (1 << n) - 1
        lanes_per_beat = bb // 4

        def lane_words(a: int) -> list[int]:
            """The register word (0 pending, 1 enable set/read, 2 enable clear) of each
            32-bit lane of the beat at byte address a."""
            w0 = ((a & 0xFFF) >> 2) & ~(lanes_per_beat - 1)
            return [w0 + k for k in range(lanes_per_beat)]

        # model
        pending = armed = out = enable = 0
        outstanding: list[tuple[int, int]] = []   # (burst number, window) AW taken, B not yet
        burst_no = 0
        must_be_set = 0                          # bits the next cycle must show set
        may_rise = 0                             # bits allowed to rise this cycle
        # register slave drivers
        wtx = None   # dict(id, addr, fixed, beats, sent, aw_done)
        rtx = None   # dict(id, addr, fixed, left)
        stats = {"b": 0, "clears": 0, "cleared_bits": 0, "reads": 0, "rises": 0, "enables": 0,
                 "disables": 0, "irq_cycles": 0, "counter_reads": 0}
        prev_pending = 0
        hi_latch = 0
        for cycle in range(cycles):
            # ---- check the state after the last rising edge
            got = _u(dut.pending)
            assert got == pending, f"cycle {cycle}: pending {got:#x}, model {pending:#x}"
            assert _u(dut.irq) == (1 if pending & enable else 0), (
                f"cycle {cycle}: irq != OR of the enabled pending bits (pending {pending:#x}, "
                f"enable {enable:#x})")
            assert got & must_be_set == must_be_set, (
                f"cycle {cycle}: lost wake-up: bits {must_be_set & ~got:#x} not set after their B")
            rose = got & ~prev_pending
            assert rose & ~may_rise == 0, f"cycle {cycle}: bits {rose & ~may_rise:#x} rose with no write"
            stats["rises"] += bin(rose).count("1")
            prev_pending = got
            stats["irq_cycles"] += _u(dut.irq)

            # ---- the watched port: this cycle's handshakes (both sides are ours)
            aw_hs = rng.random() < p * 0.6 and len(outstanding) < 12
            b_hs = bool(outstanding) and rng.random() < p * 0.6
            aw_win = 0
            if aw_hs:
                if rng.random() < 0.8:
                    base, bits = wins[rng.randrange(n)]
                    addr = base + rng.randrange(0, 1 << bits, 4)
                else:
                    addr = 0x40000000 + rng.randrange(0, 1 << 20, 4)
                aw_win = window_of(addr)
                dut.mon_awaddr.value = addr
            else:
                dut.mon_awaddr.value = rng.randrange(0, 1 << 32, 4)   # ignored without awvalid
            # valid/ready: a handshake needs both; otherwise one or none at random
            a_v, a_r = (1, 1) if aw_hs else rng.choice([(0, 0), (1, 0), (0, 1)])
            dut.mon_awvalid.value, dut.mon_awready.value = a_v, a_r
            b_v, b_r = (1, 1) if b_hs else rng.choice([(0, 0), (1, 0), (0, 1)])
            if not outstanding:
                b_v = 0
            dut.mon_bvalid.value, dut.mon_bready.value = b_v, b_r
            b_win = 0
            if b_hs:
                k = rng.randrange(len(outstanding))      # any order (different IDs)
                _, b_win = outstanding.pop(k)
                stats["b"] += 1

            # ---- register slave: writes
            awready, wready, bvalid = _u(dut.s_axi_awready), _u(dut.s_axi_wready), _u(dut.s_axi_bvalid)
            clr = en_set = en_clr = 0
            if bvalid:
                assert wtx is not None and wtx["sent"] == wtx["beats"], f"cycle {cycle}: B without a burst"
                assert _u(dut.s_axi_bid) == wtx["id"] and _u(dut.s_axi_bresp) == 0
                r = rng.random() < p
                dut.s_axi_bready.value = int(r)
                if r:
                    wtx = None
            else:
                dut.s_axi_bready.value = int(rng.random() < 0.5)
            dut.s_axi_awvalid.value = 0
            dut.s_axi_wvalid.value = 0
            if wtx is None and not bvalid and rng.random() < p * 0.5:
                beats = rng.randint(1, 4)
                off = rng.choice([0, 0, 0, 4, 8]) if rng.random() < 0.8 else rng.randrange(0, 64, 4)
                off -= off % bb if rng.random() < 0.5 else 0
                wtx = {"id": rng.randrange(1 << idw), "addr": 0x43C01000 + off,
                       "fixed": rng.random() < 0.3, "beats": beats, "sent": 0, "aw_done": False}
            if wtx is not None and not wtx["aw_done"]:
                v = rng.random() < p
                dut.s_axi_awvalid.value = int(v)
                dut.s_axi_awid.value = wtx["id"]
                dut.s_axi_awaddr.value = wtx["addr"]
                dut.s_axi_awlen.value = wtx["beats"] - 1
                dut.s_axi_awsize.value = 2 if bb == 4 else 3
                dut.s_axi_awburst.value = 0 if wtx["fixed"] else 1
                if v and awready:
                    wtx["aw_done"] = True
                    wtx["beat_addr"] = wtx["addr"]
            elif wtx is not None and wtx["sent"] < wtx["beats"]:
                v = rng.random() < p
                mask = rng.randrange(1 << 32) if rng.random() < 0.5 else (1 << rng.randrange(32))
                data = mask | (rng.randrange(1 << 32) << 32 if bb == 8 else 0)
                strb = (1 << bb) - 1 if rng.random() < 0.8 else rng.randrange(1 << bb)
                last = wtx["sent"] == wtx["beats"] - 1
                dut.s_axi_wvalid.value = int(v)
                dut.s_axi_wdata.value = data
                dut.s_axi_wstrb.value = strb
                dut.s_axi_wlast.value = int(last)
                if v and wready:
                    a = wtx["beat_addr"]
                    for k, word in enumerate(lane_words(a)):
                        lanes = sum(0xFF << (8 * j) for j in range(4) if strb >> (4 * k + j) & 1)
                        bits = (data >> (32 * k)) & lanes & full
                        if word == 0:
                            clr = bits
                            stats["clears"] += 1
                        elif word == 1:
                            en_set = bits
                            stats["enables"] += 1
                        elif word == 2:
                            en_clr = bits
                            stats["disables"] += 1
                    wtx["sent"] += 1
                    if not wtx["fixed"]:
                        wtx["beat_addr"] = (a - a % bb) + bb

            # ---- register slave: reads
            rvalid = _u(dut.s_axi_rvalid)
            arready = _u(dut.s_axi_arready)
            dut.s_axi_arvalid.value = 0
            if rvalid:
                assert rtx is not None and rtx.get("ar_done"), f"cycle {cycle}: R without a burst"
                a = rtx["beat_addr"]
                # words 4/5: the cycle counter (rising edges since reset), its high word
                # latched by the last read of word 4 on 32 bits, the same cycle's on 64
                counter = cycle + COUNTER_AT_0
                regs = {0: pending, 1: enable, 4: counter & 0xFFFF_FFFF,
                        5: counter >> 32 if bb == 8 else hi_latch}
                want = sum(regs.get(word, 0) << (32 * k) for k, word in enumerate(lane_words(a)))
                assert _u(dut.s_axi_rdata) == want, f"cycle {cycle}: read {_u(dut.s_axi_rdata):#x}, want {want:#x}"
                assert _u(dut.s_axi_rid) == rtx["id"] and _u(dut.s_axi_rlast) == int(rtx["left"] == 0)
                r = rng.random() < p
                dut.s_axi_rready.value = int(r)
                if r:
                    stats["reads"] += 1
                    if lane_words(a)[0] == 4:
                        hi_latch = counter >> 32
                        stats["counter_reads"] += 1
                    if rtx["left"] == 0:
                        rtx = None
                    else:
                        rtx["left"] -= 1
                        if not rtx["fixed"]:
                            rtx["beat_addr"] = (a - a % bb) + bb
            else:
                dut.s_axi_rready.value = int(rng.random() < 0.5)
                if rtx is None and rng.random() < p * 0.3:
                    off = rng.choice([0, 0, 4]) if rng.random() < 0.6 else rng.randrange(0, 32, 4)
                    rtx = {"id": rng.randrange(1 << idw), "addr": 0x43C01000 + off,
                           "fixed": rng.random() < 0.3, "left": rng.randint(0, 3), "ar_done": False}
                if rtx is not None and not rtx["ar_done"]:
                    v = rng.random() < p
                    dut.s_axi_arvalid.value = int(v)
                    dut.s_axi_arid.value = rtx["id"]
                    dut.s_axi_araddr.value = rtx["addr"]
                    dut.s_axi_arlen.value = rtx["left"]
                    dut.s_axi_arsize.value = 2 if bb == 4 else 3
                    dut.s_axi_arburst.value = 0 if rtx["fixed"] else 1
                    if v and arready:
                        rtx["ar_done"] = True
                        rtx["beat_addr"] = rtx["addr"]

            # ---- the model's next state (the rising edge)
            set_bits = armed if b_hs else 0
            out_next = out + int(aw_hs) - int(b_hs)
            hit = aw_win if aw_hs else 0
            must_be_set = b_win if b_hs else 0
            # a bit may rise only if a burst into its window was outstanding at this B
            may_rise = 0
            if b_hs:
                for _, w in outstanding:
                    may_rise |= w
                may_rise |= b_win
                # bursts already answered since the outstanding count was last zero
                may_rise |= armed
            assert must_be_set & ~armed == 0 or not b_hs, "model: the B's window was not armed"
            stats["cleared_bits"] += bin(pending & clr).count("1")
            pending = (pending & ~clr) | set_bits
            enable = (enable & ~en_clr) | en_set
            armed = (0 if (b_hs and out_next == 0) else armed) | hit
            out = out_next
            if aw_hs:
                burst_no += 1
                outstanding.append((burst_no, aw_win))
            await FallingEdge(dut.clk)
        dut._log.info("%d cycles: %s", cycles, stats)
        assert stats["b"] > 50 and stats["clears"] > 20 and stats["reads"] > 20 and stats["rises"] > 10, stats
        assert stats["enables"] > 5 and stats["disables"] > 5 and stats["irq_cycles"] > 10, stats
        assert stats["counter_reads"] > 3, stats


# -------------------------------------------------------------------------------------
# pytest side

REPO = Path(__file__).resolve().parents[2]
SOURCES = [REPO / "cores" / "axi_slave" / "pp_axi_slave.v", REPO / "cores" / "irq" / "pp_irq_pending.v"]

CONFIGS = [
    dict(N=3, DATA_WIDTH=32, ID_WIDTH=8, seed=1),
    dict(N=1, DATA_WIDTH=32, ID_WIDTH=4, seed=2, p=0.3),
    dict(N=5, DATA_WIDTH=64, ID_WIDTH=6, seed=3, p=0.8),
    dict(N=32, DATA_WIDTH=32, ID_WIDTH=12, seed=4),
]


def _matrix():
    from pushpush.testing import sim_matrix

    return sim_matrix([{"cfg": i} for i in range(len(CONFIGS))], verilator_sets=1)


def _hdl_params(cfg: dict) -> dict:
    wins = _windows(cfg["N"])
    base = 0
    bits = 0
    for i, (b, w) in enumerate(wins):
        base |= b << (32 * i)
        bits |= w << (32 * i)
    return {"N": cfg["N"], "DATA_WIDTH": cfg["DATA_WIDTH"], "ID_WIDTH": cfg["ID_WIDTH"],
            "WIN_BASE": f"{32 * cfg['N']}'h{base:0{8 * cfg['N']}X}",
            "WIN_BITS": f"{32 * cfg['N']}'h{bits:0{8 * cfg['N']}X}"}


@pytest.mark.parametrize("simulator,params", _matrix())
def test_irq_pending(simulator, params):
    from pushpush.build.sim import run_cocotb

    cfg = CONFIGS[params["cfg"]]
    run_cocotb(toplevel="pp_irq_pending", sources=SOURCES, test_module="test_irq_pending",
               test_dir=Path(__file__).parent, parameters=_hdl_params(cfg), simulator=simulator,
               extra_env={"IRQ_CFG": json.dumps(cfg)})
