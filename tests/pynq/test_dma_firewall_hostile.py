"""The hostile-input run for the DMA path (issue 46): the AXI DMA of ``dma:`` behind its
memory firewall on the simulated board.

examples/dma_stream (an AXI DMA in simple mode on the stream core ``stream_scale``, driven by
PYNQ's own ``pynq.lib.dma.DMA``) is loaded twice: with ``firewall: true`` (``pp_mem_firewall``
between ``pp_axi_dma``'s memory master and PS memory, two entries the runtime opens around
each ``transfer()``) and without. The same hostile transfers go to both; each aims the DMA
at memory the program must not reach:

- ``other_allocation``: S2MM into another allocation, its address written into the DMA's
  registers by hand (S2MM_DA, S2MM_LENGTH: the runtime never saw a buffer);
- ``freed``: S2MM into the address of a buffer freed before (its memory since allocated to
  a victim: first fit gives it back), written by hand;
- ``past_end``: ``recvchannel.transfer(buf, nbytes=...)`` longer than ``buf``: the packet
  runs into the next allocation;
- ``read_secret``: MM2S from a secret buffer, its address written by hand (a read: memory
  does not change, but the data must not reach the stream: dst would hold the secret);
- ``read_past_end``: ``sendchannel.transfer(src, nbytes=...)`` longer than ``src``, into a
  secret right after it;
- ``both_channels``: S2MM into another allocation by hand (fed by a correct MM2S transfer),
  then, before a reset, MM2S from a secret by hand: both channels refused (the firewall
  latches the first refusal only, the S2MM one; the MM2S one is known by the count).

With the firewall every case raises :class:`DmaTransferRefused` naming the DMA, the channel,
the address and the length (from ``wait()``, and from ``wait_async()`` for ``past_end``); the
memory around (every buffer but the transfer's own) is compared byte for byte before and
after; after ``reset_dma`` a correct transfer follows each case, both entries are closed
once it is done, and it takes exactly the cycles it takes without the firewall. Without it, the run records which
cases changed memory (or leaked the secret) and asserts that each did; ``HOSTILE_REPORT``
(a path) gets the table.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pynq  # noqa: E402
from pynq.lib.dma import _SDMAChannel  # noqa: E402

import pushpush.pynq as ppq  # noqa: E402
from pushpush.link import FirewallBlock, load  # noqa: E402
from pushpush.runtime.dma_firewall import DmaTransferRefused, GuardedChannel  # noqa: E402

pytestmark = pytest.mark.slow   # two Icarus builds of the system and ~25 transfers on each

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "dma_stream"
CASES = ["other_allocation", "freed", "past_end", "read_secret", "read_past_end", "both_channels"]
BIG = 16384         # words of the freed buffer and of its memory's next owner
WORDS = 16          # one burst of the DMA (MAX_BURST 16): the S2MM FIFO takes a whole packet
#: DMA register offsets (PG021)
S2MM_DA, S2MM_LENGTH, MM2S_SA, MM2S_LENGTH, S2MM_DMASR = 0x48, 0x58, 0x18, 0x28, 0x34


def _overlay(tmp: Path, firewall: bool):
    tmp.mkdir(parents=True, exist_ok=True)
    text = (EXAMPLE / "system.yaml").read_text()
    if firewall:
        text = text.replace("\ncomponents:", "\nfirewall: true\ncomponents:", 1)
    (tmp / "system.yaml").write_text(text)
    (tmp / "rtl").mkdir(exist_ok=True)
    for v in (EXAMPLE / "rtl").glob("*.v"):
        (tmp / "rtl" / v.name).write_text(v.read_text())
    linked = load(tmp / "system.yaml")
    assert (linked.dmas[0].firewall is not None) == firewall
    bit = ppq.write_sim_overlay(linked, tmp / "overlay", simulator="icarus")
    return linked, ppq.load(str(bit))


def _alloc(n: int, fill: int):
    b = pynq.allocate(shape=(n,), dtype=np.int32, cacheable=False)
    b[:] = fill
    return b


def _by_hand(dma, da_off: int, len_off: int, address: int, nbytes: int) -> None:
    """A transfer written into the registers as PYNQ's transfer() writes them, by hand."""
    dma.mmio.write(da_off, address)
    dma.mmio.write(da_off + 4, 0)
    dma.mmio.write(len_off, nbytes)


def _recv_done(dma, timeout_s: float = 60.0) -> None:
    """Without the firewall, a receive written by hand: poll S2MM_DMASR until idle (PYNQ's
    wait() needs the buffer its own transfer() recorded)."""
    end = time.monotonic() + timeout_s
    while not int(dma.mmio.read(S2MM_DMASR)) & 0x2:
        assert time.monotonic() < end, f"S2MM not idle after {timeout_s} s: DMASR 0x{int(dma.mmio.read(S2MM_DMASR)):08X}"


class Memory:
    """Snapshots of the buffers a hostile transfer may reach (not the transfer's own)."""

    def __init__(self) -> None:
        self.bufs: dict[str, object] = {}
        self.reused = False

    def snapshot(self) -> dict[str, bytes]:
        return {k: np.array(b, dtype=np.int32).tobytes() for k, b in self.bufs.items()}


