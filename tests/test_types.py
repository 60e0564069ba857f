"""Tests of pushpush.types: signature parsing, layouts, structural equality and marshalling.

Run: PYTHONPATH=/work/main pytest tests/test_types.py
"""

from __future__ import annotations

import doctest
import math
import os
import pickle
import struct
import warnings
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import pushpush.types as pt
from pushpush.types.model import _duplicate_name
from pushpush.types import (
    codec_of,
    BOOL,
    F32,
    F64,
    I8,
    I16,
    I32,
    I64,
    SCALAR_NAMES,
    SCALARS,
    U8,
    U16,
    U32,
    U64,
    VOID,
    ArgSlot,
    FunctionType,
    Param,
    Scalar,
    Type,
    TypeSyntaxError,
    decode_args,
    decode_result,
    decode_value,
    encode_args,
    encode_result,
    encode_value,
    erase_names,
    format_type,
    parse_signature,
    parse_type,
    structurally_equal,
    words_of,
)

np: Any
try:
    import numpy as np
except ImportError:  # pragma: no cover - numpy is in the sim/dev environment
    np = None

# The machine is shared: never fail on hypothesis' per-example deadline. For a thorough run set
# PUSHPUSH_HYPOTHESIS_EXAMPLES (e.g. 5000).
prop = settings(
    deadline=None,
    max_examples=int(os.environ.get("PUSHPUSH_HYPOTHESIS_EXAMPLES", "100")),
    suppress_health_check=[HealthCheck.too_slow],
)

INT_TYPES = [I8, I16, I32, U8, U16, U32, I64, U64]
ALL_SCALARS = [SCALARS[n] for n in SCALAR_NAMES]
WORD = st.integers(0, 2**32 - 1)
F32_MAX = struct.unpack("<f", struct.pack("<I", 0x7F7F_FFFF))[0]
# The smallest double that rounds to infinity as binary32: FLT_MAX + half an ulp (ties to even
# round up because FLT_MAX's mantissa is odd).
F32_OVERFLOW = 2.0**128 - 2.0**103


def f64_bits(x: float) -> int:
    return int(struct.unpack("<Q", struct.pack("<d", x))[0])


def same_float(a: object, b: object) -> bool:
    """Equal as floats, NaN equal to NaN, -0.0 distinct from 0.0."""
    assert isinstance(a, float) and isinstance(b, float)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


# --------------------------------------------------------------------------------------------
# Strategies

scalar_types = st.sampled_from(ALL_SCALARS)
param_scalars = st.sampled_from([t for t in ALL_SCALARS if t != VOID])
names = st.sampled_from(["a", "b", "x", "coeff", "src", "sink", "taps", "_n", "arg0", "arg1", "i32", "f"])


def _function_types(children: st.SearchStrategy[Type]) -> st.SearchStrategy[FunctionType]:
    param = st.builds(Param, st.one_of(st.none(), names), children.filter(lambda t: t != VOID))
    return st.builds(
        lambda ps, r: FunctionType(tuple(ps), r),
        st.lists(param, max_size=4).filter(lambda ps: _duplicate_name(ps) is None),
        children,
    )


types: st.SearchStrategy[Type] = st.recursive(scalar_types, _function_types, max_leaves=12)
function_types: st.SearchStrategy[FunctionType] = _function_types(types)

ws = st.text(alphabet=" \t\n\r", max_size=3)


def render(t: Type, draw: Callable[[st.SearchStrategy[str]], str]) -> str:
    """Text of t with random whitespace between all tokens."""
    if isinstance(t, Scalar):
        return t.name
    parts = []
    for p in t.params:
        inner = render(p.type, draw)
        parts.append(f"{p.name}{draw(ws)}:{draw(ws)}{inner}" if p.name is not None else inner)
    sep = draw(ws) + "," + draw(ws)
    return f"({draw(ws)}{sep.join(parts)}{draw(ws)}){draw(ws)}->{draw(ws)}{render(t.result, draw)}"


# --------------------------------------------------------------------------------------------
# Parser


@pytest.mark.parametrize("name", SCALAR_NAMES)
def test_parse_every_scalar(name: str) -> None:
    t = parse_type(name)
    assert t == Scalar(name) == SCALARS[name]
    assert parse_type(f" \n\t{name}  ") == t
    assert format_type(t) == name


def test_scalar_constants() -> None:
    consts = [BOOL, I8, I16, I32, U8, U16, U32, F32, I64, U64, F64, VOID]
    assert [c.name for c in consts] == list(SCALAR_NAMES)


def test_parse_nested_signature() -> None:
    ft = parse_signature("(a: i32, b: (u32) -> i32) -> i32")
    assert ft == FunctionType((Param("a", I32), Param("b", FunctionType((Param(None, U32),), I32))), I32)
    assert format_type(ft) == "(a: i32, b: (u32) -> i32) -> i32"


def test_parse_fir_example() -> None:
    text = "(coeff: (u32) -> i32, src: () -> i32, sink: (i32) -> void, taps: u32) -> void"
    ft = parse_signature(text)
    assert format_type(ft) == text
    assert ft.param_names() == ["coeff", "src", "sink", "taps"]
    assert [s.name for s in ft.function_params()] == ["coeff", "src", "sink"]
    assert ft.arg_words == 4 and ft.cep_words == 5 and ft.rep_words == 1 and ft.result_words == 0


def test_parse_whitespace_insensitive() -> None:
    a = parse_type("(a:i32,b:(u32)->i32)->i32")
    b = parse_type("  (\n a :\ti32 ,\n  b : ( u32 ) -> i32\n )\n->\r\n i32 ")
    assert a == b


def test_parse_no_names_and_mixed() -> None:
    ft = parse_signature("(i32, y: u8, (f64) -> void) -> u64")
    assert [p.name for p in ft.params] == [None, "y", None]
    assert ft.param_names() == ["arg0", "y", "arg2"]


def test_parse_right_associative_arrow() -> None:
    t = parse_type("() -> (u32) -> i32")
    assert t == FunctionType((), FunctionType((Param(None, U32),), I32))
    assert format_type(t) == "() -> (u32) -> i32"
    # A parameter whose type returns a function.
    t2 = parse_type("(f: () -> () -> i32, n: u8) -> void")
    assert isinstance(t2, FunctionType)
    assert [p.name for p in t2.params] == ["f", "n"]
    assert t2.params[0].type == FunctionType((), FunctionType((), I32))


def test_parameter_named_like_a_type() -> None:
    t = parse_signature("(i32: i32) -> void")
    assert t.params[0] == Param("i32", I32)


@pytest.mark.parametrize(
    "text,column,message",
    [
        ("", 1, "empty type"),
        ("   ", 4, "empty type"),
        ("int32", 1, "unknown type 'int32'; did you mean 'i32'?"),
        ("(x: int32) -> void", 5, "unknown type 'int32'; did you mean 'i32'?"),
        ("(x: uint8) -> void", 5, "did you mean 'u8'?"),
        ("double", 1, "did you mean 'f64'?"),
        ("(I32) -> void", 2, "unknown type 'I32'; did you mean 'i32'?"),
        ("(i33) -> void", 2, "unknown type 'i33'; did you mean"),
        ("(x) -> void", 2, "unknown type 'x'; expected one of bool, i8"),
        ("(x i32) -> void", 2, "if 'x' is a parameter name, write 'x: <type>'"),
        ("(i32", 5, "expected ')' to close the '(' at column 1, found end of text"),
        ("(a: i32, b: (u32 -> i32) -> i32", 18, "expected ',' or ')' after a parameter, found '->'"),
        ("(a: i32 b: i32) -> void", 9, "expected ',' or ')' after a parameter, found 'b'; missing ','?"),
        ("(i32)", 6, "expected '->' and a result type after the parameter list, found end of text"),
        ("(i32) void", 7, "expected '->'"),
        ("(i32) ->", 9, "expected a type, found end of text"),
        ("(i32) -> )", 10, "expected a type, found ')'"),
        ("(i32,) -> void", 6, "delete the trailing ','"),
        ("(,) -> void", 2, "expected a type, found ','"),
        ("(a:) -> void", 4, "expected a type after 'a:', found ')'"),
        ("(a: , b: i32) -> void", 5, "expected a type after 'a:', found ','"),
        ("(a:", 4, "expected a type after 'a:', found end of text"),
        ("(a: i32, a: u8) -> void", 10, "duplicate parameter name 'a'"),
        ("(arg1: i32, u8) -> void", 13, "duplicate parameter name 'arg1' (unnamed parameter 1 is called 'arg1')"),
        ("(void) -> i32", 2, "void is not allowed as a parameter type; write '()'"),
        ("(x: void) -> i32", 5, "void is not allowed as a parameter type"),
        ("i32 -> i32", 5, "parameters must be in parentheses"),
        ("(i32) -> void x", 15, "unexpected 'x' after the end of the type"),
        ("(i32) -> void)", 14, "unexpected ')' after the end of the type"),
        ("(i32) => void", 7, "unexpected character '='; did you mean '->'?"),
        ("(i32) - void", 7, "unexpected character '-'; did you mean '->'?"),
        ("(i32) → void", 7, "did you mean '->'?"),
        ("[i32] -> void", 1, "unexpected character '['"),
        ("(i32; u8) -> void", 5, "parameters are separated by ','"),
        ("(1a: i32) -> void", 2, "invalid parameter name '1a'"),
        ("(é: i32) -> void", 2, "unexpected character 'é'"),
        ("(a: i32) -> void; ", 17, "unexpected character ';'"),
        ("(" * 70 + ")", 65, "nested more than 64 deep"),
        ("(int32) -> void @", 2, "unknown type 'int32'"),  # the left-most error wins
        ("(a@", 3, "unexpected character '@'"),
        ("(i32) -> void\n  , u8", 17, "unexpected ','"),
    ],
)
def test_syntax_errors(text: str, column: int, message: str) -> None:
    with pytest.raises(TypeSyntaxError) as info:
        parse_type(text)
    e = info.value
    assert message in e.message
    assert e.column == column
    assert e.text == text
    assert str(e) == f"{e.message} (column {column})"
    assert isinstance(e, ValueError)
    assert e.caret().splitlines()[-1] == " " * (column - 1) + "^"


