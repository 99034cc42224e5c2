"""The built-in catalog kinds, one subpackage each: `errors`, `tools`, `routes`.

Each subpackage's `KIND` is what `generator/core/kinds.py` finds by the `kind:` of a catalog's configuration;
it gives the kind's configuration keys and their checks, its typed model, and what each stage asks of it
(`extract/kind_stage.py`, `check/kind_stage.py`, `render/kind_stage.py`). A subpackage's `kind` module imports
only core, and each stage's part on first use, so that reading the settings does not import every stage.

May import: every stage package (`core`, `templating`, `examples`, `extract`, `render`, `check`); nothing
imports it but by the registry's dotted paths.
"""
