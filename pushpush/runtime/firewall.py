"""The memory firewall's table, kept by the runtime (cores/mem_firewall, issue 46).

A system with ``firewall:`` has ``pp_mem_firewall`` between its buffer engines and PS
memory: an engine's burst passes only inside a range the table allows to that engine. The
runtime opens a range for each buffer argument of a call just before the call and closes it
when the call returned (or failed), so a buffer is reachable by the engine that serves it
only while the call that lent it is under way, and nothing else of PS memory ever is.

What gets a range (``in`` buffers READ, ``out`` buffers WRITE; exactly the elements passed):

* a ``pynq.allocate`` buffer (or ``(buffer, n)``) that is not freed;
* a numpy array, copied by the runtime into a temporary buffer it allocated.

A raw ``(physical address, n)`` pair gets none (the runtime cannot tell that it is a buffer
at all, let alone this process's), nor does a freed buffer: the engine's bursts are refused
(SLVERR), the call ends with status ``BUFFER``, and :func:`explain` turns that into a
:class:`FirewallRefused` naming the component, engine, address and call.

:class:`FirewallTable` is the table over register accessors (``read(offset)``,
``write(offset, value)``: the page's MMIO on PYNQ; optionally ``write_words(offset, words)``,
one ordered store of an entry's three words: the backend's own write); :func:`guard_buffers` wraps the buffer
arguments of one call; the backend hook ``firewall()`` gives the table (None: no firewall).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional

from ..link import FirewallBlock, LinkedSystem, firewall_engines
from ..protocol import CallError, buffer_error
from ..types import BufferType

__all__ = ["FirewallTable", "FirewallFull", "FirewallRefused", "Refusal", "engine_order",
           "guard_buffers", "explain"]

READ, WRITE, ANY = 1, 2, 4


class FirewallFull(RuntimeError):
    """Every entry of the table holds a range of a call under way."""


class FirewallRefused(CallError):
    """A call's buffer transfer was refused by the memory firewall. ``refusal`` says which
    engine, address and direction; ``call`` which call (``function``, its number)."""

    def __init__(self, function: str, address: Optional[int], code: int, detail: str,
                 refusal: "Refusal", call: int) -> None:
        super().__init__(function, address, code, detail)
        self.refusal = refusal
        self.call = call

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (CallError, (self.function, self.address, int(self.code), self.detail))


@dataclass(frozen=True)
class Refusal:
    """The first burst the firewall refused since its latch was last cleared."""

    address: int
    write: bool
    beats: int
    beat_bytes: int
    engine: int
    #: (component, export, parameter) of the engine, None for an index the system lacks
    owner: Optional[tuple[str, str, str]]

    def describe(self) -> str:
        who = (f"engine {'.'.join(self.owner)} (buffer '{self.owner[2]}' of "
               f"{self.owner[0]}.{self.owner[1]})" if self.owner else f"engine #{self.engine}")
        end = self.address + self.beats * self.beat_bytes
        return (f"the memory firewall refused {who}'s {'write' if self.write else 'read'} of "
                f"{self.beats} x {self.beat_bytes} bytes at 0x{self.address:08X}..0x{end:08X}")


def not_this_build(who: str, what: str, base: int, got: int, want: int) -> RuntimeError:
    """The error of a firewall whose table size in the PL differs from the system map's: the
    bitstream is another build's (``who``: the system or DMA, ``what``: which firewall)."""
    return RuntimeError(f"{who}: the {what} at 0x{base:08X} has {got} entries, the system map says "
                        f"{want}: the bitstream is not this system's build; rebuild it from the "
                        "same system.yaml")


def engine_order(linked: LinkedSystem) -> list[tuple[str, str, str]]:
    """(component, export, parameter) of every buffer engine, in the order of the top's
    buffer interconnect (its index is the engine's tag in the AXI ID):
    :func:`pushpush.link.firewall_engines` (tests/runtime/test_firewall.py checks it against
    :func:`pushpush.codegen.fabric.system_buffers`)."""
    return firewall_engines(linked.components)


