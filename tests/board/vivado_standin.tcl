# Stand-ins for the Vivado Tcl commands the PYNQ-Z1 flow uses, for running Edalize's project
# script and pushpush's block-design tcl under a plain tclsh (no Vivado). Test code: see
# tests/board/test_bd_tcl.py and docs/board.md ("What the tclsh check catches").
#
# Every command
#   * is recorded, one Tcl list per line, in the file named by $env(STANDIN_LOG);
#   * parses its arguments against the options Vivado's Tcl reference (UG835) lists for it:
#     an option it does not have, an option without its value or a wrong number of
#     positional arguments is an error;
#   * works on a small model of the project and the block design: the files read, the cells
#     with their pins (the PS7's pins follow its CONFIG, e.g. S_AXI_GP0_ACLK exists only with
#     PCW_USE_S_AXI_GP0 1, S_AXI_HPn only with PCW_USE_S_AXI_HPn 1), the module reference's
#     ports read from its Verilog, the nets, the address segments (the PS7's GP0_HIGH_OCM
#     exists only with PCW_USE_HIGH_OCM 1; HP0_DDR_LOWOCM only with PCW_USE_S_AXI_HP0 1).
# A command that is not defined here is an error (the 'unknown' handler), so a Vivado
# command the flow starts using must be added here, with its options, before the check passes.
#
# zynq_ultra_ps_e (ZCU104, KV260): its CONFIG.* names must be ones a real design uses
# (tests/board/psu/: the PS cell of PYNQ's ZCU104 and Kria-PYNQ's KV260 base.tcl, and the
# PSU parameters of tests/pynq/hwhs/rfsoc_sam.hwh.gz); its pins (pl_clk0, pl_resetn0,
# maxihpm0_fpd_aclk, saxihp<k>_fpd_aclk, pl_ps_irq0, M_AXI_HPM0_FPD, S_AXI_HP0_FPD ...), its
# address spaces and segments (SAXIGP<n>/<port>_DDR_LOW, _LPS_OCM ...) follow its CONFIG as
# the PS7's do; the board preset (apply_bd_automation) needs the project's board part and
# leaves M_AXI_HPM0_FPD and M_AXI_HPM1_FPD on, and validate_bd_design refuses a PS clock pin
# that pl_clk0 does not drive (Vivado: "clock pins are not connected to a valid clock source").
#
# Usage: tclsh with argv = <this file> <script to run> [<cwd>]; env STANDIN_BOARD_PARTS
# (a list) stands for installed board files.

namespace eval standin {
    variable log {}
    variable project ""
    variable props            ;# object -> dict of properties
    array set props {}
    variable files {}         ;# files of sources_1
    variable mem_files {}     ;# memory files read_mem added (a $readmemh file is found among them by name)
    variable modules          ;# module name -> file
    array set modules {}
    variable cells            ;# cell path -> kind (ip vlnv / module name)
    array set cells {}
    variable nets {}          ;# list of lists of pins
    variable intf_nets {}
    variable external {}
    variable assigned {}      ;# {space segment offset range}
    variable design ""
    variable validated 0
    variable here [file dirname [file normalize [info script]]]
    variable psu_names {}     ;# CONFIG names zynq_ultra_ps_e takes (from real designs, lazily)
}

# zynq_ultra_ps_e's parameter names, from real files (see the header)
proc standin::psu_known {name} {
    variable psu_names
    variable here
    if {![llength $psu_names]} {
        set names [dict create]
        foreach f [list [file join $here psu zcu104_base_ps_e.tcl] [file join $here psu kv260_base_ps_e.tcl]] {
            set fh [open $f r]; set text [read $fh]; close $fh
            foreach {all n} [regexp -all -inline {CONFIG\.([A-Za-z0-9_]+)} $text] { dict set names $n 1 }
        }
        set fh [open [file join $here .. pynq hwhs rfsoc_sam.hwh.gz] rb]; set gz [read $fh]; close $fh
        foreach {all n} [regexp -all -inline {NAME="(PSU_[A-Za-z0-9_]+)"} [zlib gunzip $gz]] { dict set names $n 1 }
        set psu_names $names
    }
    return [dict exists $psu_names $name]
}

# zynq_ultra_ps_e's PL-facing slave ports: n -> {interface, clock pin, segment prefix}
set ::standin::saxigp {
    0 {S_AXI_HPC0_FPD saxihpc0_fpd_aclk HPC0} 1 {S_AXI_HPC1_FPD saxihpc1_fpd_aclk HPC1}
    2 {S_AXI_HP0_FPD saxihp0_fpd_aclk HP0} 3 {S_AXI_HP1_FPD saxihp1_fpd_aclk HP1}
    4 {S_AXI_HP2_FPD saxihp2_fpd_aclk HP2} 5 {S_AXI_HP3_FPD saxihp3_fpd_aclk HP3}
    6 {S_AXI_LPD saxi_lpd_aclk LPD}
}
# its masters: n -> {interface, clock pin, the address range it reaches (UG1085 table 10-1)}
set ::standin::maxigp {
    0 {M_AXI_HPM0_FPD maxihpm0_fpd_aclk 0xA0000000 0xB0000000}
    1 {M_AXI_HPM1_FPD maxihpm1_fpd_aclk 0xB0000000 0xC0000000}
    2 {M_AXI_HPM0_LPD maxihpm0_lpd_aclk 0x80000000 0xA0000000}
}

# ------------------------------------------------------------------ argument parsing

