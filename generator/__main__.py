"""`python -m generator` runs the docgen command."""

import sys

from generator.shell.cli import main

sys.exit(main())
