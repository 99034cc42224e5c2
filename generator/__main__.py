"""`python -m generator` runs the docgen command."""

import sys

from generator.cli import main

sys.exit(main())
