"""The render stage: catalogs, notes and templates become the generated regions of pages; text in, text out.

Owns: region markers (`regions`), the renderer (`renderer`), what each template sees (`context`,
`evidence_context`), and the template filters (`filters`). Nothing here writes a file.

May import: `generator.core`.
"""
