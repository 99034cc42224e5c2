"""The built-in catalog kinds, one subpackage each: `errors`, `tools`, `routes`.

Each subpackage's `KIND` is what `docgen/core/kinds.py` finds (through `BUILT_IN` below) by the `kind:`
of a catalog's configuration; it gives the kind's configuration keys and their checks, its typed model, and
what each stage asks of it (`extract/kind_stage.py`, `check/kind_stage.py`, `render/kind_stage.py`). A
subpackage's `kind` module imports only core, and each stage's part on first use, so that reading the
settings does not import every stage. `coverage` counts what extract read in full of an errors or routes
catalog, for the line `docgen extract` ends each with; `notes_notices` says what their notes lack.

May import: every stage package (`core`, `templating`, `examples`, `extract`, `render`, `check`); nothing
imports it but by the registry's dotted paths.
"""

BUILT_IN = {
    "errors": "docgen.kinds.errors:KIND",
    "tools": "docgen.kinds.tools:KIND",
    "routes": "docgen.kinds.routes:KIND",
}
"""The kinds docgen ships: name -> `module:attribute` of each `KIND`, read by `core.kinds.KINDS` without
importing a kind, so that an editable checkout (whose entry points may be stale) works as an installed one."""
