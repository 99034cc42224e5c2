"""What every stage shares: settings, errors, YAML, schemas, the loaded project, typed models, findings.

Owns: the configuration (`settings`), the exception tree (`errors`), YAML in and out with the line of every
key (`yamlio`, `yamlnodes`), the JSON Schemas and checking a file against one (`schemas`, `schema_check`),
the loaded project and the one loader (`project`), the typed values: catalogs (`models`, written and read by
`catalog`), notes (`notes`), probe evidence (`evidence`), the specification's classification (`spec`),
example requests (`examples`), pages and their front matter (`pages`), cited symbols and their fingerprints
(`symbols`); findings as values (`findings`), the one writer (`writer`), and compiled templates
(`template_cache`).

May import: the standard library and third-party libraries only; never another docgen subpackage.
"""
