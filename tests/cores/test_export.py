"""Bench of cores/export (pp_export): the call endpoint slots of one exported function.

One lock-step cocotb loop plays everything around the export: the window (each slot's
trigger word and pending bit, stored until re-armed; a trigger is written only into a slot
that is free or being re-armed, as the window refuses the rest), the callers (a static slot's
caller flips its SEQ bit per call and sometimes repeats its last trigger, a duplicate; a
dynamic slot gets triggers from anyone, and sometimes the trigger of the call it is still
executing, a duplicate; some calls are one-way), the module (random ``call_ready``, a result
in the same cycle or after a random delay, held until taken), the request arbiter (random
``req_ready``) and the buffer engines (random ``result_hold_n``). Every cycle it checks all
outputs against a model of README.md; end to end, that

- every trigger that is not a duplicate is presented exactly once, from its own slot (the
  ``sel`` the wrapper reads the arguments with), and every duplicate is dropped and counted;
- every result request goes to the return address of the call being answered, with its SEQ
  as echo, and a one-way call writes nothing;
- no slot starves (round robin).

Parameter sets: one static slot; two static and one dynamic slot (the pingpong callee's
``f``); four slots on a 64-bit bus with triggers on both lanes; heavy back-pressure; and
``TRIG_MEM=1`` (the pending trigger word read from the window's memory, which the harness
cores/export/tb/pp_export_tb.v plays, older bytes junk) for the callee's and caller's sets
and the 64-bit one.
Icarus, the first set on Verilator too.
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


CONFIGS = [
    dict(N=1, STATIC=1, LANES=1, SLOT_LANE=0, seed=1, p_trig=0.3, p_dup=0.2, p_ready=0.7,
         p_req=0.7, p_hold=0.9, p_now=0.5),
    dict(N=3, STATIC=3, LANES=1, SLOT_LANE=0, seed=2, p_trig=0.4, p_dup=0.2, p_ready=0.8,
         p_req=0.7, p_hold=1.0, p_now=0.7),
    dict(N=4, STATIC=5, LANES=2, SLOT_LANE=9, seed=3, p_trig=0.5, p_dup=0.25, p_ready=0.6,
         p_req=0.6, p_hold=0.8, p_now=0.4),
    dict(N=3, STATIC=1, LANES=1, SLOT_LANE=0, seed=4, p_trig=0.6, p_dup=0.3, p_ready=0.3,
         p_req=0.3, p_hold=0.6, p_now=0.3),
    # TRIG_MEM=1 (what the generated wrapper uses for 2+ slots): the pending trigger word from
    # the harness' memory, older bytes as junk; the pingpong callee's f and caller's run, and
    # the 64-bit set
    dict(N=3, STATIC=3, LANES=1, SLOT_LANE=0, seed=5, p_trig=0.4, p_dup=0.2, p_ready=0.8,
         p_req=0.7, p_hold=1.0, p_now=0.7, TRIG_MEM=1),
    dict(N=2, STATIC=1, LANES=1, SLOT_LANE=0, seed=6, p_trig=0.5, p_dup=0.25, p_ready=0.5,
         p_req=0.5, p_hold=0.8, p_now=0.5, TRIG_MEM=1),
    dict(N=4, STATIC=5, LANES=2, SLOT_LANE=9, seed=7, p_trig=0.5, p_dup=0.25, p_ready=0.6,
         p_req=0.6, p_hold=0.8, p_now=0.4, TRIG_MEM=1),
]

if cocotb is not None:

    def _lowest(v: int) -> int:
        return v & -v

    @cocotb.test()
    async def random_calls(dut):
        cfg = json.loads(os.environ.get("EX_CFG", json.dumps(CONFIGS[1])))
        n, lanes = cfg["N"], cfg["LANES"]
        static = [(cfg["STATIC"] >> k) & 1 for k in range(n)]
        lane = [(cfg["SLOT_LANE"] >> k) & 1 for k in range(n)]
        rng = random.Random(cfg["seed"])
        cycles = int(os.environ.get("EX_CYCLES", "4000"))
        full = (1 << n) - 1
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        junk_rng = random.Random(cfg["seed"] + 1000)   # the memory's older bytes (TRIG_MEM)
        for name in ("trig_word", "trig_pulse", "trig_pending", "junk", "wdata", "call_ready",
                     "result_valid", "result_hold_n", "req_ready"):
            getattr(dut, name).value = 0
        dut.rst.value = 1
        for _ in range(3):
            await RisingEdge(dut.clk)
        dut.rst.value = 0

        # model state (README.md)
        busy = hold = 0
        rep_reg = hold_sel = mask = 0
        rearm = [0] * n
        seen = [0] * n
        seqr = [0] * n
        frm = [0] * n
        # the window
        pending = [0] * n
        stored = [0] * n
        # the world
        caller_seq = [0] * n           # a static slot's caller: SEQ of its next call
        last_sent = [None] * n         # the last trigger sent into each slot
        executing = None               # (slot, trigger) of the call the module works on
        result_in = -1                 # cycles until the module's result (0: now), -1: none
        fresh = []                     # (slot, trigger) written and not a duplicate: to present
        taken_per_slot = [0] * n
        dups_sent = dups_seen = 0
        requests = 0
        for cycle in range(cycles):
            await RisingEdge(dut.clk)
            # ---- the window: at most one trigger written per cycle, into a free slot
            pulse_k, word = -1, 0
            free = [k for k in range(n) if not pending[k] or rearm[k]]
            if free and rng.random() < cfg["p_trig"]:
                k = rng.choice(free)
                is_dup = False
                if static[k]:
                    if last_sent[k] is not None and rng.random() < cfg["p_dup"] and seen[k] \
                            and ((last_sent[k] >> 1) & 1) == seqr[k]:
                        word, is_dup = last_sent[k], True
                    else:
                        word = (rng.getrandbits(30) << 2) | (caller_seq[k] << 1) | \
                               int(rng.random() < 0.1)
                        caller_seq[k] ^= 1
                else:
                    if busy and executing and executing[0] == k and rng.random() < cfg["p_dup"] * 2:
                        word, is_dup = executing[1], True
                    else:
                        word = (rng.getrandbits(30) << 2) | (rng.getrandbits(1) << 1) | \
                               int(rng.random() < 0.1)
                if word == 0:
                    word = 4
                pulse_k = k
                last_sent[k] = word
                if is_dup:
                    dups_sent += 1
            pulse = [int(k == pulse_k) for k in range(n)]
            wdata = rng.getrandbits(32 * lanes)
            if pulse_k >= 0:
                lk = lane[pulse_k]
                wdata = (wdata & ~(0xFFFFFFFF << (32 * lk))) | (word << (32 * lk))
            bus = [(wdata >> (32 * lane[k])) & 0xFFFFFFFF for k in range(n)]

            # ---- the model's outputs, part 1 (no module input needed)
            arrive = [pulse[k] or (pending[k] and not rearm[k]) for k in range(n)]
            t = [bus[k] if pulse[k] else stored[k] for k in range(n)]
            dup = [0] * n
            for k in range(n):
                if static[k]:
                    dup[k] = int(arrive[k] and seen[k] and ((t[k] >> 1) & 1) == seqr[k])
                else:
                    dup[k] = int(arrive[k] and busy and frm[k] and t[k] == rep_reg)
            # only static duplicates are taken out of the pick (a dynamic one needs busy, and
            # then nothing is presented): sel is meaningful with call_valid
            cand = sum((int(arrive[k]) & (1 - (dup[k] & static[k]))) << k for k in range(n))
            hi = cand & mask
            pick = _lowest(hi if hi else cand)
            sel = hold_sel if hold else pick
            rep_now = 0
            for k in range(n):
                if sel >> k & 1:
                    rep_now = t[k]
            call_valid = int(not busy and cand != 0)
            # ---- the module, the arbiter, the buffer engines
            call_ready = int(rng.random() < cfg["p_ready"])
            call = call_valid and call_ready
            if call and rng.random() < cfg["p_now"]:
                result_in = 0                     # answers combinationally
            res_valid = int(busy and result_in == 0) or int(bool(call) and result_in == 0)
            req_ready = int(rng.random() < cfg["p_req"])
            hold_n = int(rng.random() < cfg["p_hold"])
            active = int(busy or call)
            rep = rep_reg if busy else rep_now
            oneway = rep & 1
            req_valid = int(res_valid and active and not oneway and hold_n)
            result_ready = int(active and hold_n and (oneway or req_ready))
            done = res_valid and result_ready
            for name, v in (("trig_word", sum(stored[k] << (32 * k) for k in range(n))),
                            ("trig_pulse", sum(p << k for k, p in enumerate(pulse))),
                            ("trig_pending", sum(p << k for k, p in enumerate(pending))),
                            ("wdata", wdata), ("call_ready", call_ready),
                            ("result_valid", res_valid), ("result_hold_n", hold_n),
                            ("req_ready", req_ready), ("junk", junk_rng.getrandbits(32))):
                getattr(dut, name).value = v
            await ReadOnly()
            got = {k: _u(getattr(dut, k)) for k in ("rearm", "dup", "sel", "call_valid",
                                                  "result_ready", "call", "active", "req_valid")}
            want = {"rearm": sum(r << k for k, r in enumerate(rearm)),
                    "dup": sum(d << k for k, d in enumerate(dup)), "sel": sel,
                    "call_valid": call_valid, "result_ready": result_ready, "call": int(call),
                    "active": active, "req_valid": req_valid}
            assert got == want, f"cycle {cycle}: {got} != model {want}"
            if req_valid:
                assert _u(dut.rep_addr) == rep & ~3 and _u(dut.rep_seq) == (rep >> 1) & 1, \
                    f"cycle {cycle}: rep_addr/seq"

            # ---- end to end
            dups_seen += sum(dup)
            for k in range(n):
                if pulse[k] and not dup[k]:
                    fresh.append((k, t[k]))
            if call:
                k = sel.bit_length() - 1
                assert sel == 1 << k, f"cycle {cycle}: sel {sel:#x} not one-hot"
                assert (k, rep_now) in fresh, f"cycle {cycle}: presented slot {k} {rep_now:#x} twice or never written"
                fresh.remove((k, rep_now))
                taken_per_slot[k] += 1
                executing = (k, rep_now)
                if result_in != 0:
                    result_in = rng.randint(1, 5)
            if req_valid and req_ready:
                assert executing and _u(dut.rep_addr) == executing[1] & ~3
                assert not executing[1] & 1, "a one-way call wrote a result"
                requests += 1
            if done:
                result_in = -1
                executing = None
            elif result_in > 0 and busy:
                result_in -= 1

            # ---- next state
            nrearm = [int((call and (sel >> k & 1)) or dup[k]) for k in range(n)]
            for k in range(n):
                if pulse[k]:
                    pending[k], stored[k] = 1, bus[k]
                elif rearm[k]:
                    pending[k] = 0
            if call:
                for k in range(n):
                    if static[k] and sel >> k & 1:
                        seen[k], seqr[k] = 1, (t[k] >> 1) & 1
                    if not static[k]:
                        frm[k] = sel >> k & 1
                rep_reg = rep_now
                mask = ~((sel << 1) - 1) & full
            hold_sel = sel
            hold = int(call_valid and not call_ready)
            busy = int(active and not done)
            rearm = nrearm

        dut._log.info("%d cycles: calls per slot %s, %d result requests, duplicates %d sent, "
                      "%d dropped", cycles, taken_per_slot, requests, dups_sent, dups_seen)
        assert all(c > 0 for c in taken_per_slot), f"a slot starved: {taken_per_slot}"
        assert dups_seen == dups_sent > 0, (dups_seen, dups_sent)
        assert len(fresh) <= n, f"calls never presented: {fresh}"


# -------------------------------------------------------------------------------------
# pytest side

REPO = Path(__file__).resolve().parents[2]
SOURCES = [REPO / "cores" / "export" / "pp_export.v", REPO / "cores" / "export" / "tb" / "pp_export_tb.v"]


def _matrix():
    from pushpush.testing import sim_matrix

    return sim_matrix([{"cfg": i} for i in range(len(CONFIGS))], verilator_sets=1)


@pytest.mark.parametrize("simulator,params", _matrix())
def test_export(simulator, params):
    from pushpush.build.sim import run_cocotb

    cfg = CONFIGS[params["cfg"]]
    hdl = {k: cfg[k] for k in ("N", "STATIC", "LANES", "SLOT_LANE")}
    hdl["TRIG_MEM"] = cfg.get("TRIG_MEM", 0)
    run_cocotb(toplevel="pp_export_tb", sources=SOURCES, test_module="test_export",
               test_dir=Path(__file__).parent, parameters=hdl, simulator=simulator,
               extra_env={"EX_CFG": json.dumps(cfg)})
