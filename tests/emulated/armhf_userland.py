"""The emulated PYNQ board's userland: an armhf Debian bookworm made from Debian's packages,
run under qemu-user, with a PYNQ image's Python environment; built once and cached.

:func:`ensure_userland` returns the cached :class:`Userland` (``~/.cache/pushpush/
armhf-<hash>``, the hash of the package lists below; ``$PUSHPUSH_ARMHF_CACHE`` picks another
parent folder), building it when absent:

1. ``mmdebstrap --variant=extract --architectures=armhf`` of :data:`DEBIAN_PACKAGES` (and
   their dependencies) into ``root/``. ``extract`` unpacks without running the packages'
   maintainer scripts (they are armhf programs, and this machine may have no binfmt_misc to
   run them); what those scripts would have made and the userland needs is made here
   (:data:`ALTERNATIVES`: the ``update-alternatives`` links of BLAS/LAPACK and ``cc``).
2. A virtualenv at ``venv/`` made by the armhf Python (``--system-site-packages``, as a PYNQ
   image's ``/usr/local/share/pynq-venv``), and into it, by the armhf pip from PyPI,
   :data:`PIP_PACKAGES`: PYNQ 3.1.2 (built from its sdist, its C parts by the userland's
   gcc, for ``BOARD=Pynq-Z1``) and what pushpush needs. What PyPI has no armv7l wheel for
   (numpy, cffi, PyYAML) comes from Debian's armhf packages, as a PYNQ image takes it from
   Ubuntu's.

:meth:`Userland.command` runs a program of the userland: ``proot -q qemu-arm-static``
(proot follows every ``execve``, so gcc's cc1/as/ld and pip's subprocesses run under qemu
too) with only the binds it is given. Debian bookworm's proot (5.1.0) predates the
``statx``, ``faccessat2`` and ``openat2`` system calls and passes their paths through
untranslated; the command runs under a seccomp filter that answers those three with
ENOSYS, so qemu and glibc fall back to ``fstatat``/``faccessat``/``openat``, which proot
translates (:func:`deny_new_path_syscalls`).

The venv's path is the same inside and outside the userland (it is bound at its own path),
so the host's simulator reads the installed package's Verilog where the armhf side names it.
"""

from __future__ import annotations

import ctypes
import fcntl
import hashlib
import json
import os
import platform
import shutil
import struct
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Optional, Sequence

SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
#: the Debian armhf packages of the userland (apt adds their dependencies)
DEBIAN_PACKAGES = (
    # the image's Python, venv (with ensurepip's pip), headers for PYNQ's C extension
    "python3", "python3-venv", "python3-dev",
    # what PyPI has no armv7l wheel for (a PYNQ image has Ubuntu's)
    "python3-numpy", "python3-cffi", "python3-yaml",
    # PYNQ's pynqmetadata needs IPython and jsonschema, which the image has preinstalled
    # (PyPI's newest IPython would build psutil from source under qemu)
    "python3-ipython", "python3-jsonschema",
    # the C compiler (pushpush's C layer, PYNQ's _video), g++ (its libaudio) and make
    "gcc", "g++", "libc6-dev", "make",
    # python-magic (pynqutils) loads libmagic
    "libmagic1",
    # the shell and tools that PYNQ's setup.py, make and gcc call (Essential: yes packages,
    # which apt does not add as dependencies)
    "dash", "bash", "coreutils", "sed", "grep", "findutils", "tar", "gzip", "diffutils",
)
#: what the armhf pip installs into the venv from PyPI (besides pushpush's wheel); PYNQ 3.1.2
#: is the version PYNQ-Z1 images run (pyproject's ``pynq`` extra asks for >= 3.0)
PIP_PACKAGES = ("pynq==3.1.2",)
#: PYNQ's setup.py builds for a board named in $BOARD (its C libraries are built for armv7l)
PIP_ENV = {"BOARD": "Pynq-Z1"}
#: update-alternatives links (link -> target) that the packages' postinst scripts would make
ALTERNATIVES = {
    "usr/lib/arm-linux-gnueabihf/libblas.so.3": "blas/libblas.so.3",
    "usr/lib/arm-linux-gnueabihf/liblapack.so.3": "lapack/liblapack.so.3",
    "usr/bin/cc": "gcc",
}
#: bump when the build steps change (part of the cache key)
RECIPE = 1
#: binds for the first pip install only (PyPI over HTTPS): name resolution and CA certificates
NETWORK_BINDS = ("/etc/resolv.conf", "/etc/hosts", "/etc/ssl/certs")
TOOLS = {"mmdebstrap": "mmdebstrap", "proot": "proot", "qemu-arm-static": "qemu-user-static"}

Progress = Callable[[str], None]


class UserlandError(RuntimeError):
    """The userland cannot be built or run; the message says what is missing and the fix."""


def missing_tools() -> list[str]:
    """The tools of :data:`TOOLS` not on PATH, each with the Debian package that has it."""
    return [f"{tool} (apt-get install {pkg})" for tool, pkg in TOOLS.items() if shutil.which(tool) is None]


