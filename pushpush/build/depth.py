"""Logic depth of a synthesised design: the longest register-to-register path in LUT levels.

Input is a flat Yosys JSON netlist after ``synth_xilinx`` (xc7 cells). Every cell is either
sequential (a path starts at its outputs and ends at its inputs: flip-flops, block RAM, DSP,
anything unknown) or combinational. The depth of a path is the number of LUT levels on it:

* ``LUT1`` .. ``LUT6`` count 1;
* a distributed-RAM read (``RAM32M``, ``RAM64X1D``, ``SRL16E``, ...) counts 1: the read is
  a LUT whose inputs are the address pins (its data and write-enable pins are registered,
  so no path goes through them);
* ``INV`` counts 0 (Vivado folds it into the next LUT), and so do ``MUXF7``/``MUXF8`` and
  ``CARRY4`` (dedicated slice wiring, far faster than a LUT plus routing); they are listed
  on the path so a long carry chain can still be seen.

Top-level input and output ports are path ends too. 8 LUT levels at 100 MHz on a -1
Zynq-7020 leave about 1 ns per level for LUT and routing delay, which is what the issue's
"plausible without Vivado" bound means; only Vivado's timing report proves it.

    from pushpush.build.depth import netlist_depth
    d = netlist_depth(json.loads(Path("flat.json").read_text()), "pp_req_arbiter")
    print(d.lut_levels, d.describe())
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: cells on a path and the LUT levels each counts for
LEVELS = {"LUT1": 1, "LUT2": 1, "LUT3": 1, "LUT4": 1, "LUT5": 1, "LUT6": 1,
          "INV": 0, "MUXF7": 0, "MUXF8": 0, "CARRY4": 0}
#: distributed RAM / shift registers: combinational from the address pins only
LUTRAM = ("RAM16X1D", "RAM32X1D", "RAM64X1D", "RAM128X1D", "RAM32M", "RAM64M", "RAM32X1S",
          "RAM64X1S", "RAM128X1S", "RAM256X1S", "SRL16E", "SRLC32E", "RAM32M16", "RAM64M8")


class DepthError(RuntimeError):
    """The netlist has a combinational loop or is not what the analysis expects."""


@dataclass
class Depth:
    """The longest register-to-register (or port) path of a design."""

    lut_levels: int = 0
    #: the cells on that path, in order: (cell type, cell name)
    path: list[tuple[str, str]] = field(default_factory=list)

    def describe(self) -> str:
        if not self.path:
            return "no combinational path"
        kinds: dict[str, int] = {}
        for t, _name in self.path:
            kinds[t] = kinds.get(t, 0) + 1
        return (f"{self.lut_levels} LUT levels ("
                + ", ".join(f"{n} {t}" for t, n in sorted(kinds.items())) + ")")


def _is_address_pin(port: str) -> bool:
    """A distributed RAM's read address pins (A0.., ADDRA.., DPRA..); the others (D, DI*,
    WE, WCLK, CE, CLK) only act at the clock edge."""
    return port.startswith(("A", "DPRA"))


def netlist_depth(netlist: Mapping[str, Any], top: str) -> Depth:
    """The longest path in LUT levels of module ``top`` of a flat Yosys JSON netlist."""
    modules = netlist.get("modules", {})
    if top not in modules:
        raise DepthError(f"the netlist has no module '{top}'")
    mod = modules[top]
    for name, cell in mod.get("cells", {}).items():
        if cell["type"] in modules and not _is_box(modules[cell["type"]]):
            raise DepthError(f"'{top}' is not flat (cell {name} is a {cell['type']}): "
                             "flatten the netlist first")
    # combinational cells: outputs -> the bits that drive them through combinational pins
    driver: dict[Any, str] = {}              # net bit -> combinational cell driving it
    ins: dict[str, list[Any]] = {}           # combinational cell -> its combinational input bits
    weight: dict[str, int] = {}
    ctype: dict[str, str] = {}
    for name, cell in mod.get("cells", {}).items():
        t = cell["type"]
        if t in LEVELS:
            w = LEVELS[t]
            comb_pins = None
        elif t in LUTRAM:
            w = 1
            comb_pins = "address"
        else:
            continue                         # sequential or unknown: a path end
        dirs = cell.get("port_directions", {})
        bits_in: list[Any] = []
        for port, bits in cell.get("connections", {}).items():
            d = dirs.get(port, "input")
            if d == "output":
                for b in bits:
                    if isinstance(b, int):
                        driver[b] = name
            elif comb_pins is None or _is_address_pin(port):
                bits_in.extend(b for b in bits if isinstance(b, int))
        ins[name] = bits_in
        weight[name] = w
        ctype[name] = t
    # longest path ending at each combinational cell (iterative DFS, loops reported)
    best: dict[str, int] = {}
    prev: dict[str, str | None] = {}
    state: dict[str, int] = {}               # 1 = on the stack, 2 = done
    for root in ins:
        if state.get(root) == 2:
            continue
        stack: list[tuple[str, int]] = [(root, 0)]
        state[root] = 1
        while stack:
            node, i = stack.pop()
            preds = [driver[b] for b in ins[node] if b in driver]
            if i < len(preds):
                stack.append((node, i + 1))
                p = preds[i]
                s = state.get(p)
                if s == 1:
                    raise DepthError(f"combinational loop through {ctype[p]} {p} in '{top}'")
                if s is None:
                    state[p] = 1
                    stack.append((p, 0))
                continue
            top_pred, top_len = None, 0
            for p in preds:
                if best[p] > top_len or top_pred is None:
                    top_pred, top_len = p, best[p]
            best[node] = top_len + weight[node]
            prev[node] = top_pred
            state[node] = 2
    if not best:
        return Depth()
    end = max(best, key=lambda n: (best[n], n))
    path: list[tuple[str, str]] = []
    node: str | None = end
    while node is not None:
        path.append((ctype[node], node))
        node = prev[node]
    path.reverse()
    return Depth(best[end], path)


def _is_box(module: Mapping[str, Any]) -> bool:
    attrs = module.get("attributes", {})
    return any(str(attrs.get(k, "0")).strip("0") for k in ("blackbox", "whitebox"))
