"""The errors catalog kind: every error a server's configured functions can answer with, read from the calls
of its error constructors.

`kind` is the adapter the registry finds; `catalog` builds the catalog from the sites extract finds;
`check`, `render` (its views) and `regions` (the regions only it fills) are its parts in those stages, and the
findings only errors catalogs have live here too: the
catalog's drift, entry by entry (`drift`), examples and probe evidence (`evidence`), conformance with the
specification the notes name (`spec`), values set at run time against what the notes state of them
(`run_time_values`), contract changes since a base ref (`contract`), and how each error changed in the
catalog's git history, for the changelog region and the published JSON (`changelog`).
"""

from docgen.kinds.errors.kind import KIND as KIND
