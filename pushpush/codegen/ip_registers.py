"""Register maps of the Xilinx IP that a generated block design holds, as a ``.hwh`` lists
them (``<ADDRESSBLOCK ... USAGE="register"><REGISTERS>``), so that PYNQ's
``ol.axi_dma_0.register_map`` and ``ol.axi_intc_0.register_map`` work on the simulated
board as they do with Vivado's ``.hwh``.

* AXI DMA 7.1 (PG021, "Register Space"): the register names, offsets, reset values, enables
  and fields as Vivado writes them for a DMA without scatter-gather in ``resizer.hwh``
  (tests/pynq/hwhs/README.md); the scatter-gather registers are listed but not enabled.
* AXI interrupt controller 4.1 (PG099, "Register Space"): from the product guide only (no
  Vivado ``.hwh`` with an ``axi_intc`` was at hand to compare with); ISR..ILR, each
  interrupt register one field as wide as the controller's inputs.

Example::

    from pushpush.codegen.ip_registers import DMA_REGISTERS, intc_registers
    [r.name for r in intc_registers(3)][:3]     # ['ISR', 'IPR', 'IER']
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Field", "Register", "DMA_REGISTERS", "intc_registers", "trace_registers"]

RW, RO, WO = "read-write", "read-only", "write-only"


@dataclass(frozen=True)
class Field:
    """A bit field: name, lowest bit, width in bits, access."""

    name: str
    bit_offset: int
    bit_width: int
    access: str = RW


@dataclass(frozen=True)
class Register:
    """A 32-bit register: name, byte offset, access, reset value, whether the configured IP
    has it (``IS_ENABLED``), a one-line description, fields."""

    name: str
    offset: int
    access: str
    reset: int
    enabled: bool
    description: str
    fields: tuple[Field, ...]
    size: int = 32


def _dmacr(ch: str) -> Register:
    return Register(f"{ch}_DMACR", 0x00 if ch == "MM2S" else 0x30, RW, 0x10002, True,
                    f"{ch} DMA Control Register", (
                        Field("RS", 0, 1), Field("Reset", 2, 1), Field("Keyhole", 3, 1),
                        Field("Cyclic_BD_Enable", 4, 1), Field("IOC_IrqEn", 12, 1),
                        Field("Dly_IrqEn", 13, 1), Field("Err_IrqEn", 14, 1),
                        Field("IRQThreshold", 16, 8), Field("IRQDelay", 24, 8)))


def _dmasr(ch: str) -> Register:
    return Register(f"{ch}_DMASR", 0x04 if ch == "MM2S" else 0x34, RW, 0x10000, True,
                    f"{ch} DMA Status Register", (
                        Field("Halted", 0, 1, RO), Field("Idle", 1, 1, RO),
                        Field("SGIncld", 3, 1, RO), Field("DMAIntErr", 4, 1, RO),
                        Field("DMASlvErr", 5, 1, RO), Field("DMADecErr", 6, 1, RO),
                        Field("SGIntErr", 8, 1, RO), Field("SGSlvErr", 9, 1, RO),
                        Field("SGDecErr", 10, 1, RO), Field("IOC_Irq", 12, 1),
                        Field("Dly_Irq", 13, 1), Field("Err_Irq", 14, 1),
                        Field("IRQThresholdSts", 16, 8, RO), Field("IRQDelaySts", 24, 8, RO)))


def _sg(ch: str, base: int) -> tuple[Register, ...]:
    cur, tail = "Current_Descriptor_Pointer", "Tail_Descriptor_Pointer"
    return (
        Register(f"{ch}_CURDESC", base, RW, 0, False, f"{ch} Current Descriptor Pointer",
                 (Field(cur, 6, 26),)),
        Register(f"{ch}_CURDESC_MSB", base + 4, RW, 0, False,
                 f"{ch} Current Descriptor Pointer, upper 32 bits", (Field(cur, 0, 32),)),
        Register(f"{ch}_TAILDESC", base + 8, RW, 0, False, f"{ch} Tail Descriptor Pointer",
                 (Field(tail, 6, 26),)),
        Register(f"{ch}_TAILDESC_MSB", base + 12, RW, 0, False,
                 f"{ch} Tail Descriptor Pointer, upper 32 bits", (Field(tail, 0, 32),)),
    )


#: The AXI DMA's registers in offset order (PG021; names and fields as in Vivado's .hwh).
DMA_REGISTERS: tuple[Register, ...] = (
    _dmacr("MM2S"), _dmasr("MM2S"), *_sg("MM2S", 0x08),
    Register("MM2S_SA", 0x18, RW, 0, True, "MM2S Source Address", (Field("Source_Address", 0, 32),)),
    Register("MM2S_SA_MSB", 0x1C, RW, 0, True, "MM2S Source Address, upper 32 bits",
             (Field("Source_Address", 0, 32),)),
    Register("MM2S_LENGTH", 0x28, RW, 0, True, "MM2S Transfer Length (bytes)",
             (Field("Length", 0, 26),)),
    Register("SG_CTL", 0x2C, RW, 0x03, False, "Scatter/Gather User and Cache",
             (Field("SG_CACHE", 0, 4), Field("SG_USER", 8, 4))),
    _dmacr("S2MM"), _dmasr("S2MM"), *_sg("S2MM", 0x38),
    Register("S2MM_DA", 0x48, RW, 0, True, "S2MM Destination Address",
             (Field("Destination_Address", 0, 32),)),
    Register("S2MM_DA_MSB", 0x4C, RW, 0, True, "S2MM Destination Address, upper 32 bits",
             (Field("Destination_Address", 0, 32),)),
    Register("S2MM_LENGTH", 0x58, RW, 0, True, "S2MM Buffer Length (bytes)",
             (Field("Length", 0, 26),)),
)


def intc_registers(inputs: int) -> tuple[Register, ...]:
    """The AXI interrupt controller's registers (PG099) for ``inputs`` interrupt inputs."""
    if not 1 <= inputs <= 32:
        raise ValueError(f"an axi_intc has 1..32 inputs, not {inputs}")

    def bits(name: str, off: int, access: str, desc: str) -> Register:
        return Register(name, off, access, 0, True, desc, (Field("INT", 0, inputs, access),))

    return (
        bits("ISR", 0x00, RW, "Interrupt Status Register"),
        bits("IPR", 0x04, RO, "Interrupt Pending Register"),
        bits("IER", 0x08, RW, "Interrupt Enable Register"),
        bits("IAR", 0x0C, WO, "Interrupt Acknowledge Register"),
        bits("SIE", 0x10, WO, "Set Interrupt Enables"),
        bits("CIE", 0x14, WO, "Clear Interrupt Enables"),
        Register("IVR", 0x18, RO, 0xFFFFFFFF, True, "Interrupt Vector Register",
                 (Field("Interrupt_Vector_Number", 0, 32, RO),)),
        Register("MER", 0x1C, RW, 0, True, "Master Enable Register",
                 (Field("ME", 0, 1), Field("HIE", 1, 1))),
        bits("IMR", 0x20, RW, "Interrupt Mode Register"),
        Register("ILR", 0x24, RW, 0xFFFFFFFF, False, "Interrupt Level Register (nested "
                 "interrupts only)", (Field("Interrupt_Level", 0, 32),)),
    )


