"""The values the C runtime shares with Python agree: a program compiled against the generated
C prints them (and the layouts of the structs Python reads), and each is compared with the
Python constant it must equal.

- the protocol words (``PP_TRIGGER_*``, ``PP_STATUS_*``: one source, ``pushpush/protocol.py``,
  rendered into ``c/pp_protocol.h``) and the ``PP_E*`` codes derived from the error statuses;
- the caller's record, the run-time journal and the sizes of a claim file (one source,
  ``pushpush/protocol.py``, kept by ``pushpush.runtime.claim``), the Linux layer's magic;
- the trace ring (``pushpush.trace.c_events``: kinds, clocks, magic, the two structs' layout);
- the interrupt block's registers (``pushpush.link``), the wait modes, the counters' order, the
  RISC-V core's control page base and the runtime's table sizes (``pushpush.c.riscv``);
- the tables of docs/runtime.md (error statuses) and docs/c.md (``PP_E*`` codes).
"""

from __future__ import annotations

import re
import struct
import subprocess
from pathlib import Path

import pytest
from cbuild import DATA, compile_c, generate_c, linked_of

from pushpush import protocol
from pushpush.c import riscv
from pushpush.link import IRQ_ENABLE_CLEAR, IRQ_ENABLE_SET, WAIT_MODES
from pushpush.resources import c_runtime_dir
from pushpush.runtime import claim
from pushpush.trace import c_events

REPO = Path(__file__).resolve().parents[2]

#: PP_E* code -> the error status it is the negative low bits of (pp_runtime.h)
E_CODES = {"PP_ECALLEE": "CALLEE_RAISED", "PP_EBADFN": "BAD_FUNCTION", "PP_EBADRESULT": "BAD_RESULT",
           "PP_ECOLLISION": "COLLISION", "PP_EBUS": "BUS_ERROR", "PP_EBUFFER": "BUFFER"}
OTHER_E = ("PP_OK", "PP_EUNKNOWN", "PP_ETIMEOUT", "PP_ENOSLOT", "PP_EINVAL", "PP_EPLATFORM", "PP_EBUSY",
           "PP_EFIREWALL")
VALUES = ("PP_TRIGGER_IDLE", "PP_TRIGGER_ONEWAY", "PP_TRIGGER_SEQ", "PP_TRIGGER_REP_MASK", "PP_STATUS_OK",
          "PP_STATUS_ECHO", "PP_STATUS_ERROR_BIT", "PP_STATUS_CODE_MASK",
          *[f"PP_STATUS_{c.name}" for c in protocol.ErrorCode],
          "PP_IRQ_ENABLE_SET", "PP_IRQ_ENABLE_CLEAR",
          "PP_RECORD_SEQ", "PP_RECORD_WRITING", "PP_RECORD_VALID", "PP_RECORD_JOURNAL", "PP_JOURNAL_LENT",
          "PP_JOURNAL_WORDS", "PP_CLAIM_OWNER", "PP_CLAIM_BYTES",
          "PP_TRACE_ISSUED", "PP_TRACE_SEEN", "PP_TRACE_ENTERED", "PP_TRACE_LEFT", "PP_TRACE_FAILED",
          "PP_TRACE_NAME", "PP_TRACE_NO_CYCLE", "PP_TRACE_HEADER", "PP_TRACE_CLOCK_NONE",
          "PP_TRACE_CLOCK_COUNTER", "PP_TRACE_CLOCK_SIMBOARD",
          "PP_WAIT_SLEEP", "PP_WAIT_POLL", "PP_WAIT_YIELD", "PP_WAIT_INTERRUPT")
#: (C struct, its fields in order) whose layout Python reads with a struct.Struct
EVENT_FIELDS = ("cycle", "us", "addr", "word", "status", "session", "kind", "depth", "reserved", "code", "name")
RING_FIELDS = ("magic", "header_bytes", "event_bytes", "capacity", "pid", "head", "drained", "clock",
               "reserved", "component")


