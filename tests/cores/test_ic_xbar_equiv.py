"""The crossbar's select timing changes keep every handshake and every grant, proved by Yosys.

Two changes made the crossbar's multiplexer selects early (cores/interconnect/README.md,
"Resources"), and neither may change which request wins or when anything moves:

* ``pp_arbiter``'s grant without a carry chain (the lowest set bit of the masked and of all
  candidates side by side, the ports above the grant as a prefix OR). Proved the same
  sequential function as the previous text (kept as ``tests/cores/ref/pp_arbiter_carry.v``)
  with ``equiv_make`` / ``equiv_simple`` / ``equiv_induct`` (the state registers match by
  name), for both policies and several port counts: the same grant in every state for every
  input, so the same arbitration order for ever.
* With ``SKID_BUFFERS = 0`` each master's AW payload and W beat are held in a register of its
  own and the slaves' registers carry the master's index (the payload multiplexers after the
  registers). The reference is the same core with that branch switched off (the previous
  datapath, still the one ``SKID_BUFFERS = 1`` uses, with single registers). A miter of the
  two whole interconnects, payloads compared where their VALID is high (AXI leaves them open
  otherwise), every other output compared always, is checked by SAT for every input sequence
  of 5-6 cycles after a reset (bounded: sequences longer than that are covered by the
  simulation benches). The environment is what AXI4 allows: a slave answers a write with a B
  only after it took the write's AW and WLAST, with the ID of such a write (without that
  assumption a B arriving before its AW lets a master switch slaves early, which no AXI slave
  does). A control run breaks the held register's load and asserts the check fails.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "cores" / "interconnect"
REF_ARBITER = Path(__file__).resolve().parent / "ref" / "pp_arbiter_carry.v"

#: the branch of pp_axi_ic_xbar_wr.v that holds the payloads per master (off in the reference)
HELD = ("if (SKID_BUFFERS == 0) begin : hold", "if (SKID_BUFFERS == 0) begin : held")
#: the held AW register's load (broken by the control run)
HOLD_LOAD = "if (s_axi_awvalid[hi] && s_axi_awready[hi]) begin"


def _yosys() -> str:
    exe = shutil.which("yosys")
    assert exe is not None, "no Yosys: ./bootstrap.sh setup installs it (apt: yosys)"
    return exe


@pytest.mark.parametrize("ports", [1, 2, 3, 5, 8, 16])
@pytest.mark.parametrize("arbitration", [0, 1])
def test_arbiter_same_grants(tmp_path: Path, ports: int, arbitration: int) -> None:
    script = (f"read_verilog {REF_ARBITER}; read_verilog {CORE / 'pp_arbiter.v'}; "
              f"chparam -set PORTS {ports} -set ARBITRATION {arbitration} ref_pp_arbiter pp_arbiter; "
              "proc; opt_clean; equiv_make ref_pp_arbiter pp_arbiter eq; hierarchy -top eq; "
              "equiv_simple -seq 2; equiv_induct -seq 2; equiv_status -assert")
    r = subprocess.run([_yosys(), "-q", "-p", script], cwd=tmp_path, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, (f"pp_arbiter PORTS={ports} ARBITRATION={arbitration} differs from "
                               f"the reference:\n{r.stdout}\n{r.stderr}")


def _ports() -> list[tuple[str, str, str]]:
    """(direction, range, name) of pp_axi_interconnect's ports."""
    out = []
    for line in (CORE / "pp_axi_interconnect.v").read_text().splitlines():
        m = re.match(r"\s*(input|output)\s+wire\s+(\[[^\]]*\])?\s*(\w+),?", line)
        if m:
            out.append((m.group(1), m.group(2) or "", m.group(3)))
    return out


