"""``python -m surfflow ...``: the same command line as the ``surfflow`` script."""

import sys

from .cli import main

sys.exit(main())
