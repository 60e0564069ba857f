/*
 * Models of the two Xilinx 7-series primitives cores/interconnect/pp_axi_ic_mux.v
 * instantiates in its synthesis text with HARD = 1 (the slice's wide multiplexers), for the
 * tests that read that text outside a Xilinx flow (Icarus, Verilator's lint, Yosys's SAT).
 * Their function as UG953 (7 Series Libraries Guide) states it: O = S ? I1 : I0. Vivado and
 * Yosys's synth_xilinx bring their own; this file is never a core's source.
 */

`default_nettype none
/* verilator lint_off DECLFILENAME */

module MUXF7 (output wire O, input wire I0, input wire I1, input wire S);
assign O = S ? I1 : I0;
endmodule

module MUXF8 (output wire O, input wire I0, input wire I1, input wire S);
assign O = S ? I1 : I0;
endmodule

`default_nettype wire
