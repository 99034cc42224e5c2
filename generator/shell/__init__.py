"""Thin shells over the stages: the `docgen` command line (`cli`, its longer help texts in
`help_texts`, `commands`, and `probing` for `docgen probe`) and the MkDocs plugin (`plugin`, with
`changelog`: the errors catalogs' histories from git, read at site build, and `site_pages`: the pages as the
built site shows them).

May import: every other subpackage; nothing imports a shell.
"""
