"""The coverage of errors and routes catalogs (`docgen/core/coverage.py` says what it counts), and the
located line `docgen extract` gives each site whose status could not be read, so that no gap is silent."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from docgen.core.coverage import NO_MESSAGE, NO_STATUS, TEMPLATE, Coverage, coverage_of, is_template
from docgen.core.models import ErrorEntry, ErrorsCatalog, RouteError, RoutesCatalog


def errors_coverage(catalog: ErrorsCatalog) -> Coverage:
    """An errors catalog's entries, each a site; a missing status counts only in a catalog that has some."""
    entries = catalog.entries
    with_status = any(entry.status is not None for entry in entries)
    return coverage_of(_entry_reasons(entry, with_status=with_status) for entry in entries)


def _entry_reasons(entry: ErrorEntry, *, with_status: bool) -> Iterator[str]:
    yield from (f"dynamic {field}" for field in entry.dynamic)
    if with_status and entry.status is None and "status" not in entry.dynamic:
        yield NO_STATUS
    if not entry.message:
        yield NO_MESSAGE
    elif is_template(entry.message):
        yield TEMPLATE


def routes_coverage(catalog: RoutesCatalog) -> Coverage:
    """A routes catalog's raise sites, with its operations."""
    return coverage_of(
        (_error_reasons(error) for error in catalog.errors), operations=len(catalog.operations)
    )


def _error_reasons(error: RouteError) -> Iterator[str]:
    if error.status is None:
        yield NO_STATUS
    if is_template(error.detail):
        yield TEMPLATE


def errors_without_status(catalog: ErrorsCatalog, lines: Sequence[int]) -> Iterator[str]:
    """A located line per entry without a status in a catalog whose other entries have one (`lines`: the
    line of each entry's call, in entry order)."""
    entries = catalog.entries
    if not any(entry.status is not None for entry in entries):
        return
    for entry, line in zip(entries, lines, strict=True):
        if entry.status is None and "status" not in entry.dynamic:
            yield (
                f"{entry.file}:{line}: entry '{entry.id}' has no status: the call gives none and docgen "
                "reads none for it; give the constructor's status in 'arguments:' (or a class attribute)"
            )


def routes_without_status(catalog: RoutesCatalog, sites: Mapping[str, tuple[str, int]]) -> Iterator[str]:
    """A located line per raise site whose status cannot be told statically (`sites`: error id -> the file
    and line of its raise)."""
    for error in catalog.errors:
        if error.status is None:
            file, line = sites.get(error.id, (error.file, 0))
            where = f"{file}:{line}" if line else file
            yield (
                f"{where}: error '{error.id}' ({error.exception}) has no status docgen can read; the page "
                "and the OpenAPI fragment leave it out of the statuses they list"
            )
