"""Icarus simulation speed of a generated system: wall seconds per 100k clock cycles.

A benchmark of the simulator, not of the hardware (issue 15): how fast Icarus runs a
generated system top, idle and busy, with nothing else in the loop (no cocotb, no Python
per cycle). The system is generated as usual (:func:`pushpush.sim.runner.build_system`)
and simulated under a small Verilog harness written here:

- the clock and reset; the ARM's GP0 port (the top's ``s_axi``) driven by the harness, its
  PL-to-PS port (``m_axi``) answered by an always-ready AXI slave (B and R OKAY);
- **idle**: nothing is called; the cycles after reset are timed;
- **busy**: the harness first calls, as the system's software component, every ``run``
  export it imports (one INCR burst of the argument and the trigger, as the runtime does),
  with ``n`` large enough that the callers keep calling through the whole measurement (the
  pingpong caller, examples/pingpong, and the pairs of ``pushpush bench scaling``); then the
  cycles are timed, and the calls the callees served in them are counted (their
  ``calls_reg``, read at both ends of the window: nothing is sampled per cycle).

The harness prints a line at the start and at the end of the timed cycles; Python stamps
them as they arrive, so compiling and elaboration are not counted. The result is
``s_per_100k`` (wall seconds per 100 000 cycles) and, busy, ``calls`` in the window and
``cycles_per_call`` per pair (exact, a check that a change of the RTL kept the timing).

Example::

    from pushpush.bench.experiments.simspeed import measure, scaling_system
    r = measure("examples/pingpong/system.yaml", "busy", cycles=20000)
    print(r["s_per_100k"], r["cycles_per_call"])
    r = measure(scaling_system(16, "/tmp/ss16"), "idle", cycles=20000)

Command line (``pushpush bench simspeed --help``)::

    pushpush bench simspeed --pairs 16 --cycles 20000
    pushpush bench simspeed examples/pingpong/system.yaml --mode busy

``--ic READ_TOPOLOGY=0 --ic SKID_BUFFERS=1`` overrides parameters of the generated top's
``pp_axi_interconnect`` (to compare configurations).
"""

from __future__ import annotations

import re
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence, Union

__all__ = ["MODES", "measure", "scaling_system", "main", "run"]

MODES = ("idle", "busy")
#: cycles run before the timed window (reset, the start calls, every pair's first calls)
WARMUP_CYCLES = 400
#: the argument of every started ``run(n)``: more calls than any window holds
RUN_CALLS = 0x7FFF_FFFF

PathLike = Union[str, "Path"]


def scaling_system(pairs: int, workdir: PathLike, topology: str = "crossbar",
                   arbitration: str = "round_robin") -> Path:
    """Write the system of ``pushpush bench scaling`` with ``pairs`` caller/callee pairs
    (and its caller shims) into ``workdir``; returns the ``system.yaml`` path."""
    from pushpush.bench.experiments.scaling.scaling import write_system

    return write_system(pairs, {"topology": topology, "arbitration": arbitration},
                        Path(workdir).resolve())


def _set_params(top: Path, params: Mapping[str, int]) -> None:
    """Set parameters of the top's pp_axi_interconnect instance (``.NAME(value)``)."""
    text = top.read_text()
    head, sep, rest = text.partition("pp_axi_interconnect #(")
    if not sep:
        raise ValueError(f"{top}: no pp_axi_interconnect instance to set {dict(params)} on")
    block, sep2, tail = rest.partition("\n)")
    for name, value in params.items():
        block, n = re.subn(rf"\.{name}\([^)]*\)", f".{name}({int(value)})", block)
        if n != 1:
            known = ", ".join(re.findall(r"[.](\w+)[(]", block))
            raise ValueError(f"{top}: the interconnect instance has no parameter {name} "
                             f"(the generated top sets: {known})")
    top.write_text(head + sep + block + sep2 + tail)