# The whole message, hint included: the hint is the fix the user reads (test_syntax_errors
# checks the places and the gist; these pin every hint's text and when it applies).
FULL_MESSAGES = [
    ("(i32) => void", 7, "unexpected character '='; did you mean '->'?"),
    ("(i32) ⟶ void", 7, "unexpected character '⟶'; did you mean '->'?"),
    ("{i32} -> void", 1, "unexpected character '{'; parameter lists are written in '(' ')'"),
    ("(i32; u8) -> void", 5, "unexpected character ';'; parameters are separated by ','"),
    ("(é: i32) -> void", 2, "unexpected character 'é'; names use ASCII letters, digits and '_'"),
    ("(a€: i32) -> void", 3, "unexpected character '€'; names use ASCII letters, digits and '_'"),
    ("(a@", 3, "unexpected character '@'; delete it (a signature uses only names, ':', ',', '(', ')' and '->')"),
    ("(x i32) -> void", 2, "unknown type 'x'; if 'x' is a parameter name, write 'x: <type>'"),
    ("(x (i32) -> void) -> void", 2, "unknown type 'x'; if 'x' is a parameter name, write 'x: <type>'"),
    ("(int32 x) -> void", 2, "unknown type 'int32'; did you mean 'i32'?"),
    ("(u6) -> void", 2, "unknown type 'u6'; did you mean 'u64'?"),
    ("[i32] -> void", 1, "unexpected character '['; parameter lists are written in '(' ')', and a buffer "
                         "parameter as 'in u32[]' or 'out u32[]'"),
    ("(i32) -> ]", 10, "unexpected character ']'; parameter lists are written in '(' ')', and a buffer "
                       "parameter as 'in u32[]' or 'out u32[]'"),
    ("(i32,) -> void", 6, "expected a type, found ')'; delete the trailing ','"),
    (") -> void", 1, "expected a type, found ')'; write a type such as 'i32' or '(i32) -> void' here"),
    ("(,) -> void", 2, "expected a type, found ','; write a type such as 'i32' or '(i32) -> void' here"),
    ("(in int32[]) -> void", 5, "a buffer's elements are one of i8, i16, i32, u8, u16, u32, f32, not 'int32'; "
                                "did you mean 'i32'?"),
    ("(in bool[]) -> void", 5, "a buffer's elements are one of i8, i16, i32, u8, u16, u32, f32, not 'bool'"),
    ("(in i64[]) -> void", 5, "a buffer's elements are one of i8, i16, i32, u8, u16, u32, f32, not 'i64'"),
    ("(void) -> i32", 2, "void is not allowed as a parameter type; write '()' for a function without parameters"),
    ("(a: i32, a: u8) -> void", 10, "duplicate parameter name 'a'; give each parameter its own name"),
    ("(arg1: i32, u8) -> void", 13,
     "duplicate parameter name 'arg1' (unnamed parameter 1 is called 'arg1'); give each parameter its own name"),
    ("(a: i32 b: i32) -> void", 9, "expected ',' or ')' after a parameter, found 'b'; missing ','?"),
    ("(a: i32 (b: i32) -> void) -> void", 9, "expected ',' or ')' after a parameter, found '('; missing ','?"),
    ("(a: i32 : ) -> void", 9, "expected ',' or ')' after a parameter, found ':'; separate parameters with ','"),
    ("(i32]) -> void", 5, "expected ',' or ')' after a parameter, found ']'; separate parameters with ','"),
    ("(i32)", 6, "expected '->' and a result type after the parameter list, found end of text; a function type "
                 "needs a result, e.g. '(i32) -> void'"),
    ("(i32) void", 7, "expected '->' and a result type after the parameter list, found 'void'; a function type "
                      "needs a result, e.g. '(i32) -> void'"),
    (" ", 2, "empty type; expected a type such as 'i32' or '(i32) -> void'"),
    ("i32 -> i32", 5, "unexpected '->' after a scalar type; parameters must be in parentheses, e.g. '(i32) -> i32'"),
    ("(i32) -> void)", 14, "unexpected ')' after the end of the type; delete it, or check that every '(' has its ')' "
                           "before the '->'"),
]


@pytest.mark.parametrize("text,column,message", FULL_MESSAGES)
def test_syntax_error_full_messages(text: str, column: int, message: str) -> None:
    with pytest.raises(TypeSyntaxError) as info:
        parse_type(text)
    assert (info.value.message, info.value.column) == (message, column)


def test_names_with_every_ascii_letter_and_digit() -> None:
    # every character a name may hold is part of the name (none is taken for punctuation)
    chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
    names = ["_" + c for c in chars] + [c for c in chars if not c.isdigit()]
    ft = parse_signature("(" + ", ".join(f"{n}: u8" for n in names) + ") -> void")
    assert ft.param_names() == names


def test_caret_puts_a_multi_line_text_on_one_line() -> None:
    with pytest.raises(TypeSyntaxError) as info:
        parse_type("(i32) ->\n\tvoid\r\n  , u8")
    assert info.value.caret() == "(i32) ->  void    , u8\n" + " " * 18 + "^"


def test_many_parameters_parse_fast() -> None:
    text = "(" + ", ".join(f"p{i}: u8" for i in range(5000)) + ") -> void"
    ft = parse_signature(text)
    assert len(ft.params) == 5000 and ft.arg_layout()[-1].offset == 4999
    unnamed = parse_signature("(" + ", ".join(["u8"] * 5000) + ") -> void")
    assert unnamed.param_names()[-1] == "arg4999"


def test_parse_signature_rejects_scalar() -> None:
    with pytest.raises(TypeSyntaxError) as info:
        parse_signature("  i32")
    assert info.value.column == 3
    assert "expected a function signature" in info.value.message
    assert parse_signature("() -> void") == FunctionType((), VOID)


def test_parse_type_needs_a_string() -> None:
    with pytest.raises(TypeError):
        parse_type(123)  # type: ignore[arg-type]


def test_type_syntax_error_pickles() -> None:
    try:
        parse_type("(x: int32) -> void")
    except TypeSyntaxError as e:
        e2 = pickle.loads(pickle.dumps(e))
        assert (e2.message, e2.column, e2.text, str(e2)) == (e.message, e.column, e.text, str(e))
    else:  # pragma: no cover
        pytest.fail("no error")


def test_max_nesting() -> None:
    t: Type = I32
    for _ in range(pt.MAX_NESTING):
        t = FunctionType((Param(None, t),), VOID)
    assert parse_type(format_type(t)) == t
    deeper = FunctionType((Param(None, t),), VOID)
    with pytest.raises(TypeSyntaxError, match="nested more than"):
        parse_type(format_type(deeper))


@prop
@given(types)
def test_format_parse_round_trip(t: Type) -> None:
    text = format_type(t)
    assert parse_type(text) == t
    assert format_type(parse_type(text)) == text
    bare = format_type(t, names=False)
    assert parse_type(bare) == erase_names(t)


@prop
@given(types, st.data())
def test_parse_with_random_whitespace(t: Type, data: st.DataObject) -> None:
    assert parse_type(render(t, data.draw)) == t


