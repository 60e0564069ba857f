#!/usr/bin/env python3
"""The emulated board's simulator launcher, run by the armhf Python inside the userland.

The PYNQ side of the simulated board (:class:`pushpush.pynq.simulated.bridge.SimBridge`)
starts its simulator as ``$PUSHPUSH_SIM_PYTHON -m pushpush.simboard.child CONFIG`` with the
pipes named in CONFIG (``notify_fd``, ``kick_fd``, ``irq_fd``) open. On the emulated board
``$PUSHPUSH_SIM_PYTHON`` is this script: the simulator (Icarus, cocotb) is a host program, so
it asks the host's server (tests/emulated/armhf_simhost.py, at ``$PUSHPUSH_ARMHF_SIMHOST``)
to start it there, handing over its stdout, stderr and those pipes (SCM_RIGHTS), then waits
for the simulator's exit status and exits with it. If this process is killed (SimBridge
kills the group it started), its connection closes and the host kills the simulator.
Standard library only: it runs in the board's Python before anything else.
"""

import json
import os
import socket
import sys


def main(argv: list[str]) -> int:
    where = os.environ.get("PUSHPUSH_ARMHF_SIMHOST")
    if not where:
        print("armhf_sim_launcher: PUSHPUSH_ARMHF_SIMHOST (the host's simulator server "
              "socket) is not set", file=sys.stderr)
        return 2
    if argv[:2] != ["-m", "pushpush.simboard.child"] or len(argv) != 3:
        print(f"armhf_sim_launcher: expected -m pushpush.simboard.child CONFIG, got {argv}", file=sys.stderr)
        return 2
    cfg = json.loads(open(argv[2]).read())
    fds = [1, 2] + [int(cfg[k]) for k in ("notify_fd", "kick_fd", "irq_fd") if int(cfg.get(k, -1)) >= 0]
    env = {k: v for k, v in os.environ.items()
           if k.startswith("PUSHPUSH_") and k not in ("PUSHPUSH_SIM_PYTHON", "PUSHPUSH_ARMHF_SIMHOST")}
    request = json.dumps({"argv": argv, "cwd": os.getcwd(), "env": env, "fds": fds,
                          "pid": os.getpid()}).encode()
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(where)
    except OSError as e:
        print(f"armhf_sim_launcher: cannot reach the host's simulator server at {where}: {e}",
              file=sys.stderr)
        return 2
    socket.send_fds(s, [len(request).to_bytes(4, "little") + request], fds)
    reply = b""
    while not reply.endswith(b"\n"):
        chunk = s.recv(64)
        if not chunk:
            print("armhf_sim_launcher: the host's simulator server closed the connection "
                  "without an exit status", file=sys.stderr)
            return 2
        reply += chunk
    return int(reply.split()[-1])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
