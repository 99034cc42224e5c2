"""Thin shells over the stages: the `docgen` command line (`cli`, its longer help texts in
`help_texts`, `commands`, and `probing` for `docgen probe`, with `probing_routes` for an HTTP API's
examples) and the MkDocs plugin (`plugin`, with
`changelog`: the errors catalogs' histories from git, read at site build, `site_pages`: the pages as the
built site shows them, and `site_build`: those pages and the catalog JSON published beside them, which the
plugin adds during a build and `docgen publish` writes into a site built by an engine without plugins;
`site_html`, with `markdown_config` and `search_text`: the errors' changelog put into such a site's built
pages and search index).

May import: every other subpackage; nothing imports a shell.
"""
