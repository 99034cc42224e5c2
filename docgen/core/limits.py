"""The bounds every input is held to, so that nothing a pull request can change exhausts the machine.

A pull request controls the notes, the examples, the templates, the pages, every YAML file and the source
constants docgen folds. Each can be made to ask for unbounded work (a loop of ten billion steps, a string of
ten gigabytes, a YAML alias bomb, a `.py` file that is a link to `/dev/zero`), so each is measured against
one of these limits before the work is done, and going past one is a located error (exit 3), never a hang, a
MemoryError or a traceback. They are fixed on purpose: a setting a pull request could raise would bound
nothing. Every figure is far above what a real project needs (README.md, "On an untrusted pull request").
"""

from __future__ import annotations

MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest file docgen reads (YAML, pages, templates, source and cited files). Only regular files are
read: a device, a pipe or a folder where a file is expected is refused before it is opened for reading."""

YAML_MAX_DEPTH = 100
"""How deeply mappings and lists may nest in any YAML document docgen reads."""

YAML_MAX_NODES = 100_000
"""How many values mkdocs.yml may expand to once its aliases are followed. docgen's own YAML files (notes,
catalogs, evidence, specifications, front matter) may use no anchors or aliases at all."""

MAX_INT_BITS = 4096
"""The largest integer (in bits) that constant folding in extract, or arithmetic in a template, may make."""

MAX_FOLDED_ITEMS = 100_000
"""The longest string or tuple constant folding may make (`'x' * n`)."""

TEMPLATE_MAX_TEXT = 4_000_000
"""The longest string or list one step of a template may make, and the longest text one render may return."""

TEMPLATE_MAX_WORK = 10_000_000
"""The work one render may do: one unit per loop iteration, call, filter or operator, plus one per character
or item that a step builds or reads through."""

TEMPLATE_MAX_RANGE = 100_000
"""The most numbers one `range()` in a template may give."""

TEMPLATE_MAX_SECONDS = 10.0
"""A render that runs longer than this is stopped at its next step, whatever its work count says."""

EXAMPLE_MAX_BYTES = 16 * 1024 * 1024
"""The largest request body an example may describe (`size:`)."""

EXAMPLE_MAX_REPEAT = 100_000
"""The most times an example may ask to be sent (`repeat:`)."""

MAX_ROUTER_DEPTH = 20
"""How many `include_router` calls deep extract follows routers below an application."""

MAX_CALL_DEPTH = 12
"""How many calls deep extract follows a function into the functions of the loaded source it calls: an errors
catalog's configured function into its helpers, an operation's function and dependencies to the raises they
reach, an `except` handler's `try` body to where what it catches is raised (`docgen/extract/walk.py`)."""

MAX_CALL_VISITS = 50_000
"""How many function bodies one such walk may enter in all (one errors catalog, one operation, one `try`):
a bound on the work a fan of functions calling each other can ask for where each path is walked."""

MAX_JSON_INT_DIGITS = 1_234
"""The longest integer (in decimal digits, as many as 2**4096 has) a committed OpenAPI document may hold."""

GIT_MAX_SECONDS = 60.0
"""How long one git call may take (`docgen check --base` reads the errors catalogs as committed there)."""

HISTORY_MAX_BYTES = 256 * 1024 * 1024
"""How many bytes all the committed versions of one catalog may hold together, for its changelog: about
10,000 versions of a 25 KB catalog."""

GIT_DIFF_MAX_BYTES = 64 * 1024 * 1024
"""The most bytes `git diff` (and the list of untracked files) may print for `docgen check --base`, which
reads them to annotate only the lines a pull request changed."""
