"""Channels end to end on the simulated board (issue 18; docs/runtime.md "Channels",
docs/rtl-ports.md "Channels").

The system is examples/channels: one rtl core (chnl_demo.v, RIFFA tutorial style) with
three channels: ``loop`` echoes every receive transaction as a transmit transaction with the
same LEN/OFF/LAST through a 512-word FIFO, ``acc`` sums the words of transactions until one
with LAST and sends (sum, count), ``stuck`` takes 3 words and stops reading; plus a plain
``add`` export. Python drives it through ``rt.channel("hw.<name>")`` on the Verilator build.
"""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pushpush.pynq as ppq  # noqa: E402
from pushpush.link import load  # noqa: E402
from pushpush.runtime.channels import ChannelTimeout  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "channels"


@pytest.fixture(scope="module")
def rt(tmp_path_factory):
    out = tmp_path_factory.mktemp("chnlsys")
    bit = ppq.write_sim_overlay(load(EXAMPLE / "system.yaml"), out / "overlay", simulator="verilator")
    ol = ppq.load(str(bit))
    runtime = ol.runtime()
    runtime.timeout = 120.0
    yield runtime
    ol.free()


def words(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)


@pytest.mark.parametrize("n", [0, 1, 7, 333, 512])
def test_loop_lengths_offset_last(rt, n):
    ch = rt.channel("hw.loop")
    x = words(n, n)
    assert ch.send(x, offset=11, last=True) == n
    y = ch.recv()
    assert ch.last_recv.words == n and ch.last_recv.last and ch.last_recv.offset == 11
    assert len(y) == (11 + n if n else 0)
    assert np.array_equal(y[11:], x) and not y[:11].any()


#: The channels' safety net in the transfer below (rt.timeout, seconds): on the simulated
#: board it counts only time in which the simulator made no progress although it had a CPU
#: (its cycle count stood still), which a stall shows within it; the transfers take 4 s
#: (20,000 words, quiet) to 366 s (200,000 words at load 10) of wall time, so a net of wall
#: time this short would end them (the 120 s of wall time it used to be ended them at load 9)
STALL_S = 2.0


@pytest.mark.parametrize("n", [20_000, pytest.param(200_000, marks=pytest.mark.long)])
def test_large_both_ways_at_once_with_asyncio(rt, n):
    """More than the core's FIFO (512 words) holds: send and receive must overlap;
    asend/arecv do it from one coroutine. 20,000 words (80 KiB each way) in the default run;
    200,000 under ``-m long``: the simulated board serves every 16-beat burst of the buffer
    engines from Python (about 0.2 MB/s of wall clock, docs/pynq.md), so 800 KiB each way
    takes tens of seconds on a quiet machine, minutes on a loaded one. Neither call ends
    for that: their safety net (STALL_S) counts only time without simulated progress."""
    import pynq
    ch = rt.channel("hw.loop")
    x = words(n, 1)
    bridge = pynq.Device.active_device.bridge
    c0 = bridge.info()["cycle"]

    async def both():
        return await asyncio.gather(ch.asend(x, offset=0, last=True), ch.arecv(capacity=x.size))

    saved, rt.timeout = rt.timeout, STALL_S
    try:
        sent, y = asyncio.run(both())
    finally:
        rt.timeout = saved
    assert sent == x.size and np.array_equal(y, x)
    # the work is bounded in cycles (at least one per word and direction), whatever the host
    assert bridge.info()["cycle"] - c0 >= n


def test_not_last_groups_transactions(rt):
    """Two sends, the first with last=False: one receive spans both transactions, each
    placed at its own offset (the core echoes OFF)."""
    ch = rt.channel("hw.loop")
    a, b = words(100, 2), words(50, 3)
    got = {}
    t = threading.Thread(target=lambda: got.setdefault("y", ch.recv(capacity=1000)))
    t.start()
    ch.send(a, offset=0, last=False)
    ch.send(b, offset=300, last=True)
    t.join(60)
    y = got["y"]
    assert ch.last_recv.transactions == 2 and ch.last_recv.words == 150
    assert np.array_equal(y[:100], a) and np.array_equal(y[300:350], b) and len(y) == 350


