"""``python3 -m pushpush.fusesoc_gen --cores-root``: print the generator's cores root."""

import sys

from pushpush.fusesoc_gen import main

sys.exit(main())
