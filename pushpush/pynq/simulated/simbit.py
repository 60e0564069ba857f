"""The simulated board's overlay files: what stands in for the ``.bit``.

:func:`write_sim_overlay` writes, for a linked system, the folder PYNQ loads::

    <system>.bit        a "simulation bitstream": a Xilinx .bit header (design, part, date)
                        whose data is a JSON manifest of the simulation (top module, Verilog
                        sources relative to this folder, simulator, clock), so PYNQ's
                        Bitstream/Overlay classes accept it and the simulated device knows
                        what to simulate
    <system>.hwh        the hardware handoff (pushpush.codegen.hwh), read by PYNQ's own parser
    <system>.map.json   the system map (the pushpush driver reads the linked model from it)
    <system>.dtbo       an empty marker: PYNQ 4.0's ``Overlay.free()`` only removes the
                        overlay's device tree, which is how the simulated device hears of it
                        (used only by the simulated device; never copy this folder to a board)
    rtl/, src/, ...     the generated system (pushpush generate), when no sources are given

A real Vivado ``.bit`` has no manifest; the simulated device refuses it with a message
saying how to make a simulation bitstream.
"""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path
from typing import Any, Optional, Sequence

from pushpush import __version__
from pushpush.link import LinkedSystem

__all__ = ["MAGIC", "read_manifest", "write_sim_bitstream",
           "write_sim_overlay", "NotASimBitstream"]

MAGIC = b"PUSHPUSH-SIM-BITSTREAM\n"
_HEADER = bytes.fromhex("0009 0ff00ff00ff00ff000 0001".replace(" ", ""))


class NotASimBitstream(ValueError):
    """The file is not a simulation bitstream (e.g. a real one from Vivado)."""




def _field(key: bytes, text: str) -> bytes:
    data = text.encode("ascii") + b"\0"
    return key + struct.pack(">H", len(data)) + data


def write_sim_bitstream(path: str | os.PathLike[str], manifest: dict[str, Any]) -> Path:
    """Write a simulation bitstream: a valid .bit header around the JSON manifest."""
    body = MAGIC + json.dumps(manifest, indent=1, sort_keys=True).encode() + b"\n"
    design = f"{manifest.get('system', 'system')}_bd_wrapper;UserID=0XFFFFFFFF;Version=pushpush-{__version__}-sim"
    data = (_HEADER + _field(b"a", design) + _field(b"b", "7z020clg400")
            + _field(b"c", "1970/01/01") + _field(b"d", "00:00:00")
            + b"e" + struct.pack(">I", len(body)) + body)
    p = Path(path)
    p.write_bytes(data)
    return p


def _bit_data(raw: bytes) -> bytes:
    """The data field of a .bit file (the same walk as PYNQ's parse_bit_header)."""
    try:
        offset = 2 + struct.unpack(">h", raw[0:2])[0] + 2
        while True:
            key = raw[offset]
            offset += 1
            if key == 0x65:
                length = struct.unpack(">I", raw[offset:offset + 4])[0]
                return raw[offset + 4: offset + 4 + length]
            length = struct.unpack(">H", raw[offset:offset + 2])[0]
            offset += 2 + length
    except (IndexError, struct.error):
        raise NotASimBitstream("not a .bit file (no header)") from None


