"""Thin shells over the stages: the `docgen` command line (`cli`, `commands`) and the MkDocs plugin.

May import: every other subpackage; nothing imports a shell.
"""
