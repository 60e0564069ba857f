"""The PushPush paper's published numbers (Fleming et al., §V), for the tables beside ours.

The paper measured on a Zynq-7020 at 100 MHz, components written in Vivado HLS (VHLS),
Verity, MicroBlaze (MBlaze) and C on the ARM; values are read from its text and tables
(Table II, Table III); figure values are the ones the text states.
"""

from __future__ import annotations

__all__ = ["TABLE_II", "TABLE_III", "HW_HW_CYCLES", "HW_HW_MCALLS", "HW_HW_PROTOCOL_CYCLES",
           "HW_HW_COMPONENT_CYCLES", "ARGS_CROSSBAR_8_MCALLS", "SHARED_MBS", "SHARED_MANY_MBS",
           "FIG3_CROSSBAR_MAX_COMPONENTS", "Z7020_LUT", "Z7020_FF", "BUS_MBS"]

#: Table II, MCalls/s, client (caller) -> server (callee), int f(int) in a dependency loop
TABLE_II: dict[str, dict[str, float]] = {
    "ARM": {"ARM": 3.10, "MBlaze": 2.22, "VHLS": 2.48, "Verity": 1.85},
    "MBlaze": {"ARM": 1.35, "MBlaze": 1.14, "VHLS": 2.12, "Verity": 2.08},
    "VHLS": {"ARM": 1.58, "MBlaze": 1.76, "VHLS": 4.54, "Verity": 3.33},
    "Verity": {"ARM": 1.43, "MBlaze": 2.85, "VHLS": 3.84, "Verity": 4.16},
}
#: Table III, MCalls/s: (LegUp, Connectal, PushPush) per direction; None = not reported
TABLE_III: dict[str, tuple[float | None, float | None, float]] = {
    "HW -> HW": (None, None, 4.54),
    "HW -> SW": (None, 0.66, 1.58),
    "SW -> HW": (2.25, 1.25, 2.48),
}
HW_HW_CYCLES = 22            # VHLS -> VHLS, cycles per call
HW_HW_MCALLS = 4.54
HW_HW_PROTOCOL_CYCLES = 14   # of the 22: the protocol over AXI ...
HW_HW_COMPONENT_CYCLES = 8   # ... and the caller and callee
#: Fig. 5: "more than 1 MCalls/s for 30+ arguments in a system with 8 components" (crossbar)
ARGS_CROSSBAR_8_MCALLS = 1.0
#: Fig. 6: the shared interconnect "around 150 MB/s for small numbers of components", and
#: "50 MB/s for more components"
SHARED_MBS = 150.0
SHARED_MANY_MBS = 50.0
#: Fig. 3: the crossbar could not be built beyond 13 components on the Z-7020
FIG3_CROSSBAR_MAX_COMPONENTS = 13
#: Zynq-7020 (xc7z020) capacity
Z7020_LUT = 53_200
Z7020_FF = 106_400
#: what one 32-bit master at 100 MHz can carry
BUS_MBS = 400.0