def _program() -> str:
    lines = ['#include <stddef.h>', '#include <stdio.h>', '#include "pp_runtime.h"',
             'int main(void)', '{', '    int i;']
    for n in VALUES:
        lines.append(f'    printf("%s %llu\\n", "{n}", (unsigned long long)({n}));')
    for n in (*E_CODES, *OTHER_E):
        lines.append(f'    printf("%s %lld\\n", "{n}", (long long)({n}));')
    for struct_name, fields in (("pp_trace_event", EVENT_FIELDS), ("pp_trace_ring", RING_FIELDS),
                                ("pp_counters", protocol.Counters.NAMES)):
        lines.append(f'    printf("sizeof.{struct_name} %lu\\n", (unsigned long)sizeof({struct_name}));')
        for f in fields:
            lines.append(f'    printf("offsetof.{struct_name}.{f} %lu\\n", '
                         f'(unsigned long)offsetof({struct_name}, {f}));')
    lines += ['    printf("PP_TRACE_MAGIC %s\\n", PP_TRACE_MAGIC);',
              '    for (i = 0; i < 4; i++)',
              '        printf("wait.%d %s\\n", i, pp_wait_name(i));',
              '    return 0;', '}', '']
    return "\n".join(lines)


@pytest.fixture(scope="module")
def c_values(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """NAME -> the value the compiled program printed."""
    tmp = tmp_path_factory.mktemp("cconst")
    cdir = generate_c(linked_of(DATA / "cc.yaml"), tmp / "gen")
    src = tmp / "constants.c"
    src.write_text(_program())
    exe = compile_c(cdir, [src, "pp_runtime.c"], tmp / "constants")
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True, timeout=60).stdout
    return dict(line.split(" ", 1) for line in out.splitlines())


def _int(c_values: dict[str, str], name: str) -> int:
    return int(c_values[name])


def _defines(path: Path) -> dict[str, int]:
    """The integer #defines of a C file (``#define NAME 123u`` / ``0x10u``)."""
    pat = re.compile(r"^#define (\w+) \(?(0x[0-9A-Fa-f]+|\d+)u?\)?(?:\s|$)", re.M)
    return {m[1]: int(m[2], 0) for m in pat.finditer(path.read_text(encoding="utf-8"))}


def test_protocol_words(c_values: dict[str, str]) -> None:
    v = lambda n: _int(c_values, n)  # noqa: E731
    assert v("PP_TRIGGER_IDLE") == protocol.TRIGGER_IDLE
    assert v("PP_TRIGGER_ONEWAY") == protocol.ONE_WAY_BIT
    assert v("PP_TRIGGER_SEQ") == protocol.SEQ_BIT
    assert v("PP_TRIGGER_REP_MASK") == protocol.WORD_MASK & ~(protocol.ONE_WAY_BIT | protocol.SEQ_BIT)
    assert v("PP_STATUS_OK") == protocol.STATUS_OK
    assert v("PP_STATUS_ECHO") == protocol.ECHO_BIT
    assert v("PP_STATUS_ERROR_BIT") == protocol.ERROR_BIT
    assert v("PP_STATUS_CODE_MASK") == protocol.WORD_MASK & ~(protocol.ERROR_BIT | protocol.ECHO_BIT)
    for code in protocol.ErrorCode:
        assert v(f"PP_STATUS_{code.name}") == code, code.name


def test_every_error_status_is_in_c_and_nothing_else() -> None:
    """The generated header's PP_STATUS_<error> are exactly protocol.ErrorCode's members, and
    the hand-written runtime defines none of the protocol's words itself."""
    from pushpush.codegen.c_protocol import render_protocol_header
    text = render_protocol_header()
    errors = set(re.findall(r"^#define PP_STATUS_(\w+) 0x8", text, re.M)) - {"ERROR_BIT"}
    assert errors == {c.name for c in protocol.ErrorCode}
    generated = set(re.findall(r"^#define (\w+)", text, re.M)) - {"PP_PROTOCOL_H"}
    for f in sorted(c_runtime_dir().iterdir()):
        again = generated & set(_defines(f))
        assert not again, f"{f.name} defines {sorted(again)} again: they come from pp_protocol.h"


def test_error_codes_follow_the_statuses(c_values: dict[str, str]) -> None:
    """PP_E<x> is -(status & 0xFF) of its error status; every status is below PP_EUNKNOWN's 99
    (pp_runtime.c turns status k into -k below 99); the runtime's own codes collide with none."""
    mask = protocol.WORD_MASK & ~(protocol.ERROR_BIT | protocol.ECHO_BIT)
    for name, status in E_CODES.items():
        assert _int(c_values, name) == -(protocol.ErrorCode[status] & mask), name
    assert {c.name for c in protocol.ErrorCode} == set(E_CODES.values())
    assert all(c & mask < 99 for c in protocol.ErrorCode)
    codes = [_int(c_values, n) for n in (*E_CODES, *OTHER_E)]
    assert len(set(codes)) == len(codes) and _int(c_values, "PP_EUNKNOWN") == -99