#: AXI4's rule for the slaves' B (assumed by the check, in the reference's wrapper)
ENV = r"""
localparam MB = M_ID_WIDTH - S_ID_WIDTH;
genvar ej, ek;
generate for (ej = 0; ej < M_COUNT; ej = ej + 1) begin : env
    reg [3:0] aw_n = 0, wl_n = 0, b_n = 0;
    always @(posedge clk) begin
        aw_n <= aw_n + (m_axi_awvalid[ej] && m_axi_awready[ej]);
        wl_n <= wl_n + (m_axi_wvalid[ej] && m_axi_wready[ej] && m_axi_wlast[ej]);
        b_n <= b_n + (m_axi_bvalid[ej] && m_axi_bready[ej]);
    end
    always @* if (m_axi_bvalid[ej]) assume (aw_n > b_n && wl_n > b_n);
    for (ek = 0; ek < S_COUNT; ek = ek + 1) begin : m
        reg [3:0] awk = 0, bk = 0;
        wire aw_k = (MB == 0) || m_axi_awid[ej*M_ID_WIDTH + S_ID_WIDTH +: (MB > 0 ? MB : 1)] == ek;
        wire b_k = (MB == 0) || m_axi_bid[ej*M_ID_WIDTH + S_ID_WIDTH +: (MB > 0 ? MB : 1)] == ek;
        always @(posedge clk) begin
            awk <= awk + (m_axi_awvalid[ej] && m_axi_awready[ej] && aw_k);
            bk <= bk + (m_axi_bvalid[ej] && m_axi_bready[ej] && b_k);
        end
        always @* if (m_axi_bvalid[ej] && b_k) assume (awk > bk);
    end
end endgenerate
"""


def _wrapper(name: str, module: str, params: dict[str, object], env: bool) -> str:
    """``module`` with its AW and W payload outputs zero where their VALID is low."""
    ports = _ports()
    plist = ", ".join(f"parameter {k} = {v}" for k, v in params.items())
    decl = ",\n".join(f"  {d} wire {w} {p}" for d, w, p in ports)
    body = [f"wire {w} {p}_u;" for d, w, p in ports if d == "output"]
    conn = ", ".join(f".{p}({p}_u)" if d == "output" else f".{p}({p})" for d, _w, p in ports)
    body.append(f"{module} #({', '.join(f'.{k}({k})' for k in params)}) u ({conn});")
    for d, w, p in ports:
        if d != "output":
            continue
        ch = "m_axi_aw" if p.startswith("m_axi_aw") else ("m_axi_w" if p.startswith("m_axi_w") else None)
        if ch and p not in (ch + "valid", ch + "ready"):
            width = f"({w[1:].split(':')[0]}+1) / M_COUNT"
            body.append(f"genvar g_{p};\ngenerate for (g_{p} = 0; g_{p} < M_COUNT; g_{p} = g_{p} + 1) "
                        f"begin : mk_{p}\n  localparam PW = {width};\n"
                        f"  assign {p}[g_{p}*PW +: PW] = {p}_u[g_{p}*PW +: PW] & {{PW{{{ch}valid_u[g_{p}]}}}};\n"
                        "end endgenerate")
        else:
            body.append(f"assign {p} = {p}_u;")
    if env:
        body.append(ENV)
    return f"module {name} #({plist}) (\n{decl}\n);\n" + "\n".join(body) + "\nendmodule\n"