@prop
@given(st.text(alphabet="()->:, i32u8fvoidbxa\n@;é", max_size=30))
def test_parser_never_crashes(text: str) -> None:
    try:
        t = parse_type(text)
    except TypeSyntaxError as e:
        assert 1 <= e.column <= len(text) + 1
    else:
        assert parse_type(format_type(t)) == t


# --------------------------------------------------------------------------------------------
# Model validation


def test_model_validation() -> None:
    with pytest.raises(ValueError):
        Scalar("int")
    with pytest.raises(ValueError):
        Param("1x", I32)
    with pytest.raises(ValueError):
        Param("a", VOID)
    with pytest.raises(TypeError):
        Param("a", "i32")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="duplicate parameter name 'a'"):
        FunctionType((Param("a", I32), Param("a", U8)), VOID)
    with pytest.raises(TypeError):
        FunctionType(("i32",), VOID)  # type: ignore[arg-type]
    # A list of params is stored as a tuple (so the type stays hashable).
    ft = FunctionType([Param(None, I32)], VOID)  # type: ignore[arg-type]
    assert ft.params == (Param(None, I32),)
    assert hash(ft) == hash(FunctionType((Param(None, I32),), VOID))


def test_scalar_properties() -> None:
    table = {
        # name: bits, words, signed, is_float, min, max
        "bool": (1, 1, False, False, 0, 1),
        "i8": (8, 1, True, False, -128, 127),
        "i16": (16, 1, True, False, -(2**15), 2**15 - 1),
        "i32": (32, 1, True, False, -(2**31), 2**31 - 1),
        "u8": (8, 1, False, False, 0, 255),
        "u16": (16, 1, False, False, 0, 2**16 - 1),
        "u32": (32, 1, False, False, 0, 2**32 - 1),
        "f32": (32, 1, False, True, None, None),
        "i64": (64, 2, True, False, -(2**63), 2**63 - 1),
        "u64": (64, 2, False, False, 0, 2**64 - 1),
        "f64": (64, 2, False, True, None, None),
        "void": (0, 0, False, False, None, None),
    }
    assert set(table) == set(SCALAR_NAMES)
    for name, (bits, words, signed, is_float, lo, hi) in table.items():
        t = SCALARS[name]
        assert (t.bits, t.words, t.signed, t.is_float, t.min_value, t.max_value) == (
            bits,
            words,
            signed,
            is_float,
            lo,
            hi,
        ), name
        assert words_of(t) == words
        assert str(t) == name
        assert t.is_void == (name == "void")
        assert t.is_integer == (name[0] in "iu")


# --------------------------------------------------------------------------------------------
# Layouts


def test_layout_mixed() -> None:
    ft = parse_signature("(a: i64, (u32) -> i32, c: u8, d: f64, e: bool, f: f32) -> u64")
    assert ft.words == 1 and words_of(ft) == 1
    assert ft.arg_words == 2 + 1 + 1 + 2 + 1 + 1
    assert ft.cep_words == ft.arg_words + 1
    assert ft.result_words == 2 and ft.rep_words == 3
    assert ft.arg_layout() == [
        ArgSlot(0, "a", I64, 0, 2),
        ArgSlot(1, "arg1", FunctionType((Param(None, U32),), I32), 2, 1),
        ArgSlot(2, "c", U8, 3, 1),
        ArgSlot(3, "d", F64, 4, 2),
        ArgSlot(4, "e", BOOL, 6, 1),
        ArgSlot(5, "f", F32, 7, 1),
    ]
    assert ft.function_params() == [ft.arg_layout()[1]]


def test_layout_empty() -> None:
    ft = parse_signature("() -> void")
    assert (ft.arg_words, ft.result_words, ft.cep_words, ft.rep_words) == (0, 0, 1, 1)
    assert ft.arg_layout() == [] and ft.param_names() == [] and ft.function_params() == []
    assert encode_args(ft, []) == [] and decode_args(ft, []) == []
    assert encode_result(ft, None) == [] and decode_result(ft, []) is None


def test_function_result_is_one_word() -> None:
    ft = parse_signature("(n: u8) -> (i32) -> i32")
    assert ft.result_words == 1 and ft.rep_words == 2
    assert encode_result(ft, 0x1000) == [0x1000]
    assert decode_result(ft, [0x1000]) == 0x1000


@prop
@given(function_types)
def test_layout_properties(ft: FunctionType) -> None:
    slots = ft.arg_layout()
    assert [s.index for s in slots] == list(range(len(ft.params)))
    assert [s.name for s in slots] == ft.param_names()
    assert len(set(ft.param_names())) == len(slots)
    offset = 0
    for s, p in zip(slots, ft.params):
        assert s.offset == offset and s.words == words_of(p.type) and s.type == p.type
        offset += s.words
    assert ft.arg_words == offset and ft.cep_words == offset + 1
    assert ft.rep_words == words_of(ft.result) + 1
    assert ft.function_params() == [s for s in slots if isinstance(s.type, FunctionType)]


# --------------------------------------------------------------------------------------------
# Structural equality


def test_structural_equality_examples() -> None:
    a = parse_type("(coeff: (x: u32) -> i32, n: u32) -> (y: i8) -> void")
    b = parse_type("((u32) -> i32, u32) -> (i8) -> void")
    c = parse_type("((i32) -> i32, u32) -> (i8) -> void")
    assert structurally_equal(a, b) and structurally_equal(b, a)
    assert a != b  # == is exact: names matter
    assert not structurally_equal(a, c)
    assert not structurally_equal(parse_type("(i32) -> void"), parse_type("(i32, i32) -> void"))
    assert not structurally_equal(parse_type("(i32) -> void"), I32)
    assert not structurally_equal(I32, parse_type("(i32) -> void"))
    assert not structurally_equal(parse_type("() -> i32"), parse_type("() -> () -> i32"))
    assert structurally_equal(U8, U8) and not structurally_equal(U8, I8)
    assert erase_names(a) == b


@prop
@given(types)
def test_erase_names_properties(t: Type) -> None:
    e = erase_names(t)
    assert structurally_equal(t, e)
    assert erase_names(e) == e
    assert "arg" not in format_type(e) and ":" not in format_type(e)
    assert format_type(e) == format_type(t, names=False)
    assert words_of(e) == words_of(t)
    if isinstance(t, FunctionType):
        assert isinstance(e, FunctionType)
        assert e.arg_words == t.arg_words and e.result_words == t.result_words


@prop
@given(types, types)
def test_structural_equality_matches_nameless_text(a: Type, b: Type) -> None:
    assert structurally_equal(a, b) == (format_type(a, names=False) == format_type(b, names=False))
    assert structurally_equal(a, b) == structurally_equal(b, a)


@prop
@given(types, st.data())
def test_renaming_preserves_structure(t: Type, data: st.DataObject) -> None:
    def rename(u: Type) -> Type:
        if isinstance(u, Scalar):
            return u
        fresh = data.draw(st.lists(st.one_of(st.none(), names), min_size=len(u.params), max_size=len(u.params)))
        ps = tuple(Param(n, rename(p.type)) for n, p in zip(fresh, u.params))
        assume(_duplicate_name(ps) is None)
        return FunctionType(ps, rename(u.result))

    assert structurally_equal(t, rename(t))


# --------------------------------------------------------------------------------------------
# Marshalling: round trips


@pytest.mark.parametrize("t", INT_TYPES, ids=str)
@prop
@given(data=st.data())
def test_int_value_round_trip(t: Scalar, data: st.DataObject) -> None:
    assert t.min_value is not None and t.max_value is not None
    v = data.draw(st.integers(t.min_value, t.max_value))
    words = encode_value(t, v)
    assert len(words) == t.words and all(0 <= w < 2**32 for w in words)
    assert decode_value(t, words) == v
    # Sign/zero extension of the encoding.
    raw = words[0] | (words[1] << 32 if t.words == 2 else 0)
    width = 32 * t.words
    assert raw == v % 2**width


@pytest.mark.parametrize("t", INT_TYPES, ids=str)
@prop
@given(data=st.data())
def test_int_words_round_trip(t: Scalar, data: st.DataObject) -> None:
    words = data.draw(st.lists(WORD, min_size=t.words, max_size=t.words))
    v = decode_value(t, words)
    assert isinstance(v, int) and not isinstance(v, bool)
    # Decoding takes the low N bits and sign-extends signed types.
    raw = words[0] | (words[1] << 32 if t.words == 2 else 0)
    low = raw % 2**t.bits
    assert v == (low - 2**t.bits if t.signed and low >= 2 ** (t.bits - 1) else low)
    # Canonical words (the encoding of the decoded value) round-trip exactly.
    canon = encode_value(t, v)
    assert encode_value(t, decode_value(t, canon)) == canon
    if t.bits % 32 == 0:
        assert canon == list(words)  # every pattern is canonical for 32/64-bit types


