"""Constants the site would publish although they look like credentials (`credential-published`), and their
values kept out of every finding (a page-stale diff would otherwise quote the secret into the CI log)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

from docgen.core.credentials import texts_of
from docgen.core.findings import Finding, Kind
from docgen.core.models import constants_of
from docgen.core.project import Project
from docgen.render.inputs import RenderInputs
from docgen.render.published import Refusal, refusal_message, refusal_place

WITHHELD = "[withheld: looks like a credential]"
"""What a finding shows in place of a refused constant's value."""


def credential_findings(project: Project, refused: Sequence[Refusal]) -> Iterator[Finding]:
    """A finding per constant a page, a note or the published JSON would show that looks like a credential
    and that its catalog's configuration does not list as public, at the line that defines it."""
    for refusal in refused:
        file, line = refusal_place(project.settings, project.sources, refusal)
        message, hint = refusal_message(refusal)
        yield Finding(Kind.CREDENTIAL_PUBLISHED, file, line, refusal.name, message, hint)


def withhold(findings: Sequence[Finding], inputs: RenderInputs, refused: Sequence[Refusal]) -> list[Finding]:
    """`findings` with every text of a refused constant's value replaced by WITHHELD."""
    values = [_value(inputs, refusal) for refusal in refused]
    # The longest first, so that a secret inside another is not left half shown.
    secrets = sorted({text for value in values for text in texts_of(value) if text}, key=len, reverse=True)
    if not secrets:
        return list(findings)
    return [_withheld(finding, secrets) for finding in findings]


def _value(inputs: RenderInputs, refusal: Refusal) -> object:
    catalog = inputs.catalogs[refusal.catalog]
    return constants_of(catalog).get(refusal.name)


def _withheld(finding: Finding, secrets: Sequence[str]) -> Finding:
    changes: dict[str, Any] = {}
    for field in ("subject", "message", "hint", "old", "new", "diff"):
        value = getattr(finding, field)
        if isinstance(value, str) and any(secret in value for secret in secrets):
            for secret in secrets:
                value = value.replace(secret, WITHHELD)
            changes[field] = value
    return dataclasses.replace(finding, **changes) if changes else finding
