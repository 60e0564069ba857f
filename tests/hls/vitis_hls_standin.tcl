# Stand-ins for the Vitis HLS Tcl commands that pushpush's generated script (and PYNQ's own
# HLS IP scripts, Xilinx/PYNQ boards/ip/hls/*/script.tcl) use, for running a script under a
# plain tclsh (no Vitis HLS). Test code: tests/hls/test_hls_tcl.py; docs/hls.md says what
# only Vitis HLS can confirm.
#
# Every command
#   * is recorded, one Tcl list per line, in the file named by $env(STANDIN_LOG);
#   * parses its arguments against the options UG1399's Tcl command reference lists for it
#     (the subset scripts use): an option it does not have, an option without its value or a
#     wrong number of positional arguments is an error;
#   * checks the order a session needs: a project before set_top/add_files/open_solution, a
#     solution before set_part/create_clock and the design steps, a part and a clock before
#     synthesis, csynth_design before export_design;
#   * works on a small model: add_files needs files that exist (relative to the folder the
#     script runs in); csim_design needs a testbench with main(); csynth_design needs the top
#     function defined in a design file (not a testbench); set_part takes a Xilinx part name;
#     create_clock's period is a positive number (ns).
# A command that is not defined here is an error (the 'unknown' handler).
#
# Usage: tclsh <this file> <script to run> [<folder to run it in>]

namespace eval standin {
    variable project ""
    variable solution ""
    variable top ""
    variable design_files {}
    variable tb_files {}
    variable part ""
    variable period ""
    variable synthesized 0
    variable flow ""
}

proc standin::log {args} {
    if {[info exists ::env(STANDIN_LOG)]} {
        set f [open $::env(STANDIN_LOG) a]
        puts $f [list {*}$args]
        close $f
    }
}

# parse {flags} {options with a value} nargs-min nargs-max cmd arglist -> dict
proc standin::parse {cmd flags valued nmin nmax arglist} {
    set opts [dict create]
    set pos {}
    for {set i 0} {$i < [llength $arglist]} {incr i} {
        set a [lindex $arglist $i]
        if {[string index $a 0] eq "-" && ![string is double -strict $a]} {
            if {$a in $flags} {
                dict set opts $a 1
            } elseif {$a in $valued} {
                incr i
                if {$i >= [llength $arglist]} { error "$cmd: option $a needs a value" }
                dict set opts $a [lindex $arglist $i]
            } else {
                error "$cmd: unknown option '$a' (known: [concat $flags $valued])"
            }
        } else {
            lappend pos $a
        }
    }
    if {[llength $pos] < $nmin || ($nmax >= 0 && [llength $pos] > $nmax)} {
        error "$cmd: wrong number of arguments ([llength $pos]: $pos)"
    }
    dict set opts _pos $pos
    return $opts
}

proc standin::need_project {cmd} {
    if {$standin::project eq ""} { error "$cmd: no open project (open_project first)" }
}
proc standin::need_solution {cmd} {
    need_project $cmd
    if {$standin::solution eq ""} { error "$cmd: no open solution (open_solution first)" }
}

proc open_project {args} {
    standin::log open_project {*}$args
    set o [standin::parse open_project {-reset} {} 1 1 $args]
    set standin::project [lindex [dict get $o _pos] 0]
    set standin::solution ""
}

proc set_top {args} {
    standin::log set_top {*}$args
    set o [standin::parse set_top {} {} 1 1 $args]
    standin::need_project set_top
    set standin::top [lindex [dict get $o _pos] 0]
}

proc add_files {args} {
    standin::log add_files {*}$args
    set o [standin::parse add_files {-tb -blackbox} {-cflags -csimflags} 1 -1 $args]
    standin::need_project add_files
    foreach f [dict get $o _pos] {
        if {![file isfile $f]} { error "add_files: '$f' is not a file (in [pwd])" }
        if {[dict exists $o -tb]} { lappend standin::tb_files $f } else { lappend standin::design_files $f }
    }
}

