"""The simulated board's simulator side (no PYNQ here; the PYNQ side is :mod:`pushpush.pynq`).

- :mod:`.ipc`: what both sides share (socket format, configuration, shared memories);
- :mod:`.child`: the simulator process (build from the cache, run);
- :mod:`.hdl`: the PS side as HDL (``cores/sim_ps``) and the Python woken by it;
- :mod:`.handoff`: the simulator's pause between a reply and the next request;
- :mod:`.cocotb_main`: the cocotb test the simulator runs (it calls :func:`.hdl.serve_hdl`).

(The earlier PS side of cocotbext-axi models, ``PUSHPUSH_SIM_PS=cocotb``, was retired in issue
29: a second PS model kept alive by branches in four files, 5-10x slower, that nothing needed.)
"""
