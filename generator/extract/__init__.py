"""The extract stage: the server's source, read statically with griffe, becomes catalogs (data and text).

Owns: loading the source (`source`), resolving static values (`resolve`), finding constructor calls (`calls`),
following the configured functions into helpers (`reach`), the raise sites behind `except` handlers
(`handlers`), refusing a configuration that finds nothing (`silence`), building error sites (`sites`), stable
ids (`identity`), the tools catalog (`tools`), and the stage end to end (`pipeline`). Nothing here imports or
runs the server, and nothing writes a file.

May import: `generator.core`.
"""
