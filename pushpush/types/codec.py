"""Marshalling: Python values into protocol words and back, with range and type checks that
name the parameter."""

from __future__ import annotations

import difflib
import math
import numbers
import operator
import struct
import sys
from collections.abc import Callable, Mapping, Sequence

from .model import WORD_MASK, ArgSlot, BufferType, FunctionType, Scalar, Type, _show, format_type

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


def _encode_buffer(t: BufferType, value: object, label: str) -> list[int]:
    """A buffer's 2 words: physical byte address, length in elements. ``value`` is a pair
    ``(address, length)`` or an object with ``physical_address`` and ``size`` (elements), as a
    ``pynq.allocate`` buffer has (the runtime checks its dtype and copies plain arrays)."""
    if hasattr(value, "physical_address") and hasattr(value, "size"):
        pair: object = (getattr(value, "physical_address"), getattr(value, "size"))
    else:
        pair = value
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        raise TypeError(f"{label}: expected a pynq.allocate buffer or a pair (physical address, "
                        f"length in elements) for {t}, got {type(value).__name__} {_show(value)}")
    addr = _as_int(pair[0], label, f"a physical address (int) for {t}")
    n = _as_int(pair[1], label, f"a length in elements (int) for {t}")
    if not 0 <= addr <= WORD_MASK:
        raise OverflowError(f"{label}: physical address {_show(addr)} is not a 32-bit address")
    if not 0 <= n <= WORD_MASK:
        raise OverflowError(f"{label}: length {_show(n)} is out of range (0..{WORD_MASK} elements)")
    if addr + n * t.element_bytes > 1 << 32:
        raise OverflowError(f"{label}: {n} elements of {t.element_bytes} bytes from "
                            f"0x{addr:08X} run past the end of the 32-bit address space")
    return [addr, n]


def _encode(t: Type, value: object, label: str) -> list[int]:
    if isinstance(t, BufferType):
        return _encode_buffer(t, value, label)
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
    if isinstance(t, BufferType):
        return (ws[0], ws[1])
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



# --------------------------------------------------------------------------------------------
# Precomputed per signature (the runtime's call path)
#
# Every closure below takes a fast path for the plain values a call carries (an ``int`` in
# range, ``True``/``False``, a word list from the bus) and hands anything else to the generic
# :func:`_encode`/:func:`_decode` above with the same label, so every check and every error
# message is exactly theirs; only the work that does not depend on the value (the labels, the
# limits, the word layout) is done once.

Encoder = Callable[[object], list[int]]
Decoder = Callable[[Sequence[int]], object]


def _encoder(t: Type, label: str) -> Encoder:
    """``_encode(t, value, label)`` with what does not depend on the value done once."""
    if isinstance(t, FunctionType):
        def enc_function(value: object) -> list[int]:
            a = value if type(value) is int else getattr(value, "address", None)
            if type(a) is int and 0 < a <= WORD_MASK and not a & 3:
                return [a]
            return _encode(t, value, label)
        return enc_function
    if isinstance(t, BufferType):
        def enc_buffer(value: object) -> list[int]:
            return _encode(t, value, label)
        return enc_buffer
    if not isinstance(t, Scalar):
        raise TypeError(f"not a type: {_show(t)}")
    name = t.name
    if name == "void":
        def enc_void(value: object) -> list[int]:
            return [] if value is None else _encode(t, value, label)
        return enc_void
    if name == "bool":
        def enc_bool(value: object) -> list[int]:
            if value is True:
                return [1]
            if value is False:
                return [0]
            return _encode(t, value, label)
        return enc_bool
    if t.is_float:
        def enc_float(value: object) -> list[int]:
            return _encode(t, value, label)
        return enc_float
    lo, hi = t.min_value, t.max_value
    if t.words == 2:
        def enc_int64(value: object) -> list[int]:
            if type(value) is int and lo <= value <= hi:
                u = value & 0xFFFF_FFFF_FFFF_FFFF
                return [u & WORD_MASK, u >> 32]
            return _encode(t, value, label)
        return enc_int64

    def enc_int(value: object) -> list[int]:
        if type(value) is int and lo <= value <= hi:
            return [value & WORD_MASK]
        return _encode(t, value, label)
    return enc_int


