"""The type model: scalar and function types, their word layouts, canonical text and
structural equality (docs/architecture.md §2). Parsing is :mod:`.parse`, marshalling
:mod:`.codec`; :mod:`pushpush.types` re-exports all three."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias, Union

__all__ = [
    "SCALAR_NAMES", "MAX_NESTING", "WORD_BYTES", "WORD_MASK", "Scalar", "Param", "ArgSlot",
    "FunctionType", "BufferType", "BUFFER_ELEMENTS", "BUFFER_DIRECTIONS", "Type", "BOOL", "I8", "I16", "I32", "U8", "U16", "U32", "F32", "I64", "U64",
    "F64", "VOID", "SCALARS", "format_type", "erase_names", "structurally_equal", "words_of",
    "nested_buffer",
]


#: Every scalar type name, in the order of docs/architecture.md §2.
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
        if not isinstance(self.type, (Scalar, FunctionType, BufferType)):
            raise TypeError(f"parameter type must be a Scalar, FunctionType or BufferType, not {type(self.type).__name__}")
        if self.type == VOID:
            raise ValueError("void is not allowed as a parameter type")

#: Element types a buffer may hold (1-word scalars but ``bool``), and the directions.
BUFFER_ELEMENTS: tuple[str, ...] = ("i8", "i16", "i32", "u8", "u16", "u32", "f32")
BUFFER_DIRECTIONS: tuple[str, ...] = ("in", "out")


@dataclass(frozen=True)
class BufferType:
    """A buffer parameter: ``in u32[]`` (the callee reads it) or ``out u32[]`` (the callee
    writes it). Only a parameter type (never a result).

    A buffer travels as 2 words: the physical byte address of its first element, then its
    length in **elements** (not bytes). The data itself never goes through the endpoint
    window: the callee's DMA engine reads or writes it in memory (docs/architecture.md §2).

    >>> b = BufferType(U16, "out")
    >>> b.words, b.element_bytes, str(b)
    (2, 2, 'out u16[]')
    """

    element: Scalar
    direction: str

    def __post_init__(self) -> None:
        if not isinstance(self.element, Scalar) or self.element.name not in BUFFER_ELEMENTS:
            raise ValueError(f"a buffer's elements are one of {', '.join(BUFFER_ELEMENTS)}, "
                             f"not {self.element}")
        if self.direction not in BUFFER_DIRECTIONS:
            raise ValueError(f"a buffer's direction is 'in' or 'out', not {self.direction!r}")

    @property
    def words(self) -> int:
        """A buffer is passed as 2 words: physical byte address, length in elements."""
        return 2

    @property
    def element_bytes(self) -> int:
        """Bytes per element (1, 2 or 4)."""
        return self.element.bits // 8

    @property
    def is_in(self) -> bool:
        """True for ``in`` (the callee reads the buffer)."""
        return self.direction == "in"

    def __str__(self) -> str:
        return f"{self.direction} {self.element.name}[]"


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
        if isinstance(self.result, BufferType):
            raise ValueError("a buffer is not a result type; pass an 'out' buffer parameter instead")
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

    def buffer_params(self) -> list[ArgSlot]:
        """The buffer parameters (each gets a DMA engine and a stream in RTL wrappers)."""
        return [s for s in self.arg_layout() if isinstance(s.type, BufferType)]

    def __str__(self) -> str:
        return format_type(self)


#: A PushPush type (usable with ``isinstance``).
Type: TypeAlias = Union[Scalar, FunctionType, BufferType]

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


def _show(value: object, limit: int = 60) -> str:
    """A short repr for error messages (huge ints and long reprs are abbreviated)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"{'-' if value < 0 else ''}<{value.bit_length()}-bit integer>"
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the real error
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _duplicate_name(params: Sequence[Param]) -> tuple[int, str] | None:
    """(index, name) of the first parameter whose effective name repeats an earlier one."""
    seen: set[str] = set()
    for i, p in enumerate(params):
        name = p.name if p.name is not None else f"arg{i}"
        if name in seen:
            return i, name
        seen.add(name)
    return None


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
    if isinstance(t, BufferType):
        return str(t)
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
    if isinstance(t, (Scalar, BufferType)):
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




def nested_buffer(t: Type) -> bool:
    """Whether a buffer type appears inside a function type nested in ``t`` (a function-typed
    parameter's or a result's signature): buffers are supported as parameters of a component's
    own signature only.

    >>> nested_buffer(parse_type("(a: in u8[]) -> void")), nested_buffer(parse_type("(f: (in u8[]) -> void) -> void"))
    (False, True)
    """
    def inside(x: Type) -> bool:
        if isinstance(x, BufferType):
            return True
        if isinstance(x, FunctionType):
            return any(inside(p.type) for p in x.params) or inside(x.result)
        return False

    if not isinstance(t, FunctionType):
        return False
    return any(isinstance(p.type, FunctionType) and inside(p.type) for p in t.params) or inside(t.result)