def test_sign_extension_examples() -> None:
    assert encode_value(I8, -1) == [0xFFFF_FFFF]
    assert encode_value(I8, -128) == [0xFFFF_FF80]
    assert encode_value(I16, -2) == [0xFFFF_FFFE]
    assert encode_value(U8, 255) == [0xFF]
    assert encode_value(I64, -1) == [0xFFFF_FFFF, 0xFFFF_FFFF]
    assert encode_value(I64, -(2**32)) == [0, 0xFFFF_FFFF]
    assert encode_value(U64, 0x0123_4567_89AB_CDEF) == [0x89AB_CDEF, 0x0123_4567]
    assert decode_value(I8, [0xFF]) == -1  # upper bits ignored
    assert decode_value(I8, [0x1234_5601]) == 1
    assert decode_value(U8, [0xFFFF_FFFF]) == 255
    assert decode_value(I16, [0x8000]) == -32768
    assert decode_value(I64, [0, 0x8000_0000]) == -(2**63)


@prop
@given(st.booleans())
def test_bool_value_round_trip(v: bool) -> None:
    assert encode_value(BOOL, v) == [int(v)]
    assert decode_value(BOOL, encode_value(BOOL, v)) is v


@prop
@given(WORD)
def test_bool_words(w: int) -> None:
    assert decode_value(BOOL, [w]) is (w != 0)
    if w in (0, 1):
        assert encode_value(BOOL, decode_value(BOOL, [w])) == [w]


def test_bool_accepts_zero_and_one() -> None:
    assert encode_value(BOOL, 0) == [0] and encode_value(BOOL, 1) == [1]
    with pytest.raises(TypeError, match="flag: expected a bool"):
        encode_value(BOOL, 1.0, "flag")
    with pytest.raises(TypeError):
        encode_value(BOOL, "yes")
    with pytest.raises(TypeError):
        encode_value(BOOL, None)


@prop
@given(st.floats(width=32))
def test_f32_value_round_trip(v: float) -> None:
    words = encode_value(F32, v)
    assert len(words) == 1 and 0 <= words[0] < 2**32
    back = decode_value(F32, words)
    assert same_float(back, v)
    if not math.isnan(v):
        assert words == list(struct.unpack("<I", struct.pack("<f", v)))


@prop
@given(WORD)
def test_f32_words_round_trip_bit_exact(w: int) -> None:
    # Every pattern, including signalling NaNs and NaN payloads.
    v = decode_value(F32, [w])
    assert isinstance(v, float)
    assert encode_value(F32, v) == [w]


@prop
@given(st.integers(0, 1), st.integers(1, 2**23 - 1))
def test_f32_nan_words_round_trip(sign: int, mant: int) -> None:
    w = (sign << 31) | 0x7F80_0000 | mant
    v = decode_value(F32, [w])
    assert isinstance(v, float) and math.isnan(v)
    assert encode_value(F32, v) == [w]


@prop
@given(st.floats(allow_nan=False, min_value=-F32_MAX, max_value=F32_MAX))
def test_f32_rounds_like_numpy(v: float) -> None:
    (w,) = encode_value(F32, v)
    if np is not None:
        assert w == int(np.array([v], dtype=np.float32).view(np.uint32)[0])
    else:  # pragma: no cover
        assert w == struct.unpack("<I", struct.pack("<f", v))[0]


@prop
@given(st.integers(0, 1), st.integers(1, 2**52 - 1))
def test_f32_nan_from_double(sign: int, mant: int) -> None:
    bits = (sign << 63) | (0x7FF << 52) | mant
    v = struct.unpack("<d", struct.pack("<Q", bits))[0]
    (w,) = encode_value(F32, v)
    # Still a NaN, same sign, top 23 payload bits kept (quiet bit set if they were all zero).
    assert w >> 31 == sign and (w & 0x7F80_0000) == 0x7F80_0000
    assert (w & 0x7F_FFFF) == ((mant >> 29) or 0x40_0000)


def test_f32_special_values() -> None:
    assert encode_value(F32, float("inf")) == [0x7F80_0000]
    assert encode_value(F32, float("-inf")) == [0xFF80_0000]
    assert encode_value(F32, -0.0) == [0x8000_0000]
    assert encode_value(F32, float("nan")) == [0x7FC0_0000]
    assert encode_value(F32, 1) == [0x3F80_0000]  # ints are converted
    assert encode_value(F32, 1e-50) == [0]  # underflow rounds to zero, not an error
    # A double NaN whose payload lives only in the low 29 bits stays a NaN (quiet bit set).
    snan = struct.unpack("<d", struct.pack("<Q", 0xFFF0_0000_0000_0001))[0]
    assert encode_value(F32, snan) == [0xFFC0_0000]


@prop
@given(st.floats())
def test_f64_value_round_trip_bit_exact(v: float) -> None:
    words = encode_value(F64, v)
    assert len(words) == 2
    assert words[0] | (words[1] << 32) == f64_bits(v)
    back = decode_value(F64, words)
    assert isinstance(back, float) and f64_bits(back) == f64_bits(v)


@prop
@given(WORD, WORD)
def test_f64_words_round_trip_bit_exact(lo: int, hi: int) -> None:
    assert encode_value(F64, decode_value(F64, [lo, hi])) == [lo, hi]


@prop
@given(WORD, st.integers(1, 2**52 - 1), st.integers(0, 1))
def test_f64_nan_words_round_trip(lo: int, mant: int, sign: int) -> None:
    bits = (sign << 63) | (0x7FF << 52) | mant
    words = [bits & 0xFFFF_FFFF, bits >> 32]
    v = decode_value(F64, words)
    assert isinstance(v, float) and math.isnan(v)
    assert encode_value(F64, v) == words


def test_f64_examples() -> None:
    assert encode_value(F64, 1.0) == [0, 0x3FF0_0000]
    assert decode_value(F64, [0, 0x3FF0_0000]) == 1.0
    assert decode_value(F64, encode_value(F64, 0.1)) == 0.1
    from fractions import Fraction

    assert decode_value(F64, encode_value(F64, Fraction(1, 3))) == 1 / 3
    with pytest.raises(OverflowError, match="'x'"):
        encode_value(F64, 10**400, "'x'")


@prop
@given(st.integers(1, 2**30 - 1))
def test_function_value_round_trip(n: int) -> None:
    t = parse_type("(u32) -> i32")
    addr = 4 * n
    assert encode_value(t, addr) == [addr]
    assert decode_value(t, [addr]) == addr


def test_function_value_address_attribute() -> None:
    class Proxy:
        address = 0x4000_0100

    t = parse_type("() -> void")
    assert encode_value(t, Proxy()) == [0x4000_0100]
    with pytest.raises(TypeError, match="f: expected a function address"):
        encode_value(t, lambda: None, "f")
    with pytest.raises(TypeError):
        encode_value(t, True)
    # Decoding is total: 0 comes back as 0 (the runtime reports bad addresses).
    assert decode_value(t, [0]) == 0


def test_void() -> None:
    assert encode_value(VOID, None) == []
    assert decode_value(VOID, []) is None
    with pytest.raises(TypeError, match="result of \\(\\) -> void: void takes no value"):
        encode_result(parse_signature("() -> void"), 0)


@pytest.mark.skipif(np is None, reason="numpy not installed")
def test_numpy_values() -> None:
    for dtype, t in [
        (np.int8, I8),
        (np.int16, I16),
        (np.int32, I32),
        (np.int64, I64),
        (np.uint8, U8),
        (np.uint16, U16),
        (np.uint32, U32),
        (np.uint64, U64),
    ]:
        info = np.iinfo(dtype)
        for v in (info.min, info.max, 0):
            assert decode_value(t, encode_value(t, dtype(v))) == int(v)
    assert encode_value(I32, np.int64(-5)) == [2**32 - 5]
    assert encode_value(BOOL, np.bool_(True)) == [1]
    with warnings.catch_warnings():  # a numpy bool is a bool, not an index (numpy deprecates that)
        warnings.simplefilter("error")
        assert encode_value(BOOL, np.bool_(True)) == [1] and encode_value(BOOL, np.bool_(False)) == [0]
    assert encode_value(BOOL, np.int8(0)) == [0]
    assert encode_value(F32, np.float32(0.1)) == [int(np.array([0.1], np.float32).view(np.uint32)[0])]
    assert decode_value(F32, encode_value(F32, np.float32(0.1))) == float(np.float32(0.1))
    assert encode_value(F64, np.float64(0.1)) == encode_value(F64, 0.1)
    with pytest.raises(TypeError):
        encode_value(I32, np.bool_(True))
    with pytest.raises(TypeError):
        encode_value(I32, np.float64(1.0))
    with pytest.raises(OverflowError):
        encode_value(U8, np.int16(256))
    # numpy words decode too.
    assert decode_value(U64, list(np.array([1, 2], dtype=np.uint32))) == 2**33 + 1