def _run_case(case: str, dma, mem: Memory, firewall: bool) -> tuple[object, list[str]]:
    """Make the hostile transfer of ``case``; returns (its outcome: None or the exception,
    the names of the memories that changed)."""
    src = _alloc(WORDS, 0)
    src[:] = np.arange(1, WORDS + 1)
    mem.bufs.clear()
    send, recv = dma.sendchannel, dma.recvchannel
    leak = None          # where a read case's secret must not arrive (its destination)

    def refused_or_done(wait):
        try:
            wait()
        except DmaTransferRefused as e:
            return e
        return None

    if case in ("other_allocation", "freed"):
        if case == "other_allocation":
            victim = _alloc(WORDS, 0x11111111)
            addr = int(victim.physical_address)
        else:
            # 64 KiB (page-aligned, larger than any hole the earlier cases left): first fit
            # gives the freed memory to the next allocation of that size
            gone = _alloc(BIG, 0)
            addr = int(gone.physical_address)
            del gone                     # the simulated board frees a buffer with its last view
            gc.collect()
            victim = _alloc(BIG, 0x11111111)
            mem.reused = int(victim.physical_address) == addr
        mem.bufs["victim"] = victim
        before = mem.snapshot()
        _by_hand(dma, S2MM_DA, S2MM_LENGTH, addr, 4 * WORDS)
        send.transfer(src)
        send.wait()
        outcome = refused_or_done(recv.wait) if firewall else _recv_done(dma)
    elif case == "past_end":
        arena = _alloc(2 * WORDS, 0x22222222)
        buf, victim = arena[:WORDS], arena[WORDS:]   # the victim right after buf
        buf[:] = 0
        mem.bufs["victim"] = victim
        long_src = _alloc(2 * WORDS, 0)
        long_src[:] = np.arange(2 * WORDS) + 100
        before = mem.snapshot()
        recv.transfer(buf, nbytes=8 * WORDS)      # twice its size
        send.transfer(long_src)
        send.wait()
        # wait_async (PYNQ's sleeps on the channel's interrupt, which a halted channel never
        # raises: the wrapper also polls the status)
        outcome = refused_or_done(lambda: asyncio.run(asyncio.wait_for(recv.wait_async(), 60)))
    elif case in ("read_secret", "read_past_end"):
        dst = _alloc(WORDS, 0)
        if case == "read_secret":
            secret = _alloc(WORDS, 0x44444444)
        else:
            arena = _alloc(WORDS // 2 + WORDS, 0x44444444)
            src, secret = arena[:WORDS // 2], arena[WORDS // 2:]   # the secret right after src
            src[:] = np.arange(WORDS // 2)
        mem.bufs.update(secret=secret)
        before = mem.snapshot()
        recv.transfer(dst)
        if case == "read_secret":
            _by_hand(dma, MM2S_SA, MM2S_LENGTH, int(secret.physical_address), 4 * WORDS)
        else:
            send.transfer(src, nbytes=4 * WORDS)  # src is half as long
        outcome = refused_or_done(send.wait)
        if outcome is None:
            recv.wait()
        elif case == "read_secret":
            # the receive waits for a packet the refused send never finished: the simulated
            # board's watch times it out, naming the refusal
            with pytest.raises(TimeoutError, match="sendchannel was halted by a refusal of the memory firewall"):
                recv.wait()
        leak = dst
    elif case == "both_channels":
        secret = _alloc(WORDS, 0x44444444)
        victim = _alloc(WORDS, 0x11111111)
        mem.bufs.update(victim=victim, secret=secret)
        before = mem.snapshot()
        _by_hand(dma, S2MM_DA, S2MM_LENGTH, int(victim.physical_address), 4 * WORDS)
        send.transfer(src)                        # a correct packet into the S2MM by hand
        send.wait()
        if firewall:   # S2MM refused and halted; then MM2S from the secret
            _by_hand(dma, MM2S_SA, MM2S_LENGTH, int(secret.physical_address), 4 * WORDS)
            outcome = refused_or_done(send.wait)  # the latch holds the S2MM refusal
            got = refused_or_done(recv.wait)
            assert isinstance(got, DmaTransferRefused) and got.refusal is not None, got
            assert got.channel == "recvchannel" and got.refusal.write, got
        else:          # the secret's packet needs a receive to go to
            _recv_done(dma)
            dst = _alloc(WORDS, 0)
            recv.transfer(dst)
            _by_hand(dma, MM2S_SA, MM2S_LENGTH, int(secret.physical_address), 4 * WORDS)
            outcome = refused_or_done(send.wait)
            recv.wait()
            leak = dst
    else:
        raise AssertionError(case)
    after = mem.snapshot()
    changed = [k for k in before if before[k] != after[k]]
    if leak is not None and (np.asarray(leak) == 0x44444444).any():
        changed.append("secret leaked into dst")
    return outcome, changed


def _check_next_transfer(ol, firewall: bool) -> int:
    """After a reset, transfers the runtime vouches for work exactly, and leave no range open;
    the exact cycles of the first (the DMA shell's probe: the send's LENGTH write to the
    receive's last write response)."""
    dma = ol.axi_dma_0
    ppq.reset_dma(dma)
    ol.scaler.set_gain(3, -5)
    src = _alloc(3 * WORDS + 1, 0)
    src[:] = np.arange(3 * WORDS + 1) * 7 - 40
    dst = _alloc(3 * WORDS + 1, 0)
    dma.recvchannel.transfer(dst)
    dma.sendchannel.transfer(src)
    dma.sendchannel.wait()
    dma.recvchannel.wait()
    assert list(dst) == list(src * 3 - 5)
    cycles = (int(dma.mmio.read(0x100C)) - int(dma.mmio.read(0x1000))) % (1 << 32)
    # the other form of bulk data in the same system, through the buffer path's firewall
    dst[:] = 0
    assert ol.scaler.scale(src, dst) == len(src)
    assert list(dst) == list(src * 3 - 5)
    # unaligned start and length inside a buffer (the DMA reads whole words: rounded out);
    # the core unchanged (gain 1): the stream's words are not the buffer's
    ol.scaler.set_gain(1, 0)
    part = _alloc(WORDS, 9)
    dma.recvchannel.transfer(part, start=6, nbytes=4 * 4 + 2)
    dma.sendchannel.transfer(src, start=2, nbytes=4 * 4 + 2)
    dma.sendchannel.wait()
    dma.recvchannel.wait()
    got = np.array(part).view(np.uint8)
    want = np.array(src, dtype=np.int32).view(np.uint8)[2:2 + 18]
    assert list(got[6:24]) == list(want)
    assert list(got[:6]) == [9, 0, 0, 0, 9, 0] and list(got[24:28]) == [9, 0, 0, 0]
    if firewall:
        regs = pynq.MMIO(dma.firewall.block.base, 0x1000)
        assert [int(regs.read(FirewallBlock.ENTRY0 + 16 * i + 8)) for i in range(2)] == [0, 0]
    return cycles


def test_hostile_dma_transfers_with_and_without_the_firewall(tmp_path):
    report = {}
    cycles: dict[bool, list[int]] = {True: [], False: []}
    for firewall in (True, False):
        linked, ol = _overlay(tmp_path / ("fw" if firewall else "nofw"), firewall)
        ol.device.dma_timeout_cycles = 30_000    # every transfer here is a few hundred cycles
        try:
            dma = ol.axi_dma_0
            chan = GuardedChannel if firewall else _SDMAChannel
            assert isinstance(dma.sendchannel, chan) and isinstance(dma.recvchannel, chan)
            cycles[firewall].append(_check_next_transfer(ol, firewall))
            mem = Memory()
            rows = {}
            refused = dma.firewall.refused() if firewall else 0
            for case in CASES:
                ol.scaler.set_gain(1, 0)      # the stream passes data unchanged: a leak shows as is
                outcome, changed = _run_case(case, dma, mem, firewall)
                rows[case] = {"outcome": (type(outcome).__name__ + ": " + str(outcome))
                              if isinstance(outcome, Exception) else "completed",
                              "changed": changed}
                if case == "freed":
                    rows[case]["victim_reused_freed_memory"] = mem.reused
                if firewall:
                    assert isinstance(outcome, DmaTransferRefused), (case, outcome)
                    assert changed == [], (case, changed)
                    channel = ("sendchannel" if case.startswith(("read", "both")) else "recvchannel")
                    assert (outcome.dma, outcome.channel) == ("axi_dma_0", channel), outcome
                    msg = str(outcome)
                    assert f"axi_dma_0.{channel}" in msg and f"0x{outcome.address:08X}" in msg, msg
                    assert f"transfer of {outcome.length} bytes" in msg, msg
                    if case == "both_channels":   # the latch held the S2MM refusal
                        assert outcome.refusal is None and "the other channel's refusal" in msg, msg
                    else:
                        assert outcome.refusal.write == (channel == "recvchannel")
                    assert dma.firewall.refused() > refused
                    refused = dma.firewall.refused()
                    if case in ("other_allocation", "freed", "read_secret", "both_channels"):
                        assert "written by hand" in msg, msg
                    else:
                        assert "the range open for it was" in msg, msg
                cycles[firewall].append(_check_next_transfer(ol, firewall))
            report["with firewall" if firewall else "without firewall"] = rows
        finally:
            ol.free()
    # a transfer whose range is open takes not one cycle more (the check is combinational)
    assert cycles[True] == cycles[False] and len(set(cycles[True])) == 1, cycles
    off = report["without firewall"]
    for case in ("other_allocation", "freed", "past_end", "both_channels"):
        assert off[case]["changed"], f"{case}: without the firewall memory should have changed: {off[case]}"
    for case in ("read_secret", "read_past_end", "both_channels"):
        assert "secret leaked into dst" in off[case]["changed"], off[case]
    for how in report.values():
        assert how["freed"]["victim_reused_freed_memory"], how["freed"]
    if os.environ.get("HOSTILE_REPORT"):
        Path(os.environ["HOSTILE_REPORT"]).write_text(json.dumps(report, indent=1))