def pyproject_requirements(pyproject: Path) -> list[str]:
    """pushpush's dependencies and its ``pynq`` extra, as pyproject.toml lists them (part of
    the cache key: the venv has them installed)."""
    import tomllib

    project = tomllib.loads(pyproject.read_text())["project"]
    return list(project["dependencies"]) + list(project["optional-dependencies"]["pynq"])


def cache_key(requirements: Sequence[str]) -> str:
    text = json.dumps([RECIPE, SUITE, DEBIAN_PACKAGES, PIP_PACKAGES, PIP_ENV, ALTERNATIVES,
                       sorted(requirements)])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cache_root() -> Path:
    return Path(os.environ.get("PUSHPUSH_ARMHF_CACHE") or Path.home() / ".cache" / "pushpush")


# --------------------------------------------------------------------------- the seccomp filter

#: x86_64 numbers of the path system calls proot 5.1 does not translate
_DENIED_X86_64 = {"statx": 332, "openat2": 437, "faccessat2": 439}
_AUDIT_ARCH_X86_64 = 0xC000003E
_ENOSYS = 38


def deny_new_path_syscalls() -> None:
    """Install (in this process, inherited by what it execs) a seccomp filter answering
    statx, openat2 and faccessat2 with ENOSYS. Used as ``preexec_fn`` of the proot command."""
    ld_abs, jeq, ret = 0x20, 0x15, 0x06
    allow, errno = 0x7FFF0000, 0x00050000 | _ENOSYS
    nrs = list(_DENIED_X86_64.values())
    prog = [struct.pack("HBBI", ld_abs, 0, 0, 4),                      # the audit arch
            struct.pack("HBBI", jeq, 1, 0, _AUDIT_ARCH_X86_64),
            struct.pack("HBBI", ret, 0, 0, allow),
            struct.pack("HBBI", ld_abs, 0, 0, 0)]                      # the call's number
    prog += [struct.pack("HBBI", jeq, len(nrs) - i, 0, nr) for i, nr in enumerate(nrs)]
    prog += [struct.pack("HBBI", ret, 0, 0, allow), struct.pack("HBBI", ret, 0, 0, errno)]
    code = ctypes.create_string_buffer(b"".join(prog))

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = SockFprog(len(prog), ctypes.addressof(code))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(38, 1, 0, 0, 0) != 0:                                # PR_SET_NO_NEW_PRIVS
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    if libc.syscall(317, 1, 0, ctypes.byref(fprog)) != 0:             # seccomp(SET_MODE_FILTER)
        raise OSError(ctypes.get_errno(), "seccomp(SECCOMP_SET_MODE_FILTER)")


# --------------------------------------------------------------------------- the userland


@dataclass
class Userland:
    """A built userland: ``root`` (the armhf Debian), ``venv`` (the PYNQ image's venv,
    at the same path inside and outside), ``seconds`` its build took (0 when cached)."""

    folder: Path
    seconds: float = 0.0

    @property
    def root(self) -> Path:
        return self.folder / "root"

    @property
    def venv(self) -> Path:
        return self.folder / "venv"

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def command(self, argv: Sequence[str], *, binds: Sequence[str | Path] = (),
                env: Optional[Mapping[str, str]] = None, cwd: str | Path = "/") -> list[str]:
        """The host command that runs ``argv`` in the userland: proot with qemu-arm-static,
        ``/proc``, ``/dev``, ``/sys``, the venv and ``binds`` (each at its own path), a clean
        environment (``env`` added to PATH, HOME, LANG)."""
        qemu = shutil.which("qemu-arm-static")
        if qemu is None:
            raise UserlandError("qemu-arm-static not found: apt-get install qemu-user-static")
        cmd = ["proot", "-q", qemu, "-r", str(self.root), "-w", str(cwd)]
        for b in ("/proc", "/dev", "/sys", str(self.venv), *map(str, binds)):
            if not os.path.exists(b):     # proot would leave it out with a warning only
                raise UserlandError(f"cannot bind {b} into the userland: it does not exist")
            cmd += ["-b", b]
        clean = {"PATH": f"{self.venv}/bin:/usr/local/bin:/usr/bin:/bin", "HOME": "/root",
                 "LANG": "C.UTF-8", **(env or {})}
        return cmd + ["/usr/bin/env", "-i", *(f"{k}={v}" for k, v in clean.items()), *argv]

    def run(self, argv: Sequence[str], *, timeout: float, what: str, binds: Sequence[str | Path] = (),
            env: Optional[Mapping[str, str]] = None, cwd: str | Path = "/",
            log: Optional[Path] = None) -> subprocess.CompletedProcess[str]:
        """Run ``argv`` in the userland (see :meth:`command`); :class:`UserlandError` naming
        ``what`` with the end of its output when it fails or outlives ``timeout`` seconds."""
        cmd = self.command(argv, binds=binds, env=env, cwd=cwd)
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                               preexec_fn=deny_new_path_syscalls)
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            raise UserlandError(f"{what}: no end within {timeout:g} s (armhf under qemu-user); "
                                f"its output ended with:\n{out[-3000:]}") from None
        if log is not None:
            log.write_text(f"$ {' '.join(argv)}\n{r.stdout}\n{r.stderr}")
        if r.returncode != 0:
            raise UserlandError(f"{what} failed (exit {r.returncode}): {' '.join(argv)}\n"
                                f"{(r.stdout + r.stderr)[-4000:]}")
        return r


