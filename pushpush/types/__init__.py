"""The PushPush type system: signature syntax, word layouts and value marshalling.

Every value that crosses a PushPush call is a sequence of 32-bit words (docs/architecture.md §2):

========================  =====  ==================================================
type                      words  encoding
========================  =====  ==================================================
``bool``                  1      0 or 1 (decoding: any non-zero word is ``True``)
``i8 i16 i32``            1      two's complement, sign-extended to 32 bits
``u8 u16 u32``            1      zero-extended to 32 bits
``f32``                   1      IEEE-754 binary32
``i64 u64 f64``           2      low word first
``void``                  0      nothing
function type             1      byte address of the first word of a cep slot
buffer ``in u32[]``       2      physical byte address, then length in elements
========================  =====  ==================================================

Signatures are written ``"(a: i32, b: (u32) -> i32) -> i32"``: a parenthesised, comma
separated list of parameters, each an optional ``name:`` followed by a type, then ``->`` and
the result type. A parameter may be a **buffer**: ``in T[]`` (the callee reads it) or
``out T[]`` (the callee writes it), ``T`` one of ``i8 i16 i32 u8 u16 u32 f32``; it travels
as 2 words (physical byte address, length in elements), its data moves by DMA, and it is
never a result. Function types nest anywhere a type may appear; ``->`` is right
associative (``() -> (u32) -> i32`` returns a function). Whitespace (including newlines) is
insignificant. Parameter names are ASCII identifiers (``[A-Za-z_][A-Za-z0-9_]*``); an unnamed
parameter N is called ``argN`` and effective names must be unique. ``void`` is only a result
type (``()`` is the empty parameter list), a trailing comma is an error, and function types
nest at most :data:`MAX_NESTING` deep. Errors are :class:`TypeSyntaxError` with a 1-based
column and, where possible, a fix (``unknown type 'int32'; did you mean 'i32'?``).

>>> ft = parse_signature("(a: i32, b: (u32) -> i32) -> i64")
>>> format_type(ft)
'(a: i32, b: (u32) -> i32) -> i64'
>>> ft.arg_words, ft.result_words, ft.cep_words, ft.rep_words
(2, 2, 3, 3)
>>> encode_args(ft, [-1], {"b": 0x4000_0010})
[4294967295, 1073741840]
>>> decode_result(ft, encode_result(ft, -2))
-2

Marshalling rules (what :func:`encode_value` accepts):

* ``bool``: ``True``/``False``, ``numpy.bool_``, and the integers 0 and 1 (any object with
  ``__index__``, e.g. numpy integers). Other integers raise :class:`OverflowError` ("out of
  range for bool (0..1)"); anything else raises :class:`TypeError`.
* integer types: ``int`` or anything with ``__index__`` (numpy integers). ``bool`` (and
  ``numpy.bool_``) is rejected with :class:`TypeError` for integer types, since passing a
  flag where a number is expected is almost always a mistake; floats are rejected too, even
  integral ones (no silent truncation). Out-of-range values raise :class:`OverflowError`.
* ``f32``/``f64``: any real number (``numbers.Real``: ``float``, ``int``,
  ``fractions.Fraction``, numpy floats and integers; not ``decimal.Decimal``), converted
  with ``float()`` and then, for ``f32``, rounded to the nearest binary32 (ties to even;
  values below the smallest subnormal become zero). Finite values too large for binary32 (rounding to infinity) raise
  :class:`OverflowError`; ``inf``, ``-inf`` and NaN are allowed. ``bool`` is rejected.
* function types: an integer byte address (or an object with an ``address`` attribute holding
  one, so a runtime proxy can be passed directly) with ``0 < address < 2**32`` and
  ``address % 4 == 0``. Zero and unaligned addresses raise :class:`ValueError`; negative or
  too large ones :class:`OverflowError`. The runtime layer turns Python callables into
  addresses before calling into this module.
* ``void``: only ``None``.
* buffers: a pair ``(physical address, length in elements)`` or an object with
  ``physical_address`` and ``size`` (a ``pynq.allocate`` buffer); the runtime checks dtypes
  and copies plain numpy arrays (docs/runtime.md). Decoding gives the pair.

Decoding (:func:`decode_value`) is total for every word pattern: integer types take the low
N bits of the word (sign-extending signed types), ``bool`` maps non-zero to ``True``, floats
are reinterpreted bit for bit, function values come back as the plain integer address (not
validated: the runtime reports bad addresses with an error status). Words must be integers in
``0 <= w < 2**32`` (numpy unsigned integers are fine).

Round trips: ``decode(encode(v)) == v`` for every in-range value of every type (``f32``:
for every binary32-representable value; ``f64``: bit-exact, ``-0.0`` and NaN payloads
included). ``encode(decode(w)) == w`` bit-exactly for every
*canonical* word sequence (integers sign/zero-extended, bool 0/1, every float pattern).
This includes every NaN: signalling NaNs and payloads of ``f32`` and ``f64`` are preserved
(``f32`` NaNs are widened to ``float`` by placing their 23-bit payload in the top of the
binary64 mantissa, not by the FPU, which would set the quiet bit). Converting an arbitrary
Python NaN to ``f32`` keeps its sign and the top 23 payload bits; if those are all zero the
quiet bit is set so the result is still a NaN.

All types are immutable and hashable. ``==`` compares types exactly, parameter names
included; :func:`structurally_equal` ignores names (what the linker uses to match an import
against an export).
"""


from __future__ import annotations

from .codec import (
    SignatureCodec, codec_of, decode_args, decode_result, decode_value, encode_args, encode_result,
    encode_value,
)
from .model import (
    BOOL, BUFFER_DIRECTIONS, BUFFER_ELEMENTS, F32, F64, I8, I16, I32, I64, MAX_NESTING, SCALAR_NAMES,
    SCALARS, U8, U16, U32, U64, VOID, WORD_BYTES, WORD_MASK, ArgSlot, BufferType, FunctionType, Param,
    Scalar, Type, erase_names, format_type, nested_buffer, structurally_equal, words_of,
)
from .parse import TypeSyntaxError, parse_signature, parse_type

__all__ = [
    "WORD_BYTES",
    "WORD_MASK",
    "SCALAR_NAMES",
    "TypeSyntaxError",
    "Scalar",
    "Param",
    "ArgSlot",
    "FunctionType",
    "BufferType",
    "BUFFER_ELEMENTS",
    "BUFFER_DIRECTIONS",
    "nested_buffer",
    "Type",
    "VOID",
    "BOOL",
    "I8",
    "I16",
    "I32",
    "U8",
    "U16",
    "U32",
    "F32",
    "I64",
    "U64",
    "F64",
    "SCALARS",
    "MAX_NESTING",
    "parse_type",
    "parse_signature",
    "format_type",
    "structurally_equal",
    "erase_names",
    "words_of",
    "encode_value",
    "decode_value",
    "encode_args",
    "decode_args",
    "encode_result",
    "decode_result",
    "SignatureCodec",
    "codec_of",
]

# The public classes live at their public path (reprs, tracebacks, pickles).
for _cls in (TypeSyntaxError, Scalar, Param, ArgSlot, FunctionType, BufferType):
    _cls.__module__ = __name__
del _cls
