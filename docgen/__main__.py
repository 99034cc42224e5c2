"""`python -m docgen` runs the docgen command."""

from docgen.shell.cli import run

run()