def check_interconnect(tmp_path: Path, params: dict[str, object], seq: int,
                       gate_text: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Bounded equivalence of the core (gate; ``gate_text`` replaces files' texts) with its
    held branch switched off (gold), ``seq`` cycles after a reset."""
    files = []
    for f in sorted(CORE.glob("*.v")):
        text = f.read_text()
        ref = text
        if f.name == "pp_axi_ic_xbar_wr.v":
            for h in HELD:
                assert h in ref, f"{f}: no '{h}'"
                ref = ref.replace(h, h.replace("SKID_BUFFERS == 0", "0"))
        (tmp_path / f"ref_{f.name}").write_text(re.sub(r"\bpp_(\w+)", r"ref_pp_\1", ref))
        (tmp_path / f.name).write_text((gate_text or {}).get(f.name, text))
        files += [f"ref_{f.name}", f.name]
    (tmp_path / "wrap.v").write_text(_wrapper("gold", "ref_pp_axi_interconnect", params, True) +
                                     _wrapper("gate", "pp_axi_interconnect", params, False))
    script = ("; ".join(f"read_verilog {f}" for f in files) + "; read_verilog -formal wrap.v; "
              "hierarchy -check; proc; flatten; opt_clean; "
              "miter -equiv -flatten -make_assert -ignore_gold_x gold gate miter; hierarchy -top miter; "
              f"opt -fast; sat -verify -prove-asserts -set-assumes -seq {seq} -set-at 1 in_rst 1 "
              "-prove-skip 1 -set-init-zero miter")
    return subprocess.run([_yosys(), "-q", "-p", script], cwd=tmp_path, capture_output=True, text=True,
                          timeout=1800)


def ic_params(s: int, m: int, arbitration: int, read_topology: int, connect: int | None = None) -> dict[str, object]:
    """A small crossbar with the generated systems' single registers: 8-bit data, 16-bit
    addresses, 1-bit IDs, 4 KiB windows at j * 0x1000."""
    p: dict[str, object] = {
        "S_COUNT": s, "M_COUNT": m, "DATA_WIDTH": 8, "STRB_WIDTH": 1, "ADDR_WIDTH": 16, "S_ID_WIDTH": 1,
        "M_ID_WIDTH": 1 + max(0, (s - 1).bit_length()), "TOPOLOGY": 0, "READ_TOPOLOGY": read_topology,
        "SKID_BUFFERS": 0, "ARBITRATION": arbitration,
        "M_BASE_ADDR": f"{16 * m}'h" + "".join(f"{0x1000 * j:04x}" for j in reversed(range(m))),
        "M_ADDR_WIDTH": f"{32 * m}'h" + "".join(f"{12:08x}" for _ in range(m))}
    if connect is not None:
        p["M_CONNECT"] = f"{s * m}'h{connect:x}"
    return p


#: (S, M, ARBITRATION, READ_TOPOLOGY, M_CONNECT, cycles): the generated systems' crossbar,
#: and deficit round robin with crossbar reads over a sparse mask (master 1 reaches slave 1
#: only; compact indices). The default tier proves each over 4 cycles (as the control below,
#: which catches the broken hold at that depth); the second tier (-m slow) over 6 and 5
#: cycles, 24-29 s of SAT each on an idle machine.
IC_FULL = [(2, 2, 0, 1, None, 6), (2, 2, 1, 0, 0b1101, 5)]
IC_CASES = ([(*case[:5], 4) for case in IC_FULL]
            + [pytest.param(*case, marks=pytest.mark.slow, id="-".join(map(str, case))) for case in IC_FULL])


@pytest.mark.parametrize("s,m,arb,rt,connect,seq", IC_CASES, ids=lambda v: str(v))
def test_held_payloads_same_interconnect(tmp_path: Path, s: int, m: int, arb: int, rt: int,
                                         connect: int | None, seq: int) -> None:
    r = check_interconnect(tmp_path, ic_params(s, m, arb, rt, connect), seq)
    assert r.returncode == 0, f"the held datapath differs from the registered one:\n{r.stdout[-3000:]}\n{r.stderr}"


def test_check_catches_a_broken_hold(tmp_path: Path) -> None:
    """Control: a master's AW payload held on AWVALID alone (not at its handshake) is
    overwritten while a slave still presents it: the check must fail."""
    text = (CORE / "pp_axi_ic_xbar_wr.v").read_text()
    assert HOLD_LOAD in text
    broken = text.replace(HOLD_LOAD, "if (s_axi_awvalid[hi]) begin")
    r = check_interconnect(tmp_path, ic_params(2, 2, 0, 1), 4, gate_text={"pp_axi_ic_xbar_wr.v": broken})
    assert r.returncode != 0 and "proof did fail" in (r.stdout + r.stderr)
