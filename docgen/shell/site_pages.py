"""The pages as the built site shows them, which may differ from the committed ones in three ways: source
links that point at the built commit (with `repo_url`), the errors' changelog (only the build can read the
history it lists), and a hand edit inside a region, which the site overwrites while check reports it. A page
is rendered a second time only where one of these applies.
"""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from pathlib import Path

from docgen.core.changes import History
from docgen.core.models import Catalog
from docgen.core.project import Project
from docgen.core.settings import Settings
from docgen.kinds.errors.changelog import REGION as CHANGELOG_REGION
from docgen.render.inputs import no_lines
from docgen.render.renderer import PageResult, Renderer, renderer_for


def site_renderer(
    settings: Settings,
    project: Project,
    catalogs: Mapping[str, Catalog],
    committed: Renderer,
    results: list[PageResult],
    history: Mapping[str, History | None],
) -> Renderer:
    """The renderer of the site's pages: the committed one, unless the site links cited symbols to the
    built commit (`repo_url`) or a page shows the errors' changelog, which only the build fills."""
    linked = bool(settings.repo_url)
    if not linked and not any(_fills_history(result) for result in results):
        return committed
    return renderer_for(
        project,
        catalogs=catalogs,
        source_ref=_commit(settings.root) if linked else "HEAD",
        symbol_lines=project.sources.lines if linked else no_lines,
        environment=committed.inputs.environment,
        histories=history,
    )


def site_text(
    site: Renderer, committed: Renderer, result: PageResult, pages: Mapping[str, str], linked: bool
) -> str:
    """The page as the site shows it: rendered again only where the site differs from what is committed (the
    changelog, source links), or where a hand edit is to be overwritten on the site."""
    if (site is not committed and (linked or _fills_history(result))) or _hand_edited(result):
        return site.render_page(pages[result.page], page=result.page, force=True).text
    return result.text


def _fills_history(result: PageResult) -> bool:
    return any(region.name == CHANGELOG_REGION for region in result.regions)


def _hand_edited(result: PageResult) -> bool:
    return any(region.state == "hand-edited" for region in result.regions)


def _commit(root: Path) -> str:
    """The commit being built, for source links; `HEAD` outside a git checkout."""
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=False, timeout=10
        )
    except OSError:
        return "HEAD"
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else "HEAD"