def _decoder(t: Type, label: str) -> Decoder:
    """``_decode(t, words, label)`` with what does not depend on the words done once."""
    n = t.words
    if isinstance(t, FunctionType) or (isinstance(t, Scalar) and t.name in ("u32",)):
        def dec_word(ws: Sequence[int]) -> object:
            if len(ws) == 1:
                w = ws[0]
                if type(w) is int and 0 <= w <= WORD_MASK:
                    return w
            return _decode(t, ws, label)
        return dec_word
    if isinstance(t, Scalar) and t.is_integer and n == 1:
        bits = t.bits
        mask = (1 << bits) - 1
        sign = 1 << (bits - 1) if t.signed else 0
        full = 1 << bits

        def dec_int(ws: Sequence[int]) -> object:
            if len(ws) == 1:
                w = ws[0]
                if type(w) is int and 0 <= w <= WORD_MASK:
                    raw = w & mask
                    return raw - full if raw & sign else raw
            return _decode(t, ws, label)
        return dec_int
    if isinstance(t, Scalar) and t.name == "bool":
        def dec_bool(ws: Sequence[int]) -> object:
            if len(ws) == 1:
                w = ws[0]
                if type(w) is int and 0 <= w <= WORD_MASK:
                    return w != 0
            return _decode(t, ws, label)
        return dec_bool
    if isinstance(t, Scalar) and t.name == "void":
        def dec_void(ws: Sequence[int]) -> object:
            return None if not ws else _decode(t, ws, label)
        return dec_void

    def dec_other(ws: Sequence[int]) -> object:
        return _decode(t, ws, label)
    return dec_other


class SignatureCodec:
    """Marshalling of one :class:`FunctionType`, prepared once: what a call path needs.

    Its methods give exactly what :func:`encode_args`, :func:`decode_args`,
    :func:`encode_result` and :func:`decode_result` give for this signature, with the same
    checks and error messages, but the labels, limits and word layout are computed here once
    instead of at every call. Get one with :func:`codec_of` (cached per signature).

    >>> c = codec_of(parse_signature("(x: i32, y: u8) -> i64"))
    >>> c.encode_args((-1, 7)), c.decode_args([4294967295, 7]), c.decode_result([4294967294, 4294967295])
    ([4294967295, 7], [-1, 7], -2)
    >>> c.encode_args((1, 300))
    Traceback (most recent call last):
    ...
    OverflowError: argument 'y' of (x: i32, y: u8) -> i64: 300 is out of range for u8 (0..255)
    """

    __slots__ = ("ft", "text", "names", "arg_words", "result_words", "cep_words", "rep_words",
                 "result_is_function", "function_params", "buffer_params", "_encoders", "_decoders",
                 "encode_result", "decode_result", "encode_args")

    def __init__(self, ft: FunctionType) -> None:
        ft = _check_ft(ft)
        self.ft = ft
        #: The canonical text of the signature (as error messages show it).
        self.text = text = format_type(ft)
        #: Effective parameter names (``argN`` when unnamed).
        self.names: tuple[str, ...] = tuple(ft.param_names())
        self.arg_words = ft.arg_words
        self.result_words = ft.result_words
        self.cep_words = ft.cep_words
        self.rep_words = ft.rep_words
        self.result_is_function = isinstance(ft.result, FunctionType)
        layout = ft.arg_layout()
        #: The function-typed parameters' :class:`ArgSlot` (index, name, type, word offset).
        self.function_params = tuple(s for s in layout if isinstance(s.type, FunctionType))
        #: The buffer parameters' :class:`ArgSlot` (the runtime turns arrays into their words).
        self.buffer_params = tuple(s for s in layout if isinstance(s.type, BufferType))
        self._encoders = tuple(_encoder(s.type, f"argument {s.name!r} of {text}") for s in layout)
        self._decoders = tuple((s.offset, s.offset + s.words, _decoder(s.type, f"argument {s.name!r} of {text}"))
                               for s in layout)
        #: ``encode_result(ft, value)`` for this signature.
        self.encode_result: Encoder = _encoder(ft.result, f"result of {text}")
        #: ``decode_result(ft, words)`` for this signature.
        self.decode_result: Decoder = _decoder(ft.result, f"result of {text}")
        #: ``encode_args(ft, args, kwargs)`` for this signature (a function made for it).
        self.encode_args: Callable[..., list[int]] = _args_encoder(ft, layout, self._encoders)

    def decode_args(self, words: Sequence[int]) -> list[object]:
        """``decode_args(ft, words)`` for this signature."""
        if len(words) != self.arg_words:
            return decode_args(self.ft, words)  # raises the usual error
        return [dec(words[lo:hi]) for lo, hi, dec in self._decoders]


