"""Bench of cores/call_site (pp_call_site): one import or function parameter of a component.

One lock-step cocotb loop plays everything around the site: the module (random call requests,
each held until taken, random ``result_ready``), the request arbiter (random ``req_ready``
back-pressure), the engine (a write error for some calls, a few cycles after the call), the
callee (a reply with the call's SEQ as echo after a random delay, error bit at random) and
the window's rep slot (a status is stored until re-armed; no status is written into it while
one is stored, as the window refuses that), plus stray statuses injected at random: with the
wrong echo, or while no call waits. Every cycle it checks the outputs against a model of
README.md, and end to end that

- every call completes exactly once, in order, with a result (the callee's reply) or an
  error (the write failed, or the callee's status had bit 31); nothing is delivered twice;
- the SEQ bit of the calls is 0, 1, 0, ... (trigger bit 1);
- every injected stray, and only those, is counted on ``stray`` and never delivered.

- a call whose result was not presented within REPLY_TIMEOUT - 1 cycles ends with an error in
  exactly the REPLY_TIMEOUT-th cycle after it was taken (the model checks the cycle); every
  reply that never comes (the callee died) ends that way, and every late reply (after its
  call's timeout) is dropped as a stray and counted.

Stimulus sets: moderate, heavy back-pressure with many write errors, and a function parameter
whose ``enable`` (its export active) toggles, all with the default REPLY_TIMEOUT (never
reached); lost and late replies with REPLY_TIMEOUT 24 and 20 (just above the longest normal
reply, under back-pressure); REPLY_TIMEOUT 1 and 2 (the counter's edge cases). Icarus, two
sets on Verilator too.
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
    dict(seed=1, p_call=0.6, p_res_ready=0.7, p_req_ready=0.6, p_werr=0.05, p_stray=0.04,
         p_enable=1.0, timeout=1 << 30, p_lost=0.0, p_late=0.0),
    dict(seed=2, p_call=0.9, p_res_ready=0.3, p_req_ready=0.3, p_werr=0.3, p_stray=0.1,
         p_enable=1.0, timeout=1 << 30, p_lost=0.0, p_late=0.0),
    dict(seed=3, p_call=0.7, p_res_ready=0.8, p_req_ready=0.8, p_werr=0.02, p_stray=0.05,
         p_enable=0.5, timeout=1 << 30, p_lost=0.0, p_late=0.0),
    # REPLY_TIMEOUT: replies that never come (a callee killed) and late ones (after the
    # timeout: strays), under back-pressure; a timeout just above the longest normal reply
    dict(seed=4, p_call=0.7, p_res_ready=0.6, p_req_ready=0.6, p_werr=0.05, p_stray=0.04,
         p_enable=1.0, timeout=24, p_lost=0.1, p_late=0.1),
    dict(seed=5, p_call=0.9, p_res_ready=0.3, p_req_ready=0.4, p_werr=0.1, p_stray=0.05,
         p_enable=0.7, timeout=20, p_lost=0.15, p_late=0.15),
    # the shortest timeouts (the counter's edge cases): no reply can come that early, so
    # every call times out (replies are lost: a late one could echo the SEQ of the call
    # after next, which a 1-bit SEQ cannot tell apart; README.md, "Limits")
    dict(seed=6, p_call=0.8, p_res_ready=0.7, p_req_ready=0.7, p_werr=0.05, p_stray=0.03,
         p_enable=1.0, timeout=1, p_lost=0.95, p_late=0.0),
    dict(seed=7, p_call=0.8, p_res_ready=0.7, p_req_ready=0.7, p_werr=0.05, p_stray=0.03,
         p_enable=1.0, timeout=2, p_lost=0.95, p_late=0.0),
]

if cocotb is not None:

    @cocotb.test()
    async def random_calls(dut):
        cfg = json.loads(os.environ.get("CS_CFG", json.dumps(CONFIGS[0])))
        rng = random.Random(cfg["seed"])
        cycles = int(os.environ.get("CS_CYCLES", "4000"))
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        ins = ("rep_pulse", "rep_pending", "status_bus", "status_reg", "enable", "call_valid",
               "result_ready", "req_ready", "req_err")
        for n in ins:
            getattr(dut, n).value = 0
        dut.rst.value = 1
        for _ in range(3):
            await RisingEdge(dut.clk)
        dut.rst.value = 0

        # model of the core (README.md)
        wait, werr, seq, rearm = 0, 0, 1, 0
        R = int(cfg["timeout"])              # REPLY_TIMEOUT
        tmo, tcnt, age = 0, 0, 0             # timed out; the down-counter; cycles since the call
        late_expected = 0                    # replies that land after their call ended: strays
        timeouts = tmo_done = tmo_open = 0
        # the window's rep slot
        pending, stored = 0, 0
        # the world
        call_req = 0                 # the module holds a call request
        replies: list = []           # [cycles left, status bits (error, echo)] of pending replies
        werrs: list = []             # [cycles left] of write errors to report
        issued: list = []            # SEQ of every call, in order
        outcomes: list = []          # per completed call: "ok", "err" (callee error) or "werr"
        expect: list = []            # per issued call: what it must complete with
        strays_injected = strays_seen = 0
        cur = None                   # index of the outstanding call
        for cycle in range(cycles):
            await RisingEdge(dut.clk)
            # ---- drive this cycle's inputs
            enable = int(rng.random() < cfg["p_enable"])
            if not call_req and rng.random() < cfg["p_call"]:
                call_req = 1
            res_ready = int(rng.random() < cfg["p_res_ready"])
            req_ready = int(rng.random() < cfg["p_req_ready"])
            req_err = 0
            if werrs and werrs[0][0] <= 0:
                werrs.pop(0)
                req_err = 1
            for w in werrs:
                w[0] -= 1
            pulse, bus, injected = 0, 0, False
            slot_free = not pending or rearm
            late = False
            if slot_free:
                if replies and replies[0][0] <= 0:
                    r = replies.pop(0)
                    pulse, bus = 1, r[1]
                    # its call ended already (timed out): a stray
                    late = not (wait and not tmo and r[2] == cur)
                elif rng.random() < cfg["p_stray"]:
                    # a stray: the wrong echo while a call waits, or anything while none does
                    echo = (1 - seq) if wait else rng.getrandbits(1)
                    pulse, bus, injected = 1, (rng.getrandbits(1) << 1) | echo, True
            for r in replies:
                r[0] -= 1
            dut.enable.value = enable
            dut.call_valid.value = call_req
            dut.result_ready.value = res_ready
            dut.req_ready.value = req_ready
            dut.req_err.value = req_err
            dut.rep_pulse.value = pulse
            dut.status_bus.value = bus
            dut.rep_pending.value = pending
            dut.status_reg.value = stored

            # ---- the model's outputs
            arrive = pulse or (pending and not rearm)
            status = bus if pulse else stored
            evt = arrive and wait and not tmo and (status & 1) == seq
            stray = arrive and not evt
            rv = wait and (evt or werr or tmo)
            re = werr or tmo or (evt and status >> 1)
            unanswered = wait and not evt and not werr and not tmo
            fire = unanswered and tcnt == 0 and R > 1
            res_fire = rv and res_ready
            free = (not wait or res_fire) and enable
            req_valid = call_req and free
            call_ready = free and req_ready
            call = call_req and call_ready
            await ReadOnly()
            got = {n: _u(getattr(dut, n)) for n in ("result_valid", "result_error", "call_ready",
                                                  "req_valid", "req_seq", "stray", "rearm")}
            want = {"result_valid": int(bool(rv)), "result_error": int(bool(rv and re)),
                    "call_ready": int(bool(call_ready)), "req_valid": int(bool(req_valid)),
                    "req_seq": 1 - seq, "stray": int(bool(stray)), "rearm": rearm}
            if not rv:
                got["result_error"] = want["result_error"] = 0   # only meaningful with valid
            assert got == want, f"cycle {cycle}: {got} != model {want}"

            # ---- end to end
            if stray:
                strays_seen += 1
            if injected:
                strays_injected += 1
                assert stray, f"cycle {cycle}: an injected stray was not dropped"
            if late:
                late_expected += 1
                assert stray, f"cycle {cycle}: a late reply was not dropped"
            if wait and tmo and age == R:
                timeouts += 1
                tmo_open = 1    # the timeout is presented exactly REPLY_TIMEOUT cycles after the call
            if wait and tmo:
                assert age >= R, f"cycle {cycle}: timed out {age} cycles after the call (REPLY_TIMEOUT {R})"
            if wait and not (evt or werr or tmo):
                assert age < R, f"cycle {cycle}: no timeout {age} cycles after the call (REPLY_TIMEOUT {R})"
            if res_fire:
                tmo_done += int(bool(tmo))
                tmo_open = 0
                outcomes.append("werr" if werr else ("tmo" if tmo else ("err" if status >> 1 else "ok")))
            if call:
                cur = len(issued)
                issued.append(1 - seq)
                u = rng.random()
                if u < cfg["p_werr"]:
                    expect.append("werr")
                    werrs.append([rng.randint(1, 6)])
                elif u < cfg["p_werr"] + cfg["p_lost"]:
                    expect.append("lost")      # the callee died: no reply ever
                elif u < cfg["p_werr"] + cfg["p_lost"] + cfg["p_late"]:
                    expect.append("late")      # after the timeout: a stray
                    replies.append([R + rng.randint(0, 8), (rng.getrandbits(1) << 1) | (1 - seq), cur])
                else:
                    err = rng.random() < 0.2
                    expect.append("err" if err else "ok")
                    replies.append([rng.randint(1, 8), (int(err) << 1) | (1 - seq), cur])
                call_req = 0

            # ---- next state
            nrearm = int(bool((res_fire and evt) or stray))
            if pulse:
                pending, stored = 1, bus
            elif rearm:
                pending = 0
            nwait = int(bool(call or (wait and not res_fire)))
            if call or res_fire:
                werr = 0
                tmo = 0
            if fire:
                tmo = 1
            if unanswered:
                tcnt -= 1
            if req_err:
                werr = 1
            age += 1
            if call:
                seq ^= 1
                tmo = int(R == 1)
                tcnt = max(R - 2, 0)
                age = 1   # in the next cycle: one cycle after the call
            wait, rearm = nwait, nrearm

        dut._log.info("%d cycles: %d calls, %d completed, %d strays (%d late replies), %d timeouts",
                      cycles, len(issued), len(outcomes), strays_seen, late_expected, timeouts)
        assert len(issued) > cycles // 20, "too few calls: the bench is not exercising the core"
        assert issued == [k % 2 for k in range(len(issued))], "SEQ does not alternate from 0"
        assert len(outcomes) in (len(issued), len(issued) - 1)
        for k, (o, e) in enumerate(zip(outcomes, expect)):
            # (R < 16: a write error may come after its call timed out, and end the next call)
            assert o == e or (o == "tmo" and e in ("lost", "late")) or (R < 16 and o in ("tmo", "werr")), (k, o, e)
        assert strays_seen == strays_injected + late_expected > 0, \
            (strays_seen, strays_injected, late_expected)
        assert timeouts == tmo_done + tmo_open
        if R >= 16:   # every reply comes in time but the lost and late ones
            assert {"ok", "err", "werr"} <= set(outcomes), set(outcomes)
            assert sum(e in ("lost", "late") for e in expect[:len(outcomes)]) == outcomes.count("tmo")
        if cfg["p_lost"] or cfg["p_late"] or R < 16:
            assert timeouts > 0 and (late_expected > 0 or not cfg["p_late"]), (timeouts, late_expected)


# -------------------------------------------------------------------------------------
# pytest side

REPO = Path(__file__).resolve().parents[2]
SOURCES = [REPO / "cores" / "call_site" / "pp_call_site.v"]


def _matrix():
    from pushpush.testing import sim_matrix

    # Verilator: the first set, and a timeout set
    return sim_matrix([{"cfg": i} for i in (0, 3, 1, 2, 4, 5, 6)], verilator_sets=2)


@pytest.mark.parametrize("simulator,params", _matrix())
def test_call_site(simulator, params):
    from pushpush.build.sim import run_cocotb

    run_cocotb(toplevel="pp_call_site", sources=SOURCES, test_module="test_call_site",
               test_dir=Path(__file__).parent,
               parameters={"REPLY_TIMEOUT": CONFIGS[params["cfg"]]["timeout"]}, simulator=simulator,
               extra_env={"CS_CFG": json.dumps(CONFIGS[params["cfg"]])})
