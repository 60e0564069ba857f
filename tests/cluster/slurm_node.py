"""A single-node Slurm cluster for tests: munged, slurmctld and slurmd from Debian's packages.

:func:`start_cluster` writes a munge key and a ``slurm.conf`` for this host into a folder
(cgroup-free: ``proctrack/linuxproc``, ``task/none``, no accounting; state, spool, logs and
PID files in the folder; free TCP ports), starts the three daemons in the foreground as
child processes and waits until the node takes jobs. :meth:`Cluster.stop` ends them by their
PIDs. ``SLURM_CONF`` in :attr:`Cluster.env` points Slurm's commands at it. If a daemon does
not come up, the error says which, with the tail of its log and the fix.

    ./bootstrap.sh setup          # installs munge slurmctld slurmd slurm-client
    python tests/cluster/slurm_node.py /tmp/slurm   # start one by hand, Ctrl-C stops it
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

DAEMONS = ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol", "sinfo")
FIX = ("./bootstrap.sh setup installs them (apt-get install munge slurmctld slurmd slurm-client)")
START_TIMEOUT_S = 60.0


class ClusterError(RuntimeError):
    """The cluster could not start; the message has the daemons' log tails."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _mem_mb() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) // 1024
    return 4096


def _tail(path: Path, n: int = 15) -> str:
    try:
        lines = path.read_text(errors="replace").splitlines()[-n:]
    except OSError:
        return f"  ({path} was not written)"
    return "\n".join(f"  | {ln}" for ln in lines) or f"  ({path} is empty)"


@dataclass
class Cluster:
    """A running single-node cluster (folder ``root``)."""

    root: Path
    conf: Path
    node: str
    cpus: int
    mem_mb: int
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def env(self) -> dict[str, str]:
        return {"SLURM_CONF": str(self.conf)}

    def logs(self) -> str:
        return "\n".join(f"{name} ({self.root / 'log' / (name + '.log')}):\n"
                         + _tail(self.root / "log" / f"{name}.log") for name in ("munged", "slurmctld", "slurmd"))

    def run(self, *cmd: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(cmd), capture_output=True, text=True, timeout=60, check=False,
                              env={**os.environ, **self.env})

    def stop(self) -> None:
        """SIGTERM to each daemon by its PID (slurmd, slurmctld, munged), SIGKILL after 20 s."""
        for name in ("slurmd", "slurmctld", "munged"):
            p = self.procs.pop(name, None)
            if p is None or p.poll() is not None:
                continue
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=20)


def _write_conf(root: Path, node: str, cpus: int, mem_mb: int) -> Path:
    user = "root" if os.geteuid() == 0 else os.environ.get("USER", "root")
    conf = root / "slurm.conf"
    conf.write_text(f"""# written by tests/cluster/slurm_node.py: one node, no cgroups, no accounting
ClusterName=pushpush{os.getpid()}
SlurmctldHost={node}(127.0.0.1)
SlurmctldPort={_free_port()}
SlurmdPort={_free_port()}
SlurmUser={user}
SlurmdUser={user}
AuthType=auth/munge
AuthInfo=socket={root / 'munge' / 'munge.sock'}
CredType=cred/munge
StateSaveLocation={root / 'state'}
SlurmdSpoolDir={root / 'spool'}
SlurmctldPidFile={root / 'slurmctld.pid'}
SlurmdPidFile={root / 'slurmd.pid'}
SlurmctldLogFile={root / 'log' / 'slurmctld.log'}
SlurmdLogFile={root / 'log' / 'slurmd.log'}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=3600
MaxArraySize=10001
NodeName={node} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={mem_mb} State=UNKNOWN
PartitionName=test Nodes={node} Default=YES MaxTime=INFINITE State=UP
""")
    return conf


def start_cluster(root: Path, timeout_s: float = START_TIMEOUT_S) -> Cluster:
    """Start munged, slurmctld and slurmd for this host in ``root``; raises
    :class:`ClusterError` (with the log tails) if the node does not take jobs within
    ``timeout_s``."""
    missing = [d for d in DAEMONS if shutil.which(d) is None]
    if missing:
        raise ClusterError(f"{', '.join(missing)} not found: {FIX}")
    root = root.resolve()
    for sub in ("munge", "state", "spool", "log"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    (root / "munge").chmod(0o755)
    key = root / "munge" / "munge.key"
    if not key.exists():
        key.write_bytes(os.urandom(1024))
        key.chmod(0o400)
    node = socket.gethostname().split(".")[0]
    cpus = len(os.sched_getaffinity(0))
    mem = max(1024, int(_mem_mb() * 0.8))
    conf = _write_conf(root, node, cpus, mem)
    cl = Cluster(root, conf, node, cpus, mem)
    env = {**os.environ, "SLURM_CONF": str(conf)}
    log = root / "log"
    cmds = {
        "munged": ["munged", "--foreground", "--force", f"--socket={root / 'munge' / 'munge.sock'}",
                   f"--key-file={key}", f"--pid-file={root / 'munge' / 'munged.pid'}",
                   f"--log-file={log / 'munged.log'}", f"--seed-file={root / 'munge' / 'seed'}"],
        "slurmctld": ["slurmctld", "-D", "-i", "-f", str(conf)],
        "slurmd": ["slurmd", "-D", "-N", node, "-f", str(conf)],
    }
    ready = {
        "munged": lambda: (root / "munge" / "munge.sock").exists(),
        "slurmctld": lambda: "UP" in cl.run("scontrol", "ping").stdout,
        "slurmd": lambda: cl.run("sinfo", "-h", "-N", "-o", "%T").stdout.strip() in ("idle", "mixed", "allocated"),
    }
    try:
        for name, cmd in cmds.items():
            out = open(log / f"{name}.out", "wb")
            cl.procs[name] = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                              start_new_session=True)
            out.close()
            deadline = time.monotonic() + timeout_s
            while not ready[name]():
                code = cl.procs[name].poll()
                if code is not None:
                    raise ClusterError(f"{name} exited with {code} at start (output: {log / name}.out:\n"
                                       f"{_tail(log / f'{name}.out')})")
                if time.monotonic() > deadline:
                    raise ClusterError(f"{name} did not become ready within {timeout_s:.0f} s")
                time.sleep(0.2)
    except ClusterError as exc:
        cl.stop()
        raise ClusterError(f"the test Slurm in {root} could not start: {exc}\nslurm.conf: {conf}\n"
                           f"{cl.logs()}") from None
    except BaseException:
        cl.stop()
        raise
    return cl


if __name__ == "__main__":  # pragma: no cover - a manual aid
    c = start_cluster(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/pushpush-slurm"))
    print(f"export SLURM_CONF={c.conf}   # node {c.node}: {c.cpus} CPUs, {c.mem_mb} MiB; Ctrl-C stops")
    try:
        signal.pause()
    finally:
        c.stop()