# --------------------------------------------------------------------------------------------
# Marshalling: range edges and errors


@pytest.mark.parametrize("t", INT_TYPES + [BOOL], ids=str)
def test_range_edges(t: Scalar) -> None:
    lo, hi = t.min_value, t.max_value
    assert lo is not None and hi is not None
    ft = FunctionType((Param("x", t),), VOID)
    sig = format_type(ft)
    for ok in (lo, hi):
        assert decode_args(ft, encode_args(ft, [ok])) == [ok if t != BOOL else bool(ok)]
    for bad in (lo - 1, hi + 1):
        with pytest.raises(OverflowError) as info:
            encode_args(ft, [bad])
        assert str(info.value) == f"argument 'x' of {sig}: {bad} is out of range for {t.name} ({lo}..{hi})"
        with pytest.raises(OverflowError, match=f"^x: {bad} is out of range"):
            encode_value(t, bad, "x")
        with pytest.raises(OverflowError, match="result of"):
            encode_result(FunctionType((), t), bad)


@pytest.mark.parametrize("t", INT_TYPES, ids=str)
@prop
@given(data=st.data())
def test_out_of_range_property(t: Scalar, data: st.DataObject) -> None:
    assert t.min_value is not None and t.max_value is not None
    v = data.draw(st.integers(max_value=t.min_value - 1) | st.integers(min_value=t.max_value + 1))
    with pytest.raises(OverflowError, match="'speed'.*out of range"):
        encode_args(FunctionType((Param("speed", t),), VOID), [], {"speed": v})


def test_f32_range_edges() -> None:
    ft = parse_signature("(y: f32) -> void")
    assert encode_args(ft, [F32_MAX]) == [0x7F7F_FFFF]
    assert encode_args(ft, [-F32_MAX]) == [0xFF7F_FFFF]
    below = math.nextafter(F32_OVERFLOW, 0.0)
    assert encode_args(ft, [below]) == [0x7F7F_FFFF]  # rounds down to the largest f32
    for bad in (F32_OVERFLOW, -F32_OVERFLOW, 1e39, 2**128):
        with pytest.raises(OverflowError, match="argument 'y' of .*out of range for f32"):
            encode_args(ft, [bad])


@prop
@given(st.floats(min_value=F32_OVERFLOW, allow_infinity=False) | st.floats(max_value=-F32_OVERFLOW, allow_infinity=False))
def test_f32_overflow_property(v: float) -> None:
    with pytest.raises(OverflowError, match="'y'"):
        encode_value(F32, v, "'y'")


def test_function_address_edges() -> None:
    ft = parse_signature("(cb: (i32) -> void) -> void")
    assert encode_args(ft, [4]) == [4]
    assert encode_args(ft, [2**32 - 4]) == [2**32 - 4]
    with pytest.raises(ValueError, match="argument 'cb' of .*0 is not a valid function address"):
        encode_args(ft, [0])
    with pytest.raises(ValueError, match="'cb'.*not word aligned"):
        encode_args(ft, [6])
    for bad in (-4, 2**32, 2**40):
        with pytest.raises(OverflowError, match="'cb'.*out of range"):
            encode_args(ft, [bad])


@pytest.mark.parametrize("t", INT_TYPES, ids=str)
def test_integer_type_errors(t: Scalar) -> None:
    ft = FunctionType((Param("n", t),), VOID)
    for bad in (True, False, 1.0, "1", None, [1]):
        with pytest.raises(TypeError, match="argument 'n' of .*expected an integer"):
            encode_args(ft, [bad])


def test_huge_values_in_messages() -> None:
    # Messages stay short and formatting never fails (int -> str has a digit limit).
    for v in (10**5000, -(10**5000)):
        with pytest.raises(OverflowError, match="bit integer> is out of range for u8") as info:
            encode_value(U8, v, "x")
        assert len(str(info.value)) < 100
        with pytest.raises(OverflowError, match="x: .*bit integer> is out of range for f64"):
            encode_value(F64, v, "x")
        with pytest.raises(OverflowError, match="x: function address"):
            encode_value(parse_type("() -> void"), v, "x")
    with pytest.raises(TypeError) as info2:
        encode_value(U8, list(range(1000)), "x")
    assert len(str(info2.value)) < 120
    with pytest.raises(ValueError, match="bit integer> is not a 32-bit word"):
        decode_value(U32, [10**5000])


def test_values_in_messages_exactly() -> None:
    """How a bad value is shown in a message: ints up to 128 bits in full, longer ones by
    their size (with the sign), other values by their repr cut to 60 characters, and a value
    whose repr fails by its type."""
    cases: list[tuple[object, type[Exception], str]] = [
        (10**5000, OverflowError, "x: <16610-bit integer> is out of range for u8 (0..255)"),
        (-(10**5000), OverflowError, "x: -<16610-bit integer> is out of range for u8 (0..255)"),
        (2**127, OverflowError, "x: 170141183460469231731687303715884105728 is out of range for u8 (0..255)"),
        (-(2**127), OverflowError, "x: -170141183460469231731687303715884105728 is out of range for u8 (0..255)"),
        (2**128, OverflowError, "x: <129-bit integer> is out of range for u8 (0..255)"),
        ("a" * 58, TypeError, "x: expected an integer for u8, got str '" + "a" * 58 + "'"),  # a repr of 60
        ("a" * 59, TypeError, "x: expected an integer for u8, got str '" + "a" * 56 + "..."),  # of 61: cut
    ]

    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    cases.append((Broken(), TypeError, "x: expected an integer for u8, got Broken <Broken object>"))
    for value, error, message in cases:
        with pytest.raises(error) as info:
            encode_value(U8, value, "x")
        assert str(info.value) == message


def test_function_address_messages_exactly() -> None:
    """A function address out of range is shown in hex (up to 128 bits; longer by its size),
    one in range but not word aligned is its own error."""
    ft = parse_type("() -> void")
    cases: list[tuple[int, type[Exception], str]] = [
        (1, ValueError, "f: function address 0x1 is not word aligned"),
        (-4, OverflowError, "f: function address -0x4 is out of range (0x4..0xfffffffc)"),
        (2**32, OverflowError, "f: function address 0x100000000 is out of range (0x4..0xfffffffc)"),
        (2**127, OverflowError,
         "f: function address 0x80000000000000000000000000000000 is out of range (0x4..0xfffffffc)"),
        (2**128, OverflowError, "f: function address <129-bit integer> is out of range (0x4..0xfffffffc)"),
    ]
    for value, error, message in cases:
        with pytest.raises(error) as info:
            encode_value(ft, value, "f")
        assert str(info.value) == message


def test_type_alias_isinstance() -> None:
    assert isinstance(I32, Type) and isinstance(parse_type("() -> void"), Type)  # type: ignore[arg-type]
    assert not isinstance("i32", Type)  # type: ignore[arg-type]


def test_float_type_errors() -> None:
    for t in (F32, F64):
        for bad in (True, "1.0", None, 1j):
            with pytest.raises(TypeError, match="z: expected a real number"):
                encode_value(t, bad, "z")


def test_decode_word_checks() -> None:
    with pytest.raises(ValueError, match="expected 2 words, got 1"):
        decode_value(I64, [0])
    with pytest.raises(ValueError, match="not a 32-bit word"):
        decode_value(U32, [2**32])
    with pytest.raises(ValueError, match="not a 32-bit word"):
        decode_value(U32, [-1])
    with pytest.raises(TypeError):
        decode_value(U32, [1.0])  # type: ignore[list-item]
    ft = parse_signature("(a: u8, b: i64) -> i32")
    with pytest.raises(ValueError, match="arguments of .*expected 3 words, got 2"):
        decode_args(ft, [1, 2])
    with pytest.raises(ValueError, match="result of .*expected 1 word, got 0"):
        decode_result(ft, [])


# --------------------------------------------------------------------------------------------
# Argument binding


SIG = parse_signature("(x: u8, y: i64, (f32) -> void) -> f64")