proc open_solution {args} {
    standin::log open_solution {*}$args
    set o [standin::parse open_solution {-reset} {-flow_target} 1 1 $args]
    standin::need_project open_solution
    if {[dict exists $o -flow_target]} {
        set ft [dict get $o -flow_target]
        if {$ft ni {vivado vitis}} { error "open_solution: -flow_target must be vivado or vitis, not '$ft'" }
        set standin::flow $ft
    }
    set standin::solution [lindex [dict get $o _pos] 0]
}

proc set_part {args} {
    standin::log set_part {*}$args
    set o [standin::parse set_part {} {-tool} 1 1 $args]
    standin::need_solution set_part
    set p [lindex [dict get $o _pos] 0]
    if {![regexp {^x[a-z0-9]+-[a-z0-9]+(-[a-z0-9]+)*$} $p]} { error "set_part: '$p' is not a Xilinx part name" }
    set standin::part $p
}

proc create_clock {args} {
    standin::log create_clock {*}$args
    set o [standin::parse create_clock {} {-period -name} 0 0 $args]
    standin::need_solution create_clock
    if {![dict exists $o -period]} { error "create_clock: -period is required" }
    set p [dict get $o -period]
    if {![string is double -strict $p] || $p <= 0} { error "create_clock: -period '$p' is not a positive number of ns" }
    set standin::period $p
}

proc standin::defines {files name} {
    foreach f $files {
        set fh [open $f]; set text [read $fh]; close $fh
        set re {(^|[^A-Za-z0-9_])}
        append re $name {\s*\([^;]*\)\s*\{}
        if {[regexp $re $text]} { return 1 }
    }
    return 0
}

proc csim_design {args} {
    standin::log csim_design {*}$args
    standin::parse csim_design {-O -clean -setup -profile} {-argv -ldflags -mflags} 0 0 $args
    standin::need_solution csim_design
    if {$standin::tb_files eq {}} { error "csim_design: no testbench (add_files -tb)" }
    if {![standin::defines $standin::tb_files main]} { error "csim_design: no main() in the testbench" }
}

proc csynth_design {args} {
    standin::log csynth_design {*}$args
    standin::parse csynth_design {} {} 0 0 $args
    standin::need_solution csynth_design
    if {$standin::top eq ""} { error "csynth_design: no top function (set_top)" }
    if {$standin::part eq ""} { error "csynth_design: no part (set_part)" }
    if {$standin::period eq ""} { error "csynth_design: no clock (create_clock)" }
    if {![standin::defines $standin::design_files $standin::top]} {
        error "csynth_design: top function '$standin::top' is not defined in the design files ($standin::design_files)"
    }
    set standin::synthesized 1
}

proc cosim_design {args} {
    standin::log cosim_design {*}$args
    standin::parse cosim_design {-O -setup -trace_level} {-rtl -tool -argv} 0 0 $args
    if {!$standin::synthesized} { error "cosim_design: csynth_design first" }
}

proc export_design {args} {
    standin::log export_design {*}$args
    set o [standin::parse export_design {} {-format -rtl -description -display_name -version -vendor -library -ipname -flow -output} 0 0 $args]
    standin::need_solution export_design
    if {!$standin::synthesized} { error "export_design: csynth_design first" }
    if {[dict exists $o -format] && [dict get $o -format] ni {ip_catalog xo syn_dcp sysgen}} {
        error "export_design: -format [dict get $o -format] is not one of ip_catalog xo syn_dcp sysgen"
    }
    if {[dict exists $o -rtl] && [dict get $o -rtl] ni {verilog vhdl}} {
        error "export_design: -rtl [dict get $o -rtl] is not verilog or vhdl"
    }
    if {[dict exists $o -version] && ![regexp {^[0-9]+\.[0-9]+$} [dict get $o -version]]} {
        error "export_design: -version [dict get $o -version] is not <major>.<minor>"
    }
}

proc close_project {args} { standin::log close_project {*}$args; set standin::project "" }

rename exit standin::real_exit
proc exit {args} { standin::log exit {*}$args; standin::real_exit 0 }

proc unknown {args} { error "not a Vitis HLS command the stand-in knows: [lindex $args 0]" }

set script [lindex $argv 0]
if {[llength $argv] > 1} { cd [lindex $argv 1] }
if {[catch {source $script} msg]} {
    puts stderr "STANDIN ERROR: $msg"
    standin::real_exit 1
}
standin::real_exit 0