def read_manifest(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest of a simulation bitstream, with ``sources`` made absolute."""
    p = Path(path).resolve()
    data = _bit_data(p.read_bytes())
    if not data.startswith(MAGIC):
        raise NotASimBitstream(
            f"'{p}' is a real bitstream, not a simulation bitstream: the simulated board "
            "cannot run it. Make one from the system with pushpush.pynq.write_sim_overlay("
            "linked, folder) (or pushpush.pynq.load(system_yaml)), or run on a PYNQ-Z1.")
    manifest = json.loads(data[len(MAGIC):])
    manifest["sources"] = [str((p.parent / s).resolve()) for s in manifest["sources"]]
    if manifest.get("mem_dir"):
        manifest["mem_dir"] = str((p.parent / manifest["mem_dir"]).resolve())
    return manifest


def _generated_sources(linked: LinkedSystem, outdir: Path) -> tuple[str, list[Path]]:
    from pushpush.build.cores import cores_rtl
    from pushpush.codegen.generate import generate
    from pushpush.codegen.fabric import core_dependencies, top_module_name

    written = generate(linked, outdir)
    files = cores_rtl(core_dependencies(linked))
    files += [w for w in written if w.suffix == ".v"]
    if linked.dmas:
        # the DMA-driver form: the simulator runs the PL the block design has around the top
        from pushpush.codegen.dma import dma_cores, dma_shell_name, render_dma_shell
        shell = outdir / "rtl" / f"{dma_shell_name(linked)}.v"
        shell.parent.mkdir(parents=True, exist_ok=True)
        shell.write_text(render_dma_shell(linked), encoding="utf-8")
        files += [f for f in cores_rtl(list(dma_cores(linked))) if f not in files] + [shell]
        return dma_shell_name(linked), files
    return top_module_name(linked), files


def _riscv_programs(linked: LinkedSystem, outdir: Path) -> list[Path]:
    """Build the program of every riscv component and put its ``$readmemh`` image beside
    the ``.bit`` (:func:`pushpush.c.riscv.build_images`), where the simulated board's build
    points ``pp_riscv`` (the macro ``PP_RISCV_MEM_DIR``); returns the core's Verilog, to go
    last among the sources (:func:`pushpush.codegen.riscv.core_sources`)."""
    from pushpush.c.riscv import build_images
    from pushpush.codegen.riscv import core_sources

    build_images(linked, outdir)
    return list(core_sources(tuple({c.cpu or "picorv32" for c in linked.components if c.kind == "riscv"})))


def _ports(linked: LinkedSystem, hwh_options: Optional[dict[str, Any]],
           stand_in: Optional[tuple[str, list[Path]]]) -> dict[str, Any]:
    """The widths of the top's AXI ports (the simulated board's harness needs them) and,
    for a stand-in top, the ports it has (it may leave optional AXI signals out)."""
    from pushpush.codegen.fabric import top_id_widths

    s_id, m_id = top_id_widths(linked)
    opts = hwh_options or {}
    out: dict[str, Any] = {}
    if stand_in is not None:
        from pushpush.codegen.portcheck import PortCheckError, pyslang_available, read_module_ports
        if pyslang_available():
            try:
                out["names"] = [p.name for p in read_module_ports(stand_in[1], stand_in[0]).ports]
            except PortCheckError:
                pass  # the simulator's build reports it, as for any source error
    # the top's interrupt output (a generated top has one when linked.irq says so)
    out["irq"] = (linked.irq is not None) if stand_in is None else ("irq" in out.get("names", []))
    return out | {"data_width": int(opts.get("data_width") or linked.interconnect.data_width),
            "s_id_width": int(opts.get("s_id_width", s_id)),
            "m_id_width": int(opts.get("m_id_width", m_id))}


def _buffer_mem_ports(linked: LinkedSystem) -> list[Any]:
    """The generated top's buffer engines' master ``buf_axi`` (S_AXI_HP0, or HP1 with
    ``software_windows: ddr``) as a PS memory port of the harness; none without buffers."""
    from pushpush.codegen.fabric import BUF_DATA_WIDTH, buf_id_width, buffer_port
    from pushpush.codegen.simboard import PsMemPort

    label = buffer_port(linked)
    if label is None:
        return []
    return [PsMemPort("bufmem", "buf_axi", BUF_DATA_WIDTH, buf_id_width(linked), label)]


def write_sim_overlay(linked: LinkedSystem, outdir: str | os.PathLike[str], *,
                      top: Optional[str] = None,
                      sources: Optional[Sequence[str | os.PathLike[str]]] = None,
                      simulator: str = "auto", parameters: Optional[dict[str, Any]] = None,
                      hwh_options: Optional[dict[str, Any]] = None,
                      mem_ports: Sequence[Any] = ()) -> Path:
    """Write the simulated board's overlay folder for ``linked``; returns the ``.bit`` path.

    Without ``sources`` the system is generated into ``outdir`` (``pushpush generate``) and
    simulated whole; with ``sources`` (and ``top``) that design stands in for the generated
    top (it must have the same ports: clk, rst, ``s_axi_*``, ``m_axi_*``). ``mem_ports``
    (:class:`pushpush.codegen.simboard.PsMemPort`): the top's other masters into PS memory
    (e.g. a DMA engine's on S_AXI_HP0), each served by its own ``pp_sim_mem`` in the harness.
    """
    from pushpush.sysmap import to_json

    from pushpush.codegen.hwh import render_hwh

    riscv = [c.name for c in linked.components if c.kind == "riscv"]
    out = Path(outdir).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if sources is None:
        top, srcs = _generated_sources(linked, out)
        if riscv:
            srcs = srcs + _riscv_programs(linked, out)
    else:
        if top is None:
            raise ValueError("give the top module's name with the sources")
        srcs = [Path(s).resolve() for s in sources]
    rel = [os.path.relpath(s, out) for s in srcs]
    name = linked.name
    manifest = {
        "format": "pushpush-sim-bitstream", "version": 1, "system": name, "top": top,
        "sources": rel, "simulator": simulator, "clock_mhz": linked.clock_mhz,
        "parameters": dict(parameters or {}),
        "ps": {"base": linked.ps.base, "size": linked.ps.size},
        "ports": _ports(linked, hwh_options, None if sources is None else (top, srcs)),
    }
    manifest["ports"]["m_axi"] = "S_AXI_HP0" if linked.software_windows == "ddr" else "S_AXI_GP0"
    if sources is None and riscv:
        manifest["mem_dir"] = "."   # the programs' $readmemh files, beside the .bit
    if sources is None:
        mem_ports = list(mem_ports) + _buffer_mem_ports(linked)
    if sources is None and linked.dmas:
        from pushpush.codegen.dma import dma_mem_ports
        from pushpush.codegen.fabric import top_module_name
        mem_ports = list(mem_ports) + dma_mem_ports(linked)
        hwh_top: Optional[str] = top_module_name(linked)   # the shell stands for the block design
        manifest["dmas"] = [{"name": d.name, "component": d.component, "base": d.base,
                             "size": d.size} for d in linked.dmas]
    else:
        hwh_top = top
    if sources is None and linked.dmas:
        # the shell's interrupt outputs: the top's irq and the DMAs' introuts, in the order
        # of the block design's axi_intc_0 inputs (as the .hwh numbers them)
        from pushpush.codegen.dma import shell_interrupt_ports
        manifest["ports"]["intr"] = shell_interrupt_ports(linked)
    if mem_ports:
        manifest["ports"]["mem_ports"] = [p.to_json() for p in mem_ports]
    hwh_opts = {"irq": bool(manifest["ports"]["irq"]), **(hwh_options or {})}
    (out / f"{name}.hwh").write_text(render_hwh(linked, top=hwh_top, **hwh_opts), encoding="utf-8")
    (out / f"{name}.map.json").write_text(to_json(linked), encoding="utf-8")
    (out / f"{name}.dtbo").write_bytes(b"")
    return write_sim_bitstream(out / f"{name}.bit", manifest)
