"""The check stage: extract and render in memory, compare with the loaded project, and report findings.

Owns: notes against their catalog (`notes`), pages against what render writes and what they cite (`pages`),
Last-verified stamps (`stamps`), links (`links`), what a site build of mkdocs.yml would run (`build_config`),
what check asks of a catalog kind and the command that clears drift (`kind_stage`), and the whole check
(`run`); each kind's own drift is in its package (`docgen/kinds/<kind>/`). Nothing here reads or writes a
file.

May import: `docgen.core`, `docgen.templating`, `docgen.examples`, `docgen.extract`,
`docgen.render`.
"""
