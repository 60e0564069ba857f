"""A PYNQ notebook for the 'hls_mac' overlay (an HLS AXI-Lite accelerator), exactly as it
would run on a PYNQ-Z1 next to hls_mac.bit and hls_mac.hwh: no pushpush import, no
simulation switch. tests/pynq/test_foreign.py runs it unchanged on the simulated board."""
from pynq import MMIO, Overlay

ol = Overlay("hls_mac.bit")
assert "mac_0" in ol.ip_dict, ol.ip_dict.keys()
assert ol.ip_dict["mac_0"]["phys_addr"] == 0x40000000

mac = ol.mac_0
rm = mac.register_map
rm.a = 6
rm.b = 7
rm.c = 8
rm.CTRL.AP_START = 1
for _ in range(1000):
    ctrl = mac.read(0x00)
    if ctrl & 0x2:              # ap_done (cleared on read)
        break
else:
    raise AssertionError("mac never finished")
assert int(rm.ap_return) == 6 * 7 + 8, rm.ap_return
assert rm.CTRL.AP_IDLE == 1

# the same accelerator through MMIO at its .hwh address, as older notebooks do
m = MMIO(0x40000000, 0x10000)
for a, b, c in [(1, 2, 3), (1000, 1000, -1), (-5, 9, 100)]:
    m.write(0x18, a & 0xFFFFFFFF)
    m.write(0x20, b & 0xFFFFFFFF)
    m.write(0x28, c & 0xFFFFFFFF)
    m.write(0x00, 1)
    while not m.read(0x00) & 0x2:
        pass
    got = m.read(0x10)
    assert got == (a * b + c) & 0xFFFFFFFF, (a, b, c, got)
assert m.read(0x18) == (-5) & 0xFFFFFFFF
print("hls_mac: ok", got)
ol.free()