# spec: {flags {-a -b} values {-c -d} min N max M}; returns {opts positional}
proc standin::parse {cmd spec argv} {
    set flags [concat [dict get $spec flags] {-quiet -verbose}]
    set values [dict get $spec values]
    set opts [dict create]
    set pos {}
    set i 0
    while {$i < [llength $argv]} {
        set a [lindex $argv $i]
        if {[string match -* $a] && ![string is double -strict $a]} {
            if {$a in $flags} {
                dict set opts $a 1
            } elseif {$a in $values} {
                incr i
                if {$i >= [llength $argv]} { error "$cmd: option $a needs a value" }
                dict set opts $a [lindex $argv $i]
            } else {
                error "$cmd: unknown option '$a' (Vivado's $cmd takes: [lsort [concat $flags $values]])"
            }
        } else {
            lappend pos $a
        }
        incr i
    }
    set n [llength $pos]
    if {$n < [dict get $spec min] || ([dict get $spec max] >= 0 && $n > [dict get $spec max])} {
        error "$cmd: [llength $pos] positional argument(s) '$pos'; it takes [dict get $spec min] to [expr {[dict get $spec max] < 0 ? "any" : [dict get $spec max]}]"
    }
    return [list $opts $pos]
}

# define a stand-in: name, spec, body (sees $opts, $pos)
proc standin::cmd {name spec body} {
    proc ::$name args [string map [list @NAME@ $name @SPEC@ [list $spec] @BODY@ $body] {
        lappend ::standin::log [linsert $args 0 @NAME@]
        lassign [::standin::parse @NAME@ @SPEC@ $args] opts pos
        @BODY@
    }]
}

proc standin::spec {args} {
    set d [dict create flags {} values {} min 0 max -1]
    foreach {k v} $args { dict set d $k $v }
    return $d
}

proc standin::flatten {lst} {
    set out {}
    foreach x $lst { foreach y $x { lappend out $y } }
    return $out
}

# user parameters of xilinx.com:ip:axi_dma:7.1 (PG021, "User Parameters") the stand-in knows
set ::standin::axi_dma_params {c_include_sg c_sg_length_width c_sg_include_stscntrl_strm c_micro_dma
    c_include_mm2s c_include_s2mm c_m_axi_mm2s_data_width c_m_axis_mm2s_tdata_width
    c_m_axi_s2mm_data_width c_s_axis_s2mm_tdata_width c_mm2s_burst_size c_s2mm_burst_size
    c_include_mm2s_dre c_include_s2mm_dre c_addr_width c_enable_multi_channel}

proc standin::obj_props {obj} {
    variable props
    if {![info exists props($obj)]} { set props($obj) [dict create] }
    return $props($obj)
}

proc standin::setprop {obj name value} {
    variable props
    variable cells
    if {$obj eq ""} { error "set_property $name: no object (an empty list)" }
    set kind [lindex [split $obj :] 0]
    if {$kind eq "cell"} {
        if {![string match CONFIG.* $name]} { error "set_property: a block-design cell has CONFIG.* properties, not '$name'" }
        set vlnv $cells([string range $obj 5 end])
        if {[string match *processing_system7* $vlnv] && ![string match CONFIG.PCW_* $name]} {
            error "set_property: processing_system7 parameters are CONFIG.PCW_*, not '$name'"
        }
        if {[string match *zynq_ultra_ps_e* $vlnv] && ![standin::psu_known [string range $name 7 end]]} {
            error "set_property: zynq_ultra_ps_e has no parameter '$name' in PYNQ's ZCU104 or Kria-PYNQ's KV260 design or rfsoc_sam.hwh (tests/board/psu/README.md)"
        }
        if {[string match *zynq_ultra_ps_e* $vlnv] && [regexp {^CONFIG\.PSU__(MAXIGP|SAXIGP)\d__DATA_WIDTH$} $name] && $value ni {32 64 128}} {
            error "set_property: $name is 32, 64 or 128, not '$value'"
        }
        if {[string match *xlconcat* $vlnv]} {
            if {[string range $name 7 end] ne "NUM_PORTS"} {
                error "set_property: the stand-in's xlconcat has only CONFIG.NUM_PORTS, not '$name'"
            }
            if {![string is integer -strict $value] || $value < 1 || $value > 32} {
                error "set_property: xlconcat CONFIG.NUM_PORTS is 1..32, not '$value'"
            }
        }
        if {[string match *axi_dma* $vlnv] && [string range $name 7 end] ni $::standin::axi_dma_params} {
            error "set_property: axi_dma has no parameter '$name' (the stand-in knows: $::standin::axi_dma_params)"
        }
        if {[string match module:* $vlnv]} {
            # a module reference's CONFIG.* are its Verilog module's parameters (nothing else)
            set params [dict get $::standin::modules([string range $vlnv 7 end]) params]
            if {[string range $name 7 end] ni $params} {
                error "set_property $name on module reference [string range $obj 5 end]: not a parameter of its module ($params); its interface properties come from X_INTERFACE attributes in its Verilog"
            }
        }
    }
    if {[string tolower $name] eq "synth_checkpoint_mode"} {
        # UG912 SYNTH_CHECKPOINT_MODE: a property of a block design file, None (global synthesis),
        # Singular or Hierarchical (out of context)
        if {[file extension $obj] ne ".bd"} { error "set_property $name: '$obj' is not a block design (.bd) file" }
        if {[string tolower $value] ni {none singular hierarchical}} { error "set_property $name: None, Singular or Hierarchical, not '$value'" }
    }
    set p [obj_props $obj]
    dict set p $name $value
    set props($obj) $p
}

