"""Signature syntax: ``"(a: i32, f: (u32) -> i32) -> i64"`` into types, with errors that say
where and how to fix them (:class:`TypeSyntaxError`)."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from .model import (
    _ALIASES, _IDENT_RE, _SCALAR_INFO, BUFFER_DIRECTIONS, BUFFER_ELEMENTS, MAX_NESTING, SCALAR_NAMES, SCALARS,
    VOID, BufferType, FunctionType, Param, Type,
)

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


# --------------------------------------------------------------------------------------------
# Parsing


@dataclass(frozen=True)
class _Token:
    kind: str  # "word", "(", ")", ",", ":", "->", "[", "]", "end", "bad" (text: the error message)
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
        elif c in "(),:[]":
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
            elif c == "{":
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

    def type(self, depth: int, param: bool = False) -> Type:
        tok = self.next()
        if tok.kind == "word" and tok.text in BUFFER_DIRECTIONS and self.peek().kind == "word":
            return self.buffer(tok, param)
        if tok.kind == "word":
            if tok.text in _SCALAR_INFO:
                if self.peek().kind == "[":
                    raise self.error(f"a buffer needs its direction; write 'in {tok.text}[]' (the callee "
                                     f"reads it) or 'out {tok.text}[]' (the callee writes it)", tok)
                return SCALARS[tok.text]
            hint = _unknown_type_hint(tok.text)
            if "did you mean" not in hint and self.peek().kind in ("word", "(") and _IDENT_RE.match(tok.text):
                hint = f"; if {tok.text!r} is a parameter name, write '{tok.text}: <type>'"
            raise self.error(f"unknown type {tok.text!r}{hint}", tok)
        if tok.kind == "(":
            if depth >= MAX_NESTING:
                raise self.error(f"function types nested more than {MAX_NESTING} deep; flatten the type", tok)
            return self.function(tok, depth + 1)
        if tok.kind in ("[", "]"):
            raise self.error(f"unexpected character {tok.text!r}; parameter lists are written in '(' ')', "
                             "and a buffer parameter as 'in u32[]' or 'out u32[]'", tok)
        hint = "; write a type such as 'i32' or '(i32) -> void' here"
        if tok.kind == ")":
            prev = self.tokens[self.i - 2] if self.i >= 2 else None
            if prev is not None and prev.kind == ",":
                hint = "; delete the trailing ','"
        raise self.error(f"expected a type, found {_describe(tok)}{hint}", tok)

    def buffer(self, dir_tok: _Token, param: bool) -> BufferType:
        """``in <elem>[]`` / ``out <elem>[]`` after the direction word ``dir_tok``."""
        elem = self.next()
        if elem.text not in BUFFER_ELEMENTS:
            hint = _unknown_type_hint(elem.text) if elem.text not in _SCALAR_INFO else ""
            raise self.error(f"a buffer's elements are one of {', '.join(BUFFER_ELEMENTS)}, not "
                             f"{elem.text!r}{hint}", elem)
        for want in ("[", "]"):
            tok = self.next()
            if tok.kind != want:
                raise self.error(f"expected '{want}' in the buffer type '{dir_tok.text} {elem.text}[]', "
                                 f"found {_describe(tok)}; write '{dir_tok.text} {elem.text}[]'", tok)
        if not param:
            raise self.error(f"a buffer ('{dir_tok.text} {elem.text}[]') is only a parameter type, not a "
                             "result; return data through an 'out' buffer parameter", dir_tok)
        return BufferType(SCALARS[elem.text], dir_tok.text)

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
                t = self.type(depth, param=True)
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


