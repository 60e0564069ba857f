"""The buffer rows of ``pushpush bench calls``: the exact cycles of a call's buffer
transfers, without and with the memory firewall (issue 46: a call whose buffers are allowed
takes no extra cycle).

The path of a call's buffer arguments as a generated top has it (:mod:`pushpush.bench.buf_path_tb`:
pp_buf_rd and pp_buf_wr on the top's buffer interconnect into the simulated board's PS memory
port), once as a system without ``firewall:`` has it and once with pp_mem_firewall between
the interconnect and the port, its table allowing exactly the two buffers. Per direction and
both at once: the cycles from the engines' start to each one's done, and the first address
and data beat, all exact::

    from pushpush.bench.experiments.calls.buffer_rows import buffer_rows, buffer_rows_markdown
    rows = buffer_rows(Path("out"), words=1024)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from pushpush.bench.report import md_table

__all__ = ["buffer_rows", "buffer_rows_markdown", "firewall_target"]

_KEYS = ("rd_cycles", "wr_cycles", "first_ar", "first_r", "first_aw", "first_w")


def buffer_rows(out: Path, words: int = 1024, simulator: str = "icarus",
                log: Callable[[str], None] = print) -> list[dict[str, Any]]:
    """One row per (firewall, kind): kind ``rd`` (an ``in`` buffer of ``words`` words read),
    ``wr`` (an ``out`` buffer written), ``both`` (at once)."""
    from pushpush.bench.buf_path_tb import run_path

    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for firewall in (False, True):
        log(f"calls: buffer transfers of {4 * words} bytes, firewall {'on' if firewall else 'off'}")
        res = run_path(simulator, {"words": words, "firewall": firewall},
                       {"MAX_BURST": 16, "FIFO_LOG2": 5, "ACCEPT": 8, "FIREWALL": int(firewall)},
                       out / f"buf_path_fw{int(firewall)}.json")
        for kind, r in res.items():
            rows.append({"firewall": firewall, "kind": kind, "bytes": 4 * words,
                         **{k: r.get(k) for k in _KEYS},
                         "r_gaps": r["R"].get("gaps_between") if r["R"] else None,
                         "w_gaps": r["W"].get("gaps_between") if r["W"] else None})
    return rows


def firewall_target(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The target: every cycle count the same with the firewall as without."""
    def key(r: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(r[k] for k in _KEYS) + (r["r_gaps"], r["w_gaps"])
    off = {r["kind"]: key(r) for r in rows if not r["firewall"]}
    on = {r["kind"]: key(r) for r in rows if r["firewall"]}
    return {"target": "a call whose buffers the memory firewall allows takes no extra cycle",
            "ours": "the same cycles" if off == on else f"off {off}, on {on}",
            "met": off == on, "note": "cores/mem_firewall: the check is combinational on AW/AR"}


def buffer_rows_markdown(rows: list[dict[str, Any]]) -> str:
    def cell(v: Any) -> str:
        return "-" if v is None else str(v)
    return "\n".join([
        "Buffer arguments (the buffer engines' path into PS memory, exact cycles): an `in` "
        "buffer read (rd), an `out` buffer written (wr), both at once; without and with the "
        "memory firewall (`firewall:`, cores/mem_firewall) allowing them:",
        "",
        md_table(("firewall", "kind", "bytes", "rd cycles", "wr cycles", "first AR", "first R",
                  "first AW", "first W", "gaps between R/W bursts"),
                 [("on" if r["firewall"] else "off", r["kind"], r["bytes"], cell(r["rd_cycles"]),
                   cell(r["wr_cycles"]), cell(r["first_ar"]), cell(r["first_r"]), cell(r["first_aw"]),
                   cell(r["first_w"]), f"{cell(r['r_gaps'])}/{cell(r['w_gaps'])}") for r in rows]),
    ])
