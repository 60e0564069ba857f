// The HLS function of examples/hls_callback: apply(f, x) = f(x) + 1, calling back the
// function value f it is passed (a Python function, or the Verilog export driver.g).
// Plain HLS C++ around pushpush's generated worker_pp.hpp: pp::fn<int(int)> stands for
// std::function<int(int)>; calling it makes a PushPush call through the m_axi port.
#include "worker_pp.hpp"

int apply(pp::fn<int(int)> f, int x)
{
    int y = f(x);
    if (pp::failed())  // the callback failed: apply answers CALLEE_RAISED
        return 0;
    return y + 1;
}
