"""Count the C runtime's call path on a Cortex-A9: instructions and PS-PL accesses per call.

The generated C runtime of a real system (``examples/pingpong/c``, component ``callee``: its
import ``hw.f`` is a Verilog function, its export ``f`` is called by the Verilog caller) is
cross-compiled for ARMv7-A (``arm-linux-gnueabihf-gcc -O2 -mcpu=cortex-a9``, Thumb-2 as that
compiler's default) with the bare-metal platform layer and a small harness
(``pushpush/bench/a9/harness.c``), then run under the Unicorn CPU emulator, which counts every
instruction executed and every access to the windows: the PL (``M_AXI_GP0``), the on-chip
memory holding the C component's window (OCM) and the Cortex-A9's global timer. The emulator
plays the other side: the PL's reply to a call appears in the caller's rep slot after the
status word was read a given number of times, and a Verilog caller's call is written into the
C callee's slot before its serve loop runs, as the PL's write into the OCM would be.

Each figure is the difference of two runs, so prologues cancel out::

    from pushpush.bench.a9.count import count_call_path
    c = count_call_path()          # builds in a temporary folder
    c["caller"]["first_look"]      # {"instructions": ..., "gp_writes": 2, "ocm_reads": ..., ...}

``python -m pushpush.bench.a9.model`` prints these counts and the estimate built from them.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

__all__ = ["CROSS_CC", "CFLAGS", "A9CountError", "count_call_path", "cross_compiler"]

#: the cross compiler (Debian package gcc-arm-linux-gnueabihf; bootstrap.sh installs it)
CROSS_CC = "arm-linux-gnueabihf-gcc"
#: how the runtime is compiled: as a PYNQ user's armhf compiler would, for the board's CPU
CFLAGS = ("-O2", "-mcpu=cortex-a9", "-ffreestanding", "-nostdlib", "-static", "-fno-pic",
          "-fno-stack-protector")

_HARNESS = Path(__file__).resolve().parent / "harness.c"
_LINK = """ENTRY(a9_open)
SECTIONS {
  . = 0x00100000;
  .text : { *(.text*) }
  .rodata : { *(.rodata*) }
  .data : { *(.data*) }
  .bss : { *(.bss*) *(COMMON) }
}
"""
_IMAGE = 0x00100000          # code and data (the linker script above)
_IMAGE_SIZE = 0x00200000     # ... and the stack at its top
_STOP = 0x000FF000           # the return address of every entry point: the emulator stops there
_OCM = 0xFFFC0000            # the ps region (OCM, the software windows); 256 KiB
_OCM_SIZE = 0x00040000
_GP0 = 0x40000000            # M_AXI_GP0 (the rtl windows)
_GP0_SIZE = 0x40000000
_TIMER_PAGE = 0xF8F00000     # the Cortex-A9 MPCore private peripherals (global timer at +0x200)
_COMPONENT = "callee"
_EXAMPLE = ("pingpong", "c")
_STEP_LIMIT = 200_000        # instructions per entry point before we call it a hang


class A9CountError(RuntimeError):
    """The counter could not run (a tool missing, the build failed, the path misbehaved)."""


def cross_compiler() -> Optional[str]:
    """The cross compiler's path, or None when it is not installed."""
    return shutil.which(CROSS_CC)


@dataclass
class _Counts:
    instructions: int = 0
    gp_reads: int = 0
    gp_writes: int = 0
    ocm_reads: int = 0
    ocm_writes: int = 0
    timer_reads: int = 0
    now_us_calls: int = 0
    idle_calls: int = 0      # the platform's idle (wait mode sleep's pause): the harness's a9_idle
    barriers: int = 0
    it_skipped: int = 0      # of the instructions: in IT blocks, condition failed (see _on_code)
    gp_write_log: list[tuple[int, int]] = field(default_factory=list)

    def as_dict(self) -> dict[str, int]:
        return {k: v for k, v in self.__dict__.items() if isinstance(v, int)}

    def minus(self, other: "_Counts") -> dict[str, int]:
        a, b = self.as_dict(), other.as_dict()
        return {k: a[k] - b[k] for k in a}