def test_encode_args_binding() -> None:
    expected = [7, 0xFFFF_FFFE, 0xFFFF_FFFF, 0x100]
    assert encode_args(SIG, [7, -2, 0x100]) == expected
    assert encode_args(SIG, (7,), {"y": -2, "arg2": 0x100}) == expected
    assert encode_args(SIG, [], {"arg2": 0x100, "x": 7, "y": -2}) == expected
    assert decode_args(SIG, expected) == [7, -2, 0x100]


@pytest.mark.parametrize(
    "args,kwargs,message",
    [
        ([], None, "missing 3 required arguments: 'x', 'y' and 'arg2'"),
        ([1], None, "missing 2 required arguments: 'y' and 'arg2'"),
        ([1, 2], None, "missing 1 required argument: 'arg2'"),
        ([1], {"arg2": 4}, "missing 1 required argument: 'y'"),
        ([1, 2, 4, 5], None, "takes 3 arguments but 4 were given"),
        ([1], {"x": 1, "y": 2, "arg2": 4}, "got multiple values for argument 'x'"),
        ([1, 2, 4], {"z": 1}, "got an unexpected keyword argument 'z'"),
        ([1, 2], {"arg3": 4}, "got an unexpected keyword argument 'arg3'; did you mean 'arg2'?"),
    ],
)
def test_encode_args_binding_errors(args: list[object], kwargs: dict[str, object] | None, message: str) -> None:
    with pytest.raises(TypeError) as info:
        encode_args(SIG, args, kwargs)
    assert str(info.value) == f"{format_type(SIG)}: {message}"


def test_encode_args_singular_messages() -> None:
    ft = parse_signature("(a: i32) -> void")
    with pytest.raises(TypeError, match="takes 1 argument but 2 were given"):
        encode_args(ft, [1, 2])
    ft0 = parse_signature("() -> void")
    with pytest.raises(TypeError, match="takes 0 arguments but 1 was given"):
        encode_args(ft0, [1])
    with pytest.raises(TypeError):
        encode_args(ft, "a")
    with pytest.raises(TypeError):
        encode_args(I32, [1])  # type: ignore[arg-type]


def test_error_message_example_from_issue() -> None:
    with pytest.raises(OverflowError) as info:
        encode_args(parse_signature("(x: u8) -> void"), [300])
    assert str(info.value) == "argument 'x' of (x: u8) -> void: 300 is out of range for u8 (0..255)"


def _value_for(t: Type) -> st.SearchStrategy[object]:
    if isinstance(t, FunctionType):
        return st.integers(1, 2**30 - 1).map(lambda n: 4 * n)
    if t == BOOL:
        return st.booleans()
    if t == F32:
        return st.floats(width=32, allow_nan=False)
    if t == F64:
        return st.floats(allow_nan=False)
    if t == VOID:
        return st.none()
    assert t.min_value is not None and t.max_value is not None
    return st.integers(t.min_value, t.max_value)


@prop
@given(function_types, st.data())
def test_args_and_result_round_trip(ft: FunctionType, data: st.DataObject) -> None:
    values = [data.draw(_value_for(p.type)) for p in ft.params]
    words = encode_args(ft, values)
    assert len(words) == ft.arg_words and all(0 <= w < 2**32 for w in words)
    assert decode_args(ft, words) == values
    # Same words when passed by keyword, in any order.
    kw = dict(zip(ft.param_names(), values))
    assert encode_args(ft, [], dict(reversed(list(kw.items())))) == words
    # Per-slot words are the per-value encodings.
    for s, v in zip(ft.arg_layout(), values):
        assert words[s.offset : s.offset + s.words] == encode_value(s.type, v)
    r = data.draw(_value_for(ft.result))
    rw = encode_result(ft, r)
    assert len(rw) == ft.result_words
    assert decode_result(ft, rw) == r


# --------------------------------------------------------------------------------------------
# Docstring examples


def test_doctests() -> None:
    import pushpush.types.codec
    import pushpush.types.model
    import pushpush.types.parse

    attempted = 0
    for module in (pt, pushpush.types.model, pushpush.types.parse, pushpush.types.codec):
        # every module's examples see the package's public names, as a user's code does
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS,
                                 extraglobs={n: getattr(pt, n) for n in pt.__all__})
        assert result.failed == 0, module.__name__
        attempted += result.attempted
    assert attempted > 20


# --------------------------------------------------------------------------------------------
# SignatureCodec: the runtime's prepared marshalling is the generic one, values and errors


def _any_value(t: Type) -> st.SearchStrategy[object]:
    """Valid values of ``t`` and the wrong ones a caller might pass (errors must match)."""
    wrong = st.one_of(st.integers(-(2**70), 2**70), st.booleans(), st.none(), st.floats(),
                      st.text(max_size=3), st.just([1]), st.integers(0, 2**32).map(lambda n: n | 1))
    return st.one_of(_value_for(t), wrong)


def _outcome(f: Callable[[], object]) -> tuple[str, object]:
    try:
        return ("ok", f())
    except Exception as e:  # the type and the message must be the same
        return (type(e).__name__, str(e))


def _eq(x: object, y: object) -> bool:
    if isinstance(x, float) and isinstance(y, float):
        return same_float(x, y)
    return type(x) is type(y) and x == y


def _same(a: tuple[str, object], b: tuple[str, object]) -> bool:
    if a[0] != b[0]:
        return False
    if isinstance(a[1], list) and isinstance(b[1], list):
        return len(a[1]) == len(b[1]) and all(_eq(x, y) for x, y in zip(a[1], b[1]))
    return _eq(a[1], b[1])


@prop
@given(function_types, st.data())
def test_codec_is_the_generic_marshalling(ft: FunctionType, data: st.DataObject) -> None:
    c = codec_of(ft)
    assert codec_of(ft) is c and c.text == format_type(ft) and c.names == tuple(ft.param_names())
    values = tuple(data.draw(_any_value(p.type)) for p in ft.params)
    assert _same(_outcome(lambda: c.encode_args(values)), _outcome(lambda: encode_args(ft, values)))
    assert _same(_outcome(lambda: c.encode_args(list(values))), _outcome(lambda: encode_args(ft, list(values))))
    # other bindings: too many, keywords, a string
    extra = values + (1,)
    assert _outcome(lambda: c.encode_args(extra)) == _outcome(lambda: encode_args(ft, extra))
    kw = dict(zip(ft.param_names(), values))
    assert _same(_outcome(lambda: c.encode_args((), kw)), _outcome(lambda: encode_args(ft, (), kw)))
    assert _outcome(lambda: c.encode_args("ab")) == _outcome(lambda: encode_args(ft, "ab"))
    r = data.draw(_any_value(ft.result))
    assert _same(_outcome(lambda: c.encode_result(r)), _outcome(lambda: encode_result(ft, r)))
    # decoding: right-sized word lists (also out-of-range "words"), and wrong sizes
    word = st.one_of(WORD, WORD, WORD, st.integers(-5, 2**33), st.booleans())
    aw = data.draw(st.lists(word, min_size=ft.arg_words, max_size=ft.arg_words + data.draw(st.sampled_from([0, 0, 1]))))
    assert _same(_outcome(lambda: c.decode_args(aw)), _outcome(lambda: decode_args(ft, aw)))
    rw = data.draw(st.lists(word, min_size=0, max_size=3))
    assert _same(_outcome(lambda: c.decode_result(rw)), _outcome(lambda: decode_result(ft, rw)))
    assert c.function_params == tuple(ft.function_params())
    assert (c.arg_words, c.result_words, c.cep_words, c.rep_words) == (
        ft.arg_words, ft.result_words, ft.cep_words, ft.rep_words)


def test_codec_examples() -> None:
    c = codec_of(parse_signature("(x: i32) -> i32"))
    assert c.encode_args((-1,)) == [0xFFFF_FFFF] and c.decode_result([0xFFFF_FFFF]) == -1
    with pytest.raises(OverflowError, match=r"^argument 'x' of \(x: i32\) -> i32: 2147483648 is out of range"):
        c.encode_args((2**31,))
    with pytest.raises(TypeError, match=r"^argument 'x' of \(x: i32\) -> i32: expected an integer for i32, got bool True"):
        c.encode_args((True,))
    with pytest.raises(TypeError, match="missing 1 required argument: 'x'"):
        c.encode_args(())
    assert c.encode_args((), {"x": 5}) == [5]
    with pytest.raises(OverflowError, match=r"^result of \(x: i32\) -> i32: "):
        c.encode_result(2**40)


# --------------------------------------------------------------------------------------------
# SignatureCodec: fixed examples for every scalar type (issue 35). The Hypothesis comparison
# above finds a broken fast path only by luck; these cover each type's edges every run, in both
# directions, as an argument (the generated encode_args and the per-slot decoder) and as a
# result (the result encoder and decoder), alone and at an offset after a 64-bit argument.

