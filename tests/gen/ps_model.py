"""The ARM side of a simulated system, for cocotb tests of generated tops.

As on the board: the ARM writes into the PL through GP0 (a cocotbext-axi ``AxiMaster`` on the
top's ``s_axi``) and owns its endpoint window in on-chip memory (an ``AxiRam`` on the top's
``m_axi``, covering the linked ``ps`` region), which it reads and writes locally, without
bus traffic. ``Arm.call`` calls an import of a software component through its static slot;
``Arm.serve`` answers calls of a software component's exports.

The ARM follows docs/architecture.md §2.2: it flips the SEQ bit (trigger bit 1) of every call
it makes into a cep slot, accepts only a status whose echo (bit 30) is that SEQ (anything
else in the rep slot is a stray: cleared and counted in ``strays``), and answers with the
taken call's SEQ in bit 30 of the status.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable

from cocotb.triggers import RisingEdge
from cocotbext.axi import AxiBus, AxiMaster, AxiRam

from pushpush.types import decode_args, decode_result, encode_args, encode_result


class Arm:
    def __init__(self, dut, linked, pause: float = 0.0, seed: int = 1):
        self.dut = dut
        self.linked = linked
        self.master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
        self.ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=linked.ps.size)
        for port in (self.master, self.ram):
            for log in (port.write_if.log, port.read_if.log):
                log.setLevel(logging.WARNING)
        self.cycle = 0
        #: SEQ of the last call into each cep slot (by trigger address)
        self.seq: dict[int, int] = {}
        #: statuses found in a rep slot that did not answer the call waited for
        self.strays = 0
        if pause:
            rng = random.Random(seed)

            def gen(s):
                r = random.Random(s)
                while True:
                    yield r.random() < pause

            chans = []
            for p in (self.master, self.ram):
                chans += [p.write_if.aw_channel, p.write_if.w_channel, p.write_if.b_channel,
                          p.read_if.ar_channel, p.read_if.r_channel]
            for c in chans:
                c.set_pause_generator(gen(rng.getrandbits(32)))

    async def count(self):
        """Count clock cycles (start with cocotb.start_soon after reset)."""
        while True:
            await RisingEdge(self.dut.clk)
            self.cycle += 1

    def _off(self, address: int) -> int:
        return address % self.linked.ps.size

    def ocm_word(self, address: int) -> int:
        return int.from_bytes(self.ram.read(self._off(address), 4), "little")

    def ocm_write(self, address: int, words: list[int]) -> None:
        self.ram.write(self._off(address), b"".join(w.to_bytes(4, "little") for w in words))

    async def write_words(self, address: int, words: list[int]) -> None:
        await self.master.write(address, b"".join(w.to_bytes(4, "little") for w in words))

    def next_trigger(self, trigger_address: int, rep_address: int, oneway: bool = False) -> int:
        """The trigger of the next call into the cep slot whose trigger word is at
        ``trigger_address``: ``rep_address``, the slot's flipped SEQ in bit 1, ``oneway`` in
        bit 0."""
        seq = self.seq.get(trigger_address, 1) ^ 1
        self.seq[trigger_address] = seq
        return rep_address | (seq << 1) | int(oneway)

    async def _await_status(self, trig_address: int, seq: int) -> int:
        """Wait for the status answering a call with ``seq`` at ``trig_address``: clears and
        counts strays (echo bit 30 != seq)."""
        while True:
            await RisingEdge(self.dut.clk)
            status = self.ocm_word(trig_address)
            if status == 0:
                continue
            if (status >> 30) & 1 == seq:
                return status
            self.strays += 1
            self.ocm_write(trig_address, [0])

    async def call(self, target: str, *args, component: str = "host"):
        """Call ``target`` (``component.function``) as software component ``component``
        through its static slot; returns (result, status code: the status word without its
        echo bit, which has been checked)."""
        imp = self.linked.component(component).import_(target)
        return await self._call(imp.cep_address, imp.cep_trigger_address, imp.signature,
                                list(args), imp.rep_address)

    async def call_at(self, slot, args, rep_address: int):
        """Call through any cep ``slot`` (e.g. a dynamic one, as a run-time caller does) with
        a rep of ours at ``rep_address`` (in the ps region); returns (result, status code)."""
        return await self._call(slot.address, slot.trigger_address, slot.signature, list(args),
                                rep_address)

    async def _call(self, cep_address: int, trigger_address: int, sig, args, rep_address: int):
        rep_trig = rep_address + 4 * sig.result_words
        if self.ocm_word(rep_trig):   # left over from an earlier call: a stray
            self.strays += 1
            self.ocm_write(rep_trig, [0])
        trigger = self.next_trigger(trigger_address, rep_address)
        await self.write_words(cep_address, encode_args(sig, args) + [trigger])
        status = await self._await_status(rep_trig, (trigger >> 1) & 1)
        words = [self.ocm_word(rep_address + 4 * k) for k in range(sig.result_words)]
        self.ocm_write(rep_trig, [0])  # re-arm, locally
        # the echo was checked: return the status code without it (1: ok)
        return decode_result(sig, words), status & ~(1 << 30)

    async def serve(self, functions: dict[str, Callable], component: str = "host",
                    log: list | None = None):
        """Answer calls of ``component``'s exports with ``functions[name](*args)`` forever.
        Every call is appended to ``log`` as (name, args, trigger)."""
        comp = self.linked.component(component)
        slots = [s for s in comp.slots if s.is_cep]
        while True:
            await RisingEdge(self.dut.clk)
            for s in slots:
                trig = self.ocm_word(s.trigger_address)
                if trig == 0:
                    continue
                words = [self.ocm_word(s.address + 4 * k) for k in range(s.words - 1)]
                self.ocm_write(s.trigger_address, [0])
                args = decode_args(s.signature, words)
                if log is not None:
                    log.append((s.function, args, trig))
                result = functions[s.function](*args)
                if not trig & 1:
                    status = 1 | (((trig >> 1) & 1) << 30)
                    await self.write_words(trig & ~3, encode_result(s.signature, result) + [status])