def _build(work: Path) -> tuple[bytes, dict[str, int], str, dict[str, int]]:
    """Generate examples/pingpong/c's C files, compile them with the harness; returns the image
    (loaded at _IMAGE), its symbols and the compiler's version line."""
    from pushpush.codegen.c import render_c
    from pushpush.codegen.c_map_header import header_path, render_c_header
    from pushpush.link import load
    from pushpush.resources import examples_dir

    cc = cross_compiler()
    if cc is None:
        raise A9CountError(f"{CROSS_CC} is not installed: it compiles the C runtime for the "
                           "Cortex-A9 (Debian: apt-get install gcc-arm-linux-gnueabihf, as "
                           "bootstrap.sh does)")
    linked = load(examples_dir().joinpath(*_EXAMPLE) / "system.yaml")
    cdir = work / "c"
    for rel, text in (render_c(linked) | {header_path(linked): render_c_header(linked)}).items():
        p = work / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    shutil.copy(_HARNESS, cdir / "harness.c")
    (cdir / "link.ld").write_text(_LINK)
    elf = cdir / "harness.elf"
    srcs = ["harness.c", "pp_runtime.c", "pp_platform_baremetal.c", f"{_COMPONENT}_pp.c"]
    proc = subprocess.run([cc, *CFLAGS, "-I.", "-T", "link.ld", "-o", str(elf), *srcs, "-lgcc"],
                          cwd=cdir, capture_output=True, text=True)
    if proc.returncode != 0:
        raise A9CountError(f"{CROSS_CC} failed on the generated runtime (in {cdir}):\n{proc.stderr[-2000:]}")
    tool = cc[: -len("gcc")]
    image = cdir / "harness.bin"
    subprocess.run([tool + "objcopy", "-O", "binary", str(elf), str(image)], check=True)
    syms: dict[str, int] = {}
    out = subprocess.run([tool + "readelf", "-sW", str(elf)], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 8 and f[3] in ("FUNC", "OBJECT"):
            syms[f[7]] = int(f[1], 16)
    version = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    header = (work / header_path(linked)).read_text()
    return image.read_bytes(), syms, version, _layout(header)


class _Board:
    """The emulated Cortex-A9 with the harness loaded, and the PL's side of the calls."""

    def __init__(self, image: bytes, syms: dict[str, int]) -> None:
        from unicorn import (UC_ARCH_ARM, UC_HOOK_CODE, UC_HOOK_MEM_READ, UC_HOOK_MEM_WRITE,
                             UC_MODE_THUMB, Uc)
        from unicorn.arm_const import UC_ARM_REG_LR, UC_ARM_REG_PC, UC_ARM_REG_R0, UC_ARM_REG_SP

        self._regs = (UC_ARM_REG_R0, UC_ARM_REG_LR, UC_ARM_REG_SP, UC_ARM_REG_PC)
        self.syms = syms
        from unicorn.arm_const import UC_ARM_REG_C1_C0_2, UC_ARM_REG_FPEXC, UC_CPU_ARM_CORTEX_A9

        self.uc = uc = Uc(UC_ARCH_ARM, UC_MODE_THUMB)
        uc.ctl_set_cpu_model(UC_CPU_ARM_CORTEX_A9)
        # VFP/NEON on (as Linux leaves it for a user process): CPACR cp10/cp11 full, FPEXC.EN
        uc.reg_write(UC_ARM_REG_C1_C0_2, uc.reg_read(UC_ARM_REG_C1_C0_2) | (0xF << 20))
        uc.reg_write(UC_ARM_REG_FPEXC, 0x40000000)
        uc.mem_map(_STOP & ~0xFFF, 0x1000)
        uc.mem_map(_IMAGE, _IMAGE_SIZE)
        uc.mem_write(_IMAGE, image)
        uc.mem_map(_OCM, _OCM_SIZE)
        uc.mem_map(_GP0, _GP0_SIZE)
        uc.mem_map(_TIMER_PAGE, 0x1000)
        self.c = _Counts()
        self.it_block: list[int] = []  # the instructions of the IT block being run
        self.timer = 0
        self.stop_addr = syms["a9_stop"]
        self.now_us = syms["a9_now_us"] & ~1
        self.idle_fn = syms["a9_idle"] & ~1
        self.stop_after: Optional[int] = None   # a9_serve: set a9_stop at this read of it
        self.stop_reads = 0
        self.land: Optional[tuple[int, int, bytes]] = None  # (read of a9_stop, address, words):
        #                                         a Verilog caller's call written then
        self.reply: Optional[tuple[int, list[int]]] = None  # (status address, words from rep)
        self.reply_after = 1                    # the reply appears at this read of the status
        self.status_reads = 0
        self.trigger_addr = -1                  # a call's trigger: at_trigger is taken there
        self.at_trigger: dict[str, int] = {}
        self.at_first_status: dict[str, int] = {}
        self.calls: list[tuple[int, list[int]]] = []        # (cep address, words) the PL took
        self.pending: list[int] = []                        # words of the call being written
        self.f_state = 0                                    # the Verilog callee's state
        self.vseq = 0                                       # the Verilog caller's SEQ
        uc.hook_add(UC_HOOK_CODE, self._on_code)
        uc.hook_add(UC_HOOK_MEM_READ, self._on_read)
        uc.hook_add(UC_HOOK_MEM_WRITE, self._on_write)

    # -------------------------------------------------------------- hooks
    def _on_code(self, uc: Any, addr: int, size: int, _: Any) -> None:
        self.c.instructions += 1
        if self.it_block:
            # Unicorn calls no hook for an instruction of an IT block whose condition fails;
            # the Cortex-A9 still issues it: count the block's skipped ones here
            if addr in self.it_block:
                k = self.it_block.index(addr)
                self.c.instructions += k
                self.c.it_skipped += k
                self.it_block = self.it_block[k + 1:]
            else:
                self.c.instructions += len(self.it_block)
                self.c.it_skipped += len(self.it_block)
                self.it_block = []
        if size == 2:
            hw = int.from_bytes(uc.mem_read(addr, 2), "little")
            if hw & 0xFF00 == 0xBF00 and hw & 0xF:  # IT: 1..4 instructions follow under it
                n = 4 - ((hw & 0xF) & -(hw & 0xF)).bit_length() + 1
                nxt, block = addr + 2, []
                for _i in range(n):
                    block.append(nxt)
                    first = int.from_bytes(uc.mem_read(nxt, 2), "little")
                    nxt += 4 if (first >> 11) in (0b11101, 0b11110, 0b11111) else 2
                self.it_block = block
        if addr == self.now_us:
            self.c.now_us_calls += 1
        elif addr == self.idle_fn:
            self.c.idle_calls += 1
        if size == 4 and uc.mem_read(addr, 4) == b"\xbf\xf3\x5b\x8f":  # dmb ish (Thumb-2)
            self.c.barriers += 1

    def _on_read(self, uc: Any, access: int, addr: int, size: int, value: int, _: Any) -> None:
        if _OCM <= addr < _OCM + _OCM_SIZE:
            self.c.ocm_reads += 1
            if self.reply is not None and addr == self.reply[0]:
                self.status_reads += 1
                if self.status_reads == 1:
                    self.at_first_status = self.c.as_dict()
                if self.status_reads == self.reply_after:  # the PL's write lands now
                    status, words = self.reply
                    base = status - 4 * (len(words) - 1)
                    uc.mem_write(base, b"".join(w.to_bytes(4, "little") for w in words))
                    self.reply = None
        elif _GP0 <= addr < _GP0 + _GP0_SIZE:
            self.c.gp_reads += 1
        elif _TIMER_PAGE <= addr < _TIMER_PAGE + 0x1000:
            self.c.timer_reads += 1
            self.timer += 7  # the global timer runs on (a few ticks per read)
            uc.mem_write(_TIMER_PAGE + 0x200, (self.timer & 0xFFFFFFFF).to_bytes(4, "little")
                         + (self.timer >> 32).to_bytes(4, "little"))
        elif addr == self.stop_addr and self.stop_after is not None:
            self.stop_reads += 1
            if self.land is not None and self.stop_reads == self.land[0]:
                uc.mem_write(self.land[1], self.land[2])
                self.land = None
            if self.stop_reads >= self.stop_after:
                uc.mem_write(self.stop_addr, (1).to_bytes(4, "little"))

    def _on_write(self, uc: Any, access: int, addr: int, size: int, value: int, _: Any) -> None:
        if _OCM <= addr < _OCM + _OCM_SIZE:
            self.c.ocm_writes += 1
        elif _GP0 <= addr < _GP0 + _GP0_SIZE:
            self.c.gp_writes += 1
            self.c.gp_write_log.append((addr, value & 0xFFFFFFFF))
            if addr == self.trigger_addr:
                self.at_trigger = self.c.as_dict()
        elif _TIMER_PAGE <= addr < _TIMER_PAGE + 0x1000:
            raise A9CountError(f"the runtime wrote the timer page at {addr:#x}")

    # -------------------------------------------------------------- running
    def run(self, fn: str, arg: int = 0) -> int:
        """Run entry point fn(arg) to its return; its r0."""
        r0, lr, sp, pc_reg = self._regs
        self.uc.reg_write(sp, _IMAGE + _IMAGE_SIZE - 16)
        self.uc.reg_write(lr, _STOP | 1)
        self.uc.reg_write(r0, arg & 0xFFFFFFFF)
        self.uc.emu_start(self.syms[fn] | 1, _STOP, count=_STEP_LIMIT)
        pc = self.uc.reg_read(pc_reg)
        if pc != _STOP:
            raise A9CountError(f"{fn} did not return within {_STEP_LIMIT} instructions (pc {pc:#x})")
        v = int(self.uc.reg_read(r0))
        return v - (1 << 32) if v & 0x80000000 else v

    def counted(self, fn: str, arg: int = 0) -> tuple[_Counts, int]:
        self.c = _Counts()
        r = self.run(fn, arg)
        return self.c, r

    def f(self, x: int) -> int:
        """pingpong_callee.v's function (the reply the PL gives)."""
        s = self.f_state
        self.f_state = ((((s << 5) | (s >> 27)) & 0xFFFFFFFF) ^ (x & 0xFFFFFFFF)) + 0x9E3779B9 & 0xFFFFFFFF
        return self.f_state


def _call_once(b: _Board, x: int, reply_after: int, hw_cep: int, rep_status: int) -> tuple[_Counts, int]:
    """One C -> Verilog call, the PL's reply landing at the reply_after-th read of the status."""
    b.reply_after = reply_after
    b.status_reads = 0
    b.trigger_addr = hw_cep + 4
    seq_before = None
    c = _Counts()
    b.c = c
    # the PL: its reply is decided when the trigger (the burst's last word) arrives
    from unicorn import UC_HOOK_MEM_WRITE

    def pl(uc: Any, access: int, addr: int, size: int, value: int, _: Any) -> None:
        nonlocal seq_before
        if addr == hw_cep + 4:  # the trigger of hw.f's slot (1 argument word before it)
            trig = value & 0xFFFFFFFF
            arg = int.from_bytes(uc.mem_read(hw_cep, 4), "little")
            seq = (trig >> 1) & 1
            seq_before = seq
            if trig & ~3 != rep_status - 4:
                raise A9CountError(f"the call's trigger names rep {trig & ~3:#x}, not {rep_status - 4:#x}")
            b.reply = (rep_status, [b.f(arg), 1 | (seq << 30)])
    h = b.uc.hook_add(UC_HOOK_MEM_WRITE, pl, begin=hw_cep, end=hw_cep + 7)
    try:
        r = b.run("a9_call", x)
    finally:
        b.uc.hook_del(h)
    if b.reply is not None:
        raise A9CountError("the call returned before the PL's reply was read")
    return c, r


def count_call_path(work: Optional[Path] = None) -> dict[str, Any]:
    """Build and count; returns ``{"caller": ..., "callee": ..., "compiler", "cflags",
    "system"}``. caller: a C caller's call of a Verilog function: ``first_look`` (the whole
    call when the reply is there at the first read of the status word) in three parts,
    ``to_trigger`` (up to the call's last write, inclusive), ``trigger_to_status`` (from
    there to the first read of the status, inclusive: what the CPU does while the PL
    answers) and ``after_status``; ``wait_iteration``: one more round of the wait loop (the
    own window swept, the clock read). callee: a C callee serving a Verilog caller's call:
    ``take_call`` (the serve loop's round that takes the call, runs f and writes the reply)
    and ``empty_sweep`` (a round that finds nothing). Counts: instructions, gp_reads and
    gp_writes (M_AXI_GP0), ocm_reads and ocm_writes (the OCM window), timer_reads,
    now_us_calls, barriers (dmb), it_skipped."""
    try:
        import unicorn  # noqa: F401
    except ImportError:
        raise A9CountError("the unicorn package is not installed: it runs the Cortex-A9 code "
                           "(pip install 'pushpush-fpga[bench]', or pip install unicorn)") from None
    tmp = None
    if work is None:
        tmp = tempfile.TemporaryDirectory(prefix="pp-a9-")
        work = Path(tmp.name)
    try:
        image, syms, version, lay = _build(work)
        return _count(image, syms, lay) | {"compiler": version, "cflags": " ".join(CFLAGS),
                                      "system": "examples/pingpong/c, component callee"}
    finally:
        if tmp is not None:
            tmp.cleanup()


_LAYOUT = {"hw_cep": "CALLEE_IMPORT_HW_F_CEP_ADDR", "rep_status": "CALLEE_IMPORT_HW_F_REP_TRIGGER_ADDR",
           "slot": "CALLER_IMPORT_CALLEE_F_CEP_ADDR", "caller_rep": "CALLER_IMPORT_CALLEE_F_REP_ADDR"}


def _layout(header: str) -> dict[str, int]:
    """The addresses the PL's side needs, from the generated map header (c/<system>_map.h):
    hw.f's cep (the C caller's target), the C caller's rep status word for it, the C callee's
    static slot for the Verilog caller and that caller's rep."""
    found: dict[str, int] = {}
    for line in header.splitlines():
        f = line.split()
        if len(f) >= 3 and f[0] == "#define":
            for key, suffix in _LAYOUT.items():
                if f[1].endswith("_" + suffix):
                    found[key] = int(f[2].rstrip("uU"), 16)
    missing = sorted(set(_LAYOUT) - set(found))
    if missing:
        raise A9CountError(f"the map header lacks {', '.join(_LAYOUT[k] for k in missing)}")
    return found


def _same(c: dict[str, int]) -> dict[str, int]:
    """The counts two rounds must agree on: all but it_skipped (which of an IT block's
    instructions are skipped may follow the SEQ bit of the call; the instructions do not)."""
    return {k: v for k, v in c.items() if k != "it_skipped"}


#: the runtime's wait modes the counts are made in (PP_WAIT_*): poll, and sleep (the default)
WAIT_MODES = {"poll": 1, "sleep": 0}


def _count(image: bytes, syms: dict[str, int], lay: dict[str, int]) -> dict[str, Any]:
    b = _Board(image, syms)
    r = b.run("a9_open")
    if r != 0:
        raise A9CountError(f"callee_open on the bare-metal layer returned {r}")
    spin = int.from_bytes(b.uc.mem_read(syms["a9_spin_rounds"], 4), "little")
    modes: dict[str, dict[str, Any]] = {}
    for mode, code in WAIT_MODES.items():
        if b.run("a9_wait", code) != 0:
            raise A9CountError(f"pp_set_wait({mode}) failed")
        modes[mode] = {"caller": _count_caller(b, lay, spin), "callee": _count_callee(b, lay, spin)}
    return {"caller": modes["poll"]["caller"], "callee": modes["poll"]["callee"], "modes": modes,
            "spin_rounds": spin}


def _count_caller(b: _Board, lay: dict[str, int], spin: int) -> dict[str, Any]:
    x = b.f_state | 3
    runs: dict[int, _Counts] = {}
    # each twice in the end (the second pass is the steady state); spin + 2: one full round
    for reply_after in (1, 2, 3, spin + 1, spin + 2, 1, 2, 3):
        c, r = _call_once(b, x, reply_after, lay["hw_cep"], lay["rep_status"])
        if r != 0:
            raise A9CountError(f"callee_hw_f returned {r} (reply after {reply_after} looks)")
        got = b.run("a9_result") & 0xFFFFFFFF
        if got != b.f_state:
            raise A9CountError(f"the call returned {got:#x}, the PL answered {b.f_state:#x}")
        runs[reply_after] = c
        if reply_after == 1:
            marks = (dict(b.at_trigger), dict(b.at_first_status))
        x = got - (1 << 32) if got & 0x80000000 else got
    first = runs[1].as_dict()
    wait = runs[2].minus(runs[1])
    wait3 = runs[3].minus(runs[2])
    if _same(wait) != _same(wait3):
        raise A9CountError(f"the wait loop's rounds differ: {wait} then {wait3}")
    gp_log = runs[1].gp_write_log
    at_trigger, at_status = marks
    return {"first_look": first, "wait_iteration": wait,
            # the round after spin status-only ones: the clock, the own window swept, the wait
            "full_round": runs[spin + 2].minus(runs[spin + 1]),
            # first_look in three parts: up to the trigger's write (inclusive), from it to
            # the first read of the status (inclusive), the rest
            "to_trigger": at_trigger,
            "trigger_to_status": {k: at_status[k] - at_trigger[k] for k in first},
            "after_status": {k: first[k] - at_status[k] for k in first},
            "gp_write_addresses": [hex(a) for a, _ in gp_log]}


def _count_callee(b: _Board, lay: dict[str, int], spin: int) -> dict[str, Any]:
    """The serve loop (pp_serve): a full sweep, then spin rounds that look at the slot that
    took the last call (and a9_stop), then a full sweep again. The Verilog caller's calls land
    in the C callee's static slot: before the loop (taken by its first full sweep: the slot
    becomes the hot one) or while it spins (at a read of a9_stop)."""
    serve: dict[str, _Counts] = {}
    for name, land, rounds in (("warm", 0, 1), ("empty1", None, 2), ("empty2", None, 3), ("empty3", None, 4),
                               ("take", 2, 3), ("take_b", 2, 3), ("spun", None, spin + 1),
                               ("full", None, spin + 3)):
        call = b""
        if land is not None:
            b.vseq ^= 1
            arg = 0x1234 + b.vseq
            # the Verilog caller's write into the C callee's static slot: argument, trigger
            call = arg.to_bytes(4, "little") + (lay["caller_rep"] | (b.vseq << 1)).to_bytes(4, "little")
        if land == 0:
            b.uc.mem_write(lay["slot"], call)
        b.land = (land, lay["slot"], call) if land else None
        b.stop_after, b.stop_reads = rounds, 0
        b.uc.mem_write(b.stop_addr, (0).to_bytes(4, "little"))
        c, n = b.counted("a9_serve")
        b.stop_after = None
        if b.land is not None:
            raise A9CountError("the serve loop ended before the call landed")
        if n != (1 if land is not None else 0):
            raise A9CountError(f"the serve loop ran {n} calls in {name}, expected {int(land is not None)}")
        if land is not None:
            want = [(lay["caller_rep"], None), (lay["caller_rep"] + 4, 1 | (b.vseq << 30))]
            got = c.gp_write_log
            if len(got) != 2 or got[0][0] != want[0][0] or got[1] != want[1]:
                raise A9CountError(f"the reply's writes were {[(hex(a), hex(v)) for a, v in got]}, "
                                   f"expected the result then status {want[1][1]:#x} at {want[0][0]:#x}")
        serve[name] = c
    empty = serve["empty2"].minus(serve["empty1"])
    if _same(empty) != _same(serve["empty3"].minus(serve["empty2"])):
        raise A9CountError("the serve loop's empty rounds differ")
    take = serve["take_b"].minus(serve["empty1"])  # the spin round that takes the call
    full = serve["full"].minus(serve["spun"])       # a full sweep, the mode's wait, a spin round
    full = {k: full[k] - empty[k] for k in full}
    return {"take_call": take, "empty_sweep": empty, "full_round": full}