_NAN32 = struct.unpack("<f", struct.pack("<I", 0x7FC0_0000))[0]


def _f32(w: int) -> float:
    return float(struct.unpack("<f", struct.pack("<I", w))[0])


def _f64(b: int) -> float:
    return float(struct.unpack("<d", struct.pack("<Q", b))[0])


# (value, its canonical words, other words that decode to it: upper bits that must be ignored)
CODEC_EXAMPLES: dict[str, list[tuple[object, list[int], list[list[int]]]]] = {
    "bool": [(False, [0], []), (True, [1], [[2], [0x8000_0000], [0xFFFF_FFFF]])],
    "i8": [(0, [0], [[0x100], [0xFFFF_FF00]]), (1, [1], [[0x1234_5601]]),
           (-1, [0xFFFF_FFFF], [[0xFF], [0x1FF], [0x0000_FFFF]]),
           (127, [0x7F], [[0xFFFF_FF7F], [0x17F]]), (-128, [0xFFFF_FF80], [[0x80], [0x180], [0x0000_FF80]]),
           (-127, [0xFFFF_FF81], [[0x81]]), (126, [0x7E], [])],
    "i16": [(0, [0], [[0x1_0000]]), (-1, [0xFFFF_FFFF], [[0xFFFF], [0x1_FFFF]]),
            (32767, [0x7FFF], [[0xFFFF_7FFF]]), (-32768, [0xFFFF_8000], [[0x8000], [0x1_8000]]),
            (0x80, [0x80], [[0xFFFF_0080]]), (-128, [0xFFFF_FF80], [[0xFF80]]), (-32767, [0xFFFF_8001], [[0x8001]])],
    "i32": [(0, [0], []), (-1, [0xFFFF_FFFF], []), (2**31 - 1, [0x7FFF_FFFF], []),
            (-(2**31), [0x8000_0000], []), (0x8000, [0x8000], []), (-0x8000, [0xFFFF_8000], []),
            (0x80, [0x80], [])],
    "u8": [(0, [0], [[0x100]]), (255, [0xFF], [[0xFFFF_FFFF], [0x1FF]]), (0x80, [0x80], [[0xFFFF_FF80]]),
           (0x7F, [0x7F], [])],
    "u16": [(0, [0], [[0x1_0000]]), (65535, [0xFFFF], [[0xFFFF_FFFF]]), (0x8000, [0x8000], [[0xFFFF_8000]]),
            (0x80, [0x80], []), (0x7FFF, [0x7FFF], [])],
    "u32": [(0, [0], []), (2**32 - 1, [0xFFFF_FFFF], []), (2**31, [0x8000_0000], []), (0x8000, [0x8000], []),
            (0x80, [0x80], [])],
    "i64": [(0, [0, 0], []), (-1, [0xFFFF_FFFF, 0xFFFF_FFFF], []), (2**63 - 1, [0xFFFF_FFFF, 0x7FFF_FFFF], []),
            (-(2**63), [0, 0x8000_0000], []), (2**32, [0, 1], []), (-(2**32), [0, 0xFFFF_FFFF], []),
            (2**31, [0x8000_0000, 0], []), (-(2**31), [0x8000_0000, 0xFFFF_FFFF], []),
            (0x0123_4567_89AB_CDEF, [0x89AB_CDEF, 0x0123_4567], [])],
    "u64": [(0, [0, 0], []), (2**64 - 1, [0xFFFF_FFFF, 0xFFFF_FFFF], []), (2**63, [0, 0x8000_0000], []),
            (2**32, [0, 1], []), (2**32 - 1, [0xFFFF_FFFF, 0], []),
            (0xFEDC_BA98_7654_3210, [0x7654_3210, 0xFEDC_BA98], [])],
    "f32": [(0.0, [0], []), (-0.0, [0x8000_0000], []), (1.0, [0x3F80_0000], []), (-1.0, [0xBF80_0000], []),
            (float("inf"), [0x7F80_0000], []), (float("-inf"), [0xFF80_0000], []),
            (_f32(0x7F7F_FFFF), [0x7F7F_FFFF], []), (_f32(0x0000_0001), [1], []), (_f32(0x8000_0001), [0x8000_0001], []),
            (_NAN32, [0x7FC0_0000], []), (_f32(0x3DCC_CCCD), [0x3DCC_CCCD], [])],
    "f64": [(0.0, [0, 0], []), (-0.0, [0, 0x8000_0000], []), (1.0, [0, 0x3FF0_0000], []),
            (-2.5, [0, 0xC004_0000], []), (float("inf"), [0, 0x7FF0_0000], []),
            (float("-inf"), [0, 0xFFF0_0000], []), (float("nan"), [0, 0x7FF8_0000], []),
            (0.1, [0x9999_999A, 0x3FB9_9999], []), (_f64(1), [1, 0], []), (_f64(0x7FEF_FFFF_FFFF_FFFF), [0xFFFF_FFFF, 0x7FEF_FFFF], []),
            (_f64(0x8000_0000_0000_0001), [1, 0x8000_0000], [])],
}


def test_codec_examples_cover_every_scalar() -> None:
    assert set(CODEC_EXAMPLES) == set(SCALAR_NAMES) - {"void"}


def _bits(t: str, v: object) -> object:
    """A value in a form where == is bit-exact (floats by their bits, -0.0 and NaN included)."""
    if t == "f32" and isinstance(v, float):
        return ("f32", _f32_bits_of(v))
    if t == "f64" and isinstance(v, float):
        return ("f64", f64_bits(v))
    return (type(v).__name__, v)


def _f32_bits_of(v: float) -> int:
    return encode_value(F32, v)[0]


@pytest.mark.parametrize("name", sorted(CODEC_EXAMPLES))
def test_codec_fixed_examples(name: str) -> None:
    t = SCALARS[name]
    c = codec_of(parse_signature(f"(x: {name}) -> {name}"))
    # After a 64-bit argument the slot sits at word 2 (offsets, slicing).
    c2 = codec_of(parse_signature(f"(pad: u64, x: {name}, tail: u8) -> {name}"))
    for value, words, others in CODEC_EXAMPLES[name]:
        want = _bits(name, value)
        assert c.encode_args((value,)) == words, (name, value)
        assert c.encode_args([value]) == words, (name, value)
        assert c.encode_args((), {"x": value}) == words, (name, value)
        assert c.encode_result(value) == words, (name, value)
        assert encode_value(t, value) == words, (name, value)
        assert c2.encode_args((2**64 - 1, value, 0x5A)) == [0xFFFF_FFFF, 0xFFFF_FFFF] + words + [0x5A], (name, value)
        for ws in [words] + others:
            assert _bits(name, c.decode_result(ws)) == want, (name, ws)
            assert _bits(name, c.decode_result(tuple(ws))) == want, (name, ws)
            (got,) = c.decode_args(ws)
            assert _bits(name, got) == want, (name, ws)
            assert _bits(name, decode_value(t, ws)) == want, (name, ws)
            pad, got2, tail = c2.decode_args([0xFFFF_FFFF, 0xFFFF_FFFF] + ws + [0x1FF])
            assert (pad, _bits(name, got2), tail) == (2**64 - 1, want, 255), (name, ws)


def test_codec_fixed_examples_all_types_in_one_call() -> None:
    """Every type in one signature: each argument's words sit at its own offset."""
    names = sorted(CODEC_EXAMPLES)
    sig = "(" + ", ".join(f"{n}_arg: {n}" for n in names) + ") -> void"
    c = codec_of(parse_signature(sig))
    rows = max(len(CODEC_EXAMPLES[n]) for n in names)
    for i in range(rows):
        picks = [CODEC_EXAMPLES[n][i % len(CODEC_EXAMPLES[n])] for n in names]
        words = [w for _, ws, _ in picks for w in ws]
        assert c.encode_args(tuple(v for v, _, _ in picks)) == words
        got = c.decode_args(words)
        assert [_bits(n, g) for n, g in zip(names, got)] == [_bits(n, v) for n, (v, _, _) in zip(names, picks)]


