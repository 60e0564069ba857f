"""Build the program of a ``kind: riscv`` component: C sources -> ELF -> ``$readmemh`` image.

The program is the user's C, the generated ``<component>_pp.c`` proxies and the bare-metal
runtime ``pp_runtime.c`` (the files ``kind: c`` uses), and the core's platform layer
``pp_platform_riscv.c`` (c/runtime/pp_platform_riscv.c, copied as it is), compiled by Debian's
``riscv64-unknown-elf-gcc`` for RV32I (``-march=rv32i -mabi=ilp32``) against picolibc
(``--specs=picolibc.specs``: ``memcpy`` and friends), with our start-up code (``crt0.S``:
stack pointer, global pointer, ``.bss`` cleared, ``main``, then ``ebreak``, which stops the
core: ``pp_riscv.trap``) and a linker script that puts everything in the core's local
memory, from address 0. The image is one hex word per line for ``$readmemh`` (cores/riscv,
parameter ``MEM_INIT``). A program whose code, data and ``stack_bytes`` of stack do not fit
``memory_bytes`` is refused with :class:`ProgramTooLarge` (docs/riscv.md).

Example::

    from pushpush.c.riscv import build_program
    prog = build_program("build/x/c", ["src/callee.c"], components=["callee"],
                         out_dir="build/x/riscv/callee", memory_bytes=16384)
    print(prog.hex_path, prog.used_bytes)
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from ..errors import Diagnostic, SpecError
from ..link import LinkedComponent, LinkedSystem
from ..resources import c_runtime_dir
from . import CFLAGS, CompileError

__all__ = ["MARCH", "MABI", "CPUS", "DEFAULT_CPU", "DEFAULT_STACK_BYTES", "DEFAULT_SIZES", "CTRL_BASE", "ProgramTooLarge", "RiscvProgram",
           "toolchain", "build_program", "platform_files", "runtime_sizes", "LEND_ALLOWANCE",
           "ProgramDoesNotFit", "build_component", "build_images"]

MARCH = "rv32i"
MABI = "ilp32"
#: The soft cores (cores/riscv's parameter CPU) and the ISA each program is compiled for:
#: PicoRV32 as configured there has no multiplier (RV32I); VexRiscv_Lite is RV32IM.
CPUS = {"picorv32": "rv32i", "vexriscv": "rv32im"}
DEFAULT_CPU = "picorv32"
#: Link-time optimisation: the runtime, the proxies and the platform layer are one program,
#: so calls between them are inlined across files (examples/riscv_pingpong, riscv -> rtl:
#: 817 -> 645 cycles per call on PicoRV32, 266 -> 246 on VexRiscv; -O3 is slower on
#: VexRiscv: its larger code misses the instruction cache)
LTO = ("-flto",)
#: stack reserved above the program's data (checked against the memory size)
DEFAULT_STACK_BYTES = 2048
#: The runtime's table sizes on the core (pp_runtime.h's PP_MAX_*, overridable with -D): they
#: size the memory the tables take (a sweep reads the served slots in use only, whatever
#: PP_MAX_SERVED is). :func:`runtime_sizes` fits them to a component.
DEFAULT_SIZES = {"PP_MAX_SERVED": 8, "PP_MAX_SITES": 8, "PP_MAX_ALLOCS": 8, "PP_MAX_FNSEQ": 8,
                 "PP_MAX_WORDS": 16}
#: The runtime without direct stores and its fast paths (pp_runtime.h's PP_DIRECT): the RISC-V
#: layer checks every store's AXI response (pp_platform_riscv.c), so it has no pp_platform.direct
#: and the fast paths' code and checks would only cost the core memory and cycles.
RUNTIME_DEFINES = ("-DPP_DIRECT=0",)
#: the wrapper's control page (cores/riscv/pp_riscv.v, parameter CTRL_BASE)
CTRL_BASE = 0x1000_0000
_GCC = "riscv64-unknown-elf-gcc"
_FIX = ("install Debian's gcc-riscv64-unknown-elf and picolibc-riscv64-unknown-elf "
        "(./bootstrap.sh setup does)")


class ProgramTooLarge(CompileError):
    """The program and its stack do not fit the core's memory."""

    def __init__(self, message: str, used_bytes: int, memory_bytes: int) -> None:
        super().__init__(message)
        self.used_bytes = used_bytes
        self.memory_bytes = memory_bytes