def _harness(build: Any, mode: str, cycles: int) -> str:
    """The Verilog harness around the system top ``build.top``."""
    from pushpush.protocol import encode_call

    linked = build.linked
    sw = [c for c in linked.components if c.is_software]
    calls: list[tuple[int, list[int]]] = []
    callees: list[str] = []
    if mode == "busy":
        if not sw:
            raise ValueError(f"system '{linked.name}': busy mode needs a software component "
                             "that imports run(n) exports; there is none")
        for imp in sw[0].imports:
            if imp.function == "run":
                calls.append((imp.cep_address, encode_call(imp.signature, [RUN_CALLS],
                                                           rep_address=imp.rep_address, seq=1)))
        if not calls:
            raise ValueError(f"system '{linked.name}': busy mode calls the run(n) exports that "
                             f"'{sw[0].name}' imports; it imports none")
        callees = [c.name for c in linked.components
                   if c.kind == "rtl" and c.module == "pingpong_callee"]
    dw = linked.interconnect.data_width
    lines = [
        "// generated by pushpush/bench/experiments/simspeed.py: Icarus speed harness (not for synthesis)",
        "`timescale 1ns / 1ps",
        "`default_nettype none",
        "module pp_simspeed_tb;",
        "reg clk = 1'b0;",
        "reg rst = 1'b1;",
        "always #5 clk = ~clk;",
        "// the ARM's GP0 (the top's s_axi)",
        "reg [31:0] awaddr = 32'd0;",
        "reg [7:0] awlen = 8'd0;",
        "reg awvalid = 1'b0;",
        f"reg [{dw - 1}:0] wdata = {dw}'d0;",
        "reg wlast = 1'b0;",
        "reg wvalid = 1'b0;",
        "wire awready, wready, bvalid, arready, rvalid, rlast;",
        "wire [1:0] bresp, rresp;",
        "wire [11:0] bid, rid;",
        f"wire [{dw - 1}:0] rdata;",
        "// the PS memory port (the top's m_axi): always ready, answers OKAY",
        "wire m_awvalid, m_wvalid, m_wlast, m_arvalid;",
        "wire m_bready, m_rready;",
        "wire [7:0] m_arlen;",
        f"wire [{linked_m_id(build) - 1}:0] m_awid, m_arid;",
        "reg m_bvalid = 1'b0;",
        f"reg [{linked_m_id(build) - 1}:0] m_bid_reg = 0;",
        f"reg [{linked_m_id(build) - 1}:0] m_aw_id_reg = 0;",
        "reg m_rvalid = 1'b0;",
        "reg [7:0] m_rcount = 8'd0;",
        f"reg [{linked_m_id(build) - 1}:0] m_rid_reg = 0;",
        "wire irq;",
        "",
        f"{build.top} dut (",
        "    .clk(clk), .rst(rst),",
        "    .s_axi_awid(12'd0), .s_axi_awaddr(awaddr), .s_axi_awlen(awlen), .s_axi_awsize(3'd2),",
        "    .s_axi_awburst(2'b01), .s_axi_awlock(1'b0), .s_axi_awcache(4'd0), .s_axi_awprot(3'd0),",
        "    .s_axi_awvalid(awvalid), .s_axi_awready(awready),",
        f"    .s_axi_wdata(wdata), .s_axi_wstrb({{{dw // 8}{{1'b1}}}}), .s_axi_wlast(wlast),",
        "    .s_axi_wvalid(wvalid), .s_axi_wready(wready),",
        "    .s_axi_bid(bid), .s_axi_bresp(bresp), .s_axi_bvalid(bvalid), .s_axi_bready(1'b1),",
        "    .s_axi_arid(12'd0), .s_axi_araddr(32'd0), .s_axi_arlen(8'd0), .s_axi_arsize(3'd2),",
        "    .s_axi_arburst(2'b01), .s_axi_arlock(1'b0), .s_axi_arcache(4'd0), .s_axi_arprot(3'd0),",
        "    .s_axi_arvalid(1'b0), .s_axi_arready(arready),",
        "    .s_axi_rid(rid), .s_axi_rdata(rdata), .s_axi_rresp(rresp), .s_axi_rlast(rlast),",
        "    .s_axi_rvalid(rvalid), .s_axi_rready(1'b1),",
        "    .irq(irq),",
        "    .m_axi_awid(m_awid), .m_axi_awaddr(), .m_axi_awlen(), .m_axi_awsize(),",
        "    .m_axi_awburst(), .m_axi_awlock(), .m_axi_awcache(), .m_axi_awprot(),",
        "    .m_axi_awvalid(m_awvalid), .m_axi_awready(1'b1),",
        "    .m_axi_wdata(), .m_axi_wstrb(), .m_axi_wlast(m_wlast), .m_axi_wvalid(m_wvalid),",
        "    .m_axi_wready(1'b1),",
        "    .m_axi_bid(m_bid_reg), .m_axi_bresp(2'b00), .m_axi_bvalid(m_bvalid),",
        "    .m_axi_bready(m_bready),",
        "    .m_axi_arid(m_arid), .m_axi_araddr(), .m_axi_arlen(m_arlen), .m_axi_arsize(),",
        "    .m_axi_arburst(), .m_axi_arlock(), .m_axi_arcache(), .m_axi_arprot(),",
        "    .m_axi_arvalid(m_arvalid), .m_axi_arready(!m_rvalid),",
        f"    .m_axi_rid(m_rid_reg), .m_axi_rdata({dw}'d0), .m_axi_rresp(2'b00),",
        "    .m_axi_rlast(m_rcount == 8'd0), .m_axi_rvalid(m_rvalid), .m_axi_rready(m_rready)",
        ");",
        "",
        "// PS memory: one write at a time is plenty (AW and W are always taken; B after WLAST)",
        "always @(posedge clk) begin",
        "    if (m_awvalid) m_aw_id_reg <= m_awid;",
        "    if (m_bvalid && m_bready) m_bvalid <= 1'b0;",
        "    if (m_wvalid && m_wlast) begin",
        "        m_bvalid <= 1'b1;",
        "        m_bid_reg <= m_awvalid ? m_awid : m_aw_id_reg;",
        "    end",
        "    if (m_arvalid && !m_rvalid) begin",
        "        m_rvalid <= 1'b1;",
        "        m_rcount <= m_arlen;",
        "        m_rid_reg <= m_arid;",
        "    end else if (m_rvalid && m_rready) begin",
        "        if (m_rcount == 8'd0) m_rvalid <= 1'b0;",
        "        m_rcount <= m_rcount - 8'd1;",
        "    end",
        "end",
        "",
        "// the handshakes of the last rising edge, sampled at it (the DUT's readies may",
        "// change right after an edge that took a beat)",
        "reg aw_hs = 1'b0, w_hs = 1'b0;",
        "always @(posedge clk) begin",
        "    aw_hs <= awvalid && awready;",
        "    w_hs <= wvalid && wready;",
        "end",
        "",
        "task gp_write(input [31:0] addr, input integer n, input [1023:0] words);",
        "    integer b;",
        "    begin",
        "        @(negedge clk);",
        "        awaddr = addr; awlen = n - 1; awvalid = 1'b1;",
        "        b = 0;",
        "        wdata = words[31:0]; wlast = (n == 1); wvalid = 1'b1;",
        "        while (awvalid || wvalid) begin",
        "            @(negedge clk);",
        "            if (aw_hs) awvalid = 1'b0;",
        "            if (w_hs) begin",
        "                b = b + 1;",
        "                if (b == n) wvalid = 1'b0;",
        "                else begin",
        f"                    wdata = words[b*32 +: 32]; wlast = (b == n - 1);",
        "                end",
        "            end",
        "        end",
        "        while (!bvalid) @(negedge clk);",
        "        @(negedge clk);",
        "    end",
        "endtask",
        "",
        "function [63:0] served(input integer dummy);",
        "    begin",
        "        served = 64'd0",
    ]
    for c in callees:
        lines[-1] += f" + dut.{c}_inst.pp_user_inst.calls_reg"
    lines[-1] += ";"
    lines += [
        "    end",
        "endfunction",
        "",
        "reg [63:0] served0;",
        "initial begin",
        "    repeat (5) @(posedge clk);",
        "    rst <= 1'b0;",
        "    repeat (2) @(posedge clk);",
    ]
    if dw != 32:
        raise ValueError(f"the harness writes 32-bit beats; system '{linked.name}' has a "
                         f"{dw}-bit interconnect")
    for addr, words in calls:
        packed = "".join(f"{w:08x}" for w in reversed(words))
        lines.append(f"    gp_write(32'h{addr:08X}, {len(words)}, 1024'h{packed});")
    lines += [
        f"    repeat ({WARMUP_CYCLES}) @(posedge clk);",
        "    served0 = served(0);",
        "    $display(\"PP_SIMSPEED start\");",
        "    $fflush;",
        f"    repeat ({cycles}) @(posedge clk);",
        "    $display(\"PP_SIMSPEED end %0d\", served(0) - served0);",
        "    $fflush;",
        "    $finish;",
        "end",
        "endmodule",
        "`default_nettype wire",
        "",
    ]
    return "\n".join(lines)


