"""Marshalling: Python values into protocol words and back, with range and type checks that
name the parameter."""

from __future__ import annotations

import difflib
import math
import numbers
import operator
import struct
import sys
from collections.abc import Mapping, Sequence

from .model import WORD_MASK, FunctionType, Scalar, Type, _show, format_type

# --------------------------------------------------------------------------------------------
# Marshalling


def _is_bool(value: object) -> bool:
    if isinstance(value, bool):
        return True
    np = sys.modules.get("numpy")  # a numpy bool can only exist if numpy is imported
    return np is not None and isinstance(value, np.bool_)


def _as_int(value: object, label: str, what: str) -> int:
    if _is_bool(value):
        raise TypeError(f"{label}: expected {what}, got bool {_show(value)}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{label}: expected {what}, got {type(value).__name__} {_show(value)}") from None


def _range_error(label: str, value: int, t: Scalar) -> OverflowError:
    return OverflowError(f"{label}: {_show(value)} is out of range for {t.name} ({t.min_value}..{t.max_value})")


_F32_MAX = float(struct.unpack("<f", struct.pack("<I", 0x7F7F_FFFF))[0])


def _f32_bits(x: float, label: str) -> int:
    if math.isnan(x):
        b64 = int(struct.unpack("<Q", struct.pack("<d", x))[0])
        mant = (b64 >> 29) & 0x7F_FFFF
        if mant == 0:
            mant = 0x40_0000
        return ((b64 >> 32) & 0x8000_0000) | 0x7F80_0000 | mant
    try:
        packed = struct.pack("<f", x)
    except OverflowError:
        raise OverflowError(
            f"{label}: {x!r} is out of range for f32 (it rounds to infinity; the largest f32 is {_F32_MAX!r})"
        ) from None
    return int(struct.unpack("<I", packed)[0])


def _f32_value(w: int) -> float:
    if (w & 0x7F80_0000) == 0x7F80_0000 and (w & 0x7F_FFFF):
        b64 = ((w & 0x8000_0000) << 32) | (0x7FF << 52) | ((w & 0x7F_FFFF) << 29)
        return float(struct.unpack("<d", struct.pack("<Q", b64))[0])
    return float(struct.unpack("<f", struct.pack("<I", w))[0])


def _as_float(value: object, label: str, t: Scalar) -> float:
    if _is_bool(value) or not isinstance(value, numbers.Real):
        raise TypeError(f"{label}: expected a real number for {t.name}, got {type(value).__name__} {_show(value)}")
    try:
        return float(value)
    except OverflowError:
        raise OverflowError(f"{label}: {_show(value)} is out of range for {t.name}") from None


def _encode(t: Type, value: object, label: str) -> list[int]:
    if isinstance(t, FunctionType):
        target = value
        if not isinstance(value, int) and hasattr(value, "address"):
            target = getattr(value, "address")
        addr = _as_int(target, label, f"a function address (int) for {format_type(t)}")
        if addr == 0:
            raise ValueError(f"{label}: 0 is not a valid function address (null function) for {format_type(t)}")
        if not 0 < addr < 1 << 32:
            shown = f"{addr:#x}" if addr.bit_length() <= 128 else _show(addr)
            raise OverflowError(f"{label}: function address {shown} is out of range (0x4..0xfffffffc)")
        if addr % 4:
            raise ValueError(f"{label}: function address {addr:#x} is not word aligned")
        return [addr]
    if not isinstance(t, Scalar):
        raise TypeError(f"not a type: {_show(t)}")
    name = t.name
    if name == "void":
        if value is not None:
            raise TypeError(f"{label}: void takes no value (None), got {type(value).__name__} {_show(value)}")
        return []
    if name == "bool":
        if _is_bool(value):
            return [1 if value else 0]
        try:
            v = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            raise TypeError(f"{label}: expected a bool for bool, got {type(value).__name__} {_show(value)}") from None
        if v not in (0, 1):
            raise _range_error(label, v, t)
        return [v]
    if name == "f32":
        return [_f32_bits(_as_float(value, label, t), label)]
    if name == "f64":
        x = _as_float(value, label, t)
        lo, hi = struct.unpack("<II", struct.pack("<d", x))
        return [int(lo), int(hi)]
    v = _as_int(value, label, f"an integer for {name}")
    lo_lim, hi_lim = t.min_value, t.max_value
    assert lo_lim is not None and hi_lim is not None
    if not lo_lim <= v <= hi_lim:
        raise _range_error(label, v, t)
    if t.words == 2:
        u = v & 0xFFFF_FFFF_FFFF_FFFF
        return [u & WORD_MASK, u >> 32]
    return [v & WORD_MASK]


def _check_words(words: Sequence[int], count: int, label: str) -> list[int]:
    if len(words) != count:
        raise ValueError(f"{label}: expected {count} word{'s' if count != 1 else ''}, got {len(words)}")
    out: list[int] = []
    for i, w in enumerate(words):
        if _is_bool(w):
            raise TypeError(f"{label}: word {i} is a bool, expected a 32-bit word")
        try:
            v = operator.index(w)
        except TypeError:
            raise TypeError(f"{label}: word {i} is a {type(w).__name__}, expected a 32-bit word") from None
        if not 0 <= v <= WORD_MASK:
            raise ValueError(f"{label}: word {i} = {_show(v)} is not a 32-bit word (0..{WORD_MASK})")
        out.append(v)
    return out


