"""The simulated board's ``auto`` simulator: Verilator when this system's Verilator build is
in the build cache, otherwise Icarus at once while the Verilator build runs in the background.

Why (measured, docs/architecture.md §6 and docs/contributing.md, "What the quick start costs"): Icarus compiles an
example system in about a second, Verilator in 20-40 s; on Verilator the examples' own run
is 2-4x shorter and Python -> Verilog calls about 6x faster. A first run never earns the
Verilator build back, so it does not wait for it: :func:`choose` starts the build in a
detached, low-priority process (``python -m pushpush.simboard.autosim CONFIG``) and the
first load runs on Icarus; any later load of the same system (the same content: the cache
key, :mod:`pushpush.build.cache`) finds the build and runs on Verilator.

The background builds share the build cache's safety: a build is made in a private folder
and renamed into place when complete (a half-written build is never used), under the
entry's lock (two builders make one build). On top of that, per entry one background
builder at most (``<key>.bg.lock``) and one background build at a time on the machine
(``verilator-background.lock``: on a 2-core machine the other core stays with the user). A
build that fails leaves ``<key>.bg/failed.txt``; ``auto`` then says so and stays on Icarus
for that content (``pushpush run --sim verilator`` shows the error; a successful build
supersedes the note). ``$PUSHPUSH_SIM_BACKGROUND=0`` starts no background build.

Example::

    from pushpush.simboard.autosim import choose
    pick = choose("auto", cfg)      # cfg: a SimConfig
    pick.simulator, pick.note       # ('icarus', 'Verilator build started in the background')
"""

from __future__ import annotations

import dataclasses
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from .ipc import SimConfig

__all__ = ["SimChoice", "choose", "verilator_key", "background_state", "main", "QUEUE_LOCK",
           "BACKGROUND_ENV"]

REQUESTS = ("auto", "icarus", "verilator")
BACKGROUND_ENV = "PUSHPUSH_SIM_BACKGROUND"
#: One background build at a time on this machine (a file in the cache folder).
QUEUE_LOCK = "verilator-background.lock"
#: How long a background builder waits for the one before it.
QUEUE_TIMEOUT_S = 3600


@dataclasses.dataclass(frozen=True)
class SimChoice:
    """The simulator a load runs on, a short note for one line (``cached build``) and the
    whole reason with what to do."""

    simulator: str
    note: str
    detail: str


def _background_wanted() -> bool:
    value = os.environ.get(BACKGROUND_ENV, "1")
    if value not in ("0", "1"):
        raise ValueError(f"{BACKGROUND_ENV}={value!r}: use 1 (build Verilator in the background "
                         "when auto runs on Icarus, the default) or 0 (never)")
    return value == "1"


def verilator_key(cfg: SimConfig) -> str:
    """The build-cache key of ``cfg``'s simulation on Verilator."""
    from pushpush.build.sim import cache_key

    from .child import simulation_inputs

    trial = dataclasses.replace(cfg, simulator="verilator", waves=False)
    with tempfile.TemporaryDirectory(prefix="pushpush-key-") as tmp:
        top, sources, parameters, args = simulation_inputs(trial, Path(tmp))
        key, _ = cache_key(toplevel=top, sources=sources, simulator="verilator",
                           parameters=parameters, extra_build_args=args)
    return key


def _bg_dir(root: Path, key: str) -> Path:
    return root / f"{key}.bg"


def background_state(root: Path, key: str) -> tuple[str, str]:
    """(state, text) of the background build of ``key`` in the cache folder ``root``:
    ``building`` (since when), ``failed`` (the first line of why), or ``none``."""
    from pushpush.build.cache import BuildCache

    store = BuildCache(root)
    folder = _bg_dir(root, key)
    building = store.held(f"{key}.lock")            # the build itself (this or another process)
    if building or store.held(f"{key}.bg.lock"):
        try:
            since = time.time() - (folder / "config.json").stat().st_mtime
            text = f"started {since:.0f} s ago"
        except OSError:
            text = "started by another process"
        if not building:
            text += ", queued behind another system's build"
        return "building", text
    failed = folder / "failed.txt"
    if failed.is_file():
        first = (failed.read_text(errors="replace").strip().splitlines() or ["?"])[0]
        return "failed", first
    return "none", ""


