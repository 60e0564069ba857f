"""The sans-IO protocol core: call/return words, status codes, exceptions, slot allocator."""

from __future__ import annotations

import pickle
import random
import threading

import pytest

from pushpush.errors import PushPushError
from pushpush.protocol import (
    ECHO_BIT,
    ERROR_BIT,
    STATUS_OK,
    Allocation,
    BusWriteError,
    CallError,
    CallTimeout,
    ErrorCode,
    Reply,
    SlotAllocator,
    SlotsExhausted,
    Trigger,
    decode_call,
    decode_return,
    describe_status,
    encode_call,
    encode_error,
    encode_return,
    make_trigger,
    parse_trigger,
)
from pushpush.types import parse_signature

SIG = parse_signature("(a: i64, b: u8, c: f32, f: (x: i32) -> i32, e: bool) -> f64")


# ---------------------------------------------------------------------------- triggers


def test_trigger_round_trip() -> None:
    assert make_trigger(0xFFFC_0010) == 0xFFFC_0010
    assert make_trigger(0xFFFC_0010, one_way=True) == 0xFFFC_0011
    assert make_trigger(0, one_way=True) == 1
    assert parse_trigger(0xFFFC_0010) == Trigger(0xFFFC_0010, False)
    assert parse_trigger(0xFFFC_0011) == Trigger(0xFFFC_0010, True)
    assert parse_trigger(1) == Trigger(0, True)


