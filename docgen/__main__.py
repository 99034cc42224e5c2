"""`python -m docgen` runs the docgen command."""

from docgen.shell.console import run

run()
