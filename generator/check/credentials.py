"""Constants the site would publish although they look like credentials (`credential-published`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from generator.core.findings import Finding, Kind
from generator.core.project import Project
from generator.render.published import refusal_message, refusal_place, site_refusals
from generator.render.renderer import PageResult, Renderer


def credential_findings(
    project: Project, renderer: Renderer, rendered: Sequence[PageResult]
) -> Iterator[Finding]:
    """A finding per constant a page, a note or the published JSON would show that looks like a credential
    and that its catalog's configuration does not list as public, at the line that defines it."""
    for refusal in site_refusals(renderer.inputs, rendered):
        file, line = refusal_place(project.settings, project.sources, refusal)
        message, hint = refusal_message(refusal)
        yield Finding(Kind.CREDENTIAL_PUBLISHED, file, line, refusal.name, message, hint)
