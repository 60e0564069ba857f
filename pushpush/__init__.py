"""pushpush: typed function calls between hardware and software components over AXI.

A system is described in YAML (see ``examples/``), checked and linked into a system map,
rendered into Verilog, C and build files, and run in simulation or on a PYNQ-Z1.
"""

__version__ = "0.1.0"
