"""The benchmarks of ``pushpush bench``: the experiments and the parts they share.

``pushpush bench <name>`` runs the experiment the registry (:mod:`.registry`) names; its code
is ``experiments/<name>.py``, or ``experiments/<name>/`` when it has several modules (``all``
and ``summary`` are :mod:`.experiments.suite`, the driver of the paper evaluation). The rest
of this folder is what several experiments share:

- :mod:`.registry`: every experiment's name, options and ``run()`` (what ``pushpush bench``
  lists and parses);
- :mod:`.report`: the common results format (JSON, Markdown, PNG, ``summary.md``);
- :mod:`.paper`: the PushPush paper's published numbers, printed beside ours;
- :mod:`.sweep`: running sweep points over the machine's cores or a cluster, and the usual
  point (:func:`.sweep.simulate_chain`); :mod:`.pairs_system`: the caller/callee systems
  it generates; :mod:`.chain_tb`: their cocotb side; :mod:`.tb_helpers`: what the cocotb
  benches share;
- :mod:`.a9`: the Cortex-A9 estimate of software rows (an instruction counter under an
  emulator and a timing model; ``python -m pushpush.bench.a9.model`` prints it);
- :mod:`.paths` and ``rtl/``: the benchmarks' own Verilog (one FuseSoC core) and where files are.
"""
