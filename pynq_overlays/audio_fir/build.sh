#!/bin/sh
# Build the audio_fir overlay for a PYNQ-Z1: Vivado bitstream and .hwh into this folder
# (pushpush build --target pynq_z1; without Vivado on PATH only the project is set up and
# checked), plus the system map the driver reads. Extra arguments go to pushpush build.
#
#   pynq_overlays/audio_fir/build.sh            # from anywhere; needs pushpush (and Vivado)
#   scp -r pynq_overlays/audio_fir xilinx@pynq:/home/xilinx/   # or pip install the wheel on the board
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
pushpush build "$root/examples/audio_fir" --target pynq_z1 --overlays "$(dirname "$here")" \
    -o "$root/build/audio_fir" "$@"
pushpush map --json -o "$here/audio_fir.map.json" "$root/examples/audio_fir"
ls -l "$here"
