"""``python -m gridwidgets play NAME``: terminal play of any registered game."""

import sys

from .cli import main

sys.exit(main())