@dataclass(frozen=True)
class RiscvProgram:
    """A built program: the ELF, its memory image and how much of the memory it uses."""

    elf: Path
    hex_path: Path
    image_bytes: int      # code + initialised data (the image's length)
    used_bytes: int       # image + .bss + the stack reserve
    memory_bytes: int
    symbols: dict[str, int]  # the ELF's global symbols (name -> address)


#: function values a component may lend at once, above its window's cep slots (PP_MAX_SERVED),
#: when one of its imports takes a function value (else it has nobody to lend one to)
LEND_ALLOWANCE = 4


def runtime_sizes(component: LinkedComponent) -> dict[str, int]:
    """The runtime's tables fitted to ``component``: every cep slot of its window served,
    plus :data:`LEND_ALLOWANCE` lent functions if an import takes a function value; one site
    per import; the largest slot."""
    ceps = sum(1 for s in component.slots if s.kind.is_cep)
    lends = any(i.signature.function_params() for i in component.imports)
    words = max((s.words for s in component.slots), default=1)
    return {**DEFAULT_SIZES, "PP_MAX_SERVED": ceps + (LEND_ALLOWANCE if lends else 0),
            "PP_MAX_SITES": max(1, len(component.imports)),
            "PP_MAX_WORDS": max(DEFAULT_SIZES["PP_MAX_WORDS"], words)}


def toolchain() -> str:
    """The cross compiler's path; :class:`CompileError` with the fix if it is missing."""
    gcc = shutil.which(_GCC)
    if gcc is None:
        raise CompileError(f"no RISC-V compiler ({_GCC}): {_FIX}")
    return gcc


def platform_files(out_dir: Path) -> list[Path]:
    """Copy the core's platform layer (header and source, c/runtime/) into out_dir."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files = []
    for name in ("pp_platform_riscv.h", "pp_platform_riscv.c"):
        p = out_dir / name
        p.write_text((c_runtime_dir() / name).read_text(encoding="utf-8"), encoding="utf-8")
        files.append(p)
    return files


_CRT0 = """\
/* pushpush: start-up code of a kind: riscv program (pushpush/c/riscv.py) */
    .section .text.start, "ax"
    .globl _start
