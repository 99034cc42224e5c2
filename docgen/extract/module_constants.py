"""The constants a module exports to notes: each UPPER_CASE module-level name whose value resolves
statically, read through the `Resolver` as any other value is."""

from __future__ import annotations

import re

import griffe

from docgen.core.models import Json
from docgen.extract.resolve import Resolver, Unresolvable, as_json

_CONSTANT_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")


def module_constants(module: griffe.Module, resolver: Resolver) -> dict[str, Json]:
    """Every UPPER_CASE module-level name of `module` whose value resolves statically, by name."""
    constants: dict[str, Json] = {}
    for name in sorted(module.members):
        member = module.members[name]
        if not _CONSTANT_NAME.match(name):
            continue
        try:
            target = member.final_target if isinstance(member, griffe.Alias) else member
        except (griffe.AliasResolutionError, griffe.CyclicAliasError):
            continue
        if isinstance(target, griffe.Attribute):
            try:
                value = resolver.constant(target).value
            except Unresolvable:
                continue
            constants[name] = as_json(value)
    return constants
