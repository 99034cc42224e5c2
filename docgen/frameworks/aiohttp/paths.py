"""aiohttp's route paths in OpenAPI form.

aiohttp writes a variable part as `{name}` or `{name:regex}`, and the regex may hold braces of its own
(`{year:\\d{4}}`), which `extract.routes.schema_path` does not read; a sub-application's prefix loses its
trailing slashes (`add_subapp("/admin/", sub)` serves `/admin/...`), as `Application.add_subapp` does.
"""

from __future__ import annotations


def openapi_path(path: str) -> str:
    """`path` with each `{name:regex}` written `{name}`; `/` for the empty path."""
    out: list[str] = []
    index = 0
    while index < len(path):
        if path[index] != "{":
            out.append(path[index])
            index += 1
            continue
        end = _closing(path, index)
        if end is None:  # an unbalanced brace: kept as written, as aiohttp would refuse it anyway
            out.append(path[index:])
            break
        name = path[index + 1 : end].split(":", 1)[0]
        out.append("{" + name.strip() + "}")
        index = end + 1
    return "".join(out) or "/"


def _closing(path: str, start: int) -> int | None:
    """The index of the brace that closes the one at `start`, counting the regex's own braces."""
    depth = 0
    for index in range(start, len(path)):
        if path[index] == "{":
            depth += 1
        elif path[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    return None


def subapp_prefix(prefix: str) -> str:
    """The prefix a sub-application is served under: aiohttp strips the trailing slashes."""
    return prefix.rstrip("/")