class FirewallTable:
    """The entries of ``linked.firewall``'s table that software component ``component``'s
    runtime uses, over the register page. The entries are split between the software
    components in declaration order (one runtime per component, §2.2, so no two processes
    ever write one entry); made once per runtime, it enables the check and empties its own
    entries."""

    def __init__(self, linked: LinkedSystem, component: str, read: Callable[[int], int],
                 write: Callable[[int, int], None],
                 write_words: Optional[Callable[[int, list[int]], None]] = None) -> None:
        """``write_words(offset, words)``: store consecutive words in address order, the last
        one last (one access on the board: an entry's BASE, LIMIT, ATTR at once); None:
        ``write`` word by word."""
        block = linked.firewall
        if block is None:
            raise ValueError(f"system '{linked.name}' has no memory firewall (firewall: in its YAML)")
        self.block: FirewallBlock = block
        self._read, self._write, self._write_words = read, write, write_words
        self.engines = engine_order(linked)
        info = read(FirewallBlock.INFO)
        if info & 0xFF != block.entries:
            raise not_this_build(f"system '{linked.name}'", "memory firewall", block.base, info & 0xFF,
                                 block.entries)
        self.tag_bits = (info >> 8) & 0xFF
        self.tag_lsb = (info >> 16) & 0xFF
        self.component = component
        self.mine = block.share([c.name for c in linked.components if c.is_software], component)
        self._free = list(self.mine)
        self._lock = threading.Lock()
        self._calls = itertools.count(1)
        for i in self.mine:
            write(FirewallBlock.ENTRY0 + 16 * i + 8, 0)
        write(FirewallBlock.CTRL, 1)
        write(FirewallBlock.BAD_INFO, 1 << 31)

    def next_call(self) -> int:
        return next(self._calls)

    def open(self, engine: int, first: int, nbytes: int, write: bool) -> int:
        """Allow ``engine`` to read (or write) ``nbytes`` bytes from ``first``; returns the
        entry. Raises :class:`FirewallFull`."""
        with self._lock:
            if not self._free:
                raise FirewallFull(
                    f"the memory firewall's {len(self.mine)} entries of component "
                    f"'{self.component}' (of {self.block.entries}, split between the software "
                    "components) all hold buffers of calls under way; make fewer concurrent calls "
                    "with buffers, or give the system more (firewall: {entries: N} in its YAML, at "
                    "most 48)")
            idx = self._free.pop(0)
        attr = (WRITE if write else READ)
        if len(self.engines) <= 1:
            attr |= ANY            # one engine: the ID holds no index
        else:
            attr |= engine << 8
        base = FirewallBlock.ENTRY0 + 16 * idx
        lo, hi = self.block.rounded(first, max(nbytes, 1))
        # an own entry's ATTR is 0 whenever it is free (made so here, and by close), so no
        # half-written entry ever allows a range: three stores (BASE, LIMIT, ATTR last, one
        # slice store with write_words) open it, one closes it
        words = [lo, hi, attr if nbytes else 0]
        if self._write_words is not None:
            self._write_words(base, words)
        else:
            for k, w in enumerate(words):
                self._write(base + 4 * k, w)
        return idx

    def close(self, idx: int) -> None:
        self._write(FirewallBlock.ENTRY0 + 16 * idx + 8, 0)
        with self._lock:
            self._free.append(idx)

    def refused(self) -> int:
        """Bursts refused since the PL's reset."""
        return self._read(FirewallBlock.REFUSED)

    def take_refusal(self, engines: Optional[set[int]] = None) -> Optional[Refusal]:
        """The latched refusal, or None; cleared (so the next one is latched) when it is one
        of ``engines``' (default: any engine's)."""
        info = self._read(FirewallBlock.BAD_INFO)
        if not info >> 31:
            return None
        addr = self._read(FirewallBlock.BAD_ADDR)
        ident = info & 0xFFFF
        engine = (ident >> self.tag_lsb) & ((1 << self.tag_bits) - 1) if len(self.engines) > 1 else 0
        if engines is not None and len(self.engines) > 1 and engine not in engines:
            return None
        self._write(FirewallBlock.BAD_INFO, 1 << 31)
        return Refusal(addr, bool((info >> 30) & 1), ((info >> 17) & 0xFF) + 1, 1 << ((info >> 25) & 7),
                       engine, self.engines[engine] if engine < len(self.engines) else None)


@dataclass
class _Grant:
    table: FirewallTable
    entries: list[int]
    unopened: dict[str, str]      # parameter -> why it got no range
    ranges: dict[str, tuple[int, int]]
    call: int
    engines: set[int]


