"""``python -m pushpush``: the same as the ``pushpush`` command."""

import sys

from pushpush.cli import main

sys.exit(main())
