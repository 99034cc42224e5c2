"""The check stage: extract and render in memory, compare with what is committed, and report findings.

Owns: catalog drift (`drift`), notes against their catalog (`notes`), Last-verified stamps (`stamps`), links
(`links`), contract changes since a base ref (`contract`), evidence (`evidence`) and specification (`spec`)
findings, and the whole check (`run`). Nothing here writes a file.

May import: `generator.core`, `generator.extract`, `generator.render`.
"""