proc standin::getprop {obj name} {
    set p [obj_props $obj]
    if {[dict exists $p $name]} { return [dict get $p $name] }
    return ""
}

# ------------------------------------------------------------------ model of cells and pins

proc standin::ps_config {name} {
    return [getprop cell:/processing_system7_0 CONFIG.$name]
}

# the zynq_ultra_ps_e cell (empty: none) and one of its CONFIG values
proc standin::psu_cell {} {
    variable cells
    foreach c [array names cells] { if {[string match *zynq_ultra_ps_e* $cells($c)]} { return $c } }
    return ""
}
proc standin::psu_config {name} {
    set c [psu_cell]
    if {$c eq ""} { return "" }
    return [getprop cell:$c CONFIG.$name]
}

# pins and interface pins of a cell: {pins {...} intf {...}}
proc standin::cell_pins {cell} {
    variable cells
    variable modules
    set kind $cells($cell)
    if {[string match *processing_system7* $kind]} {
        set pins {}
        set intf {DDR FIXED_IO}
        if {[ps_config PCW_EN_CLK0_PORT] eq "1"} { lappend pins FCLK_CLK0 }
        if {[ps_config PCW_EN_RST0_PORT] eq "1"} { lappend pins FCLK_RESET0_N }
        if {[ps_config PCW_USE_M_AXI_GP0] eq "1"} { lappend pins M_AXI_GP0_ACLK; lappend intf M_AXI_GP0 }
        if {[ps_config PCW_USE_S_AXI_GP0] eq "1"} { lappend pins S_AXI_GP0_ACLK; lappend intf S_AXI_GP0 }
        foreach hp {0 1 2 3} {
            if {[ps_config PCW_USE_S_AXI_HP$hp] eq "1"} {
                set hpw [ps_config PCW_S_AXI_HP${hp}_DATA_WIDTH]
                if {$hpw ne "" && $hpw ni {32 64}} { error "processing_system7_0: PCW_S_AXI_HP${hp}_DATA_WIDTH is 32 or 64, not '$hpw'" }
                lappend pins S_AXI_HP${hp}_ACLK; lappend intf S_AXI_HP$hp
            }
        }
        if {[ps_config PCW_USE_FABRIC_INTERRUPT] eq "1" && [ps_config PCW_IRQ_F2P_INTR] eq "1"} { lappend pins IRQ_F2P }
        return [list pins $pins intf $intf]
    }
    if {[string match *zynq_ultra_ps_e* $kind]} {
        set pins {}
        set intf {}
        if {[psu_config PSU__FPGA_PL0_ENABLE] eq "1"} { lappend pins pl_clk0 }
        if {[psu_config PSU__USE__FABRIC__RST] eq "1" && [psu_config PSU__NUM_FABRIC_RESETS] >= 1} { lappend pins pl_resetn0 }
        foreach {n m} $::standin::maxigp {
            if {[psu_config PSU__USE__M_AXI_GP$n] eq "1"} { lappend pins [lindex $m 1]; lappend intf [lindex $m 0] }
        }
        foreach {n s} $::standin::saxigp {
            if {[psu_config PSU__USE__S_AXI_GP$n] eq "1"} { lappend pins [lindex $s 1]; lappend intf [lindex $s 0] }
        }
        if {[psu_config PSU__USE__IRQ0] eq "1"} { lappend pins pl_ps_irq0 }
        return [list pins $pins intf $intf]
    }
    if {[string match *proc_sys_reset* $kind]} {
        return [list pins {slowest_sync_clk ext_reset_in aux_reset_in mb_debug_sys_rst dcm_locked mb_reset bus_struct_reset peripheral_reset interconnect_aresetn peripheral_aresetn} intf {}]
    }
    if {[string match *axi_intc* $kind]} {
        return [list pins {s_axi_aclk s_axi_aresetn intr irq} intf {s_axi}]
    }
    if {[string match *xlconcat* $kind]} {
        # In0..In<NUM_PORTS-1> (1 bit each, IN<i>_WIDTH left at 1) and dout; the IP's default is 2
        set n [getprop cell:$cell CONFIG.NUM_PORTS]; if {$n eq ""} { set n 2 }
        set pins {}
        for {set i 0} {$i < $n} {incr i} { lappend pins In$i }
        lappend pins dout
        return [list pins $pins intf {}]
    }
    if {[string match *axi_dma* $kind]} {
        # PG021, simple mode (c_include_sg 0: no M_AXI_SG, no SG interrupt ports)
        if {[getprop cell:$cell CONFIG.c_include_sg] ne "0"} { error "stand-in: $cell is modelled in simple mode only (CONFIG.c_include_sg 0)" }
        return [list pins {s_axi_lite_aclk m_axi_mm2s_aclk m_axi_s2mm_aclk axi_resetn mm2s_introut s2mm_introut} \
                     intf {S_AXI_LITE M_AXI_MM2S M_AXI_S2MM M_AXIS_MM2S S_AXIS_S2MM}]
    }
    if {[string match *smartconnect* $kind]} {
        set intf {}
        set nsi [getprop cell:$cell CONFIG.NUM_SI]; if {$nsi eq ""} { set nsi 1 }
        set nmi [getprop cell:$cell CONFIG.NUM_MI]; if {$nmi eq ""} { set nmi 1 }
        for {set i 0} {$i < $nsi} {incr i} { lappend intf [format S%02d_AXI $i] }
        for {set i 0} {$i < $nmi} {incr i} { lappend intf [format M%02d_AXI $i] }
        return [list pins {aclk aresetn} intf $intf]
    }
    if {[string match module:* $kind]} {
        set m [string range $kind 7 end]
        set ports [dict get $modules($m) ports]
        set pins {}
        set intf {}
        foreach p $ports {
            if {[regexp {^([sm]_axi|buf_axi|reg_axi)_} $p -> bus]} {
                if {$bus ni $intf} { lappend intf $bus }
            } elseif {[regexp {^(.+)_t(data|keep|last|valid|ready)$} $p -> bus]} {
                # AXI4-Stream ports (Vivado infers the interface from the suffixes)
                if {$bus ni $intf} { lappend intf $bus }
            } else {
                lappend pins $p
            }
        }
        return [list pins $pins intf $intf]
    }
    error "stand-in has no pin model for $kind"
}

