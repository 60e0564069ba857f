// pingpong_step: the pingpong experiment's callee as a Vitis HLS top function (docs/hls.md).
//
// Plain HLS C++, no pushpush code: scalar arguments, a return value, the default block
// protocol ap_ctrl_hs. The function keeps a running state; each call mixes x into it and
// returns the new state, so a caller can check that every call happened once and in order.
//
// With Vitis HLS: csynth this with top pingpong_step and export the RTL; its Verilog
// (pingpong_step.v and its submodules) goes in `sources:` of system.yaml. This folder holds
// a hand-written stand-in of that Verilog (pingpong_step.v), see there.
#include <stdint.h>

int pingpong_step(int x) {
#pragma HLS INTERFACE mode=ap_ctrl_hs port=return
    static uint32_t state = 0;
    uint32_t rot = (state << 5) | (state >> 27);
    state = (rot ^ (uint32_t)x) + 0x9E3779B9u;
    return (int)state;
}