def choose(requested: str, cfg: SimConfig) -> SimChoice:
    """The simulator for ``requested`` ("icarus", "verilator": as asked; "auto": see the
    module docstring). May start a background Verilator build. Raises ``ValueError`` for
    another request, or an invalid ``$PUSHPUSH_SIM_BACKGROUND``."""
    if requested not in REQUESTS:
        raise ValueError(f"simulator '{requested}': use auto, icarus or verilator")
    if requested != "auto":
        return SimChoice(requested, "as asked", f"{requested} as asked")
    background = _background_wanted()
    from pushpush.build.cache import BuildCache
    from pushpush.build.sim import verilator_unusable

    why = verilator_unusable()
    if why is not None:
        return SimChoice("icarus", "Verilator cannot build here",
                         f"auto: Icarus, because Verilator cannot build here: {why}")
    store = BuildCache.default()
    if store is None:
        return SimChoice("icarus", "the build cache is off",
                         "auto: Icarus, because the build cache is off (PUSHPUSH_CACHE) and a "
                         "Verilator build (20-40 s) would not be kept; --sim verilator builds it "
                         "for this run")
    key = verilator_key(cfg)
    if store.valid(key):
        return SimChoice("verilator", "cached build",
                         f"auto: this system's Verilator build is cached ({store.entry(key)}); "
                         "Verilator runs the examples 2-4x faster than Icarus")
    state, text = background_state(store.root, key)
    folder = _bg_dir(store.root, key)
    if state == "failed":
        return SimChoice("icarus", "the Verilator build failed",
                         f"auto: Icarus, because the background Verilator build of this system "
                         f"failed: {text} (all of it: {folder / 'failed.txt'}); "
                         "--sim verilator (PUSHPUSH_SIM=verilator) builds it again and shows why")
    if state == "building":
        return SimChoice("icarus", "Verilator build in progress",
                         f"auto: Icarus for now; this system's Verilator build is running in the "
                         f"background ({text}, log {folder / 'build.log'}); loads after it ends "
                         "run on Verilator")
    if not background:
        return SimChoice("icarus", "no Verilator build cached",
                         f"auto: Icarus; no Verilator build of this system is cached and "
                         f"{BACKGROUND_ENV}=0 starts none (--sim verilator builds it, 20-40 s)")
    if start_background(cfg, store.root, key) is None:     # another process just did
        return SimChoice("icarus", "Verilator build in progress",
                         f"auto: Icarus for now; another process has just started this "
                         f"system's Verilator build (log {folder / 'build.log'}); loads after "
                         "it ends run on Verilator")
    return SimChoice("icarus", "Verilator build started in the background",
                     f"auto: Icarus now (it compiles in seconds); this system's Verilator "
                     f"build (20-40 s on an idle machine, low priority) started in the background "
                     f"(log {folder / 'build.log'}); loads after it ends run on Verilator")


def start_background(cfg: SimConfig, root: Path, key: str) -> Optional[subprocess.Popen[bytes]]:
    """Start the detached background build of ``cfg`` on Verilator (key ``key``) and
    return its process, or None when a background build of ``key`` is already running. The
    builder's lock (``<key>.bg.lock``) is taken here and handed to it, so the build counts as
    in progress from this return on; it outlives this process (its own session) and removes
    its folder when done."""
    root.mkdir(parents=True, exist_ok=True)
    lock = os.open(root / f"{key}.bg.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return None
        folder = _bg_dir(root, key)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "failed.txt").unlink(missing_ok=True)
        trial = dataclasses.replace(cfg, simulator="verilator", waves=False, parent_pid=0,
                                    notify_fd=-1, kick_fd=-1)
        tmp = folder / f"config.json.{os.getpid()}"
        data = json.loads(trial.to_json())
        data["__key"] = key
        tmp.write_text(json.dumps(data))
        os.replace(tmp, folder / "config.json")
        with open(folder / "output.log", "ab") as out:
            proc = subprocess.Popen([sys.executable, "-m", "pushpush.simboard.autosim",
                                     str(folder / "config.json"), str(lock)],
                                    stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True, pass_fds=(lock,),
                                    env={**os.environ, "PUSHPUSH_CACHE": str(root)})
        # reaped when it ends (a notebook's kernel lives long: no zombie); not waited for
        threading.Thread(target=proc.wait, name="pushpush-autosim-reaper", daemon=True).start()
        return proc
    finally:
        os.close(lock)        # the builder holds the lock now (or nobody: we return None)


