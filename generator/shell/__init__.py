"""Thin shells over the stages: the `docgen` command line (`cli`, its longer help texts in
`help_texts`, `commands`, and `probing` for `docgen probe`) and the MkDocs plugin.

May import: every other subpackage; nothing imports a shell.
"""