@pytest.mark.parametrize("rep,one_way,msg", [
    (0, False, "non-zero rep address"),
    (0x1002, False, "not word aligned"),
    (0x1001, True, "not word aligned"),
    (-4, False, "32-bit"),
    (1 << 32, False, "32-bit"),
])
def test_make_trigger_rejects(rep: int, one_way: bool, msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        make_trigger(rep, one_way)


def test_parse_trigger_rejects() -> None:
    with pytest.raises(ValueError, match="idle"):
        parse_trigger(0)
    with pytest.raises(ValueError, match="no rep address"):
        parse_trigger(0x2)  # a sequence bit alone: two-way, but nowhere to reply


def test_trigger_sequence_bit() -> None:
    assert parse_trigger(0x4000_0012) == Trigger(0x4000_0010, False, 1)
    assert parse_trigger(0x4000_0013) == Trigger(0x4000_0010, True, 1)
    assert make_trigger(0x4000_0010, seq=1) == 0x4000_0012
    assert make_trigger(0x4000_0010, seq=2) == 0x4000_0010  # only the low bit counts


def test_status_echo() -> None:
    ft = parse_signature("(x: i32) -> i32")
    assert encode_return(ft, 5, seq=1) == [5, STATUS_OK | ECHO_BIT]
    assert encode_error(ft, ErrorCode.CALLEE_RAISED, seq=1) == [0, 0xC000_0001]
    r = decode_return(ft, [0, 0xC000_0001])
    assert (r.status, r.echo, r.ok) == (ErrorCode.CALLEE_RAISED, 1, False)
    r = decode_return(ft, [7, 0x4000_0001])
    assert (r.status, r.echo, r.ok, r.value) == (STATUS_OK, 1, True, 7)
    assert describe_status(0x4000_0001) == "ok"


# ---------------------------------------------------------------------------- calls


def test_encode_call_layout() -> None:
    words = encode_call(SIG, [-2, 255, 1.5, 0x4000_0100, True], rep_address=0xFFFC_0040)
    assert len(words) == SIG.cep_words == 7
    assert words == [0xFFFF_FFFE, 0xFFFF_FFFF, 255, 0x3FC0_0000, 0x4000_0100, 1, 0xFFFC_0040]
    args, trig = decode_call(SIG, words)
    assert args == [-2, 255, 1.5, 0x4000_0100, True]
    assert trig == Trigger(0xFFFC_0040, False)


def test_encode_call_keywords_and_one_way() -> None:
    words = encode_call(SIG, [1], {"e": False, "c": 0.0, "b": 0, "f": 4}, rep_address=0, one_way=True)
    assert words[-1] == 1
    assert decode_call(SIG, words)[1].one_way


def test_encode_call_random_round_trip() -> None:
    rng = random.Random(1)
    sig = parse_signature("(a: i8, b: u16, c: i32, d: u32, e: i64, f: u64, g: f64, h: bool) -> void")
    for _ in range(200):
        vals = [rng.randint(-128, 127), rng.randint(0, 65535), rng.randint(-2**31, 2**31 - 1),
                rng.randint(0, 2**32 - 1), rng.randint(-2**63, 2**63 - 1), rng.randint(0, 2**64 - 1),
                rng.uniform(-1e300, 1e300), rng.random() < 0.5]
        rep = rng.randrange(1, 1 << 30) * 4
        args, trig = decode_call(sig, encode_call(sig, vals, rep_address=rep))
        assert args == vals and trig.rep_address == rep


@pytest.mark.parametrize("args,kwargs,exc,match", [
    ([2**63, 0, 0.0, 4, True], {}, OverflowError, "argument 'a'"),
    ([0, 256, 0.0, 4, True], {}, OverflowError, "argument 'b'.*0..255"),
    ([0, 0, "x", 4, True], {}, TypeError, "argument 'c'"),
    ([0, 0, 0.0, 0, True], {}, ValueError, "argument 'f'.*null"),
    ([0, 0, 0.0, 4, 2], {}, OverflowError, "argument 'e'"),
    ([0, 0, 0.0, 4], {}, TypeError, "missing 1 required argument: 'e'"),
    ([0, 0, 0.0, 4, True], {"zz": 1}, TypeError, "unexpected keyword argument 'zz'"),
])
def test_encode_call_bad_arguments(args: list, kwargs: dict, exc: type, match: str) -> None:
    with pytest.raises(exc, match=match):
        encode_call(SIG, args, kwargs, rep_address=0x1000)


def test_decode_call_wrong_length() -> None:
    with pytest.raises(ValueError, match="7 words"):
        decode_call(SIG, [0] * 6)


# ---------------------------------------------------------------------------- returns


def test_return_ok_round_trip() -> None:
    words = encode_return(SIG, -0.5)
    assert len(words) == SIG.rep_words == 3 and words[-1] == STATUS_OK
    r = decode_return(SIG, words)
    assert r.ok and r.value == -0.5 and r.unwrap("b.f") == -0.5


def test_return_void() -> None:
    sig = parse_signature("() -> void")
    assert encode_return(sig, None) == [1]
    assert decode_return(sig, [1]) == Reply(1, None)
    with pytest.raises(TypeError):
        encode_return(sig, 3)


def test_encode_error_and_decode() -> None:
    words = encode_error(SIG, ErrorCode.BAD_RESULT)
    assert words == [0, 0, 0x8000_0003]
    r = decode_return(SIG, words)
    assert not r.ok and r.status == ErrorCode.BAD_RESULT and r.value is None
    with pytest.raises(CallError) as info:
        r.unwrap("b.f", 0x4000_0010)
    e = info.value
    assert e.function == "b.f" and e.address == 0x4000_0010 and e.code is ErrorCode.BAD_RESULT
    assert "b.f at 0x40000010" in str(e) and "result type" in str(e)


def test_encode_error_needs_bit_31() -> None:
    with pytest.raises(ValueError, match="bit 31"):
        encode_error(SIG, 5)


def test_error_codes_have_bit_31_and_descriptions() -> None:
    assert len({int(c) for c in ErrorCode}) == len(ErrorCode)
    for c in ErrorCode:
        assert c & ERROR_BIT and c.description and describe_status(c) == c.description


def test_unknown_and_malformed_status() -> None:
    r = decode_return(SIG, [0, 0, 0x8000_7777])
    with pytest.raises(CallError, match="unknown error code 0x80007777") as info:
        r.unwrap("x.y")
    assert info.value.code == 0x8000_7777
    with pytest.raises(CallError, match="malformed status"):
        decode_return(SIG, [0, 0, 2]).unwrap("x.y")
    with pytest.raises(ValueError, match="not arrived"):
        decode_return(SIG, [0, 0, 0])
    with pytest.raises(ValueError, match="3 words"):
        decode_return(SIG, [1])


# ---------------------------------------------------------------------------- exceptions


def test_exceptions() -> None:
    e = CallError("b.boom", 0xFFFC_1000, ErrorCode.CALLEE_RAISED, "see the log")
    assert isinstance(e, PushPushError)
    assert str(e) == ("call to b.boom at 0xFFFC1000 failed: the callee raised an exception "
                      "(status 0x80000001); see the log")
    t = CallTimeout("b.nobody", 0xFFFC_10C4, 0.25)
    assert isinstance(t, CallError) and isinstance(t, TimeoutError)
    assert "b.nobody at 0xFFFC10C4 timed out after 0.25 s" in str(t) and t.timeout == 0.25
    b = BusWriteError(0x1000, 3, "SLVERR")
    for x in (e, t, b):
        y = pickle.loads(pickle.dumps(x))
        assert type(y) is type(x) and str(y) == str(x)


# ---------------------------------------------------------------------------- slots


def test_allocator_basics() -> None:
    a = SlotAllocator(base=0x1000, offset=10, words=10, component="c")
    x = a.allocate(4, "x")
    assert x == Allocation(10, 4, 0x1028, "x")
    assert x.trigger_offset == 13 and x.trigger_address == 0x1034 and x.end == 14
    y = a.allocate(6, "y")
    assert y.offset == 14 and a.free_words == 0
    with pytest.raises(SlotsExhausted, match=r"component 'c' is full: z needs 1 word\(s\), 0 of 10 free"):
        a.allocate(1, "z")
    a.free(x)
    assert a.free_words == 4
    with pytest.raises(ValueError, match="not allocated"):
        a.free(x)
    with pytest.raises(ValueError):
        a.allocate(0, "empty")
    assert a.allocate(4, "again").offset == 10


def test_allocator_next_fit_delays_reuse() -> None:
    a = SlotAllocator(base=0, offset=0, words=12)
    x = a.allocate(3, "x")
    a.free(x)
    y = a.allocate(3, "y")
    assert y.offset == 3  # not the slot just freed
    z = a.allocate(3, "z")
    w = a.allocate(3, "w")
    assert (z.offset, w.offset) == (6, 9)
    assert a.allocate(3, "wrap").offset == 0  # wraps around to the freed space


def test_allocator_passes_over_avoided_spans_while_others_are_free() -> None:
    """Dead lent slots' words (``avoid``) are reused last: hardware may still call them."""
    a = SlotAllocator(base=0, offset=0, words=12)
    dead = a.allocate(3, "lent")
    a.free(dead)
    got = [a.allocate(3, f"r{i}", avoid=[(dead.offset, dead.words)]) for i in range(3)]
    assert [g.offset for g in got] == [3, 6, 9]
    a.free(got[1])
    # wrapping round: the free words at 6 first, not the dead slot's at 0
    assert a.allocate(3, "r3", avoid=[(0, 3)]).offset == 6
    # only the dead slot's words are left: they are used rather than failing
    assert a.allocate(3, "r4", avoid=[(0, 3)]).offset == 0
    with pytest.raises(SlotsExhausted):
        a.allocate(1, "full", avoid=[(0, 3)])


def test_allocator_fragmentation() -> None:
    a = SlotAllocator(base=0, offset=0, words=8)
    xs = [a.allocate(2, str(i)) for i in range(4)]
    a.free(xs[0])
    a.free(xs[2])
    with pytest.raises(SlotsExhausted, match="4 of 8 free"):
        a.allocate(3, "big")  # 4 words free, but not contiguous
    a.free(xs[1])
    assert a.allocate(6, "big").offset == 0


def test_allocator_random_never_overlaps() -> None:
    rng = random.Random(7)
    a = SlotAllocator(base=0x8000, offset=5, words=64)
    live: list[Allocation] = []
    for _ in range(2000):
        if live and (rng.random() < 0.5 or a.free_words < 8):
            a.free(live.pop(rng.randrange(len(live))))
        else:
            try:
                live.append(a.allocate(rng.randint(1, 8), "r"))
            except SlotsExhausted:
                continue
        cells = sorted((x.offset, x.end) for x in live)
        assert all(e1 <= s2 for (_, e1), (s2, _) in zip(cells, cells[1:]))
        assert all(5 <= s and e <= 69 for s, e in cells)
        assert a.free_words == 64 - sum(x.words for x in live)


def test_allocator_thread_safe() -> None:
    a = SlotAllocator(base=0, offset=0, words=400)
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            for _ in range(300):
                x = a.allocate(3, "t")
                a.free(x)
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and a.free_words == 400


# ---------------------------------------------------------------------------- doctests


def test_doctests() -> None:
    import doctest

    import pushpush.protocol
    import pushpush.runtime.backend
    import pushpush.runtime.functions
    import pushpush.runtime.memory

    for mod in (pushpush.protocol, pushpush.runtime.backend, pushpush.runtime.memory,
                pushpush.runtime.functions):
        result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, mod.__name__
        assert result.attempted > 0, mod.__name__