def _check_host() -> None:
    if platform.machine() != "x86_64":
        raise UserlandError(f"the emulated board runs on x86_64 hosts (its seccomp filter has "
                            f"x86_64 system call numbers); this is {platform.machine()}")
    missing = missing_tools()
    if missing:
        raise UserlandError("the emulated board needs " + ", ".join(missing) +
                            " (./bootstrap.sh setup installs them)")


def _debootstrap(root: Path, work: Path, say: Progress) -> None:
    tar = work / "root.tar"
    cmd = ["mmdebstrap", "--variant=extract", "--architectures=armhf", "--format=tar",
           # apt's download sandbox user may not write /dev/null in a container
           "--aptopt=APT::Sandbox::User \"root\"",
           "--include=" + ",".join(DEBIAN_PACKAGES), SUITE, str(tar), MIRROR]
    say(f"emulated board: mmdebstrap armhf {SUITE} ({len(DEBIAN_PACKAGES)} packages and their dependencies)")
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=1200)
    if r.returncode != 0:
        raise UserlandError(f"mmdebstrap failed (exit {r.returncode}): {' '.join(cmd)}\n"
                            f"{(r.stdout + r.stderr)[-3000:]}")
    root.mkdir(parents=True)
    r = subprocess.run(["tar", "-xf", str(tar), "-C", str(root)], capture_output=True, text=True)
    if r.returncode != 0:
        raise UserlandError(f"unpacking {tar} failed: {r.stderr[-2000:]}")
    tar.unlink()
    for link, target in ALTERNATIVES.items():
        p = root / link
        if not (p.parent / target).exists():
            raise UserlandError(f"{link}: its alternative {target} is not in the userland "
                                "(a package of DEBIAN_PACKAGES changed its layout)")
        if not p.is_symlink() and not p.exists():
            p.symlink_to(target)


def _make_venv(land: Userland, requirements: Sequence[str], say: Progress) -> None:
    say("emulated board: the armhf Python makes the venv")
    land.venv.mkdir()   # proot binds only a folder that exists (else the venv would be in root/)
    land.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(land.venv)],
             timeout=900, what="creating the armhf venv")
    say(f"emulated board: the armhf pip installs {', '.join(PIP_PACKAGES)} and pushpush's "
        "requirements from PyPI (PYNQ's C parts built by the armhf gcc)")
    notebooks = "/home/xilinx/jupyter_notebooks"   # the image's; PYNQ's setup.py copies its notebooks there
    (land.root / notebooks.lstrip("/")).mkdir(parents=True, exist_ok=True)
    env = {**PIP_ENV, "PYNQ_JUPYTER_NOTEBOOKS": notebooks, "PIP_DISABLE_PIP_VERSION_CHECK": "1",
           "PIP_CERT": "/etc/ssl/certs/ca-certificates.crt", "PIP_DEFAULT_TIMEOUT": "180"}
    land.run([str(land.python), "-m", "pip", "install", "--no-cache-dir", *PIP_PACKAGES, *requirements],
             timeout=2400, what="pip install of PYNQ on armv7l", env=env, binds=NETWORK_BINDS,
             log=land.folder / "pip-install.log")


def ensure_userland(pyproject: Path, progress: Optional[Progress] = None) -> Userland:
    """The cached userland for pushpush's requirements in ``pyproject``, built when absent
    (pushpush itself is not installed here: :func:`install_wheel` does that on each use)."""
    say = progress or (lambda s: None)
    _check_host()
    requirements = pyproject_requirements(pyproject)
    folder = cache_root() / f"armhf-{cache_key(requirements)}"
    folder.parent.mkdir(parents=True, exist_ok=True)
    lock = open(folder.parent / f"{folder.name}.lock", "w")
    fcntl.flock(lock, fcntl.LOCK_EX)       # one build at a time; users wait for it
    land = Userland(folder)
    if (folder / "ready").exists():
        return land
    t0 = time.monotonic()
    if folder.exists():                    # a build that did not finish
        shutil.rmtree(folder)
    folder.mkdir()
    _debootstrap(land.root, folder, say)
    _make_venv(land, requirements, say)
    land.seconds = time.monotonic() - t0
    (folder / "ready").write_text(f"built in {land.seconds:.0f} s\n")
    say(f"emulated board: userland built in {land.seconds:.0f} s: {folder}")
    return land


def install_wheel(land: Userland, wheel: Path) -> str:
    """pip-install ``wheel`` (pushpush's, built on the host) into the userland's venv as on a
    board, replacing the one there; its requirements must be there already (pip check)."""
    land.run([str(land.python), "-m", "pip", "install", "--no-deps", "--force-reinstall",
              "--no-index", str(wheel)], timeout=900, what=f"pip install {wheel.name}",
             binds=[wheel.parent])
    return land.run([str(land.python), "-m", "pip", "check"], timeout=600,
                    what="pip check (the wheel's requirements in the armhf venv)").stdout
