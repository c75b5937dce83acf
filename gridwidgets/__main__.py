"""``python -m gridwidgets play gridlock``: terminal play."""

import sys

from .cli import main

sys.exit(main())