def linked_m_id(build: Any) -> int:
    """The ID width of the top's ``m_axi`` (read from the generated top)."""
    text = (build.outdir / "rtl" / f"{build.top}.v").read_text()
    m = re.search(r"output wire \[(\d+):0\]\s+m_axi_awid", text)
    if not m:
        raise ValueError(f"{build.top}: no m_axi_awid port (a system without software windows?)")
    return int(m.group(1)) + 1


def measure(system: PathLike, mode: str = "idle", cycles: int = 100_000,
            workdir: Optional[PathLike] = None, ic_params: Optional[Mapping[str, int]] = None,
            vvp_flags: Sequence[str] = ()) -> dict[str, Any]:
    """Simulate ``system`` (a ``system.yaml``) with Icarus for ``cycles`` timed cycles in
    ``mode`` (``"idle"`` or ``"busy"``); returns ``{"system", "mode", "cycles", "wall_s",
    "s_per_100k", "cpu_s_per_100k", "calls", "cycles_per_call", "compile_s", "ic_params"}`` (``calls`` and
    ``cycles_per_call`` busy only: calls served in the window and window cycles per call of
    one pair)."""
    from pushpush.sim.runner import build_system

    from pushpush.bench.experiments.simboard import cpu_seconds

    if mode not in MODES:
        raise ValueError(f"mode '{mode}': one of {', '.join(MODES)}")
    if cycles < 1:
        raise ValueError(f"cycles={cycles}: at least 1")
    work = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="pp_simspeed_"))
    work = work.resolve()
    build = build_system(system, work / "gen")
    top_file = build.outdir / "rtl" / f"{build.top}.v"
    if ic_params:
        _set_params(top_file, ic_params)
    tb = work / "pp_simspeed_tb.v"
    tb.write_text(_harness(build, mode, cycles))
    vvp = work / "simspeed.vvp"
    t0 = time.monotonic()
    subprocess.run(["iverilog", "-g2005", "-o", str(vvp), "-s", "pp_simspeed_tb", str(tb)]
                   + [str(s) for s in build.sources], check=True, capture_output=True, text=True)
    compile_s = time.monotonic() - t0
    proc = subprocess.Popen(["vvp", "-n", *vvp_flags, str(vvp)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, cwd=work)
    assert proc.stdout is not None
    start = end = None
    cpu0 = cpu1 = 0.0
    served = 0
    out: list[str] = []
    try:
        for line in proc.stdout:
            out.append(line)
            if line.startswith("PP_SIMSPEED start"):
                start, cpu0 = time.monotonic(), cpu_seconds(proc.pid)
            elif line.startswith("PP_SIMSPEED end"):
                end, cpu1 = time.monotonic(), cpu_seconds(proc.pid)
                served = int(line.split()[2])
    finally:
        if proc.poll() is None and end is None:
            proc.kill()
    rc = proc.wait()
    if rc != 0 or start is None or end is None:
        raise RuntimeError(f"vvp failed (exit {rc}) in {work}:\n{''.join(out[-20:])}")
    wall = end - start
    pairs = sum(1 for c in build.linked.components if c.kind == "rtl" and c.module == "pingpong_callee")
    res: dict[str, Any] = {"system": build.linked.name, "mode": mode, "cycles": cycles,
                           "wall_s": round(wall, 3), "s_per_100k": round(wall * 100_000 / cycles, 3),
                           "cpu_s_per_100k": round((cpu1 - cpu0) * 100_000 / cycles, 3),
                           "compile_s": round(compile_s, 2), "ic_params": dict(ic_params or {})}
    if mode == "busy":
        res["calls"] = served
        res["cycles_per_call"] = round(cycles * pairs / served, 3) if served else None
    return res


def run(opts: Any, log: Any) -> dict[str, Any]:
    """``pushpush bench simspeed`` (registry, :mod:`pushpush.bench.registry`)."""
    import json

    from pushpush.bench.registry import OptionError, result

    params = {}
    for kv in opts.ic:
        k, sep, v = kv.partition("=")
        try:
            if not sep or not k:
                raise ValueError
            params[k] = int(v, 0)
        except ValueError:
            raise OptionError(f"--ic {kv}: give NAME=VALUE, e.g. --ic SKID_BUFFERS=1") from None
    if opts.cycles < 1:
        raise OptionError(f"--cycles {opts.cycles}: at least 1")
    if opts.pairs and opts.system:
        raise OptionError(f"--pairs {opts.pairs} and {opts.system}: give a system or --pairs, not both")
    if opts.pairs < 0 or opts.pairs > 15:
        raise OptionError(f"--pairs {opts.pairs}: 1..15 pairs")
    if not opts.pairs and opts.topology != "crossbar":
        raise OptionError("--topology applies to the scaling system of --pairs only")
    out = Path(opts.output)
    work = Path(opts.workdir) if opts.workdir else out / "work" / "simspeed"
    if opts.pairs:
        system: PathLike = scaling_system(opts.pairs, work / "system", opts.topology)
    else:
        from pushpush.resources import examples_dir
        system = opts.system or (examples_dir() / "pingpong" / "system.yaml")
    rows, lines = [], []
    for mode in opts.mode or list(MODES):
        log(f"simspeed: {system} {mode}, {opts.cycles} cycles ...")
        r = measure(system, mode, opts.cycles, work / mode, params)
        rows.append(r)
        extra = (f", {r['calls']} calls, {r['cycles_per_call']} cycles/call/pair"
                 if mode == "busy" else "")
        lines.append(f"{r['system']} {mode}: {r['s_per_100k']} s per 100k cycles "
                     f"(CPU {r['cpu_s_per_100k']} s) "
                     f"({r['cycles']} cycles in {r['wall_s']} s{extra})"
                     f"{' ' + str(params) if params else ''}")
    out.mkdir(parents=True, exist_ok=True)
    (out / "simspeed.json").write_text(json.dumps(rows, indent=1))
    lines.append(f"\nresults: {out / 'simspeed.json'}")
    return result("simspeed", "simspeed: Icarus seconds per 100k cycles", "\n".join(lines),
                  rows=rows, markdown="\n".join(lines[:-1]))