def test_acc_and_capacity(rt):
    acc = rt.channel("hw.acc")
    assert acc.send([1, 2, 3], last=False) == 3
    assert acc.send(np.array([10], np.uint32), last=True) == 1
    assert acc.recv().tolist() == [16, 4]
    # a receive smaller than the transaction: the rest is dropped, the count says so
    acc.send([5, 6], last=True)
    y = acc.recv(capacity=1)
    assert y.tolist() == [11] and acc.last_recv.words == 2


def test_two_channels_both_ways_in_threads(rt):
    loop, acc = rt.channel("hw.loop"), rt.channel("hw.acc")
    results: dict[str, object] = {}
    errors: list[BaseException] = []
    x = words(5000, 4)
    chunks = [words(97, 10 + i) for i in range(5)]

    def run(name, fn):
        try:
            results[name] = fn()
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    def acc_send():
        for i, c in enumerate(chunks):
            acc.send(c, last=i == len(chunks) - 1)

    ts = [threading.Thread(target=run, args=a) for a in [
        ("loop_send", lambda: loop.send(x)), ("loop_recv", lambda: loop.recv(capacity=x.size)),
        ("acc_send", acc_send), ("acc_recv", lambda: acc.recv())]]
    for t in ts:
        t.start()
    for t in ts:
        t.join(120)
    assert not errors, errors
    assert np.array_equal(results["loop_recv"], x)
    total = np.concatenate(chunks)
    assert results["acc_recv"].tolist() == [int(total.astype(np.uint64).sum()) & 0xFFFFFFFF, total.size]


