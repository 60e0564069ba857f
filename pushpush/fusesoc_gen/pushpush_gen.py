"""FuseSoC's entry to the generator 'pushpush' (pushpush_gen.core): ``python3 pushpush_gen.py
<input.yml>``, run by FuseSoC in the generator's folder. The work is done by
:func:`pushpush.fusesoc_gen.main`."""

import sys
from pathlib import Path

try:
    from pushpush.fusesoc_gen import main
except ImportError:
    # python3 on PATH may lack pushpush on its path while this file sits inside the
    # installed package: try the package this script belongs to
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    try:
        from pushpush.fusesoc_gen import main
    except ImportError as e:
        sys.stderr.write(
            f"pushpush generator: {sys.executable} (python3 on PATH) cannot import pushpush "
            f"({e}); run fusesoc from the environment pushpush is installed in "
            f"(pip install pushpush-fpga, or activate its virtualenv)\n")
        sys.exit(2)

sys.exit(main(sys.argv[1:]))
