"""The PushPush type system: signature syntax, word layouts and value marshalling.

Every value that crosses a PushPush call is a sequence of 32-bit words (ARCHITECTURE.md §2):

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
========================  =====  ==================================================

Signatures are written ``"(a: i32, b: (u32) -> i32) -> i32"``: a parenthesised, comma
separated list of parameters, each an optional ``name:`` followed by a type, then ``->`` and
the result type. Function types nest anywhere a type may appear; ``->`` is right
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

import difflib
import math
import numbers
import operator
import re
import struct
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias, Union

__all__ = [
    "SCALAR_NAMES",
    "TypeSyntaxError",
    "Scalar",
    "Param",
    "ArgSlot",
    "FunctionType",
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
]

#: Every scalar type name, in the order of ARCHITECTURE.md §2.
SCALAR_NAMES: tuple[str, ...] = (
    "bool",
    "i8",
    "i16",
    "i32",
    "u8",
    "u16",
    "u32",
    "f32",
    "i64",
    "u64",
    "f64",
    "void",
)

#: Deepest nesting of function types the parser accepts (guards against RecursionError).
MAX_NESTING = 64

#: Bytes in a protocol word, and the mask of a word's value (the only definitions).
WORD_BYTES = 4
WORD_MASK = 0xFFFF_FFFF

# name -> (bits, words, signed integer, float)
_SCALAR_INFO: dict[str, tuple[int, int, bool, bool]] = {
    "bool": (1, 1, False, False),
    "i8": (8, 1, True, False),
    "i16": (16, 1, True, False),
    "i32": (32, 1, True, False),
    "u8": (8, 1, False, False),
    "u16": (16, 1, False, False),
    "u32": (32, 1, False, False),
    "f32": (32, 1, False, True),
    "i64": (64, 2, True, False),
    "u64": (64, 2, False, False),
    "f64": (64, 2, False, True),
    "void": (0, 0, False, False),
}

# Spellings from other languages, for "did you mean" hints.
_ALIASES: dict[str, str] = {
    "int": "i32",
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "uint": "u32",
    "uint8": "u8",
    "uint16": "u16",
    "uint32": "u32",
    "uint64": "u64",
    "int8_t": "i8",
    "int16_t": "i16",
    "int32_t": "i32",
    "int64_t": "i64",
    "uint8_t": "u8",
    "uint16_t": "u16",
    "uint32_t": "u32",
    "uint64_t": "u64",
    "char": "i8",
    "byte": "u8",
    "short": "i16",
    "long": "i64",
    "unsigned": "u32",
    "float": "f32",
    "float32": "f32",
    "single": "f32",
    "double": "f64",
    "float64": "f64",
    "boolean": "bool",
    "bit": "bool",
    "logic": "bool",
    "none": "void",
    "unit": "void",
    "i1": "bool",
    "u1": "bool",
}

_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class TypeSyntaxError(ValueError):
    """A signature that does not parse.

    Attributes: ``message`` (what is wrong, with a hint where one helps), ``column`` (1-based
    column into ``text``; ``len(text) + 1`` for the end of the text) and ``text`` (the whole
    signature). ``str(e)`` is ``f"{message} (column {column})"``; :meth:`caret` adds the text
    with a marker under the column, for multi-line reports.

    >>> try:
    ...     parse_type("(x: int32) -> void")
    ... except TypeSyntaxError as e:
    ...     print(e)
    ...     print(e.caret())
    unknown type 'int32'; did you mean 'i32'? (column 5)
    (x: int32) -> void
        ^
    """

    def __init__(self, message: str, column: int, text: str) -> None:
        super().__init__(f"{message} (column {column})")
        self.message = message
        self.column = column
        self.text = text

    def caret(self) -> str:
        """The text on one line and a ``^`` under the offending column on the next.

        Line breaks in the text are shown as spaces so the marker lines up.
        """
        flat = re.sub(r"\s", " ", self.text)
        return f"{flat}\n{' ' * (self.column - 1)}^"

    def __reduce__(self) -> tuple[type[TypeSyntaxError], tuple[str, int, str]]:
        return (TypeSyntaxError, (self.message, self.column, self.text))


@dataclass(frozen=True)
class Scalar:
    """A scalar type, one of :data:`SCALAR_NAMES`.

    ``bits`` is the value width (``bool``: 1, ``void``: 0), ``words`` the number of 32-bit
    words it occupies, ``signed`` is true for the two's-complement integer types ``iN`` only
    (not for floats, not for ``bool``), ``is_float`` for ``f32`` and ``f64``.

    >>> I8.bits, I8.words, I8.signed, I8.is_float, I8.min_value, I8.max_value
    (8, 1, True, False, -128, 127)
    >>> F64.words, VOID.words
    (2, 0)
    """

    name: str

    def __post_init__(self) -> None:
        if self.name not in _SCALAR_INFO:
            raise ValueError(f"unknown scalar type {self.name!r}; expected one of {', '.join(SCALAR_NAMES)}")

    @property
    def bits(self) -> int:
        """Width of the value in bits (``bool``: 1, ``void``: 0)."""
        return _SCALAR_INFO[self.name][0]

    @property
    def words(self) -> int:
        """Number of 32-bit words a value occupies (0, 1 or 2)."""
        return _SCALAR_INFO[self.name][1]

    @property
    def signed(self) -> bool:
        """True for the signed integer types ``i8 i16 i32 i64``."""
        return _SCALAR_INFO[self.name][2]

    @property
    def is_float(self) -> bool:
        """True for ``f32`` and ``f64``."""
        return _SCALAR_INFO[self.name][3]

    @property
    def is_integer(self) -> bool:
        """True for the integer types ``iN`` and ``uN`` (not ``bool``)."""
        return self.name[0] in "iu"

    @property
    def is_void(self) -> bool:
        """True for ``void``."""
        return self.name == "void"

    @property
    def min_value(self) -> int | None:
        """Smallest encodable integer (``bool``: 0); ``None`` for floats and ``void``."""
        if self.name == "bool":
            return 0
        if not self.is_integer:
            return None
        return -(1 << (self.bits - 1)) if self.signed else 0

    @property
    def max_value(self) -> int | None:
        """Largest encodable integer (``bool``: 1); ``None`` for floats and ``void``."""
        if self.name == "bool":
            return 1
        if not self.is_integer:
            return None
        return (1 << (self.bits - 1)) - 1 if self.signed else (1 << self.bits) - 1

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Param:
    """One parameter of a function type: an optional name and a (non-void) type.

    >>> Param("x", I32)
    Param(name='x', type=Scalar(name='i32'))
    """

    name: str | None
    type: Type

    def __post_init__(self) -> None:
        if self.name is not None and (not isinstance(self.name, str) or not _IDENT_RE.match(self.name)):
            raise ValueError(f"invalid parameter name {self.name!r}: expected an identifier [A-Za-z_][A-Za-z0-9_]*")
        if not isinstance(self.type, (Scalar, FunctionType)):
            raise TypeError(f"parameter type must be a Scalar or FunctionType, not {type(self.type).__name__}")
        if self.type == VOID:
            raise ValueError("void is not allowed as a parameter type")


@dataclass(frozen=True)
class ArgSlot:
    """Where one argument lives in a call endpoint slot.

    ``index`` is the parameter position, ``name`` its effective name (``argN`` when unnamed),
    ``offset`` the word offset of its first word within the slot and ``words`` its size.
    The byte offset is ``4 * offset``.
    """

    index: int
    name: str
    type: Type
    offset: int
    words: int


@dataclass(frozen=True)
class FunctionType:
    """A function type: parameters and a result type.

    A function *value* is one word, the byte address of a call endpoint (cep) slot. The cep
    slot holds the argument words then a trigger word (``cep_words``); the return endpoint
    (rep) slot holds the result words then a status word (``rep_words``).

    >>> ft = parse_signature("(a: i64, (u32) -> i32, c: u8) -> f64")
    >>> ft.words, ft.arg_words, ft.result_words, ft.cep_words, ft.rep_words
    (1, 4, 2, 5, 3)
    >>> [(s.name, s.offset, s.words) for s in ft.arg_layout()]
    [('a', 0, 2), ('arg1', 2, 1), ('c', 3, 1)]
    >>> [s.name for s in ft.function_params()]
    ['arg1']

    Unnamed parameters are called ``arg0``, ``arg1``, ... by position; effective names must
    be unique (``(arg1: i32, u8) -> void`` is rejected). ``params`` may be given as any
    iterable of :class:`Param`; it is stored as a tuple.
    """

    params: tuple[Param, ...]
    result: Type

    def __post_init__(self) -> None:
        params = tuple(self.params)
        object.__setattr__(self, "params", params)
        for p in params:
            if not isinstance(p, Param):
                raise TypeError(f"FunctionType params must be Param objects, not {type(p).__name__}")
        if not isinstance(self.result, (Scalar, FunctionType)):
            raise TypeError(f"result type must be a Scalar or FunctionType, not {type(self.result).__name__}")
        dup = _duplicate_name(params)
        if dup is not None:
            raise ValueError(f"duplicate parameter name {dup[1]!r}")

    @property
    def words(self) -> int:
        """A function value is passed as one word (a byte address)."""
        return 1

    @property
    def arg_words(self) -> int:
        """Total words of all arguments."""
        return sum(p.type.words for p in self.params)

    @property
    def result_words(self) -> int:
        """Words of the result (0 for ``void``)."""
        return self.result.words

    @property
    def cep_words(self) -> int:
        """Size of a call endpoint slot: the argument words plus one trigger word."""
        return self.arg_words + 1

    @property
    def rep_words(self) -> int:
        """Size of a return endpoint slot: the result words plus one status word."""
        return self.result_words + 1

    def param_names(self) -> list[str]:
        """Effective parameter names: the given name, or ``argN`` for unnamed parameter N.

        >>> parse_signature("(x: i32, u8) -> void").param_names()
        ['x', 'arg1']
        """
        return [p.name if p.name is not None else f"arg{i}" for i, p in enumerate(self.params)]

    def arg_layout(self) -> list[ArgSlot]:
        """Every argument with its word offset within the cep slot (the trigger follows)."""
        slots: list[ArgSlot] = []
        offset = 0
        for i, (name, p) in enumerate(zip(self.param_names(), self.params)):
            slots.append(ArgSlot(i, name, p.type, offset, p.type.words))
            offset += p.type.words
        return slots

    def function_params(self) -> list[ArgSlot]:
        """The function-typed parameters (each gets its own port group in RTL wrappers)."""
        return [s for s in self.arg_layout() if isinstance(s.type, FunctionType)]

    def __str__(self) -> str:
        return format_type(self)


#: A PushPush type (usable with ``isinstance``).
Type: TypeAlias = Union[Scalar, FunctionType]

BOOL = Scalar("bool")
I8 = Scalar("i8")
I16 = Scalar("i16")
I32 = Scalar("i32")
U8 = Scalar("u8")
U16 = Scalar("u16")
U32 = Scalar("u32")
F32 = Scalar("f32")
I64 = Scalar("i64")
U64 = Scalar("u64")
F64 = Scalar("f64")
VOID = Scalar("void")

#: Scalar types by name.
SCALARS: dict[str, Scalar] = {name: Scalar(name) for name in SCALAR_NAMES}


def _duplicate_name(params: Sequence[Param]) -> tuple[int, str] | None:
    """(index, name) of the first parameter whose effective name repeats an earlier one."""
    seen: set[str] = set()
    for i, p in enumerate(params):
        name = p.name if p.name is not None else f"arg{i}"
        if name in seen:
            return i, name
        seen.add(name)
    return None


# --------------------------------------------------------------------------------------------
# Parsing


@dataclass(frozen=True)
class _Token:
    kind: str  # "word", "(", ")", ",", ":", "->", "end", "bad" (text: the error message)
    text: str
    pos: int  # 0-based index into the text


def _describe(tok: _Token) -> str:
    return "end of text" if tok.kind == "end" else repr(tok.text)


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c in "(),:":
            tokens.append(_Token(c, c, i))
            i += 1
        elif text.startswith("->", i):
            tokens.append(_Token("->", "->", i))
            i += 2
        elif c.isascii() and (c.isalnum() or c == "_"):
            j = i + 1
            while j < n and text[j].isascii() and (text[j].isalnum() or text[j] == "_"):
                j += 1
            tokens.append(_Token("word", text[i:j], i))
            i = j
        else:
            hint = ""
            if c == "-" or text.startswith("=>", i) or c in "→⟶":
                hint = "; did you mean '->'?"
            elif c in "[{":
                hint = "; parameter lists are written in '(' ')'"
            elif c == ";":
                hint = "; parameters are separated by ','"
            # Reported when the parser reaches it, so the left-most error wins.
            if not hint:
                hint = ("; names use ASCII letters, digits and '_'" if not c.isascii() or c.isalnum()
                        else "; delete it (a signature uses only names, ':', ',', '(', ')' and '->')")
            tokens.append(_Token("bad", f"unexpected character {c!r}{hint}", i))
            return tokens
    tokens.append(_Token("end", "", n))
    return tokens


def _unknown_type_hint(word: str) -> str:
    alias = _ALIASES.get(word.lower())
    if alias is not None:
        return f"; did you mean {alias!r}?"
    if word.lower() in _SCALAR_INFO:
        return f"; did you mean {word.lower()!r}?"
    close = difflib.get_close_matches(word, SCALAR_NAMES, n=1, cutoff=0.6)
    if close:
        return f"; did you mean {close[0]!r}?"
    return f"; expected one of {', '.join(SCALAR_NAMES)} or a function type '(...) -> ...'"


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.i = 0

    def peek(self, ahead: int = 0) -> _Token:
        tok = self.tokens[min(self.i + ahead, len(self.tokens) - 1)]
        if tok.kind == "bad":
            raise self.error(tok.text, tok)
        return tok

    def next(self) -> _Token:
        tok = self.peek()
        self.i = min(self.i + 1, len(self.tokens) - 1)
        return tok

    def error(self, message: str, tok: _Token) -> TypeSyntaxError:
        return TypeSyntaxError(message, tok.pos + 1, self.text)

    def parse(self) -> Type:
        if self.peek().kind == "end":
            raise self.error("empty type; expected a type such as 'i32' or '(i32) -> void'", self.peek())
        t = self.type(0)
        tok = self.peek()
        if tok.kind != "end":
            if tok.kind == "->":
                raise self.error(
                    "unexpected '->' after a scalar type; parameters must be in parentheses, e.g. '(i32) -> i32'",
                    tok,
                )
            raise self.error(f"unexpected {_describe(tok)} after the end of the type; delete it, or check "
                             "that every '(' has its ')' before the '->'", tok)
        return t

    def type(self, depth: int) -> Type:
        tok = self.next()
        if tok.kind == "word":
            if tok.text in _SCALAR_INFO:
                return SCALARS[tok.text]
            hint = _unknown_type_hint(tok.text)
            if "did you mean" not in hint and self.peek().kind in ("word", "(") and _IDENT_RE.match(tok.text):
                hint = f"; if {tok.text!r} is a parameter name, write '{tok.text}: <type>'"
            raise self.error(f"unknown type {tok.text!r}{hint}", tok)
        if tok.kind == "(":
            if depth >= MAX_NESTING:
                raise self.error(f"function types nested more than {MAX_NESTING} deep; flatten the type", tok)
            return self.function(tok, depth + 1)
        hint = "; write a type such as 'i32' or '(i32) -> void' here"
        if tok.kind == ")":
            prev = self.tokens[self.i - 2] if self.i >= 2 else None
            if prev is not None and prev.kind == ",":
                hint = "; delete the trailing ','"
        raise self.error(f"expected a type, found {_describe(tok)}{hint}", tok)

    def function(self, open_tok: _Token, depth: int) -> FunctionType:
        params: list[Param] = []
        seen: set[str] = set()
        if self.peek().kind == ")":
            self.next()
        else:
            while True:
                start = self.peek()
                name: str | None = None
                if start.kind == "word" and self.peek(1).kind == ":":
                    if not _IDENT_RE.match(start.text):
                        raise self.error(
                            f"invalid parameter name {start.text!r}; names start with a letter or '_'", start
                        )
                    name = start.text
                    self.next()
                    self.next()
                    if self.peek().kind in (",", ")", "end"):
                        raise self.error(f"expected a type after '{name}:', found {_describe(self.peek())}; "
                                         f"write e.g. '{name}: i32'", self.peek())
                type_tok = self.peek()
                t = self.type(depth)
                if t == VOID:
                    raise self.error(
                        "void is not allowed as a parameter type; write '()' for a function without parameters",
                        type_tok,
                    )
                index = len(params)
                effective = name if name is not None else f"arg{index}"
                if effective in seen:
                    what = f"duplicate parameter name {effective!r}"
                    if name is None:
                        what += f" (unnamed parameter {index} is called {effective!r})"
                    raise self.error(what + "; give each parameter its own name", start)
                seen.add(effective)
                params.append(Param(name, t))
                sep = self.next()
                if sep.kind == ",":
                    continue
                if sep.kind == ")":
                    break
                if sep.kind == "end":
                    raise self.error(
                        f"expected ')' to close the '(' at column {open_tok.pos + 1}, found end of text; add the ')'", sep
                    )
                hint = "; missing ','?" if sep.kind in ("word", "(") else "; separate parameters with ','"
                raise self.error(f"expected ',' or ')' after a parameter, found {_describe(sep)}{hint}", sep)
        arrow = self.next()
        if arrow.kind != "->":
            raise self.error(
                f"expected '->' and a result type after the parameter list, found {_describe(arrow)}"
                "; a function type needs a result, e.g. '(i32) -> void'",
                arrow,
            )
        result = self.type(depth)
        return FunctionType(tuple(params), result)


def parse_type(text: str) -> Type:
    """Parse a type: a scalar name or a (possibly nested) function type.

    >>> parse_type(" u16 ")
    Scalar(name='u16')
    >>> format_type(parse_type("(a:i32,b:(u32)->i32)->i32"))
    '(a: i32, b: (u32) -> i32) -> i32'
    >>> parse_type("(i32) -> ")
    Traceback (most recent call last):
    ...
    pushpush.types.TypeSyntaxError: expected a type, found end of text; write a type such as 'i32' or '(i32) -> void' here (column 10)
    """
    if not isinstance(text, str):
        raise TypeError(f"a type is written as a string, not {type(text).__name__}")
    return _Parser(text).parse()


def parse_signature(text: str) -> FunctionType:
    """Parse a function signature; a scalar type is a :class:`TypeSyntaxError`.

    >>> parse_signature("() -> void").params
    ()
    >>> parse_signature("i32")
    Traceback (most recent call last):
    ...
    pushpush.types.TypeSyntaxError: expected a function signature, found the scalar type 'i32'; write e.g. '(x: i32) -> i32' (column 1)
    """
    t = parse_type(text)
    if not isinstance(t, FunctionType):
        column = len(text) - len(text.lstrip()) + 1
        raise TypeSyntaxError(
            f"expected a function signature, found the scalar type {t.name!r}; write e.g. '(x: {t.name}) -> i32'",
            column, text
        )
    return t


def format_type(t: Type, names: bool = True) -> str:
    """Canonical text of a type; ``parse_type(format_type(t)) == t``.

    With ``names=False`` parameter names are left out (the structural form).

    >>> t = parse_type("( a : i32 ,b:(x:u32)->i32 )->i32")
    >>> format_type(t)
    '(a: i32, b: (x: u32) -> i32) -> i32'
    >>> format_type(t, names=False)
    '(i32, (u32) -> i32) -> i32'
    """
    if isinstance(t, Scalar):
        return t.name
    if not isinstance(t, FunctionType):
        raise TypeError(f"not a type: {_show(t)}")
    parts = []
    for p in t.params:
        inner = format_type(p.type, names)
        parts.append(f"{p.name}: {inner}" if names and p.name is not None else inner)
    return f"({', '.join(parts)}) -> {format_type(t.result, names)}"


def erase_names(t: Type) -> Type:
    """The same type with every parameter name removed, at every depth.

    >>> erase_names(parse_type("(f: (x: i32) -> void) -> u8")) == parse_type("((i32) -> void) -> u8")
    True
    """
    if isinstance(t, Scalar):
        return t
    return FunctionType(tuple(Param(None, erase_names(p.type)) for p in t.params), erase_names(t.result))


def structurally_equal(a: Type, b: Type) -> bool:
    """Whether two types are the same up to parameter names (at every depth).

    >>> structurally_equal(parse_type("(a: i32) -> (x: u8) -> void"), parse_type("(i32) -> (u8) -> void"))
    True
    >>> structurally_equal(parse_type("(i32) -> void"), parse_type("(u32) -> void"))
    False
    """
    if isinstance(a, FunctionType) and isinstance(b, FunctionType):
        return (
            len(a.params) == len(b.params)
            and all(structurally_equal(p.type, q.type) for p, q in zip(a.params, b.params))
            and structurally_equal(a.result, b.result)
        )
    return a == b


def words_of(t: Type) -> int:
    """Number of 32-bit words a value of type ``t`` occupies.

    >>> [words_of(parse_type(s)) for s in ("void", "u8", "f32", "i64", "(f64) -> f64")]
    [0, 1, 1, 2, 1]
    """
    return t.words


# --------------------------------------------------------------------------------------------
# Marshalling


def _show(value: object, limit: int = 60) -> str:
    """A short repr for error messages (huge ints and long reprs are abbreviated)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"{'-' if value < 0 else ''}<{value.bit_length()}-bit integer>"
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the real error
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


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