def test_many_threads_on_different_channels(rt):
    """Eight threads: per channel (loop, acc) several senders and receivers in turn; the lock
    per channel and direction serialises each side, the channels run side by side."""
    loop, acc = rt.channel("hw.loop"), rt.channel("hw.acc")
    errors: list[BaseException] = []
    rounds = 6
    loop_got: list[np.ndarray] = []
    acc_got: list[list[int]] = []
    lock = threading.Lock()

    def guard(fn):
        def run():
            try:
                fn()
            except BaseException as e:  # noqa: BLE001
                errors.append(e)
        return run

    def loop_sender(k):
        for r in range(rounds // 2):
            loop.send(np.full(64, k * 100 + r, np.uint32))

    def loop_receiver():
        for _ in range(rounds // 2):
            y = loop.recv()
            with lock:
                loop_got.append(y)

    def acc_sender(k):
        for r in range(rounds // 2):
            acc.send([k, r, 1], last=True)

    def acc_receiver():
        for _ in range(rounds // 2):
            y = acc.recv()
            with lock:
                acc_got.append(y.tolist())

    ts = [threading.Thread(target=guard(f)) for f in
          [lambda: loop_sender(1), lambda: loop_sender(2), loop_receiver, loop_receiver,
           lambda: acc_sender(3), lambda: acc_sender(4), acc_receiver, acc_receiver]]
    for t in ts:
        t.start()
    for t in ts:
        t.join(120)
    assert not errors, errors
    # every loop transaction came back whole (64 equal words), each value once
    vals = sorted(int(y[0]) for y in loop_got)
    assert all(len(y) == 64 and (y == y[0]).all() for y in loop_got)
    assert vals == sorted(k * 100 + r for k in (1, 2) for r in range(rounds // 2))
    assert sorted(acc_got) == sorted([k + r + 1, 3] for k in (3, 4) for r in range(rounds // 2))


def test_stuck_core_times_out_and_system_serves(rt):
    st = rt.channel("hw.stuck")
    with pytest.raises(ChannelTimeout) as e:
        st.send(words(40, 5))
    assert e.value.channel == "hw.stuck" and e.value.direction == "send" and e.value.words == 3
    assert "channel 'hw.stuck' send" in str(e.value) and "3 of 40 taken" in str(e.value)
    # the core never reads again: the next send times out with nothing taken
    with pytest.raises(ChannelTimeout) as e:
        st.send([1, 2])
    assert e.value.words == 0
    assert rt.hw.add(20, 22) == 42
    loop = rt.channel("hw.loop")
    assert loop.send([7, 8, 9]) == 3 and loop.recv().tolist() == [7, 8, 9]


def test_recv_timeout_names_channel(rt):
    import pynq
    from pushpush.codegen.channel_shell import CHANNEL_TIMEOUT_CYCLES
    acc = rt.channel("hw.acc")
    bridge = pynq.Device.active_device.bridge
    c0 = bridge.info()["cycle"]
    with pytest.raises(ChannelTimeout) as e:
        acc.recv(timeout=0.3)
    assert e.value.channel == "hw.acc" and e.value.direction == "recv" and e.value.words == 0
    # the hardware ends the receive after CHANNEL_TIMEOUT_CYCLES without progress: simulated
    # time, not wall time (beside busy loops those ~16,400 cycles took 9-18 s; issue 28)
    assert e.value.data.size == 0 and bridge.info()["cycle"] - c0 < 2 * CHANNEL_TIMEOUT_CYCLES
    # still serves
    acc.send([2, 2], last=True)
    assert acc.recv().tolist() == [4, 2]


def test_channel_lookup_errors(rt):
    with pytest.raises(KeyError, match="has no channel 'nope'.*loop, acc, stuck"):
        rt.channel("hw.nope")
    with pytest.raises(ValueError, match="component.channel"):
        rt.channel("loop")
    assert rt.channel("hw.loop") is rt.channel("hw.loop") is rt.hw.channel("loop")
    assert rt.channel("hw.1").info.name == "acc"


def test_stalled_simulator_ends_a_channel_call_saying_so(rt):
    """The other side of the safety net: a simulator that stands still (stopped with SIGSTOP
    here, as a hung one would) ends a channel call after rt.timeout seconds without progress,
    and the message says what the board did: no progress at which cycle, the call's wall time
    and cycles, the simulator's state, the channel's other direction. Then the simulator runs
    on: the hardware finishes the abandoned send (acc sends its sum) and the channel serves."""
    import signal
    import struct
    import time

    import pynq
    from pushpush.simboard.ipc import CTL_CALLERS
    bridge = pynq.Device.active_device.bridge
    acc = rt.channel("hw.acc")
    x = words(20_000, 6)
    got: dict[str, BaseException] = {}

    def send():
        try:
            acc.send(x, last=True)
        except BaseException as e:  # noqa: BLE001 - checked below
            got["error"] = e

    saved, rt.timeout = rt.timeout, 1.0
    t = threading.Thread(target=send)
    t.start()
    stopped = False
    try:
        # the call is written and its caller waits (counted for the simulator) before the stop:
        # 20,000 words take at least 20,000 cycles, so it is still in flight then
        while t.is_alive() and struct.unpack_from("<Q", bridge.ctl.mem, CTL_CALLERS)[0] == 0:
            time.sleep(0.001)
        os.kill(bridge.sim_pid, signal.SIGSTOP)
        stopped = True
        t.join(60)
    finally:
        if stopped:
            os.kill(bridge.sim_pid, signal.SIGCONT)
        rt.timeout = saved
    e = got.get("error")
    assert isinstance(e, ChannelTimeout), e
    assert e.channel == "hw.acc" and e.direction == "send" and e.words is None
    text = str(e)
    assert "no return of the send of 20000 words (offset 0, last=True) within 1 s" in text
    assert "the simulated board made no progress for 1" in text and "s of wall time, in which" in text
    assert "this channel's recv: none in flight" in text and "clock cycles passed" in text
    # the hardware finished the send it was given: acc's sum and count, then it serves on
    assert acc.recv().tolist() == [int(x.astype(np.uint64).sum()) & 0xFFFFFFFF, x.size]
    acc.send([2, 3], last=True)
    assert acc.recv().tolist() == [5, 2]