_start:
{trap_vector}    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la sp, __stack_top
    la t0, __bss_start
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 1b
2:  call main
{stop}3:  j 3b
"""
#: how each core stops after main returns: PicoRV32 traps on ebreak (pp_riscv.trap);
#: VexRiscv's exceptions go to mtvec (unknown at reset: set first), where the program writes
#: the control page's halt word (0x28), which raises pp_riscv.trap
_TRAP_VECTOR = {"picorv32": "",   # csrw mtvec, t0 (as .insn: -march=rv32im has no Zicsr mnemonics)
                "vexriscv": "    la t0, 4f\n    .insn i 0x73, 1, x0, t0, 0x305\n"}
_STOP = {"picorv32": "    ebreak\n",
         "vexriscv": "    ebreak\n    .p2align 2\n4:  li t0, 0x10000028\n    sw t0, 0(t0)\n"}

_LINK = """\
/* pushpush: linker script of a kind: riscv program (pushpush/c/riscv.py) */
OUTPUT_ARCH(riscv)
ENTRY(_start)
MEMORY { RAM (rwx) : ORIGIN = 0, LENGTH = {link_bytes} }
SECTIONS
{
    .text : {
        KEEP(*(.text.start))
        /* the call and serve paths first, together: a line of VexRiscv's 4 KiB direct-mapped
         * instruction cache is then not shared by two functions of one call (with -flto the
         * serve loop is inlined into main, a call into pp_call_site's part; a name that is
         * not there any more simply matches nothing) */
        *(.text.pp_riscv_write* .text.pp_call_site* .text.pp_take* .text.pp_poll* .text.pp_serve*
          .text.main)
        *(.text .text.*)
    } > RAM
    .rodata : { . = ALIGN(4); *(.rodata .rodata.* .srodata .srodata.*) } > RAM
    .data : {
        . = ALIGN(4);
        *(.data .data.*)
        __global_pointer$ = . + 0x800;
        *(.sdata .sdata.*)
        . = ALIGN(4);
        __image_end = .;
    } > RAM
    .bss (NOLOAD) : {
        . = ALIGN(4);
        __bss_start = .;
        *(.sbss .sbss.* .bss .bss.* COMMON)
        . = ALIGN(4);
        __bss_end = .;
    } > RAM
    __stack_top = {memory_bytes};
    /DISCARD/ : { *(.comment) *(.note .note.*) *(.riscv.attributes) *(.eh_frame .eh_frame_hdr) }
}
"""


def _run(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise CompileError(f"RISC-V build failed: {shlex.join(cmd)}\n{r.stdout}{r.stderr}")
    return r


def build_program(cdir: str | os.PathLike[str], sources: Sequence[str | os.PathLike[str]], *,
                  components: Sequence[str], out_dir: str | os.PathLike[str], memory_bytes: int,
                  stack_bytes: int = DEFAULT_STACK_BYTES, flags: Sequence[str] = (),
                  name: str = "program", sizes: Mapping[str, int] | None = None,
                  cpu: str = DEFAULT_CPU) -> RiscvProgram:
    """Compile ``sources`` with the generated files of ``components`` (in ``cdir``) and the
    core's runtime into ``out_dir/<name>.elf`` and ``out_dir/<name>.hex``; refuse a program
    that does not fit ``memory_bytes`` with ``stack_bytes`` of stack. ``sizes``: the
    runtime's tables (:data:`DEFAULT_SIZES` for what is not given); ``cpu``: the core it
    runs on (:data:`CPUS`: its ISA and start-up code)."""
    if cpu not in CPUS:
        raise ValueError(f"cpu must be one of {', '.join(CPUS)}, not {cpu!r}")
    if memory_bytes < 1024 or memory_bytes & (memory_bytes - 1):
        raise ValueError(f"memory_bytes must be a power of two >= 1024, not {memory_bytes}")
    gcc = toolchain()
    c = Path(cdir)
    out = Path(out_dir)
    gen = [c / f"{n}_pp.c" for n in components] + [c / "pp_runtime.c"]
    missing = [str(p) for p in gen if not p.is_file()]
    if missing:
        raise CompileError(f"generated C files missing: {', '.join(missing)}; run 'pushpush generate'")
    plat_h, plat_c = platform_files(out)
    (out / "crt0.S").write_text(_CRT0.replace("{trap_vector}", _TRAP_VECTOR[cpu]).replace("{stop}", _STOP[cpu]))
    # a generous MEMORY length links any size; the fit is checked below with the stack
    (out / "link.ld").write_text(_LINK.replace("{link_bytes}", str(max(memory_bytes, 1 << 24)))
                                 .replace("{memory_bytes}", str(memory_bytes)))
    elf = out / f"{name}.elf"
    cmd = [gcc, f"-march={CPUS[cpu]}", f"-mabi={MABI}", f"-DPP_RISCV_CPU_{cpu.upper()}=1", "--specs=picolibc.specs", "-nostartfiles",
           "-ffreestanding", "-ffunction-sections", "-fdata-sections", *CFLAGS, *LTO,
           *[f"-D{k}={v}" for k, v in {**DEFAULT_SIZES, **(sizes or {})}.items()], *RUNTIME_DEFINES, *flags,
           f"-I{c}", f"-I{out}", "-T", str(out / "link.ld"), "-Wl,--gc-sections",
           str(out / "crt0.S"), *[str(s) for s in sources], *[str(p) for p in gen], str(plat_c),
           "-o", str(elf), "-lgcc"]
    _run(cmd)
    symbols = _symbols(elf)
    image_end, bss_end = symbols["__image_end"], symbols["__bss_end"]
    used = bss_end + stack_bytes
    if used > memory_bytes:
        raise ProgramTooLarge(
            f"the program of component(s) {', '.join(components)} needs {used} bytes ({image_end} of code "
            f"and data, {bss_end - image_end} of .bss, {stack_bytes} of stack) but its memory is "
            f"{memory_bytes} bytes; set memory to at least {_pow2(used)} bytes "
            f"({_pow2(used) // 1024} KiB) or make the program smaller", used, memory_bytes)
    binary = out / f"{name}.bin"
    _run([gcc.replace("-gcc", "-objcopy"), "-O", "binary", "-j", ".text", "-j", ".rodata", "-j", ".data",
          str(elf), str(binary)])
    data = binary.read_bytes()
    data += b"\0" * (-len(data) % 4)
    hex_path = out / f"{name}.hex"
    # every word of the memory (zeros after the image), so $readmemh fills it all
    image = data + b"\0" * (memory_bytes - len(data))
    hex_path.write_text("".join(f"{int.from_bytes(image[i:i + 4], 'little'):08x}\n"
                                for i in range(0, len(image), 4)))
    return RiscvProgram(elf=elf, hex_path=hex_path, image_bytes=len(data), used_bytes=used,
                        memory_bytes=memory_bytes, symbols=symbols)


class ProgramDoesNotFit(SpecError):
    """A riscv component's program does not fit its ``memory:``; the diagnostic points at
    that line of system.yaml (or at the component, when ``memory:`` is not written)."""


def build_component(linked: LinkedSystem, name: str, cdir: str | os.PathLike[str],
                    out_dir: str | os.PathLike[str]) -> RiscvProgram:
    """Build the program of riscv component ``name`` of ``linked`` (its ``sources:``, its
    ``memory:``, the runtime's tables fitted to it) against the generated C in ``cdir``.
    A program too large for its memory raises :class:`ProgramDoesNotFit` at the YAML line."""
    comp = linked.component(name)
    if comp.kind != "riscv":
        raise ValueError(f"component '{name}' is {comp.kind}, not riscv: it has no program")
    try:
        return build_program(cdir, linked.source_paths(name), components=[name], out_dir=out_dir,
                             memory_bytes=comp.memory, sizes=runtime_sizes(comp), name=name,
                             cpu=comp.cpu or DEFAULT_CPU)
    except ProgramTooLarge as exc:
        where = comp.memory_loc or comp.loc
        if where is None:
            raise
        raise ProgramDoesNotFit([Diagnostic.at(where, f"memory of component '{name}': {exc}")]) from None


def build_images(linked: LinkedSystem, outdir: str | os.PathLike[str]) -> dict[str, RiscvProgram]:
    """Build the program of every riscv component of ``linked`` from the C that ``pushpush
    generate`` wrote into ``outdir/c`` (ELF under ``outdir/riscv/<component>/``) and put its
    ``$readmemh`` image into ``outdir`` under the name the generated top's ``pp_riscv`` reads
    (:func:`pushpush.codegen.top_model.riscv_mem_init`, ``<component>.mem``): beside the
    simulated board's ``.bit``, and where the generated ``.core`` lists it for the Vivado
    project (file type ``mem``, docs/riscv.md "Board builds"). Returns ``{component:
    program}``; a program too large for its memory raises :class:`ProgramDoesNotFit` at the
    YAML line, before anything is copied."""
    from ..codegen.top_model import riscv_mem_init

    out = Path(outdir)
    progs = {c.name: build_component(linked, c.name, out / "c", out / "riscv" / c.name)
             for c in linked.components if c.kind == "riscv"}
    for name, prog in progs.items():
        shutil.copyfile(prog.hex_path, out / riscv_mem_init(name))
    return progs


def _pow2(n: int) -> int:
    p = 1024
    while p < n:
        p *= 2
    return p


def _symbols(elf: Path) -> dict[str, int]:
    nm = toolchain().replace("-gcc", "-nm")
    out = _run([nm, "--defined-only", str(elf)]).stdout
    syms: dict[str, int] = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            syms[parts[2]] = int(parts[0], 16)
    return syms
