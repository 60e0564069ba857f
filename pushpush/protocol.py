"""The PushPush protocol core: words in, words out, no I/O (docs/architecture.md §2).

Everything a caller or a callee does is computed here from plain Python values; the drivers
in :mod:`pushpush.runtime` only move the words (one bus burst per call and per return, local
reads and writes of the own window) and wait.

A **call** is one burst to the callee's call endpoint (cep) slot: the argument words, then
the trigger word. The trigger is the byte address of the caller's return endpoint (rep)
slot; bit 1 is the call's sequence bit (``seq``, flipped by the caller for every call into
the same slot, so a repeated trigger is recognised as a duplicate), bit 0 set means
*one-way* (no reply is written). A trigger of 0 means idle (docs/architecture.md §2).

>>> from pushpush.types import parse_signature
>>> ft = parse_signature("(x: i32, y: u8) -> i64")
>>> [hex(w) for w in encode_call(ft, [-1], {"y": 7}, rep_address=0xFFFC_0100, seq=1)]
['0xffffffff', '0x7', '0xfffc0102']
>>> parse_trigger(0xFFFC_0101) == Trigger(rep_address=0xFFFC_0100, one_way=True, seq=0)
True

A **return** is one burst to the rep slot: the result words, then the status word. Status 1
(:data:`STATUS_OK`) means ok; a status with bit 31 set is an :class:`ErrorCode` (the result
words are then zero and meaningless). Bit 30 of the status echoes the ``seq`` bit of the
call it answers, so a caller recognises a reply that is not for its current call.

>>> encode_return(ft, -2)
[4294967294, 4294967295, 1]
>>> [hex(w) for w in encode_return(ft, -2, seq=1)]
['0xfffffffe', '0xffffffff', '0x40000001']
>>> r = decode_return(ft, [4294967294, 4294967295, 0x4000_0001]); (r.value, r.echo)
(-2, 1)
>>> encode_error(ft, ErrorCode.CALLEE_RAISED)
[0, 0, 2147483649]
>>> decode_return(ft, [0, 0, 0x8000_0001]).unwrap("b.f", 0x4000_0000)
Traceback (most recent call last):
...
pushpush.protocol.CallError: call to b.f at 0x40000000 failed: the callee raised an exception (status 0x80000001)

Run-time slots (reps for concurrent or run-time calls, ceps for Python callables passed as
function values) come from a component's run-time area through a :class:`SlotAllocator`.
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Optional

from .errors import PushPushError
from .types import FunctionType, decode_args, decode_result, encode_args, encode_result

__all__ = [
    "OWNER_BYTES",
    "RECORD_MAGIC",
    "RECORD_OFFSET",
    "JOURNAL_OFFSET",
    "MAX_JOURNAL_WORDS",
    "CLAIM_BYTES",
    "JOURNAL_LENT",
    "RECORD_SEQ",
    "RECORD_WRITING",
    "RECORD_VALID",
    "WORD_BYTES",
    "WORD_MASK",
    "TRIGGER_IDLE",
    "ONE_WAY_BIT",
    "SEQ_BIT",
    "STATUS_OK",
    "ERROR_BIT",
    "ECHO_BIT",
    "Counters",
    "ErrorCode",
    "describe_status",
    "BUFFER_CAUSES",
    "buffer_error",
    "Trigger",
    "make_trigger",
    "parse_trigger",
    "encode_call",
    "decode_call",
    "Reply",
    "encode_return",
    "encode_error",
    "decode_return",
    "status_echo",
    "CallError",
    "CallTimeout",
    "BusWriteError",
    "SlotsExhausted",
    "WordSpan",
    "Allocation",
    "SlotAllocator",
]

from .types import WORD_BYTES, WORD_MASK

#: A trigger (cep) or status (rep) word of 0: nothing has arrived.
TRIGGER_IDLE = 0
#: Bit 0 of a cep trigger: one-way call, the callee writes no reply.
ONE_WAY_BIT = 0x1
#: Bit 1 of a cep trigger: the call's sequence bit.
SEQ_BIT = 0x2
#: Rep status word of a successful call (echo bit clear).
STATUS_OK = 0x1
#: Bit 31 of a rep status word: the status is an error code.
ERROR_BIT = 0x8000_0000
#: Bit 30 of a rep status word: the sequence bit of the call the status answers.
ECHO_BIT = 0x4000_0000

# The claim file (docs/architecture.md §2.2, :mod:`pushpush.runtime.claim`): the caller's
# memory of its static cep slots and the run-time journal, which the Python and the C runtime
# (c/pp_protocol.h) both read and write, so a runtime of either continues the other's.

#: Bytes of the owner line at the start of the file.
OWNER_BYTES = 256
#: The record's magic, at byte :data:`OWNER_BYTES`.
RECORD_MAGIC = b"PPRS"
#: Byte offset of import 0's byte.
RECORD_OFFSET = OWNER_BYTES + len(RECORD_MAGIC)
#: Byte offset of the run-time journal: 2 bytes per word of the run-time area.
JOURNAL_OFFSET = 1024
#: Run-time words a claim file's journal covers (``MAX_RUNTIME_WORDS`` of the YAML).
MAX_JOURNAL_WORDS = 1 << 16
#: Size of a claim file.
CLAIM_BYTES = JOURNAL_OFFSET + 2 * MAX_JOURNAL_WORDS
#: Flags (second byte) of a journal entry: a lent cep slot (else a rep of a call in
#: flight); bits 1..0: the lent function's result words.
JOURNAL_LENT = 0x80
#: Bits of an import's byte: the SEQ of the last call written, a write under way, valid.
RECORD_SEQ = 0x01
RECORD_WRITING = 0x02
RECORD_VALID = 0x80


class ErrorCode(enum.IntEnum):
    """Error statuses (bit 31 set). Values not listed here are reported as unknown errors.

    ===================  ============  ===================================================
    name                 value         meaning
    ===================  ============  ===================================================
    ``CALLEE_RAISED``    0x80000001    the callee's function raised (Python) or failed
    ``BAD_FUNCTION``     0x80000002    no function at the called address (a run-time
                                       callback used after its call returned, or nothing
                                       mapped there: AXI DECERR)
    ``BAD_RESULT``       0x80000003    the callee's result does not fit the result type
    ``COLLISION``        0x80000004    the callee's slot stayed busy: the call was refused
                                       (AXI SLVERR) until the timeout
    ``BUS_ERROR``        0x80000005    the call's write failed for another reason
    ``BUFFER``           0x80000006    a buffer parameter's DMA transfer failed; bits 15..8
                                       hold the parameter's index, bits 18..16 the cause
                                       (:data:`BUFFER_CAUSES`), e.g. ``0x80010106``
    ===================  ============  ===================================================

    ``CALLEE_RAISED``, ``BAD_FUNCTION`` and ``BAD_RESULT`` are written by callees into the
    rep status word; ``COLLISION`` and ``BUS_ERROR`` (and ``BAD_FUNCTION`` for a DECERR)
    are raised by the calling runtime itself when the call's write fails.
    """

    CALLEE_RAISED = 0x8000_0001
    BAD_FUNCTION = 0x8000_0002
    BAD_RESULT = 0x8000_0003
    COLLISION = 0x8000_0004
    BUS_ERROR = 0x8000_0005
    BUFFER = 0x8000_0006

    @property
    def description(self) -> str:
        return _DESCRIPTIONS[self]


_DESCRIPTIONS = {
    ErrorCode.CALLEE_RAISED: "the callee raised an exception",
    ErrorCode.BAD_FUNCTION: "there is no function at this address",
    ErrorCode.BAD_RESULT: "the callee's result does not fit the result type",
    ErrorCode.COLLISION: "the callee's slot stayed busy (collision)",
    ErrorCode.BUS_ERROR: "the call's write failed on the bus",
    ErrorCode.BUFFER: "a buffer's DMA transfer failed",
}

#: Causes of a ``BUFFER`` error status (bits 18..16), as the buffer engines (cores/axi_dma)
#: report them.
BUFFER_CAUSES = {
    1: "timed out: the module took or gave no element of its stream for the engine's timeout",
    2: "the memory answered SLVERR",
    3: "the memory answered DECERR (nothing there: is it a physical address in DDR?)",
    4: "it is too long for the engine (2**26 bytes or more)",
}


def buffer_error(status: int) -> Optional[tuple[int, int]]:
    """(parameter index, cause) of a ``BUFFER`` error status, else None.

    >>> buffer_error(0x8001_0106), buffer_error(0x8000_0001)
    ((1, 1), None)
    """
    status &= ~ECHO_BIT
    if status & ERROR_BIT and status & 0xFF == ErrorCode.BUFFER & 0xFF and not status & 0x3FF8_0000:
        cause = (status >> 16) & 0x7
        if cause:
            return (status >> 8) & 0xFF, cause
    return None


def describe_status(status: int) -> str:
    """Human-readable meaning of a rep status word.

    >>> describe_status(1), describe_status(0x8000_0002), describe_status(0x8000_1234)
    ('ok', 'there is no function at this address', 'unknown error code 0x80001234')
    >>> describe_status(7)
    'malformed status 0x00000007 (neither 1 nor an error code)'
    """
    status &= ~ECHO_BIT
    if status == STATUS_OK:
        return "ok"
    if status == TRIGGER_IDLE:
        return "idle (no reply yet)"
    if status & ERROR_BIT:
        buf = buffer_error(status)
        if buf is not None:
            cause = BUFFER_CAUSES.get(buf[1], f"cause {buf[1]}")
            return f"the DMA transfer of buffer parameter {buf[0]} failed: {cause}"
        try:
            return ErrorCode(status).description
        except ValueError:
            return f"unknown error code 0x{status:08X}"
    return f"malformed status 0x{status:08X} (neither 1 nor an error code)"


# ------------------------------------------------------------------------------ exceptions


def _where(function: str, address: Optional[int]) -> str:
    if address is None or f"0x{address:08X}" in function:
        return function
    return f"{function} at 0x{address:08X}"


class CallError(PushPushError):
    """A call failed: the callee answered an error status, or the call could not be made.

    Attributes: ``function`` (the callee, e.g. ``"fir.fir"`` or ``"function at 0x..."``),
    ``address`` (its cep byte address), ``code`` (the status word: usually an
    :class:`ErrorCode`, or a raw unknown value), ``detail`` (extra text or ``None``).
    """

    def __init__(self, function: str, address: Optional[int], code: int, detail: Optional[str] = None) -> None:
        self.function = function
        self.address = address
        try:
            self.code: int = ErrorCode(code)
        except ValueError:
            self.code = code
        self.detail = detail
        msg = f"call to {_where(function, address)} failed: {describe_status(code)} (status 0x{code:08X})"
        if detail:
            msg += f"; {detail}"
        super().__init__(msg)

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (CallError, (self.function, self.address, int(self.code), self.detail))


class CallTimeout(CallError, TimeoutError):
    """No reply within the timeout. ``timeout`` is the limit in seconds.

    ``code`` is 0 (there is no status); the function and its address are named.
    """

    def __init__(self, function: str, address: Optional[int], timeout: float, detail: Optional[str] = None) -> None:
        self.function = function
        self.address = address
        self.code = 0
        self.timeout = timeout
        self.detail = detail
        msg = f"call to {_where(function, address)} timed out after {timeout:g} s"
        msg += f": {detail}" if detail else " (no reply: is the callee running and serving?)"
        Exception.__init__(self, msg)

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (CallTimeout, (self.function, self.address, self.timeout, self.detail))


class BusWriteError(PushPushError):
    """A backend's burst write got an error response.

    ``resp`` is ``"SLVERR"`` (the slave refused it: a collision with a pending call, or a
    write outside any slot) or ``"DECERR"`` (nothing mapped at the address).
    """

    def __init__(self, address: int, nwords: int, resp: str) -> None:
        self.address = address
        self.nwords = nwords
        self.resp = resp
        super().__init__(f"write of {nwords} word(s) to 0x{address:08X} failed: {resp}")

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (BusWriteError, (self.address, self.nwords, self.resp))


class SlotsExhausted(PushPushError):
    """The run-time area of a software component has no room for another slot."""


# ------------------------------------------------------------------------------ calls


class Trigger(NamedTuple):
    """A decoded cep trigger word: where to reply, whether to reply, and the sequence bit."""

    rep_address: int
    one_way: bool
    seq: int = 0


def make_trigger(rep_address: int, one_way: bool = False, seq: int = 0) -> int:
    """The trigger word of a call replying to ``rep_address`` (0 allowed when one-way).

    >>> hex(make_trigger(0x4000_0010)), make_trigger(0, one_way=True), hex(make_trigger(0x10, seq=1))
    ('0x40000010', 1, '0x12')
    """
    if not isinstance(rep_address, int) or not 0 <= rep_address <= WORD_MASK:
        raise ValueError(f"rep address {rep_address!r} is not a 32-bit byte address")
    if rep_address % WORD_BYTES:
        raise ValueError(f"rep address 0x{rep_address:08X} is not word aligned")
    if rep_address == 0 and not one_way:
        raise ValueError("a call that expects a reply needs a non-zero rep address")
    return rep_address | (ONE_WAY_BIT if one_way else 0) | (SEQ_BIT if seq & 1 else 0)


def parse_trigger(word: int) -> Trigger:
    """Split a non-zero trigger word into the rep address, the one-way flag and ``seq``.

    Raises :class:`ValueError` for 0 (idle) and for a two-way call without a rep address.
    """
    if word == TRIGGER_IDLE:
        raise ValueError("trigger word is 0 (idle): there is no call")
    one_way = bool(word & ONE_WAY_BIT)
    rep = word & ~(ONE_WAY_BIT | SEQ_BIT) & WORD_MASK
    if rep == 0 and not one_way:
        raise ValueError(f"trigger word 0x{word:08X} asks for a reply but holds no rep address")
    return Trigger(rep, one_way, 1 if word & SEQ_BIT else 0)


def encode_call(
    ft: FunctionType,
    args: Sequence[object],
    kwargs: Optional[Mapping[str, object]] = None,
    *,
    rep_address: int,
    one_way: bool = False,
    seq: int = 0,
) -> list[int]:
    """The words of one call burst: the arguments then the trigger (``ft.cep_words`` words).

    Function-typed arguments must already be addresses (or objects with ``.address``);
    bad arguments raise ``TypeError``/``OverflowError``/``ValueError`` naming the parameter
    (from :func:`pushpush.types.encode_args`).
    """
    words = encode_args(ft, args, kwargs)
    words.append(make_trigger(rep_address, one_way, seq))
    return words


def decode_call(ft: FunctionType, slot_words: Sequence[int]) -> tuple[list[object], Trigger]:
    """The inverse of :func:`encode_call`: a cep slot's words into (argument values, trigger).

    Function-typed arguments come back as plain integer addresses.
    """
    if len(slot_words) != ft.cep_words:
        raise ValueError(f"a cep slot of {ft} has {ft.cep_words} words, got {len(slot_words)}")
    return decode_args(ft, slot_words[:-1]), parse_trigger(slot_words[-1])


# ------------------------------------------------------------------------------ returns


@dataclass(frozen=True)
class Reply:
    """A decoded rep slot: the status (echo bit removed), the result value when ok, the echo."""

    status: int
    value: object = None
    echo: int = 0

    @property
    def ok(self) -> bool:
        return self.status == STATUS_OK

    def unwrap(self, function: str, address: Optional[int] = None) -> object:
        """The value, or :class:`CallError` naming ``function`` (and its address)."""
        if not self.ok:
            raise CallError(function, address, self.status)
        return self.value


def _echo(seq: int) -> int:
    return ECHO_BIT if seq & 1 else 0


def encode_return(ft: FunctionType, value: object, seq: int = 0) -> list[int]:
    """The words of a successful return: the result then status 1 (``ft.rep_words`` words).

    ``seq`` is the sequence bit of the call answered; it is echoed in bit 30 of the status.

    A result that does not fit raises ``TypeError``/``OverflowError``/``ValueError``; a
    callee answers that with :func:`encode_error` and :attr:`ErrorCode.BAD_RESULT`.
    """
    words = encode_result(ft, value)
    words.append(STATUS_OK | _echo(seq))
    return words


def encode_error(ft: FunctionType, code: int, seq: int = 0) -> list[int]:
    """The words of an error return: zeroed result words then the error status (with echo)."""
    code = int(code)
    if not code & ERROR_BIT or code > WORD_MASK or code & ECHO_BIT:
        raise ValueError(f"error status 0x{code:X} does not have bit 31 set (and bit 30 clear)")
    return [0] * ft.result_words + [code | _echo(seq)]


def decode_return(ft: FunctionType, words: Sequence[int]) -> Reply:
    """A rep slot's words (result then status) into a :class:`Reply`.

    The result is decoded only when the status is ok; a status of 0 is an error (the
    reply has not arrived: callers look at the status word first).
    """
    if len(words) != ft.rep_words:
        raise ValueError(f"a rep slot of {ft} has {ft.rep_words} words, got {len(words)}")
    word = int(words[-1])
    if word == TRIGGER_IDLE:
        raise ValueError("rep status is 0: the reply has not arrived")
    echo = 1 if word & ECHO_BIT else 0
    status = word & ~ECHO_BIT
    if status != STATUS_OK:
        return Reply(status, None, echo)
    return Reply(status, decode_result(ft, words[:-1]), echo)


def status_echo(word: int) -> int:
    """The echo (bit 30) of a rep status word: the ``seq`` of the call it answers."""
    return 1 if word & ECHO_BIT else 0


# ------------------------------------------------------------------------------ faults


@dataclass
class Counters:
    """What a participant dropped instead of letting it corrupt a later call (§2.2).

    ``collisions``: calls written into a slot still pending; ``duplicates``: repeated
    triggers of a call already taken (not run again); ``strays``: replies nobody waited for,
    or with the wrong echo (never delivered); ``write_errors``: own calls whose write failed.

    >>> c = Counters(); c.strays += 1; c.as_dict()
    {'collisions': 0, 'duplicates': 0, 'strays': 1, 'write_errors': 0}
    """

    collisions: int = 0
    duplicates: int = 0
    strays: int = 0
    write_errors: int = 0

    #: The order of the counters in an RTL component's window (byte offsets 0x0, 0x4, ...).
    NAMES = ("collisions", "duplicates", "strays", "write_errors")

    def as_dict(self) -> dict[str, int]:
        return {n: getattr(self, n) for n in self.NAMES}


# ------------------------------------------------------------------------------ slots


class WordSpan:
    """Mixin for anything that is ``words`` words at word ``offset`` / byte ``address``.

    Shared by the linker's :class:`Slot`, the runtime's run-time allocations and the slots it
    watches or waits on; they differ in what they carry besides the span.
    """

    offset: int
    words: int
    address: int

    @property
    def trigger_offset(self) -> int:
        """Word offset of the trigger or status word (the last word of the span)."""
        return self.offset + self.words - 1

    @property
    def trigger_address(self) -> int:
        return self.address + WORD_BYTES * (self.words - 1)

    @property
    def end(self) -> int:
        """Word offset just past the span."""
        return self.offset + self.words


@dataclass(frozen=True)
class Allocation(WordSpan):
    """A run-time slot: ``words`` words at word ``offset`` of the window (``address`` global)."""

    offset: int
    words: int
    address: int
    purpose: str


class SlotAllocator:
    """Hands out run-time slots from a component's run-time area; thread-safe.

    The area is ``words`` words starting at word ``offset`` of a window based at byte
    address ``base``. Allocation is next-fit (the search continues after the previous
    allocation) so a freed slot is reused as late as possible: a stale call to a freed
    callback then most likely lands in a slot nobody uses yet.

    >>> a = SlotAllocator(base=0x1000, offset=8, words=6, component="host")
    >>> x = a.allocate(3, "rep of f"); y = a.allocate(3, "cep of cb")
    >>> (x.offset, hex(x.address)), (y.offset, y.trigger_offset)
    ((8, '0x1020'), (11, 13))
    >>> a.allocate(1, "rep of g")
    Traceback (most recent call last):
    ...
    pushpush.protocol.SlotsExhausted: run-time area of component 'host' is full: rep of g needs 1 word(s), 0 of 6 free (2 slot(s) in use); raise runtime_words of 'host' in the system description
    >>> a.free(x); a.free_words
    3
    """

    def __init__(self, base: int, offset: int, words: int, component: str = "?") -> None:
        if offset < 0 or words < 0:
            raise ValueError("offset and words must be non-negative")
        self.base = base
        self.offset = offset
        self.words = words
        self.component = component
        self._lock = threading.Lock()
        self._used: dict[int, Allocation] = {}  # offset -> allocation
        self._next = offset

    @property
    def free_words(self) -> int:
        with self._lock:
            return self.words - sum(a.words for a in self._used.values())

    @property
    def in_use(self) -> list[Allocation]:
        with self._lock:
            return sorted(self._used.values(), key=lambda a: a.offset)

    def _gaps(self, avoid: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
        """Free ranges (start, end) in address order (``avoid``: (offset, words) spans taken
        as used too)."""
        gaps = []
        pos = self.offset
        spans = [(a.offset, a.end) for a in self._used.values()] + [(o, o + n) for o, n in avoid]
        for start, end in sorted(spans):
            if start > pos:
                gaps.append((pos, start))
            pos = max(pos, end)
        if pos < self.offset + self.words:
            gaps.append((pos, self.offset + self.words))
        return gaps

    def allocate(self, words: int, purpose: str, avoid: Sequence[tuple[int, int]] = ()) -> Allocation:
        """A free range of ``words`` words; raises :class:`SlotsExhausted` if there is none.
        The (offset, words) spans in ``avoid`` are passed over while other words are free."""
        if words <= 0:
            raise ValueError(f"a slot needs at least one word, not {words}")
        with self._lock:
            start = None
            for gaps in ((self._gaps(avoid), self._gaps()) if avoid else (self._gaps(),)):
                # next-fit: first gap at or after the cursor, then wrap around
                for lo, hi in gaps:
                    s = max(lo, self._next)
                    if s + words <= hi:
                        start = s
                        break
                if start is None:
                    for lo, hi in gaps:
                        if lo + words <= hi:
                            start = lo
                            break
                if start is not None:
                    break
            if start is None:
                free = self.words - sum(a.words for a in self._used.values())
                raise SlotsExhausted(
                    f"run-time area of component '{self.component}' is full: {purpose} needs "
                    f"{words} word(s), {free} of {self.words} free ({len(self._used)} slot(s) in use); "
                    f"raise runtime_words of '{self.component}' in the system description")
            a = Allocation(start, words, self.base + WORD_BYTES * start, purpose)
            self._used[start] = a
            self._next = a.end if a.end < self.offset + self.words else self.offset
            return a

    def reserve(self, offset: int, words: int, purpose: str) -> Allocation:
        """Allocate exactly ``words`` words at word ``offset`` (a slot a predecessor left in use:
        docs/architecture.md §2.2); ``ValueError`` if they are not free or not in the area.

        >>> a = SlotAllocator(base=0x1000, offset=8, words=6, component="host")
        >>> r = a.reserve(10, 2, "rep left in flight"); (r.offset, a.allocate(2, "x").offset)
        (10, 12)
        """
        with self._lock:
            # the free gaps lie inside the area: a span outside it is in none of them
            if words <= 0 or not any(lo <= offset and offset + words <= hi for lo, hi in self._gaps()):
                raise ValueError(f"words {offset}..{offset + words - 1} of '{self.component}' are not "
                                 "free in its run-time area")
            a = Allocation(offset, words, self.base + WORD_BYTES * offset, purpose)
            self._used[offset] = a
            if a.end > self._next:
                self._next = a.end if a.end < self.offset + self.words else self.offset
            return a

    def free(self, allocation: Allocation) -> None:
        """Return a slot; freeing one twice or one not from here is a ``ValueError``."""
        with self._lock:
            if self._used.get(allocation.offset) != allocation:
                raise ValueError(f"slot at word {allocation.offset} ({allocation.purpose}) is not allocated")
            del self._used[allocation.offset]
