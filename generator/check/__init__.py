"""The check stage: extract and render in memory, compare with the loaded project, and report findings.

Owns: catalog drift (`drift`), notes against their catalog (`notes`), values set at run time against what the
notes state of them (`run_time_values`), pages against what render writes and what they cite (`pages`),
Last-verified stamps (`stamps`), links (`links`), what a site build of mkdocs.yml would run (`build_config`),
what check asks of a catalog kind (`kind_stage`), and the whole check (`run`). Nothing here reads or writes a
file.

May import: `generator.core`, `generator.templating`, `generator.examples`, `generator.extract`,
`generator.render`.
"""
