"""Edges of the sans-IO protocol core that a user sees: exact status descriptions and error
texts, the echo bit, the bounds of trigger and error words, and the slot allocator's
``reserve`` at the edges of its area (issue 35: each test here kills mutants of
``pushpush/protocol.py`` that the rest of the suite let through)."""

from __future__ import annotations

import pytest

from pushpush.protocol import (
    ECHO_BIT,
    ERROR_BIT,
    STATUS_OK,
    CallError,
    CallTimeout,
    ErrorCode,
    SlotAllocator,
    SlotsExhausted,
    buffer_error,
    describe_status,
    encode_error,
    make_trigger,
    status_echo,
)
from pushpush.types import parse_signature


def test_buffer_error_needs_error_bit_and_buffer_code() -> None:
    assert buffer_error(0x8001_0106) == (1, 1)
    assert buffer_error(0x8004_0306 | ECHO_BIT) == (3, 4)  # the echo bit is not part of the code
    assert buffer_error(0x0001_0106) is None  # no error bit: not an error at all
    assert buffer_error(0x8001_0105) is None  # cause bits on another code (BUS_ERROR)
    assert buffer_error(0x8008_0106) is None  # bits above the cause: not a buffer status
    assert buffer_error(0x8000_0106) is None  # no cause


def test_describe_status_exact_texts() -> None:
    assert describe_status(0) == "idle (no reply yet)"
    assert describe_status(ECHO_BIT) == "idle (no reply yet)"
    assert describe_status(STATUS_OK | ECHO_BIT) == "ok"
    assert describe_status(0x8001_0206) == ("the DMA transfer of buffer parameter 2 failed: timed out: the module "
                                            "took or gave no element of its stream for the engine's timeout")
    assert describe_status(0x8003_0106) == ("the DMA transfer of buffer parameter 1 failed: the memory answered "
                                            "DECERR (nothing there: is it a physical address in DDR?)")
    assert describe_status(0x8005_0206) == "the DMA transfer of buffer parameter 2 failed: cause 5"
    assert describe_status(0x8000_0106) == "unknown error code 0x80000106"  # BUFFER code with cause 0
    assert describe_status(ErrorCode.COLLISION | ECHO_BIT) == "the callee's slot stayed busy (collision)"


def test_status_echo_is_bit_30() -> None:
    assert status_echo(STATUS_OK) == 0
    assert status_echo(STATUS_OK | ECHO_BIT) == 1
    assert status_echo(ErrorCode.CALLEE_RAISED | ECHO_BIT) == 1
    assert status_echo(ErrorCode.CALLEE_RAISED) == 0
    assert status_echo(0) == 0


def test_make_trigger_top_of_address_space() -> None:
    assert make_trigger(0xFFFF_FFFC) == 0xFFFF_FFFC
    with pytest.raises(ValueError, match="0xFFFFFFFF is not word aligned"):
        make_trigger(0xFFFF_FFFF)


def test_encode_error_refuses_more_than_32_bits() -> None:
    ft = parse_signature("(a: i32) -> i32")
    with pytest.raises(ValueError, match="does not have bit 31 set"):
        encode_error(ft, 0x1_8000_0001)
    assert encode_error(ft, ErrorCode.BAD_RESULT, seq=1) == [0, ErrorCode.BAD_RESULT | ECHO_BIT]


def test_call_timeout_fields_and_text() -> None:
    e = CallTimeout("f", None, 1.5)
    assert e.code == 0 and e.detail is None and e.timeout == 1.5 and isinstance(e, TimeoutError)
    assert str(e) == "call to f timed out after 1.5 s (no reply: is the callee running and serving?)"
    e = CallTimeout("f", 0x4000_0010, 2, "the board stopped")
    assert e.detail == "the board stopped" and e.address == 0x4000_0010
    assert str(e) == "call to f at 0x40000010 timed out after 2 s: the board stopped"
    assert isinstance(e, CallError)


def test_allocator_area_bounds() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        SlotAllocator(0, -1, 4)
    with pytest.raises(ValueError, match="non-negative"):
        SlotAllocator(0, 0, -1)
    empty = SlotAllocator(0x1000, 4, 0, "c")  # a component without a run-time area
    assert empty.free_words == 0
    with pytest.raises(SlotsExhausted, match="0 of 0 free"):
        empty.allocate(1, "rep of f")


def test_reserve_at_the_edges_of_the_area() -> None:
    a = SlotAllocator(base=0x1000, offset=8, words=6, component="c")  # words 8..13
    first = a.reserve(8, 1, "first word")
    assert (first.offset, first.words, first.address, first.purpose) == (8, 1, 0x1020, "first word")
    last = a.reserve(12, 2, "last words")
    assert (last.offset, last.address, last.purpose, last.end) == (12, 0x1030, "last words", 14)
    assert a.free_words == 3
    for offset, words in ((7, 1), (13, 2), (12, 1), (8, 1), (11, 2), (9, 0), (9, -1), (14, 1)):
        with pytest.raises(ValueError, match=f"words {offset}..{offset + words - 1} of 'c' are not free"):
            a.reserve(offset, words, "x")
    mid = a.reserve(9, 3, "the gap between")
    assert (mid.offset, mid.end) == (9, 12) and a.free_words == 0
    assert [s.purpose for s in a.in_use] == ["first word", "the gap between", "last words"]


def test_reserve_overlapping_a_slot_from_below() -> None:
    a = SlotAllocator(base=0, offset=8, words=6, component="c")
    a.reserve(10, 2, "in flight")
    with pytest.raises(ValueError, match="not free"):
        a.reserve(9, 2, "x")  # 9..10: its second word is taken
    assert a.reserve(8, 2, "below").end == 10


def test_allocator_without_a_component_name_says_so() -> None:
    a = SlotAllocator(base=0, offset=0, words=1)
    a.allocate(1, "rep of f")
    with pytest.raises(SlotsExhausted, match=r"^run-time area of component '\?' is full: rep of g needs 1 word"):
        a.allocate(1, "rep of g")
