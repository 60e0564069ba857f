"""The simulated board's simulator side (no PYNQ here; the PYNQ side is :mod:`pushpush.pynq`).

- :mod:`.wire`: what both sides share (socket format, configuration, shared memories);
- :mod:`.child`: the simulator process (build from the cache, run);
- :mod:`.hdl`: the PS side as HDL (``cores/sim_ps``) and the Python woken by it (default);
- :mod:`.legacy`: the PS side as cocotbext-axi models (``PUSHPUSH_SIM_PS=cocotb``).
"""
