"""Jinja for text nobody here wrote: the bounded sandbox and its compiled-template cache.

Owns: the sandboxed environment every template, note and example count renders in (`sandbox`), the budget
that bounds one render's steps and output (`render_budget`), and the on-disk cache of compiled templates
(`template_cache`, in the folder `core.cache_dir` names), and the packaged templates' code compiled with
docgen (`precompiled`, generated into `compiled/`). render, check and the example requests share it.

May import: `docgen.core`.
"""