proc standin::find_pins {pattern which} {
    variable cells
    set out {}
    foreach cell [array names cells] {
        foreach pin [dict get [cell_pins $cell] $which] {
            if {[string match $pattern [string range $cell 1 end]/$pin]} { lappend out "pin:$cell/$pin" }
        }
    }
    return $out
}

proc standin::read_module {path} {
    variable modules
    set fh [open $path r]; set text [read $fh]; close $fh
    foreach {all name} [regexp -all -inline {(?n)^\s*module\s+([A-Za-z_][A-Za-z0-9_$]*)} $text] {
        set ports {}
        set params {}
        set attrs [dict create]
        # ANSI header of the module: ports with their (* ... *) attributes
        # (string search, not one regexp: Tcl's non-greedy matching is slow on big files)
        set at [string first "module $name" $text]
        set end [string first ");" $text $at]
        if {$at >= 0 && $end > $at} {
            set header [string range $text $at $end]
            foreach {all p} [regexp -all -inline {parameter\s+(?:integer\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=} $header] {
                lappend params $p
            }
            set pending {}
            foreach line [split $header \n] {
                foreach {a k v} [regexp -all -inline {\(\*\s*(X_INTERFACE_\w+)\s*=\s*"([^"]*)"\s*\*\)} $line] {
                    lappend pending $k $v
                }
                if {[regexp {^\s*(input|output|inout)\s+(?:wire|reg)?\s*(?:signed\s*)?(?:\[[^\]]*\]\s*)?([A-Za-z_][A-Za-z0-9_]*)} $line -> dir port]} {
                    lappend ports $port
                    if {[llength $pending]} { dict set attrs $port $pending; set pending {} }
                }
            }
        }
        set modules($name) [dict create file $path ports $ports attrs $attrs params $params]
    }
}

# X_INTERFACE_PARAMETER of a module's port as a dict (KEY VALUE, comma separated)
proc standin::port_params {module port} {
    variable modules
    set attrs [dict get $modules($module) attrs]
    set out [dict create]
    if {![dict exists $attrs $port]} { return $out }
    foreach {k v} [dict get $attrs $port] {
        if {$k eq "X_INTERFACE_PARAMETER"} {
            foreach kv [split $v ,] {
                set kv [string trim $kv]
                dict set out [lindex $kv 0] [lrange $kv 1 end]
            }
        }
    }
    return $out
}

# ------------------------------------------------------------------ project commands

standin::cmd create_project [standin::spec flags {-force -in_memory -ip -rtl_kernel} values {-part} min 0 max 2] {
    set ::standin::project [lindex $pos 0]
    standin::setprop project:[lindex $pos 0] directory [file normalize [pwd]]
    standin::setprop project:[lindex $pos 0] board_part ""
    standin::setprop project:[lindex $pos 0] source_mgmt_mode All
    return project:[lindex $pos 0]
}
standin::cmd current_project [standin::spec min 0 max 1] {
    if {$::standin::project eq ""} { error "current_project: no open project" }
    return project:$::standin::project
}
standin::cmd current_fileset [standin::spec flags {-constrset -simset} min 0 max 1] { return fileset:sources_1 }
standin::cmd get_filesets [standin::spec flags {-regexp -nocase} values {-filter -of_objects} min 0 max 1] {
    if {[lindex $pos 0] ne "sources_1"} { error "get_filesets: the stand-in knows only sources_1, not '[lindex $pos 0]'" }
    return fileset:sources_1
}
standin::cmd set_property [standin::spec flags {} values {-dict} min 1 max 3] {
    if {[dict exists $opts -dict]} {
        if {[llength $pos] != 1} { error "set_property -dict: takes the objects only, got '$pos'" }
        set d [dict get $opts -dict]
        if {[llength $d] % 2} { error "set_property -dict: odd-length name/value list" }
        foreach obj [lindex $pos 0] { foreach {k v} $d { standin::setprop $obj $k $v } }
    } else {
        if {[llength $pos] != 3} { error "set_property: takes name value objects, got '$pos'" }
        lassign $pos name value objs
        if {$name eq "top"} {
            set known [array names ::standin::modules]
            if {$value ni $known} { error "set_property top: no module '$value' in the sources ([lsort $known])" }
        }
        foreach obj $objs { standin::setprop $obj $name $value }
    }
    return ""
}
standin::cmd get_property [standin::spec flags {-min -max} min 2 max 2] {
    lassign $pos name obj
    if {[llength $obj] != 1} { error "get_property $name: needs one object, got '$obj'" }
    return [standin::getprop $obj $name]
}
standin::cmd read_verilog [standin::spec flags {-sv} values {-library} min 1 max 1] {
    foreach f [lindex $pos 0] {
        if {![file isfile $f]} { error "read_verilog: no file '$f'" }
        lappend ::standin::files $f
        standin::read_module $f
    }
    return ""
}
standin::cmd add_files [standin::spec flags {-norecurse -scan_for_includes -force} values {-fileset -of_objects -copy_to} min 0 max 1] {
    foreach f [lindex $pos 0] {
        if {![file isfile $f]} { error "add_files: no file '$f'" }
        lappend ::standin::files $f
        standin::read_module $f
    }
    return ""
}
# UG835 read_mem: "Read one or more data files (.mem .mif .dat)"; <files>: "Data (.mem .coe .dat)
# file name(s)"; it adds them to the project, where synthesis finds a $readmemh file by name
standin::cmd read_mem [standin::spec flags {-quiet -verbose} min 1 max 1] {
    foreach f [lindex $pos 0] {
        if {![file isfile $f]} { error "read_mem: no file '$f'" }
        if {[file extension $f] ni {.mem .coe .dat .mif}} { error "read_mem: '$f' is not a .mem, .coe, .dat or .mif file" }
        lappend ::standin::files $f
        lappend ::standin::mem_files $f
    }
    return ""
}
standin::cmd update_compile_order [standin::spec values {-fileset} min 0 max 0] { return "" }
standin::cmd get_files [standin::spec flags {-regexp -nocase -compile_order -all -references} values {-filter -used_in -of_objects} min 0 max 1] {
    set pat [lindex $pos 0]
    set out {}
    foreach f $::standin::files { if {[string match *$pat [file tail $f]]} { lappend out $f } }
    return $out
}
standin::cmd get_board_parts [standin::spec flags {-regexp -nocase -latest_file_version -latest_hw_revision} values {-filter -of_objects} min 0 max 1] {
    set out {}
    if {[info exists ::env(STANDIN_BOARD_PARTS)]} {
        foreach b $::env(STANDIN_BOARD_PARTS) { if {[string match [lindex $pos 0] $b]} { lappend out $b } }
    }
    if {![llength $out] && ![dict exists $opts -quiet]} { puts "WARNING: no board parts match '[lindex $pos 0]'" }
    return $out
}