def test_claim_record_and_journal(c_values: dict[str, str]) -> None:
    """The caller's record, the journal and the claim file's sizes (one source,
    pushpush/protocol.py, rendered into c/pp_protocol.h) are pushpush.runtime.claim's, and the
    Linux layer's claim file (pp_platform_linux.c) writes the record's magic."""
    assert _int(c_values, "PP_RECORD_SEQ") == claim.RECORD_SEQ == protocol.RECORD_SEQ
    assert _int(c_values, "PP_RECORD_WRITING") == claim.RECORD_WRITING == protocol.RECORD_WRITING
    assert _int(c_values, "PP_RECORD_VALID") == claim.RECORD_VALID == protocol.RECORD_VALID
    assert _int(c_values, "PP_JOURNAL_LENT") == claim.JOURNAL_LENT == protocol.JOURNAL_LENT
    # the record pointer is at byte RECORD_OFFSET of the file; the journal at JOURNAL_OFFSET
    assert _int(c_values, "PP_RECORD_JOURNAL") == claim.JOURNAL_OFFSET - claim.RECORD_OFFSET
    assert _int(c_values, "PP_CLAIM_OWNER") == claim.OWNER_BYTES
    assert _int(c_values, "PP_CLAIM_OWNER") + len(claim.RECORD_MAGIC) == claim.RECORD_OFFSET
    linux = c_runtime_dir() / "pp_platform_linux.c"
    magic = "".join(re.findall(r"m\[PP_CLAIM_OWNER(?: \+ \d)?\] = '(.)';", linux.read_text()))
    assert magic.encode() == claim.RECORD_MAGIC
    # the file is mapped whole: the journal of every run-time word the runtime notes
    assert _int(c_values, "PP_JOURNAL_WORDS") == claim.MAX_JOURNAL_WORDS
    assert _int(c_values, "PP_CLAIM_BYTES") == claim.CLAIM_BYTES


def test_trace_ring(c_values: dict[str, str]) -> None:
    """The ring pushpush.trace.c_events reads: kinds, clocks, magic and both structs, field by field."""
    kinds = {"issued": "PP_TRACE_ISSUED", "seen": "PP_TRACE_SEEN", "entered": "PP_TRACE_ENTERED",
             "left": "PP_TRACE_LEFT", "failed": "PP_TRACE_FAILED"}
    assert {_int(c_values, kinds[k]): k for k in kinds} == c_events.KINDS
    assert {_int(c_values, f"PP_TRACE_CLOCK_{n.upper()}"): n for n in c_events.CLOCKS.values()} == c_events.CLOCKS
    assert _int(c_values, "PP_TRACE_NO_CYCLE") == c_events.NO_CYCLE
    assert c_values["PP_TRACE_MAGIC"].encode() == c_events.MAGIC
    assert _int(c_values, "PP_TRACE_HEADER") == c_events.HEADER.size == _int(c_values, "sizeof.pp_trace_ring")
    assert _int(c_values, "sizeof.pp_trace_event") == c_events.EVENT.size
    for cname, st, fields in (("pp_trace_event", c_events.EVENT, EVENT_FIELDS),
                              ("pp_trace_ring", c_events.HEADER, RING_FIELDS)):
        codes = re.findall(r"\d*[a-zA-Z]", st.format.lstrip("<"))
        codes = [c for c in codes if not c.endswith("x")]      # padding is not a field
        assert len(codes) == len(fields), cname
        for k, f in enumerate(fields):
            offset = struct.calcsize("<" + "".join(codes[:k]))
            assert _int(c_values, f"offsetof.{cname}.{f}") == offset, f"{cname}.{f}"
    assert f"{_int(c_values, 'PP_TRACE_NAME')}s" in c_events.EVENT.format


