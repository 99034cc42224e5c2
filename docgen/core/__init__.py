"""What every stage shares: settings, errors, YAML, schemas, the loaded project, typed models, findings.

Owns: the configuration (`settings`, one catalog's in `catalog_config`, its located checks in
`settings_checks`), the catalog kinds' protocol and registry (`kinds`), the exception tree (`errors`), a
project file's bytes and text read within the limits (`reader`), YAML in and out with the line of every key
(`yamlio`, `yamlbounds`, `yamlnodes`, parsed files kept by content in `yaml_cache`), the JSON Schemas and
checking a file against one (`schemas`, `schema_check`), the loaded project and the one loader (`project`),
the typed values (declared with `records`): catalogs (`models`, which gathers what every catalog shares,
`model_base`, and the models of each built-in kind, `error_models`, `tool_models`, `route_models`; written and
read by `catalog`), notes (`notes`) and what they state of values set at run time (`run_time_values`), probe
evidence (`evidence`), each error's public link and where a server carries it (`links`), the specification's
classification (`spec`), pages and their front matter (`pages`), cited symbols (`symbols`) and their
fingerprints (`fingerprints`); findings as values (`findings`) and the reports made of them (`reports`; a
change with what follows from it, `causes`; the job summary, `job_summary`), a committed OpenAPI document read
with its bounds (`openapi`), plugins found by name, built in or installed through an entry point (`plugins`),
the one writer (`writer`), files as committed at a verified git ref and the lines changed since it (`git_ref`,
`diff_lines`), a catalog's committed versions and how its errors changed between them (`git_history`,
`changes`), how much of a catalog extract read in full (`coverage`), a catalog's `framework:` checked
(`framework_config`), text for a GitHub Actions log that runs no command it echoes (`workflow_commands`),
the folder caches live in (`cache_dir`), the optional parts installed by the package's extras and what
says how to install one that is missing (`extras`), and the limits every input is held to (`limits`).

May import: the standard library and third-party libraries only; never another docgen subpackage.
"""
