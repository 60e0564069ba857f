"""A PYNQ notebook for the 'irq_mac' overlay (the HLS accelerator 'mac' with its ap_done
interrupt through an axi_intc, and an AXI GPIO for LEDs and buttons), exactly as it would
run on a PYNQ-Z1 next to irq_mac.bit and irq_mac.hwh: no pushpush import.
tests/pynq/test_foreign.py runs it unchanged on the simulated board."""
import asyncio

from pynq import Overlay

ol = Overlay("irq_mac.bit")
mac = ol.mac_0
assert "interrupt" in ol.ip_dict["mac_0"]["interrupts"]
mac.write(0x04, 1)          # GIER
mac.write(0x08, 1)          # IP_IER: ap_done


async def run(a: int, b: int, c: int) -> int:
    mac.write(0x18, a)
    mac.write(0x20, b)
    mac.write(0x28, c)
    mac.write(0x00, 1)      # ap_start
    await mac.interrupt.wait()
    mac.write(0x0C, 1)      # IP_ISR: clear ap_done (toggle on write)
    return mac.read(0x10)


async def main() -> list[int]:
    out = []
    for a, b, c in [(2, 3, 4), (10, 10, 10), (123, 456, 789)]:
        out.append(await asyncio.wait_for(run(a, b, c), timeout=60))
    return out

assert asyncio.run(main()) == [10, 110, 123 * 456 + 789]
assert mac.read(0x0C) == 0

leds = ol.axi_gpio_0.channel1
btns = ol.axi_gpio_0.channel2
leds.write(0xA, 0xF)
assert leds.read() == 0xA, leds.read()
leds[0].on()
assert leds.read() == 0xB
assert btns.read() == 0     # board pins: not driven on the simulated board
print("irq_mac: ok")
ol.free()
