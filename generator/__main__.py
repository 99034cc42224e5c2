"""`python -m generator` runs the docgen command."""

from generator.shell.cli import run

run()