def _decode(t: Type, words: Sequence[int], label: str) -> object:
    ws = _check_words(words, t.words, label)
    if isinstance(t, FunctionType):
        return ws[0]
    name = t.name
    if name == "void":
        return None
    if name == "bool":
        return ws[0] != 0
    if name == "f32":
        return _f32_value(ws[0])
    if name == "f64":
        return float(struct.unpack("<d", struct.pack("<II", ws[0], ws[1]))[0])
    raw = ws[0] | (ws[1] << 32) if t.words == 2 else ws[0]
    bits = t.bits
    raw &= (1 << bits) - 1
    if t.signed and raw >> (bits - 1):
        raw -= 1 << bits
    return raw


def encode_value(t: Type, value: object, name: str = "value") -> list[int]:
    """Encode one value of type ``t`` as 32-bit words (each ``0 <= w < 2**32``).

    ``name`` labels the value in error messages and is used verbatim.

    >>> encode_value(I8, -1), encode_value(U64, 2**32 + 5), encode_value(F32, 1.0)
    ([4294967295], [5, 1], [1065353216])
    >>> encode_value(U8, 300, "x")
    Traceback (most recent call last):
    ...
    OverflowError: x: 300 is out of range for u8 (0..255)
    """
    return _encode(t, value, name)


def decode_value(t: Type, words: Sequence[int]) -> object:
    """Decode the words of one value of type ``t`` (the inverse of :func:`encode_value`).

    >>> decode_value(I8, [0xFFFF_FF80]), decode_value(I8, [0x180]), decode_value(BOOL, [7])
    (-128, -128, True)
    >>> decode_value(F64, encode_value(F64, 0.1))
    0.1
    """
    return _decode(t, words, f"value of type {format_type(t)}")


def _check_ft(ft: object) -> FunctionType:
    if not isinstance(ft, FunctionType):
        raise TypeError(f"expected a FunctionType, not {type(ft).__name__}")
    return ft


def encode_args(
    ft: FunctionType, args: Sequence[object], kwargs: Mapping[str, object] | None = None
) -> list[int]:
    """Bind arguments like a Python call and encode them into the cep argument words.

    Every parameter is positional-or-keyword, named as in :meth:`FunctionType.param_names`.
    Missing, extra, duplicate or unknown arguments raise :class:`TypeError` naming them; bad
    values raise :class:`TypeError`/:class:`OverflowError`/:class:`ValueError` naming the
    parameter. The trigger word is not included.

    >>> ft = parse_signature("(x: u8, y: i64) -> void")
    >>> encode_args(ft, [1], {"y": -2})
    [1, 4294967294, 4294967295]
    >>> encode_args(ft, [300, 0])
    Traceback (most recent call last):
    ...
    OverflowError: argument 'x' of (x: u8, y: i64) -> void: 300 is out of range for u8 (0..255)
    >>> encode_args(ft, [1])
    Traceback (most recent call last):
    ...
    TypeError: (x: u8, y: i64) -> void: missing 1 required argument: 'y'
    """
    ft = _check_ft(ft)
    sig = format_type(ft)
    names = ft.param_names()
    kwargs = {} if kwargs is None else kwargs
    if isinstance(args, (str, bytes)):
        raise TypeError(f"{sig}: args must be a sequence of values, not {type(args).__name__}")
    args = list(args)
    if len(args) > len(names):
        n = len(names)
        raise TypeError(
            f"{sig}: takes {n} argument{'s' if n != 1 else ''} but {len(args)} {'were' if len(args) != 1 else 'was'} given"
        )
    bound: dict[str, object] = dict(zip(names, args))
    for key, value in kwargs.items():
        if key not in names:
            close = difflib.get_close_matches(str(key), names, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise TypeError(f"{sig}: got an unexpected keyword argument {key!r}{hint}")
        if key in bound:
            raise TypeError(f"{sig}: got multiple values for argument {key!r}")
        bound[key] = value
    missing = [n for n in names if n not in bound]
    if missing:
        quoted = [repr(m) for m in missing]
        listed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
        raise TypeError(
            f"{sig}: missing {len(missing)} required argument{'s' if len(missing) != 1 else ''}: {listed}"
        )
    words: list[int] = []
    for name, p in zip(names, ft.params):
        words.extend(_encode(p.type, bound[name], f"argument {name!r} of {sig}"))
    return words


def decode_args(ft: FunctionType, words: Sequence[int]) -> list[object]:
    """Decode the argument words of a cep slot (without the trigger) into values, in order.

    >>> decode_args(parse_signature("(u8, i64) -> void"), [1, 4294967294, 4294967295])
    [1, -2]
    """
    ft = _check_ft(ft)
    sig = format_type(ft)
    if len(words) != ft.arg_words:
        raise ValueError(f"arguments of {sig}: expected {ft.arg_words} words, got {len(words)}")
    return [
        _decode(s.type, words[s.offset : s.offset + s.words], f"argument {s.name!r} of {sig}")
        for s in ft.arg_layout()
    ]


def encode_result(ft: FunctionType, value: object) -> list[int]:
    """Encode a function's result into the rep result words (without the status word).

    >>> encode_result(parse_signature("() -> void"), None)
    []
    >>> encode_result(parse_signature("() -> i16"), -1)
    [4294967295]
    """
    ft = _check_ft(ft)
    return _encode(ft.result, value, f"result of {format_type(ft)}")


def decode_result(ft: FunctionType, words: Sequence[int]) -> object:
    """Decode the rep result words (without the status word); ``void`` gives ``None``.

    >>> decode_result(parse_signature("() -> u16"), [0xFFFF_FFFF])
    65535
    """
    ft = _check_ft(ft)
    return _decode(ft.result, words, f"result of {format_type(ft)}")

