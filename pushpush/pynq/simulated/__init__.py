"""The simulated board's PYNQ half: what PYNQ talks to when there is no board.

The folder beside it (:mod:`pushpush.pynq`) is the real board's side: the overlay, the
runtime backend over MMIO, the driver bound by VLNV, the software windows, interrupt waits.
Everything here stands in for hardware that is not present and is used only on the
simulated board; the simulator process itself is :mod:`pushpush.simboard` (no PYNQ there).

* :mod:`.device`: ``SimDevice``, the ``pynq.Device`` that is the simulated board;
* :mod:`.bridge`: the simulator process and the shared memory / control page between them;
* :mod:`.pacing`: when the simulator runs and for whom: the accounting of the threads that
  wait for the PL (the bridge's) and a runtime backend's waits (the backend's pacing);
* :mod:`.simbit`: the simulation ``.bit`` (a manifest in a Xilinx header) and the overlay
  folder of a system (was ``pushpush.pynq.simbit``);
* :mod:`.interrupt`: the ``axi_intc`` stand-in and the ``/dev/uioN`` stand-in;
* :mod:`.dma`: the watch over PYNQ's DMA driver's waits (a timeout instead of a hang);
* :mod:`.c_programs`: ``CAttach``, C programs run against the simulated board;
* :mod:`.watch`: what the simulator was doing (call-timeout reports, the watchdog dump);
* :mod:`.zynqmp`: the ZynqMP registers PYNQ programs on an UltraScale+ design;
* :mod:`.trace`: ``ol.trace()`` on the simulated board: the wire monitor (docs/trace.md; the
  PL trace buffer, read the same way on a board, is :mod:`pushpush.pynq.pl_trace`).
"""