def _freed(buf: Any) -> bool:
    return bool(getattr(buf, "freed", False)) or (hasattr(buf, "pointer") and not getattr(buf, "pointer"))


def guard_buffers(table: Optional[FirewallTable], linked: LinkedSystem, function_address: int,
                  codec: Any, args: Sequence[Any], kwargs: Mapping[str, Any],
                  prepared: tuple[list[Any], dict[str, Any], Callable[[bool], None]]
                  ) -> tuple[list[Any], dict[str, Any], Callable[[bool], None], Optional[_Grant]]:
    """Open the ranges of one call's buffer arguments (``prepared``: what
    :func:`pushpush.runtime.buffers.prepare_buffers` made of ``args``/``kwargs``); returns
    the prepared arguments, an ``after`` that also closes the ranges, and the grant
    (None without a firewall)."""
    new_args, new_kwargs, after = prepared
    if table is None:
        if linked.firewall is not None and codec.buffer_params:
            after(False)
            raise ValueError(
                f"system '{linked.name}' has a memory firewall (firewall: in its YAML), and this "
                "runtime's backend does not open its ranges (the cocotb runtime of pushpush.sim "
                "does not yet): every transfer of this call's buffers would be refused; run it on "
                "the simulated board (pushpush.pynq with PUSHPUSH_BOARD=sim) or a board, or remove "
                "'firewall:' for this simulation")
        return new_args, new_kwargs, after, None
    found = linked.locate(function_address)
    comp = found[0].name if found else None
    export = found[1].function if found and found[1] is not None else None
    grant = _Grant(table, [], {}, {}, table.next_call(), set())
    try:
        for slot in codec.buffer_params:
            t: BufferType = slot.type
            name = slot.name
            if slot.index < len(args):
                orig, pair = args[slot.index], new_args[slot.index]
            elif name in kwargs:
                orig, pair = kwargs[name], new_kwargs[name]
            else:
                continue
            buf = orig[0] if isinstance(orig, tuple) and len(orig) == 2 else orig
            try:
                grant.engines.add(table.engines.index((comp, export, name)))
            except ValueError:
                pass
            if not hasattr(buf, "dtype"):
                grant.unopened[name] = ("it was passed as a raw (address, n) pair, which the runtime "
                                        "cannot tell from memory it does not own; pass the "
                                        "pynq.allocate buffer itself")
                continue
            if hasattr(buf, "physical_address") and _freed(buf):
                grant.unopened[name] = "it was passed a freed buffer; allocate a live one"
                continue
            try:
                engine = table.engines.index((comp, export, name))
            except ValueError:
                grant.unopened[name] = f"no buffer engine serves {comp}.{export}.{name} in this system"
                continue
            addr, count = int(pair[0]), int(pair[1])
            nbytes = count * t.element_bytes
            grant.entries.append(table.open(engine, addr, nbytes, not t.is_in))
            grant.ranges[name] = (addr, addr + nbytes)
    except BaseException:
        for i in grant.entries:
            table.close(i)
        after(False)
        raise

    def after_and_close(ok: bool) -> None:
        try:
            for i in grant.entries:
                table.close(i)
        finally:
            after(ok)
    return new_args, new_kwargs, after_and_close, grant


def explain(grant: Optional[_Grant], error: CallError) -> CallError:
    """``error`` (a failed call with buffers) as a :class:`FirewallRefused` when the firewall
    refused one of its transfers: which component, engine, address and call, and why (the
    range that was open, or why none was)."""
    if grant is None or not isinstance(error.code, int):
        return error
    code = int(error.code)
    if buffer_error(code) is None:
        return error
    table = grant.table
    r = table.take_refusal(grant.engines)   # the latch: the first refusal since it was cleared
    if r is None:
        return error
    param = r.owner[2] if r.owner else None
    if param in grant.ranges:
        lo, hi = grant.ranges[param]
        why = f"the range open for buffer '{param}' was 0x{lo:08X}..0x{hi:08X}"
    elif param in grant.unopened:
        why = f"no range was open for buffer '{param}': {grant.unopened[param]}"
    else:
        why = "no range was open for that engine in this call"
    detail = f"{r.describe()} in call #{grant.call} of this runtime ({error.function}); {why}"
    return FirewallRefused(error.function, error.address, code, detail, r, grant.call)
