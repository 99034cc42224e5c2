"""The probe stage: the one part of docgen that runs the server, and only when asked to.

Owns: replaying each documented example against the server and building the evidence (`replay`).

May import: `generator.core`.
"""