def _args_encoder(ft: FunctionType, layout: Sequence[ArgSlot],
                  encoders: Sequence[Encoder]) -> Callable[..., list[int]]:
    """A function made for ``ft`` that does what ``encode_args(ft, args, kwargs)`` does.

    Exactly the positional arguments (the usual call) are encoded by straight-line code with
    each integer's limits written in, as :func:`collections.namedtuple` writes its methods;
    any other value goes through its parameter's encoder (the generic checks and messages) and
    any other binding (keywords, a wrong count) through :func:`encode_args` itself.
    """
    env: dict[str, object] = {"_generic": encode_args, "_ft": ft, "_SEQ": (tuple, list)}
    names = [f"a{i}" for i in range(len(layout))]
    lines = ["def encode_args(args, kwargs=None):",
             f"    if kwargs or type(args) not in _SEQ or len(args) != {len(layout)}:",
             "        return _generic(_ft, args, kwargs)"]
    if names:
        lines.append(f"    {', '.join(names)}, = args")
    parts = []
    for i, (s, enc) in enumerate(zip(layout, encoders)):
        a, w = names[i], f"w{i}"
        env[f"_enc{i}"] = enc
        t = s.type
        if isinstance(t, Scalar) and t.is_integer:
            lo, hi = t.min_value, t.max_value
            lines.append(f"    if type({a}) is int and {lo} <= {a} <= {hi}:")
            if t.words == 2:
                lines += [f"        {w} = {a} & 0xFFFFFFFFFFFFFFFF",
                          f"        {w} = [{w} & 0xFFFFFFFF, {w} >> 32]"]
            else:
                lines.append(f"        {w} = [{a} & 0xFFFFFFFF]")
            lines += ["    else:", f"        {w} = _enc{i}({a})"]
        else:
            lines.append(f"    {w} = _enc{i}({a})")
        parts.append(w)
    if len(parts) == 1:
        lines.append(f"    return {parts[0]}")
    else:
        lines.append(f"    return {' + '.join(parts) if parts else '[]'}")
    code = compile("\n".join(lines), f"<encode_args of {format_type(ft)}>", "exec")
    exec(code, env)
    fn = env["encode_args"]
    fn.__doc__ = f"encode_args(ft, args, kwargs) for {format_type(ft)}"
    return fn  # type: ignore[return-value]


_CODECS: dict[FunctionType, SignatureCodec] = {}


def codec_of(ft: FunctionType) -> SignatureCodec:
    """The :class:`SignatureCodec` of ``ft`` (one per distinct signature, cached).

    Hashing a signature costs about as much as encoding a call, so callers that make many
    calls keep the codec (the runtime stores it on each function object).
    """
    c = _CODECS.get(ft)
    if c is None:
        if len(_CODECS) >= 4096:  # many run-time signatures: start again rather than grow
            _CODECS.clear()
        c = _CODECS[ft] = SignatureCodec(ft)
    return c
