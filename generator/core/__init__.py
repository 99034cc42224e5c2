"""What every stage shares: settings, errors, YAML, schemas, the writer, findings, and what the data means.

Owns: the configuration (`settings`), the exception tree (`errors`), YAML in and out (`yamlio`,
`yamlnodes`), schema checks (`schema_check`, `catalog.validate`), the one writer (`writer`), findings as
values (`findings`), and the pure logic over the committed data that several stages read: catalogs and notes
(`catalog`), pages and their front matter (`pages`), example requests (`examples`), probe evidence
(`evidence`), the specification's classification (`spec`), cited symbols and their fingerprints (`symbols`),
compiled templates (`template_cache`), the bounded Jinja sandbox every template and note renders in
(`sandbox`, `render_budget`), and the limits every input is held to (`limits`).

May import: the standard library and third-party libraries only; never another docgen subpackage.
"""