def test_codec_fast_path_takes_plain_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """The prepared codec marshals the plain values of a call (ints in range, bools, in-range
    words, function addresses) itself: the generic ``_encode``/``_decode``, kept for errors and
    unusual values, are not called. (This is the call path's speed; a fast path that quietly
    fell back would still give the right values, so only this test notices.)"""
    import pushpush.types.codec as codec_mod

    def generic(*args: object) -> object:
        raise AssertionError(f"the generic path was taken for {args!r}")

    monkeypatch.setattr(codec_mod, "_encode", generic)
    monkeypatch.setattr(codec_mod, "_decode", generic)
    for name in ("bool", "i8", "i16", "i32", "u8", "u16", "u32", "i64", "u64"):
        c = codec_mod.SignatureCodec(parse_signature(f"(x: {name}, y: {name}) -> {name}"))
        one_word = SCALARS[name].words == 1
        for value, words, others in CODEC_EXAMPLES[name]:
            assert c.encode_args((value, value)) == words + words, (name, value)
            assert c._encoders[0](value) == words and c.encode_result(value) == words, (name, value)
            if one_word:  # 64-bit results and arguments decode through the generic path
                for ws in [words] + others:
                    assert c.decode_result(ws) == value and c.decode_args(ws + ws) == [value, value], (name, ws)
    f = codec_mod.SignatureCodec(parse_signature("(f: (x: i32) -> i32) -> (x: i32) -> i32"))
    assert f.encode_args((0x4000_0010,)) == [0x4000_0010] and f.encode_result(0x4000_0010) == [0x4000_0010]

    class Proxy:  # a function object of the runtime: its cep slot's address
        address = 0x4000_0020

    assert f.encode_args((Proxy(),)) == [0x4000_0020] and f.encode_result(Proxy()) == [0x4000_0020]
    assert f.decode_args([0x4000_0010]) == [0x4000_0010] and f.decode_result([0x4000_0010]) == 0x4000_0010
    v = codec_mod.SignatureCodec(parse_signature("() -> void"))
    assert v.encode_args(()) == [] and v.encode_result(None) == [] and v.decode_result([]) is None


def test_codec_describes_its_signature() -> None:
    """What the runtime reads off a codec: its buffer and function-typed parameters, whether
    it returns a function, its word counts."""
    c = codec_of(parse_signature("(a: u8, src: in u32[], f: (i32) -> i32, dst: out u8[]) -> (u32) -> void"))
    assert c.result_is_function is True
    assert [(s.name, s.offset, s.words) for s in c.buffer_params] == [("src", 1, 2), ("dst", 4, 2)]
    assert [(s.name, s.offset) for s in c.function_params] == [("f", 3)]
    assert (c.arg_words, c.result_words, c.cep_words, c.rep_words) == (6, 1, 7, 2)
    plain = codec_of(parse_signature("(x: i32) -> i32"))
    assert plain.result_is_function is False
    assert plain.buffer_params == () and plain.function_params == ()


def test_codec_cache_holds_4096_signatures(monkeypatch: pytest.MonkeyPatch) -> None:
    """codec_of keeps the codecs of up to 4096 distinct signatures; the next one starts the
    cache again (many run-time signatures must not grow it without bound)."""
    import pushpush.types.codec as codec_mod

    monkeypatch.setattr(codec_mod, "_CODECS", {})  # start empty, whatever ran before
    sigs = [FunctionType((Param(f"p{i}", U8),), VOID) for i in range(4097)]
    first = codec_of(sigs[0])
    for ft in sigs[1:4096]:
        codec_of(ft)
    assert codec_of(sigs[0]) is first  # 4096 held: still the same codec
    codec_of(sigs[4096])
    again = codec_of(sigs[0])
    assert again is not first and again.ft == sigs[0]


@pytest.mark.parametrize("name", sorted(CODEC_EXAMPLES))
def test_codec_rejects_bad_words(name: str) -> None:
    """A word from the bus outside 0..2**32-1 (or not an int) is an error through the prepared
    codec as through the generic one, never masked into a value (fixed examples: the
    Hypothesis comparison above draws such words only now and then)."""
    t = SCALARS[name]
    c = codec_of(parse_signature(f"(x: {name}) -> {name}"))
    good = CODEC_EXAMPLES[name][0][1]
    for bad in (-1, 2**32, 2**33 + 1, True, 1.0):
        ws = [bad] + good[1:]
        for f, label in ((c.decode_result, "result"), (lambda w: c.decode_args(w), "argument 'x'")):
            with pytest.raises((ValueError, TypeError), match=f"^{label} of .*: word 0") as info:
                f(ws)
            with pytest.raises(type(info.value)):
                decode_value(t, ws)


def test_codec_void_result_with_words_is_an_error() -> None:
    """A void result must come with no words: the prepared codec refuses others with the
    generic codec's message (a fixed example for the void decoder's fallback)."""
    ft = parse_signature("(x: u8) -> void")
    c = codec_of(ft)
    assert c.decode_result([]) is None and c.decode_result(()) is None
    for ws in ([0], [1], [0, 0]):
        with pytest.raises(ValueError, match=r"^result of \(x: u8\) -> void: expected 0 words, got \d$") as info:
            c.decode_result(ws)
        with pytest.raises(ValueError) as generic:
            decode_result(ft, ws)
        assert str(info.value) == str(generic.value)


def test_codec_refuses_null_function_and_void_values() -> None:
    """Fixed examples for the prepared codec's own checks: a null (0) or unaligned function
    address and a value for a void result are errors with the generic codec's messages
    (mutmut: fast-path variants that encoded 0 as an address, or skipped the void check,
    survived the value tests)."""
    ft = parse_signature("(f: (x: i32) -> i32) -> void")
    c = codec_of(ft)
    for bad, err in ((0, ValueError), (2, ValueError), (0x4000_0011, ValueError), (2**32, OverflowError)):
        with pytest.raises(err, match=r"^argument 'f' of \(f: \(x: i32\) -> i32\) -> void: ") as info:
            c.encode_args((bad,))
        with pytest.raises(err) as generic:
            encode_args(ft, (bad,))
        assert str(info.value) == str(generic.value)
    assert c.encode_result(None) == []
    for value in (0, False, 1.0, "x"):
        with pytest.raises(TypeError, match=r"^result of \(f: \(x: i32\) -> i32\) -> void: void takes no value"):
            c.encode_result(value)
    r = codec_of(parse_signature("() -> (x: i32) -> i32"))
    with pytest.raises(ValueError, match=r"^result of \(\) -> \(x: i32\) -> i32: 0 is not a valid function address"):
        r.encode_result(0)


@pytest.mark.parametrize("name", ["i8", "i16", "i32", "u8", "u16", "u32", "i64", "u64", "f32", "f64", "bool"])
def test_codec_result_errors_are_the_generic_ones(name: str) -> None:
    """A result out of range or of the wrong type is refused by the prepared result encoder
    with the generic message, never masked into words (mutmut: the 64-bit result encoder
    with its range check cut to 'type(value) is int or ...' masked 2**64 into [0, 0])."""
    t = SCALARS[name]
    ft = parse_signature(f"() -> {name}")
    c = codec_of(ft)
    bad: list[object] = ["x", None]
    if t.is_integer:
        assert t.min_value is not None and t.max_value is not None
        bad += [t.min_value - 1, t.max_value + 1, 2**64, -(2**64), 1.5]
    elif name == "f32":
        bad += [1e39, -1e39]
    for value in bad:
        with pytest.raises((TypeError, OverflowError)) as info:
            c.encode_result(value)
        with pytest.raises(type(info.value)) as generic:
            encode_result(ft, value)
        assert str(info.value) == str(generic.value) and str(info.value).startswith(f"result of () -> {name}: ")


def test_function_parameter_fixed_examples() -> None:
    """Fixed examples (not only the properties) for a signature with a function-typed
    parameter: the nameless text drops the inner names too, a wrong word count names the
    signature, and a value that is no address is the generic error, through the codec too."""
    ft = parse_signature("(a: u8, f: (x: i32) -> i32) -> void")
    assert format_type(ft, names=False) == "(u8, (i32) -> i32) -> void"
    with pytest.raises(ValueError) as info:
        decode_args(ft, [1])
    assert str(info.value) == "arguments of (a: u8, f: (x: i32) -> i32) -> void: expected 2 words, got 1"
    with pytest.raises(ValueError) as info:
        codec_of(ft).decode_args([1])
    assert str(info.value) == "arguments of (a: u8, f: (x: i32) -> i32) -> void: expected 2 words, got 1"
    prefix = ("argument 'f' of (a: u8, f: (x: i32) -> i32) -> void: expected a function address (int) "
              "for (x: i32) -> i32")
    for value, shown in (("x", "str 'x'"), (None, "NoneType None"), (3.0, "float 3.0")):
        for encode in (lambda v: codec_of(ft).encode_args((1, v)), lambda v: encode_args(ft, [1, v])):
            with pytest.raises(TypeError) as info2:
                encode(value)
            assert str(info2.value) == f"{prefix}, got {shown}"
