"""Bench of cores/req_arbiter (pp_req_arbiter): the request arbiter of a call engine.

One lock-step cocotb loop drives N random requesters (each holds its request, random address,
word count and words, until taken, then waits a random time) and a model of the call engine
(random ``out_ready`` back-pressure, done responses in request order after a random delay,
OKAY or SLVERR at random, never more than 2**TAG_BITS - 1 requests in flight). Every cycle it
checks, against a model of README.md:

- ``out_valid`` = any request; ``req_ready[i]`` = ``out_ready`` and requester i would win
  the round robin against the other valid requesters, whether or not it is valid itself (so
  a requester's ready never depends on its own valid), which among the valid ones is the
  one-hot grant;
- the grant is exactly round robin (the lowest valid requester above the last one granted,
  else the lowest valid one);
- the engine side carries the granted requester's address, word count and words;
- ``done_err[i]`` pulses exactly when the engine reports a failed write of requester i's
  request (TRACK_DONE = 1), never otherwise.

Parameter sets: 1, 3, 5 and 8 requesters, 1..4 words, with and without done tracking,
FIFO depths 8 and 4. Icarus, the first set on Verilator too. Without RA_CFG (the ``cocotb``
target of req_arbiter.core, run by ``python -m pushpush.build.cocotb_fusesoc req_arbiter``)
the bench takes its configuration from the DUT's parameters.
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
    from cocotb.triggers import ReadOnly, RisingEdge
except ImportError:  # collected by pytest outside a simulator
    cocotb = None


def _u(sig) -> int:
    return int(sig.value)


if cocotb is not None:

    def _config(dut) -> dict:
        """RA_CFG (set by the pytest side), else the DUT's own parameters (the ``cocotb``
        target of req_arbiter.core, run through FuseSoC; seed 1, p_ready 0.6)."""
        if "RA_CFG" in os.environ:
            return json.loads(os.environ["RA_CFG"])
        cfg = {k: _u(getattr(dut, k)) for k in ("N", "MAX_WORDS", "NW_WIDTH", "TRACK_DONE", "TAG_BITS")}
        dut._log.info("configuration from the DUT's parameters: %s", json.dumps(cfg))
        return cfg

    @cocotb.test()
    async def random_requests(dut):
        cfg = _config(dut)
        n, mw, nww, track, tag_bits = (cfg["N"], cfg["MAX_WORDS"], cfg["NW_WIDTH"],
                                       cfg["TRACK_DONE"], cfg["TAG_BITS"])
        rng = random.Random(cfg.get("seed", 1))
        cycles = int(os.environ.get("RA_CYCLES", "3000"))
        p_ready = cfg.get("p_ready", 0.6)
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        dut.rst.value = 1
        dut.req_valid.value = 0
        dut.req_addr.value = 0
        dut.req_nwords.value = 0
        dut.req_data.value = 0
        dut.out_ready.value = 0
        dut.done_valid.value = 0
        dut.done_resp.value = 0
        for _ in range(3):
            await RisingEdge(dut.clk)
        dut.rst.value = 0

        reqs: list = [None] * n          # (addr, nwords, data) or None
        wait = [0] * n                   # cycles before the next request
        last = -1                        # last requester granted (round robin)
        inflight: list = []              # (requester, resp, cycles until done)
        taken = [0] * n
        errors_expected = [0] * n
        errors_seen = [0] * n
        max_inflight = 2 ** tag_bits - 1
        done_now = None
        for cycle in range(cycles):
            await RisingEdge(dut.clk)
            # drive this cycle's inputs
            for i in range(n):
                if reqs[i] is None:
                    if wait[i] > 0:
                        wait[i] -= 1
                    elif rng.random() < 0.5:
                        nw = rng.randint(1, mw)
                        reqs[i] = (rng.getrandbits(30) << 2, nw,
                                   [rng.getrandbits(32) for _ in range(nw)] + [0] * (mw - nw))
            valid = sum(1 << i for i in range(n) if reqs[i] is not None)
            dut.req_valid.value = valid
            dut.req_addr.value = sum((r[0] if r else 0) << (32 * i) for i, r in enumerate(reqs))
            dut.req_nwords.value = sum((r[1] if r else 0) << (nww * i) for i, r in enumerate(reqs))
            dut.req_data.value = sum(
                sum(w << (32 * k) for k, w in enumerate(r[2])) << (32 * mw * i)
                for i, r in enumerate(reqs) if r)
            ready = int(len(inflight) < max_inflight and rng.random() < p_ready)
            dut.out_ready.value = ready
            done_now = None
            if inflight and inflight[0][2] <= 0:
                done_now = inflight.pop(0)
            for k in range(len(inflight)):
                who, resp, left = inflight[k]
                inflight[k] = (who, resp, left - 1)
            dut.done_valid.value = int(done_now is not None)
            dut.done_resp.value = done_now[1] if done_now else 0

            await ReadOnly()
            assert _u(dut.out_valid) == int(valid != 0), f"cycle {cycle}: out_valid"
            rr = _u(dut.req_ready)
            order = list(range(last + 1, n)) + list(range(0, last + 1))
            # requester i's ready: it would win against the other valid ones
            want_rr = sum(1 << i for i in range(n)
                          if ready and next(j for j in order if (valid | 1 << i) >> j & 1) == i)
            assert rr == want_rr, f"cycle {cycle}: req_ready {rr:#x}, want {want_rr:#x}"
            if valid and ready:
                g = next(i for i in order if valid >> i & 1)
                assert rr & valid == 1 << g, f"cycle {cycle}: req_ready {rr:#x}, round robin wants {g}"
                a, nw, data = reqs[g]
                assert _u(dut.out_addr) == a, f"cycle {cycle}: out_addr"
                assert _u(dut.out_nwords) == nw, f"cycle {cycle}: out_nwords"
                got = _u(dut.out_data)
                want = sum(w << (32 * k) for k, w in enumerate(data))
                assert got == want, f"cycle {cycle}: out_data {got:#x}, want {want:#x}"
                resp = rng.choice([0, 0, 0, 2, 3])
                inflight.append((g, resp, rng.randint(1, 6)))
                if resp & 2:
                    errors_expected[g] += 1
                taken[g] += 1
                last = g
                reqs[g] = None
                wait[g] = rng.randint(0, 4)
            else:
                assert rr & valid == 0, f"cycle {cycle}: req_ready {rr:#x}: a handshake without out_ready"
            de = _u(dut.done_err)
            if track and done_now is not None and done_now[1] & 2:
                assert de == 1 << done_now[0], f"cycle {cycle}: done_err {de:#x}, want requester {done_now[0]}"
                errors_seen[done_now[0]] += 1
            else:
                assert de == 0, f"cycle {cycle}: done_err {de:#x} without a failed done"
        dut._log.info("%d cycles: taken per requester %s, write errors %s", cycles, taken,
                      errors_seen)
        assert all(t > 0 for t in taken), f"a requester starved: {taken}"
        if track:
            # every failed done that has come back was routed to its requester
            pending = [0] * n
            for who, resp, _ in inflight:
                if resp & 2:
                    pending[who] += 1
            assert [e - p for e, p in zip(errors_expected, pending)] == errors_seen


# -------------------------------------------------------------------------------------
# pytest side

REPO = Path(__file__).resolve().parents[2]
SOURCES = [REPO / "cores" / "req_arbiter" / "pp_req_arbiter.v"]

CONFIGS = [
    dict(N=3, MAX_WORDS=4, NW_WIDTH=3, TRACK_DONE=1, TAG_BITS=3, seed=1),
    dict(N=1, MAX_WORDS=1, NW_WIDTH=1, TRACK_DONE=1, TAG_BITS=3, seed=2),
    dict(N=5, MAX_WORDS=2, NW_WIDTH=2, TRACK_DONE=0, TAG_BITS=3, seed=3, p_ready=0.3),
    dict(N=8, MAX_WORDS=3, NW_WIDTH=2, TRACK_DONE=1, TAG_BITS=2, seed=4, p_ready=0.9),
]


def _matrix():
    from pushpush.testing import sim_matrix

    return sim_matrix([{"cfg": i} for i in range(len(CONFIGS))], verilator_sets=1)


@pytest.mark.parametrize("simulator,params", _matrix())
def test_req_arbiter(simulator, params):
    from pushpush.build.sim import run_cocotb

    cfg = CONFIGS[params["cfg"]]
    hdl = {k: cfg[k] for k in ("N", "MAX_WORDS", "NW_WIDTH", "TRACK_DONE", "TAG_BITS")}
    run_cocotb(toplevel="pp_req_arbiter", sources=SOURCES, test_module="test_req_arbiter",
               test_dir=Path(__file__).parent, parameters=hdl, simulator=simulator,
               extra_env={"RA_CFG": json.dumps(cfg)})