# ------------------------------------------------------------------ block-design commands

standin::cmd create_bd_design [standin::spec flags {} values {-dir -cell -bdsource -mode} min 1 max 1] {
    set d [lindex $pos 0]
    set ::standin::design $d
    set dir [file join [standin::getprop project:$::standin::project directory] $::standin::project.srcs sources_1 bd $d]
    file mkdir $dir
    set bd [file join $dir $d.bd]
    set fh [open $bd w]; close $fh
    lappend ::standin::files $bd
    return bd_design:$d
}
standin::cmd current_bd_design [standin::spec flags {} min 0 max 1] {
    set d [lindex $pos 0]
    if {$d ne "" && $d ne $::standin::design && $d ne "bd_design:$::standin::design"} { error "current_bd_design: no design '$d'" }
    return bd_design:$::standin::design
}
standin::cmd create_bd_cell [standin::spec values {-vlnv -type -reference -name} min 1 max 1] {
    if {$::standin::design eq ""} { error "create_bd_cell: no block design (create_bd_design first)" }
    set name /[lindex $pos 0]
    if {[info exists ::standin::cells($name)]} { error "create_bd_cell: a cell '$name' exists" }
    set type [expr {[dict exists $opts -type] ? [dict get $opts -type] : "ip"}]
    switch -- $type {
        ip {
            if {![dict exists $opts -vlnv]} { error "create_bd_cell -type ip: needs -vlnv" }
            set vlnv [dict get $opts -vlnv]
            if {[llength [split $vlnv :]] != 4} { error "create_bd_cell: '$vlnv' is not a VLNV (vendor:library:name:version)" }
            set ::standin::cells($name) $vlnv
            if {[string match *:zynq_ultra_ps_e:* $vlnv]} {
                # what the cell has before any setting, as far as the stand-in models it: the
                # two FPD masters on, every port 128 bits wide, PL clock 0 and one reset
                foreach {k v} {PSU__USE__M_AXI_GP0 1 PSU__USE__M_AXI_GP1 1 PSU__USE__M_AXI_GP2 0
                               PSU__FPGA_PL0_ENABLE 1 PSU__USE__FABRIC__RST 1 PSU__NUM_FABRIC_RESETS 1
                               PSU__USE__IRQ0 0 PSU__CRL_APB__PL0_REF_CTRL__FREQMHZ 100} {
                    standin::setprop cell:$name CONFIG.$k $v
                }
            }
        }
        module {
            if {![dict exists $opts -reference]} { error "create_bd_cell -type module: needs -reference" }
            set m [dict get $opts -reference]
            if {![info exists ::standin::modules($m)]} { error "create_bd_cell: Failed to resolve reference '$m': no such module in the sources" }
            if {[standin::getprop project:$::standin::project source_mgmt_mode] ne "All"} {
                error "create_bd_cell -reference $m: source_mgmt_mode is '[standin::getprop project:$::standin::project source_mgmt_mode]'; a module reference needs the hierarchy Vivado manages (All)"
            }
            set ::standin::cells($name) module:$m
        }
        default { error "create_bd_cell: -type is ip, hier or module, not '$type'" }
    }
    return cell:$name
}
foreach c {get_bd_pins get_bd_intf_pins} {
    standin::cmd $c [standin::spec flags {-regexp -hierarchical -nocase} values {-filter -of_objects} min 1 max 1] [string map [list @W@ [expr {$c eq "get_bd_pins" ? "pins" : "intf"}]] {
        set out [standin::find_pins [lindex $pos 0] @W@]
        if {![llength $out]} { puts "WARNING: [lindex $::standin::log end 0] matched nothing for '[lindex $pos 0]'" }
        return $out
    }]
}
standin::cmd connect_bd_net [standin::spec values {-design -net} min 2 max -1] {
    set pins [standin::flatten $pos]
    if {[llength $pins] < 2 || [llength $pins] != [llength $pos]} { error "connect_bd_net: needs two or more pins, each found (got '$pos')" }
    foreach p $pins { if {![string match pin:* $p]} { error "connect_bd_net: '$p' is not a pin" } }
    lappend ::standin::nets $pins
    return ""
}
standin::cmd connect_bd_intf_net [standin::spec values {-design -intf_net -boundary_type} min 2 max 2] {
    foreach p $pos { if {[llength $p] != 1 || ![string match pin:* $p]} { error "connect_bd_intf_net: '$p' is not one interface pin" } }
    lappend ::standin::intf_nets $pos
    return ""
}
standin::cmd make_bd_intf_pins_external [standin::spec values {-name} min 1 max 1] {
    if {![llength [lindex $pos 0]]} { error "make_bd_intf_pins_external: no interface pin" }
    lappend ::standin::external {*}[lindex $pos 0]
    return ""
}
standin::cmd apply_bd_automation [standin::spec values {-rule -dict -config -opts} min 1 max 1] {
    if {![dict exists $opts -rule]} { error "apply_bd_automation: needs -rule" }
    if {[dict exists $opts -config] && [llength [dict get $opts -config]] % 2} { error "apply_bd_automation -config: odd-length key/value list" }
    if {[string match *processing_system7 [dict get $opts -rule]]} { lappend ::standin::external pin:/processing_system7_0/DDR pin:/processing_system7_0/FIXED_IO }
    if {[string match *:bd_rule:zynq_ultra_ps_e [dict get $opts -rule]]} {
        set cell [lindex $pos 0]
        if {![string match cell:* $cell] || ![string match *zynq_ultra_ps_e* $::standin::cells([string range $cell 5 end])]} {
            error "apply_bd_automation -rule [dict get $opts -rule]: '$cell' is not a zynq_ultra_ps_e cell"
        }
        set cfg [expr {[dict exists $opts -config] ? [dict get $opts -config] : {}}]
        if {[dict exists $cfg apply_board_preset] && [dict get $cfg apply_board_preset] eq "1" &&
            [standin::getprop project:$::standin::project board_part] eq ""} {
            error "apply_bd_automation: apply_board_preset needs the project's board part (none is set)"
        }
    } elseif {![string match *processing_system7 [dict get $opts -rule]]} {
        error "apply_bd_automation: the stand-in knows the rules for processing_system7 and zynq_ultra_ps_e, not '[dict get $opts -rule]'"
    }
    return ""
}
standin::cmd get_bd_addr_spaces [standin::spec flags {-regexp -hierarchical -nocase} values {-filter -of_objects} min 1 max 1] {
    set p [lindex $pos 0]
    set spaces {}
    if {[info exists ::standin::cells(/processing_system7_0)] && [standin::ps_config PCW_USE_M_AXI_GP0] eq "1"} { lappend spaces processing_system7_0/Data }
    set psu [standin::psu_cell]
    if {$psu ne "" && "1" in [list [standin::psu_config PSU__USE__M_AXI_GP0] [standin::psu_config PSU__USE__M_AXI_GP1] [standin::psu_config PSU__USE__M_AXI_GP2]]} {
        lappend spaces [string range $psu 1 end]/Data
    }
    foreach cell [array names ::standin::cells] {
        foreach master {m_axi buf_axi} {
            if {[string match module:* $::standin::cells($cell)] && $master in [dict get [standin::cell_pins $cell] intf]} {
                lappend spaces [string range $cell 1 end]/$master
            }
        }
        if {[string match *axi_dma* $::standin::cells($cell)]} {
            lappend spaces [string range $cell 1 end]/Data_MM2S [string range $cell 1 end]/Data_S2MM
        }
    }
    set out {}
    foreach s $spaces { if {[string match $p $s]} { lappend out addr_space:$s } }
    return $out
}
standin::cmd get_bd_addr_segs [standin::spec flags {-regexp -hierarchical -nocase -excluded -addressed -addressing} values {-filter -of_objects} min 1 max 1] {
    set segs {}
    foreach cell [array names ::standin::cells] {
        foreach slave {s_axi reg_axi} {
            if {[string match module:* $::standin::cells($cell)] && $slave in [dict get [standin::cell_pins $cell] intf]} {
                lappend segs [string range $cell 1 end]/$slave/reg0
            }
        }
        if {[string match *axi_intc* $::standin::cells($cell)]} {
            lappend segs [string range $cell 1 end]/S_AXI/Reg
        }
        if {[string match *axi_dma* $::standin::cells($cell)]} {
            lappend segs [string range $cell 1 end]/S_AXI_LITE/Reg
        }
    }
    if {[info exists ::standin::cells(/processing_system7_0)] && [standin::ps_config PCW_USE_S_AXI_GP0] eq "1"} {
        lappend segs processing_system7_0/S_AXI_GP0/GP0_DDR_LOWOCM processing_system7_0/S_AXI_GP0/GP0_IOP \
            processing_system7_0/S_AXI_GP0/GP0_QSPI_LINEAR
        if {[standin::ps_config PCW_USE_HIGH_OCM] eq "1"} { lappend segs processing_system7_0/S_AXI_GP0/GP0_HIGH_OCM }
    }
    foreach hp {0 1 2 3} {
        if {[info exists ::standin::cells(/processing_system7_0)] && [standin::ps_config PCW_USE_S_AXI_HP$hp] eq "1"} {
            # an HP port reaches DDR and the on-chip memory (UG585 Table 4-1), not the IOP
            lappend segs processing_system7_0/S_AXI_HP$hp/HP${hp}_DDR_LOWOCM
            if {[standin::ps_config PCW_USE_HIGH_OCM] eq "1"} { lappend segs processing_system7_0/S_AXI_HP$hp/HP${hp}_HIGH_OCM }
        }
    }
    set psu [standin::psu_cell]
    if {$psu ne ""} {
        foreach {n s} $::standin::saxigp {
            if {[standin::psu_config PSU__USE__S_AXI_GP$n] eq "1"} {
                foreach what {DDR_LOW DDR_HIGH LPS_OCM QSPI} {
                    lappend segs [string range $psu 1 end]/SAXIGP$n/[lindex $s 2]_$what
                }
            }
        }
    }
    set want {}
    if {[dict exists $opts -filter]} {
        if {![regexp {^\s*NAME\s+=~\s+"?([^"]*)"?\s*$} [dict get $opts -filter] -> want]} {
            error "get_bd_addr_segs -filter: the stand-in understands only NAME =~ \"pattern\", not '[dict get $opts -filter]'"
        }
    }
    set out {}
    foreach s $segs {
        if {[string match [lindex $pos 0] $s] && ($want eq "" || [string match $want [file tail $s]])} { lappend out addr_seg:$s }
    }
    return $out
}
standin::cmd assign_bd_address [standin::spec flags {-force -boundary -export_to_file -export_gui_to_file} values {-offset -range -target_address_space -import_from_file -dict} min 0 max 1] {
    set segs [lindex $pos 0]
    if {![llength $segs]} { error "assign_bd_address: no address segment to assign (an empty list)" }
    if {![dict exists $opts -target_address_space] || [llength [dict get $opts -target_address_space]] != 1} {
        error "assign_bd_address: -target_address_space needs one address space"
    }
    set space [string range [dict get $opts -target_address_space] 11 end]
    foreach s $segs {
        set seg [string range $s 9 end]
        if {[string match *GP0_HIGH_OCM $seg]} {
            set off 0xFFFC0000; set rng 0x00040000
        } elseif {[string match *GP0_DDR_LOWOCM $seg]} {
            set off 0x00000000; set rng 0x40000000
        } elseif {[string match *HP?_DDR_LOWOCM $seg]} {
            # the PYNQ-Z1's 512 MiB of DDR, as PYNQ's own base-overlay .hwh lists HP0_DDR_LOWOCM
            set off 0x00000000; set rng 0x20000000
        } elseif {[string match *HP?_HIGH_OCM $seg]} {
            set off 0xFFFC0000; set rng 0x00040000
        } elseif {[regexp {/SAXIGP\d/[A-Z0-9]+_(DDR_LOW|DDR_HIGH|LPS_OCM|QSPI)$} $seg -> what]} {
            # zynq_ultra_ps_e's segments as PYNQ's ZCU104 and Kria-PYNQ's KV260 base.tcl assign them
            set off [dict get {DDR_LOW 0x00000000 DDR_HIGH 0x800000000 LPS_OCM 0xFF000000 QSPI 0xC0000000} $what]
            set rng [dict get {DDR_LOW 0x80000000 DDR_HIGH 0x800000000 LPS_OCM 0x01000000 QSPI 0x20000000} $what]
        } else {
            set off [expr {[dict exists $opts -offset] ? [dict get $opts -offset] : ""}]
            set rng [expr {[dict exists $opts -range] ? [dict get $opts -range] : ""}]
            if {$off eq "" || $rng eq ""} { error "assign_bd_address $seg: the stand-in needs -offset and -range for a PL segment" }
            if {$rng < 4096 || ($rng & ($rng - 1))} { error "assign_bd_address $seg: range $rng is not a power of two >= 4K" }
            if {$off % $rng} { error "assign_bd_address $seg: offset $off is not aligned to its range $rng" }
            if {$space eq "processing_system7_0/Data" && ($off < 0x40000000 || $off + $rng > 0x80000000)} {
                error "assign_bd_address $seg: $off+$rng is outside M_AXI_GP0's 0x40000000..0x7FFFFFFF"
            }
            if {[string match *zynq_ultra_ps_e*/Data $space]} {
                set inside 0
                set reach {}
                foreach {n m} $::standin::maxigp {
                    if {[standin::psu_config PSU__USE__M_AXI_GP$n] eq "1"} {
                        lappend reach "[lindex $m 0] [lindex $m 2]..[lindex $m 3]"
                        if {$off >= [lindex $m 2] && $off + $rng <= [lindex $m 3]} { set inside 1 }
                    }
                }
                if {!$inside} { error "assign_bd_address $seg: $off+$rng is outside what the enabled masters reach ([join $reach {, }])" }
            }
        }
        lappend ::standin::assigned [list $space $seg [format 0x%08X $off] [format 0x%08X $rng]]
    }
    return ""
}
standin::cmd validate_bd_design [standin::spec flags {-force -include_ooc} values {-design} min 0 max 0] {
    # what Vivado's validation would refuse, as far as this model knows it
    set connected [standin::flatten $::standin::nets]
    set iconnected [standin::flatten [standin::flatten $::standin::intf_nets]]
    foreach cell [array names ::standin::cells] {
        set pins [standin::cell_pins $cell]
        if {[string match module:* $::standin::cells($cell)]} {
            set m [string range $::standin::cells($cell) 7 end]
            foreach p [dict get $pins pins] { if {"pin:$cell/$p" ni $connected} { error "validate_bd_design: $cell/$p is not connected" } }
            foreach b [dict get $pins intf] { if {"pin:$cell/$b" ni $iconnected} { error "validate_bd_design: interface $cell/$b is not connected" } }
            set clk [standin::port_params $m clk]
            if {[standin::psu_cell] ne ""} {
                set want [expr {round([standin::psu_config PSU__CRL_APB__PL0_REF_CTRL__FREQMHZ] * 1e6)}]
                set clkname pl_clk0
            } else {
                set want [expr {round([standin::ps_config PCW_FPGA0_PERIPHERAL_FREQMHZ] * 1e6)}]
                set clkname FCLK_CLK0
            }
            if {![dict exists $clk FREQ_HZ] || [dict get $clk FREQ_HZ] != $want} {
                error "validate_bd_design: FREQ_HZ of $cell/clk ([expr {[dict exists $clk FREQ_HZ] ? [dict get $clk FREQ_HZ] : "unset, default 100000000"}]) differs from $clkname ($want)"
            }
            if {![dict exists $clk ASSOCIATED_BUSIF] || [lsort [split [dict get $clk ASSOCIATED_BUSIF] :]] ne [lsort [dict get $pins intf]]} {
                error "validate_bd_design: $cell/clk is not associated with every AXI interface ([dict get $pins intf])"
            }
            foreach net $::standin::nets {
                if {"pin:$cell/rst" in $net} {
                    set rst [standin::port_params $m rst]
                    set pol [expr {[dict exists $rst POLARITY] ? [dict get $rst POLARITY] : "ACTIVE_LOW"}]
                    if {"pin:/rst_fclk0/peripheral_reset" in $net && $pol ne "ACTIVE_HIGH"} {
                        error "validate_bd_design: $cell/rst is $pol but driven by peripheral_reset (active high)"
                    }
                }
            }
        }
    }
    foreach cell [array names ::standin::cells] {
        # an interrupt path with a loose end: every concat input and output, the
        # controller's intr and irq connected (Vivado ties a loose concat input to 0)
        set kind $::standin::cells($cell)
        set must {}
        if {[string match *xlconcat* $kind]} { set must [dict get [standin::cell_pins $cell] pins] }
        if {[string match *axi_intc* $kind]} { set must {intr irq} }
        foreach p $must { if {"pin:$cell/$p" ni $connected} { error "validate_bd_design: $cell/$p is not connected" } }
    }
    set psu [standin::psu_cell]
    if {$psu ne ""} {
        # every PS port clock pin driven by pl_clk0 (all of the design runs on it)
        set clocked {}
        foreach net $::standin::nets { if {"pin:$psu/pl_clk0" in $net} { lappend clocked {*}$net } }
        foreach p [dict get [standin::cell_pins $psu] pins] {
            if {[string match *aclk $p] && "pin:$psu/$p" ni $clocked} {
                error "validate_bd_design: $psu/$p is not connected to a valid clock source (pl_clk0 drives: [lsort -unique $clocked])"
            }
        }
        foreach {n m} $::standin::maxigp {
            if {[standin::psu_config PSU__USE__M_AXI_GP$n] eq "1" && "pin:$psu/[lindex $m 0]" ni $iconnected} {
                error "validate_bd_design: interface $psu/[lindex $m 0] is on but not connected"
            }
        }
    }
    set ::standin::validated 1
    return ""
}
standin::cmd save_bd_design [standin::spec min 0 max 1] { return "" }
standin::cmd make_wrapper [standin::spec flags {-top -testbench -inst_template -import -force} values {-files -fileset} min 0 max 0] {
    if {![dict exists $opts -files] || ![llength [dict get $opts -files]]} { error "make_wrapper: needs -files <the .bd>" }
    if {!$::standin::validated} { error "make_wrapper: the block design was not validated" }
    set d $::standin::design
    set dir [file join [standin::getprop project:$::standin::project directory] $::standin::project.gen sources_1 bd $d hdl]
    file mkdir $dir
    set w [file join $dir ${d}_wrapper.v]
    set fh [open $w w]
    puts $fh "// stand-in for Vivado's wrapper\nmodule ${d}_wrapper (\n    inout wire \[14:0\] DDR_addr\n);\nendmodule"
    close $fh
    return $w
}

# ------------------------------------------------------------------ anything else is an error

rename unknown standin::tcl_unknown
proc unknown {args} {
    error "unknown Vivado command '[lindex $args 0]' (not in the stand-in set: tests/board/vivado_standin.tcl)"
}

proc standin::finish {code} {
    if {[info exists ::env(STANDIN_LOG)]} {
        set fh [open $::env(STANDIN_LOG) w]
        foreach entry $::standin::log { puts $fh [list {*}$entry] }
        puts $fh [list =assigned {*}$::standin::assigned]
        puts $fh [list =external {*}$::standin::external]
        puts $fh [list =top [standin::getprop fileset:sources_1 top]]
        puts $fh [list =mem {*}$::standin::mem_files]
        puts $fh [list =source_mgmt_mode [standin::getprop project:$::standin::project source_mgmt_mode]]
        close $fh
    }
    exit $code
}

set script [lindex $argv 0]
if {[llength $argv] > 1} { cd [lindex $argv 1] }
if {[catch {uplevel #0 [list source $script]} msg]} {
    puts stderr "stand-in: $msg"
    puts stderr "  while running: [lindex $::standin::log end]"
    standin::finish 1
}
standin::finish 0
