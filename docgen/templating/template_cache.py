"""Compiled templates kept between runs, so each process does not compile the same templates again.

On a small site, compiling the region templates and the notes to Python code is most of what rendering
costs, and every `docgen check`, `docgen render` and `mkdocs build` used to do it afresh. Jinja's bytecode
cache keeps the compiled code on disk: an entry is found by the template's name and file, and is used only
when a hash of the template's source still matches, so an edited template is compiled again.

The cache lives outside the project, in the folder `docgen/core/cache_dir.py` names (so `docgen check`
still writes nothing in the project); `DOCGEN_NO_CACHE=1` turns it off (every run then compiles, as a cold
CI runner does).

A cache only ever saves time: one that cannot be created, read or written is ignored, and entries are
kept apart by everything that changes the compiled code (Jinja's version, the Python version, the
environment's syntax and whitespace options, and whether and how it is sandboxed: code compiled for Jinja's
plain environment runs attributes and operators directly, and must never be loaded into docgen's sandbox).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2.bccache import Bucket

from docgen.core.cache_dir import cache_dir

# Environment options that change the code Jinja generates for the same source.
_CODE_OPTIONS = (
    "block_start_string",
    "block_end_string",
    "variable_start_string",
    "variable_end_string",
    "comment_start_string",
    "comment_end_string",
    "line_statement_prefix",
    "line_comment_prefix",
    "trim_blocks",
    "lstrip_blocks",
    "newline_sequence",
    "keep_trailing_newline",
    "optimized",
    "autoescape",
    "finalize",
    "is_async",
)


class TemplateCache(jinja2.FileSystemBytecodeCache):
    """Jinja's file cache, keyed by the environment's options too, and never a reason to fail."""

    def __init__(self, directory: Path, namespace: str) -> None:
        super().__init__(str(directory), pattern="%s.jinja")
        self.namespace = namespace

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return hashlib.sha256(f"{self.namespace}|{name}|{filename}".encode()).hexdigest()

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:
            bucket.reset()  # a damaged entry (unpickling can raise nearly anything) is compiled again

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            os.makedirs(self.directory, exist_ok=True)
            super().dump_bytecode(bucket)
        except OSError:
            pass  # a read-only or full disk costs the next run a compile, nothing more


__all__ = [
    "TemplateCache",
    "attach",
    "cache_dir",
    "code_identity",
    "from_string",
    "needs_jinja",
    "render_text",
]


def attach(environment: jinja2.Environment) -> jinja2.Environment:
    """Give `environment` the on-disk cache (unless caching is off); returns it for chaining."""
    directory = cache_dir()
    if directory is not None:
        environment.bytecode_cache = TemplateCache(directory, code_identity(environment))
    return environment


def code_identity(environment: jinja2.Environment) -> str:
    """Everything about `environment` that changes the code Jinja generates for a template's source: Jinja's
    version, the syntax and whitespace options, the extensions, how it is sandboxed, and which filters and
    tests it has (whether a filter takes the context is decided when compiling). Compiled code is reused
    only by an environment of the same identity."""
    options = tuple(repr(getattr(environment, option, None)) for option in _CODE_OPTIONS)
    extensions = tuple(sorted(environment.extensions))  # their import names: they add syntax
    named = tuple(sorted(environment.filters)), tuple(sorted(environment.tests))
    return repr((jinja2.__version__, options, extensions, _code_kind(environment), named))


def _code_kind(environment: jinja2.Environment) -> tuple[object, ...]:
    """What makes an environment generate other code for the same source: a sandbox calls its hooks where
    a plain environment runs operators and attributes directly, so their entries must never be mixed up."""
    kind = type(environment)
    return (
        f"{kind.__module__}.{kind.__qualname__}",
        f"{environment.code_generator_class.__module__}.{environment.code_generator_class.__qualname__}",
        environment.sandboxed,
        getattr(environment, "code_version", None),
        tuple(sorted(getattr(environment, "intercepted_binops", ()))),
        tuple(sorted(getattr(environment, "intercepted_unops", ()))),
    )


def needs_jinja(source: str) -> bool:
    """Whether rendering `source` can give anything but `source` itself: it holds a tag, an expression or a
    comment (`{%`, `{{`, `{#`), or line endings Jinja rewrites. A note or an example without any is used as
    written, and never compiled."""
    return "{{" in source or "{%" in source or "{#" in source or "\r" in source


def render_text(
    environment: jinja2.Environment, source: str, variables: Mapping[str, Any], *, name: str
) -> str:
    """`source` (a note, an example's text) rendered with `variables`; `source` itself when it holds no Jinja
    syntax (`needs_jinja`), without compiling it. `name` is as for `from_string`.

    In docgen's sandbox the names are read from `variables` as the text uses them (`render_over`), so a
    mapping that records what is read (docgen/render/shown.py) learns which constants the text shows."""
    if not needs_jinja(source):
        return source
    template = from_string(environment, source, name=name)
    render_over = getattr(template, "render_over", None)  # docgen's sandbox: names read as they are used
    return str(render_over(variables)) if render_over is not None else template.render(variables)


@lru_cache(maxsize=4096)
def from_string(environment: jinja2.Environment, source: str, *, name: str) -> jinja2.Template:
    """`environment.from_string(source)`, compiled once per environment in a process (however many pages
    show the same note) and through the environment's cache between runs when it has one.

    Jinja's own `from_string` never consults the cache; this does what its loaders do. `name` keeps
    entries of different kinds apart (the source's hash tells different sources apart anyway).
    """
    cache = environment.bytecode_cache
    if cache is None:
        return environment.from_string(source)
    key = hashlib.sha256(source.encode("utf-8")).hexdigest()
    bucket = cache.get_bucket(environment, name, key, source)
    if bucket.code is None:
        bucket.code = environment.compile(source)
        cache.set_bucket(bucket)
    return environment.template_class.from_code(environment, bucket.code, environment.make_globals(None))
