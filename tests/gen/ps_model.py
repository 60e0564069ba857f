"""The ARM side of a simulated system, for cocotb tests of generated tops.

As on the board: the ARM writes into the PL through GP0 (a cocotbext-axi ``AxiMaster`` on the
top's ``s_axi``) and owns its endpoint window in on-chip memory (an ``AxiRam`` on the top's
``m_axi``, covering the linked ``ps`` region), which it reads and writes locally, without
bus traffic. ``Arm.call`` calls an import of a software component through its static slot;
``Arm.serve`` answers calls of a software component's exports.
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

    async def call(self, target: str, *args, component: str = "host"):
        """Call ``target`` (``component.function``) as software component ``component``
        through its static slot; returns (result, status word)."""
        imp = self.linked.component(component).import_(target)
        await self.write_words(imp.cep_address,
                               encode_args(imp.signature, list(args)) + [imp.rep_address])
        status = 0
        while status == 0:
            await RisingEdge(self.dut.clk)
            status = self.ocm_word(imp.rep_trigger_address)
        words = [self.ocm_word(imp.rep_address + 4 * k) for k in range(imp.signature.result_words)]
        self.ocm_write(imp.rep_trigger_address, [0])  # re-arm, locally
        return decode_result(imp.signature, words), status

    async def call_at(self, slot, args, rep_address: int):
        """Call through any cep ``slot`` (e.g. a dynamic one, as a run-time caller does) with
        a rep of ours at ``rep_address`` (in the ps region); returns (result, status word)."""
        sig = slot.signature
        await self.write_words(slot.address, encode_args(sig, list(args)) + [rep_address])
        trig = rep_address + 4 * sig.result_words
        status = 0
        while status == 0:
            await RisingEdge(self.dut.clk)
            status = self.ocm_word(trig)
        words = [self.ocm_word(rep_address + 4 * k) for k in range(sig.result_words)]
        self.ocm_write(trig, [0])
        return decode_result(sig, words), status

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
                    await self.write_words(trig & ~3, encode_result(s.signature, result) + [1])
