"""cocotb bench of cores/chnl: pp_chnl_rx and pp_chnl_tx between a PushPush call group with
a buffer stream (the wrapper's side, driven here like the wrapper and cores/axi_dma do) and
a RIFFA 2.1 channel core model (random ACK delays, random CHNL_*_DATA_REN / _DATA_VALID
gaps), with random gaps and back-pressure on the buffer stream and on the result.

- rx: sends of random lengths (0, 1, odd, a few hundred) with random OFF/LAST: the core sees
  LEN/OFF/LAST, exactly the words in order, CHNL_RX high until the last is taken; result =
  words; a core that takes k words and stops (or never acknowledges): after TIMEOUT cycles
  result = {1, k}, the rest of the stream drained (every element taken), and the next send
  is whole.
- tx: receives of random capacity against core transactions of random LEN/OFF/LAST: words in
  order with tlast on the last of each call, results packing words/offset/last; a
  transaction longer than the buffer continues in the next call with the offset advanced;
  early termination (CHNL_TX lowered) and an empty transaction end the call with one scratch
  word carrying tlast; no transaction: {timeout, 0 words} after TIMEOUT cycles.
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

from pushpush.build.cores import cores_rtl
from pushpush.build.sim import run_cocotb
from pushpush.testing import sim_matrix


def params(dut) -> dict:
    if "CHNL_PARAMS" in os.environ:
        return json.loads(os.environ["CHNL_PARAMS"])
    p = {"TIMEOUT": int(dut.TIMEOUT.value), "gap": 0.3, "seed": 1}
    dut._log.info("configuration from the DUT's parameters: %s", json.dumps(p, sort_keys=True))
    return p


def is_top(dut, name: str) -> bool:
    if dut._name != name:
        dut._log.info("this test is for %s, the DUT is %s: nothing to do", name, dut._name)
        return False
    return True


async def reset(dut, inputs: list[str]) -> None:
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    for n in inputs:
        getattr(dut, n).value = 0
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)


# ------------------------------------------------------------------------------------ rx


async def rx_send(dut, rng, p, data, off, last, ack_delay, stop_after=None, limit=200000):
    """One send: the call, the buffer stream (random gaps), the RIFFA core model. Returns
    (result, words the core got, (LEN, OFF, LAST) seen at ACK, elements the stream gave)."""
    n = len(data)
    gap = p["gap"]
    dut.call_len.value = n
    dut.call_off.value = off
    dut.call_last.value = int(last)
    dut.call_valid.value = 1
    called = False
    sent = 0            # stream elements taken
    got: list[int] = []
    seen = None
    acked = False
    ack_wait = ack_delay
    result = None
    for _ in range(limit):
        # drive this cycle
        tv = called and sent < n and rng.random() >= gap
        dut.s_tvalid.value = int(tv)
        dut.s_tdata.value = data[sent] if sent < n else 0
        dut.s_tlast.value = int(sent == n - 1)
        chnl_rx = int(dut.CHNL_RX.value)
        ack = 0
        if chnl_rx and not acked and ack_delay is not None:
            if ack_wait == 0:
                ack = 1
            else:
                ack_wait -= 1
        dut.CHNL_RX_ACK.value = ack
        may_read = acked and (stop_after is None or len(got) < stop_after)
        ren = may_read and rng.random() >= gap
        dut.CHNL_RX_DATA_REN.value = int(ren)
        rr = rng.random() >= gap
        dut.result_ready.value = int(rr)
        await ReadOnly()
        if int(dut.call_valid.value) and int(dut.call_ready.value):
            called = True
        take = int(dut.s_tvalid.value) and int(dut.s_tready.value)
        if ack:
            seen = (int(dut.CHNL_RX_LEN.value), int(dut.CHNL_RX_OFF.value), int(dut.CHNL_RX_LAST.value))
        if int(dut.CHNL_RX_DATA_VALID.value) and ren:
            assert take, "a word consumed on CHNL_RX_DATA without the stream moving"
            assert int(dut.CHNL_RX.value), "CHNL_RX low while data is consumed"
            got.append(int(dut.CHNL_RX_DATA.value))
        if take:
            sent += 1
        if int(dut.result_valid.value) and rr:
            result = int(dut.result.value)
        await RisingEdge(dut.clk)
        if called:
            dut.call_valid.value = 0
        if ack:
            acked = True
        if result is not None:
            dut.s_tvalid.value = 0
            dut.CHNL_RX_ACK.value = 0
            dut.CHNL_RX_DATA_REN.value = 0
            dut.result_ready.value = 0
            await ReadOnly()
            assert not int(dut.CHNL_RX.value)
            await RisingEdge(dut.clk)
            return result, got, seen, sent
    raise AssertionError(f"no result after {limit} cycles")


@cocotb.test()
async def rx_transfers(dut):
    if not is_top(dut, "pp_chnl_rx"):
        return
    p = params(dut)
    rng = random.Random(p["seed"])
    await reset(dut, ["call_valid", "call_len", "call_off", "call_last", "result_ready",
                      "s_tdata", "s_tvalid", "s_tlast", "CHNL_RX_ACK", "CHNL_RX_DATA_REN"])
    for n in [0, 1, 7, 2, 301, 64] + [rng.randrange(0, 200) for _ in range(8)]:
        data = [rng.getrandbits(32) for _ in range(n)]
        off, last = rng.getrandbits(31), rng.random() < 0.5
        result, got, seen, sent = await rx_send(dut, rng, p, data, off, last, rng.randrange(0, 6))
        assert seen == (n, off, int(last))
        assert got == data and result == n and sent == n
    t = p["TIMEOUT"]
    if t:
        # a core that takes 3 words and stops: {1, 3}, the stream drained, then a whole send
        data = list(range(100, 150))
        result, got, _, sent = await rx_send(dut, rng, p, data, 0, True, 0, stop_after=3)
        assert (result >> 31, result & 0x7FFFFFFF) == (1, 3) and got == data[:3] and sent == 50
        # a core that never acknowledges: {1, 0}
        result, got, _, sent = await rx_send(dut, rng, p, data[:5], 0, True, None)
        assert result == 1 << 31 and got == [] and sent == 5
        result, got, _, _ = await rx_send(dut, rng, p, [1, 2, 3], 9, True, 1)
        assert result == 3 and got == [1, 2, 3]


# ------------------------------------------------------------------------------------ tx


class Core:
    """A RIFFA transmit side: a queue of transactions (len, off, last, data, stop_after)."""

    def __init__(self, rng, gap):
        self.rng = rng
        self.gap = gap
        self.queue: list[dict] = []
        self.cur = None
        self.sent = 0

    def drive(self, dut):
        if self.cur is None and self.queue:
            self.cur = self.queue.pop(0)
            self.acked = False
            self.sent = 0
        c = self.cur
        if c is None:
            dut.CHNL_TX.value = 0
            dut.CHNL_TX_DATA_VALID.value = 0
            return
        stopped = c["stop"] is not None and self.sent >= c["stop"]
        dut.CHNL_TX.value = int(not stopped)
        dut.CHNL_TX_LEN.value = c["len"]
        dut.CHNL_TX_OFF.value = c["off"]
        dut.CHNL_TX_LAST.value = int(c["last"])
        v = self.acked and not stopped and self.sent < c["len"] and self.rng.random() >= self.gap
        dut.CHNL_TX_DATA_VALID.value = int(v)
        dut.CHNL_TX_DATA.value = c["data"][self.sent] if self.sent < c["len"] else 0

    def sample(self, dut):
        c = self.cur
        if c is None:
            return
        if int(dut.CHNL_TX_ACK.value):
            assert int(dut.CHNL_TX.value) and not self.acked
            self.ack_now = True
        else:
            self.ack_now = False
        self.take = int(dut.CHNL_TX_DATA_VALID.value) and int(dut.CHNL_TX_DATA_REN.value)

    def step(self):
        c = self.cur
        if c is None:
            return
        if self.ack_now:
            self.acked = True
        if self.take:
            self.sent += 1
        stopped = c["stop"] is not None and self.sent >= c["stop"]
        if self.acked and (self.sent >= c["len"] or stopped):
            self.cur = None


async def tx_recv(dut, rng, p, core, cap, limit=200000):
    """One receive call of capacity ``cap``: (result fields, words up to tlast)."""
    gap = p["gap"]
    dut.call_len.value = cap
    dut.call_valid.value = 1
    words: list[tuple[int, int]] = []
    result = None
    for _ in range(limit):
        core.drive(dut)
        tr = rng.random() >= gap
        dut.m_tready.value = int(tr)
        rr = rng.random() >= gap
        dut.result_ready.value = int(rr)
        await ReadOnly()
        core.sample(dut)
        called = int(dut.call_valid.value) and int(dut.call_ready.value)
        if int(dut.m_tvalid.value) and tr:
            words.append((int(dut.m_tdata.value), int(dut.m_tlast.value)))
        if int(dut.result_valid.value) and rr:
            result = int(dut.result.value)
        await RisingEdge(dut.clk)
        core.step()
        if called:
            dut.call_valid.value = 0
        if result is not None:
            dut.m_tready.value = 0
            dut.result_ready.value = 0
            low, high = result & 0xFFFFFFFF, result >> 32
            fields = (low & 0x7FFFFFFF, high & 0x7FFFFFFF, high >> 31, low >> 31)
            return fields, words
    raise AssertionError(f"no result after {limit} cycles")


@cocotb.test()
async def tx_transfers(dut):
    if not is_top(dut, "pp_chnl_tx"):
        return
    p = params(dut)
    rng = random.Random(p["seed"])
    await reset(dut, ["call_valid", "call_len", "result_ready", "m_tready", "CHNL_TX",
                      "CHNL_TX_LAST", "CHNL_TX_LEN", "CHNL_TX_OFF", "CHNL_TX_DATA",
                      "CHNL_TX_DATA_VALID"])
    core = Core(rng, p["gap"])

    def txn(n, off, last, stop=None):
        d = [rng.getrandbits(32) for _ in range(n)]
        core.queue.append({"len": n, "off": off, "last": last, "data": d, "stop": stop})
        return d

    # transactions that fit: words in order, tlast on the last only
    for n in [1, 7, 2, 255] + [rng.randrange(1, 120) for _ in range(6)]:
        off, last = rng.getrandbits(31), rng.random() < 0.5
        d = txn(n, off, last)
        fields, words = await tx_recv(dut, rng, p, core, n + rng.randrange(0, 5))
        assert fields == (n, off, int(last), 0)
        assert [w for w, _ in words] == d and [t for _, t in words] == [0] * (n - 1) + [1]
    # longer than the buffer: continues in the next calls, offset advanced
    d = txn(23, 100, True)
    f1, w1 = await tx_recv(dut, rng, p, core, 10)
    f2, w2 = await tx_recv(dut, rng, p, core, 10)
    f3, w3 = await tx_recv(dut, rng, p, core, 10)
    assert (f1, f2, f3) == ((10, 100, 0, 0), (10, 110, 0, 0), (3, 120, 1, 0))
    assert [w for w, _ in w1 + w2 + w3] == d and w1[-1][1] and w2[-1][1] and w3[-1][1]
    # early termination after 4 of 50 words: 4 words, then a scratch word with tlast
    d = txn(50, 7, True, stop=4)
    fields, words = await tx_recv(dut, rng, p, core, 64)
    assert fields == (4, 7, 1, 0)
    assert [w for w, _ in words[:4]] == d[:4] and words[4] == (0, 1) and len(words) == 5
    # an empty transaction: 0 words, last, one scratch word
    txn(0, 3, True)
    fields, words = await tx_recv(dut, rng, p, core, 8)
    assert fields == (0, 3, 1, 0) and words == [(0, 1)]
    if p["TIMEOUT"]:
        # nothing to send: the call ends with the timeout bit after TIMEOUT cycles
        fields, words = await tx_recv(dut, rng, p, core, 8)
        assert fields == (0, 0, 0, 1) and words == [(0, 1)]
        # and the next transaction is whole
        d = txn(5, 1, True)
        fields, words = await tx_recv(dut, rng, p, core, 8)
        assert fields == (5, 1, 1, 0) and [w for w, _ in words] == d


PARAM_SETS = [
    {"TIMEOUT": 200, "gap": 0.4},
    {"TIMEOUT": 64, "gap": 0.0},
    {"TIMEOUT": 0, "gap": 0.6},
]


@pytest.mark.parametrize("simulator,params", sim_matrix(PARAM_SETS))
@pytest.mark.parametrize("top", ["pp_chnl_rx", "pp_chnl_tx"])
def test_chnl(top, simulator, params):
    hdl = {"TIMEOUT": params["TIMEOUT"]}
    p = dict(params, seed=hash(json.dumps(params, sort_keys=True)) % 1000)
    run_cocotb(toplevel=top, sources=cores_rtl(["chnl"]), test_module="test_chnl",
               test_dir=Path(__file__).parent, parameters=hdl, simulator=simulator,
               extra_env={"CHNL_PARAMS": json.dumps(p)},
               testcase="rx_transfers" if top == "pp_chnl_rx" else "tx_transfers")