def _flock_wait(fd: int, timeout_s: int, what: str) -> None:
    """Take an exclusive flock on ``fd``, woken by its release; at most ``timeout_s``."""
    def expired(_sig: int, _frame: object) -> None:
        raise TimeoutError(f"waited {timeout_s} s for {what}")
    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(timeout_s)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def main(config_path: str, lock_fd: int) -> int:
    """The background builder: build ``config_path``'s simulation on Verilator into the
    build cache (one at a time on the machine), then remove its folder; on failure leave
    ``failed.txt`` there. ``lock_fd``: its entry's ``<key>.bg.lock``, locked by
    :func:`start_background`. The exit status: 0 built or nothing to do, 1 failed."""
    from pushpush.build.cache import BuildCache
    from pushpush.build.sim import build_cached

    from .child import simulation_inputs

    try:
        os.nice(10)            # the user's run comes first
    except OSError:
        pass
    folder = Path(config_path).resolve().parent
    data = json.loads(Path(config_path).read_text())
    key = data.pop("__key", "")
    cfg = SimConfig.from_json(json.dumps(data))
    store = BuildCache.default()
    assert store is not None, "started with PUSHPUSH_CACHE set to the cache folder"
    mine = lock_fd
    queue = os.open(store.root / QUEUE_LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    t0 = time.monotonic()
    try:
        _flock_wait(queue, QUEUE_TIMEOUT_S, "the background Verilator build before this one")
        waited, t0 = time.monotonic() - t0, time.monotonic()
        if store.valid(key):
            print(f"pushpush: found (built by another process) {store.entry(key)}", flush=True)
            _keep_log(folder, store.entry(key))
            return 0
        with tempfile.TemporaryDirectory(prefix="pushpush-bg-") as tmp:
            top, sources, parameters, args = simulation_inputs(cfg, Path(tmp))
            print(f"pushpush: building {top} ({cfg.top}) on Verilator for {key}", flush=True)
            entry, built = build_cached(toplevel=top, sources=sources, simulator="verilator",
                                        parameters=parameters, extra_build_args=args,
                                        log_dir=folder)
        print(f"pushpush: {'built' if built else 'found (built by another process)'} {entry} "
              f"in {time.monotonic() - t0:.1f} s (after {waited:.1f} s in the queue)", flush=True)
        _keep_log(folder, entry)
        return 0
    except BaseException as e:        # a failed build (or a wait too long): say so for auto
        text = f"{type(e).__name__}: {e}"
        missing = [s for s in cfg.sources if not Path(s).exists()]
        if missing:     # the system's folder went away: not this content's fault
            print(f"pushpush: sources gone ({', '.join(missing[:3])}): {text}", flush=True)
            shutil.rmtree(folder, ignore_errors=True)
        else:
            (folder / "failed.txt").write_text(text + "\n")
            print(f"pushpush: failed: {text}", flush=True)
        return 1
    finally:
        os.close(queue)
        os.close(mine)


def _keep_log(folder: Path, entry: Path) -> None:
    """The background builder's output goes into the cache entry (``background.log``); its
    folder goes."""
    try:
        shutil.copyfile(folder / "output.log", entry / "background.log")
    except OSError:
        pass
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    # Spawned, not typed: the detached build process this module starts itself
    # (subprocess.Popen of 'python -m pushpush.simboard.autosim' above).
    sys.exit(main(sys.argv[1], int(sys.argv[2])))