def trace_registers(page_offset: int) -> tuple[Register, ...]:
    """The PL trace buffer's registers (cores/trace/README.md) as the system top's register
    map lists them: at ``page_offset`` (its page's offset in the top's address block) plus
    their offset in the page, named ``TRACE_*``."""
    at = page_offset
    return (
        Register("TRACE_CONTROL", at + 0x00, RW, 0, True, "PL trace buffer control",
                 (Field("enable", 0, 1), Field("clear", 1, 1, WO))),
        Register("TRACE_INFO", at + 0x04, RO, 0, True, "PL trace buffer info",
                 (Field("depth_log2", 0, 8, RO), Field("events", 8, 8, RO),
                  Field("magic", 16, 16, RO))),
        Register("TRACE_WP", at + 0x08, RO, 0, True, "Records written since the clear",
                 (Field("wp", 0, 32, RO),)),
        Register("TRACE_RP", at + 0x0C, RW, 0, True, "Records consumed by software",
                 (Field("rp", 0, 32),)),
        Register("TRACE_OVERFLOW", at + 0x10, RO, 0, True, "Records dropped (ring full)",
                 (Field("overflow", 0, 32, RO),)),
        Register("TRACE_CYCLES_LO", at + 0x18, RO, 0, True, "Cycle counter, low word",
                 (Field("cycles_lo", 0, 32, RO),)),
        Register("TRACE_CYCLES_HI", at + 0x1C, RO, 0, True, "Cycle counter, high word",
                 (Field("cycles_hi", 0, 32, RO),)),
    )
