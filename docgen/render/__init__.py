"""The render stage: catalogs, notes and templates become the generated regions of pages; text in, text out.

Owns: region markers (`regions`), what rendering works from (`inputs`), the Jinja environment over the
project's templates (`environment`), what each template sees (`context`, `evidence_context`; a catalog as
its kind shows and publishes it, and the regions it owns: `kind_stage`; each published error's URL,
`entry_urls`), the template filters (`filters`), and the renderer (`renderer`). Nothing here reads or writes
a file.

May import: `docgen.core`, `docgen.templating`, `docgen.examples`.
"""
