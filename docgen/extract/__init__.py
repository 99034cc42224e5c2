"""The extract stage: the server's source, read statically with griffe, becomes catalogs (data and text).

Owns:

- the source and its modules: locating and loading it, keeping each function's syntax tree and each module's
  file (`source`), reading only the modules it reaches, dependencies included (`modules`, with what cannot be
  read in `unreadable`, and where an import that griffe cannot follow leads, star imports included, in
  `imports`), the loaded source as a program to follow calls in (`program`);
- values and names: resolving static values (`resolve`) within the folding limits (`folding`), a field of
  a module-level settings instance as its class's default, recorded as assumed (`instance_defaults`), the
  constants a module exports to notes (`module_constants`), a translated message read as its message id
  (`translated`), configured
  names (`names`), the constructors and their subclasses (`constructors`), which argument gives which field
  (`binding`);
- following calls: the one depth-bounded, cycle-safe walk from a function into the functions it calls,
  which `reach`, `handlers` and `raises` each give what to collect in a function (`walk`);
- errors catalogs: finding constructor calls (`calls`), what a call calls (`targets`; locals made from
  classes: `local_names`; `cls(...)` in a classmethod: `class_calls`), following the configured functions
  into helpers (`reach`), the raise sites behind `except` handlers (`handlers`; the dispatch tables a `try`
  looks a callable up in: `dispatch_tables`), refusing a configuration that finds nothing (`silence`), each
  call's fields (`fields`), what a catalog's `framework:` adds to them (`framework_errors`), building error
  sites (`sites`), the calls each entry's fingerprint marks
  (`error_marks`), stable ids (`identity`); the catalog itself is built by the errors kind
  (`docgen.kinds.errors.catalog`);
- routes catalogs: the interface each web framework implements and the lookup of one by name (`routes`;
  the frameworks themselves are in `docgen.frameworks`, which imports this package, never the other way),
  the HTTP errors an operation reaches (`raises`; the property getters and `self` it follows through, read
  from a class's syntax: `members`) with their status and detail (`http_values`; those a handler reads off
  the application's exception: `handled`; the exceptions a raised function returns: `factories`), through
  the wrappers of its decorators (`decorators`) and the call a returned or raised local name holds
  (`bound_calls`), and the body key a raise decides (`body_keys`), the
  framework an application imports when its catalog names none (`detect`), the framework's packages found
  where docgen reads modules, or a located error naming the package to install (`installed`); the routes
  catalog and its ids are the routes kind's (`docgen.kinds.routes.catalog`);
- what extract asks of a catalog kind, and the run each kind reads the source through (`kind_stage`);
- the stage end to end (`pipeline`), each catalog built by its kind (`docgen/kinds/`).

Nothing here imports or runs the server, and nothing writes a file.

May import: `docgen.core`.
"""