def test_irq_wait_counters_and_riscv(c_values: dict[str, str]) -> None:
    assert _int(c_values, "PP_IRQ_ENABLE_SET") == IRQ_ENABLE_SET
    assert _int(c_values, "PP_IRQ_ENABLE_CLEAR") == IRQ_ENABLE_CLEAR
    # every YAML wait mode is a PP_WAIT_<MODE> (codegen writes "PP_WAIT_" + mode.upper())
    names = {c_values[f"wait.{i}"] for i in range(4)}
    assert names == set(WAIT_MODES)
    for i in range(4):
        assert _int(c_values, f"PP_WAIT_{c_values[f'wait.{i}'].upper()}") == i
    # the counters as an rtl window and the RISC-V core's control page show them (0x0, 0x4, ...)
    for k, n in enumerate(protocol.Counters.NAMES):
        assert _int(c_values, f"offsetof.pp_counters.{n}") == 4 * k, n
    assert _defines(c_runtime_dir() / "pp_platform_riscv.h")["PP_RISCV_CTRL_BASE"] == riscv.CTRL_BASE
    runtime_h = (c_runtime_dir() / "pp_runtime.h").read_text()
    for name in riscv.DEFAULT_SIZES:
        assert f"#ifndef {name}\n#define {name} " in runtime_h, name


def test_docs_tables_agree(c_values: dict[str, str]) -> None:
    """docs/runtime.md's table of error statuses and docs/c.md's table of PP_E* codes."""
    runtime_md = (REPO / "docs" / "runtime.md").read_text()
    rows = dict(re.findall(r"^\| `([A-Z_]+)` \| (0x[0-9A-Fa-f]{8})\b", runtime_md, re.M))
    assert {n: int(v, 16) for n, v in rows.items()} == {c.name: int(c) for c in protocol.ErrorCode}
    c_md = (REPO / "docs" / "c.md").read_text()
    listed = re.findall(r"`(PP_E[A-Z]+)` \((-\d+)\)", c_md)
    assert len(listed) >= 8
    for name, value in listed:
        assert _int(c_values, name) == int(value), name


#: the simulated board's C layer (pp_platform_simboard.c) -> the Python value it must equal:
#: the attached program's request codes (pushpush.pynq.simulated.c_programs serves them) and
#: the offsets it reads in the simulator's control page (pushpush.simboard.ipc)
def _simboard_values() -> dict[str, int]:
    from pushpush.pynq.simulated import c_programs
    from pushpush.simboard import ipc
    from pushpush.trace import wire_request
    return {"PP_SB_WRITE": c_programs.OP_WRITE, "PP_SB_CYCLE": c_programs.OP_CYCLE,
            "PP_SB_PL_WRITE_NS": c_programs.OP_PL_WRITE_NS, "PP_SB_READ": c_programs.OP_READ,
            "PP_SB_WAIT_REPORT": c_programs.OP_WAIT_REPORT,
            "PP_SB_CTL_SIZE": ipc.CTL_SIZE,
            "PP_SB_CTL_TRACE": ipc.CTL_TRACE + wire_request.REQUEST,   # the session word
            "PP_SB_CTL_CYCLE0": ipc.CTL_STATE + 8,    # the cycle its state began at
            "PP_SB_CTL_LOOKED": ipc.CTL_STATE + 40}   # the cycle of its loop's last turn (read_status)


def test_simboard_layer(tmp_path: Path) -> None:
    """The simulated board's C layer writes its request codes and the control page's offsets
    by hand (they are private to pp_platform_simboard.c, and the generated pp_protocol.h
    cannot render them: codegen sits below simboard and pynq in the layer table): a program
    that includes it, compiled with PP_TRACE, prints them, and each equals the Python value."""
    names = _simboard_values()
    lines = ['#include "pp_platform_simboard.c"', "#include <stdio.h>", "int main(void)", "{"]
    lines += [f'    printf("%s %llu\\n", "{n}", (unsigned long long)({n}));' for n in names]
    lines += ["    return 0;", "}", ""]
    cdir = generate_c(linked_of(DATA / "cc.yaml"), tmp_path / "gen")
    src = tmp_path / "simboard_constants.c"
    src.write_text("\n".join(lines))
    exe = compile_c(cdir, [src, "pp_runtime.c", "pp_platform_linux.c"], tmp_path / "simboard_constants",
                    flags=["-DPP_TRACE"])
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True, timeout=60).stdout
    printed = {k: int(v) for k, v in (line.split(" ", 1) for line in out.splitlines())}
    assert printed == names
