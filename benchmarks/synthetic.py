"""Synthetic backends for the scale benchmark: N error sites across many modules, the same bytes every time.

    python -m benchmarks.synthetic 1000 benchmarks/work/scale-1000

writes a project docgen can check, then runs `docgen extract`, writes a note for every entry and runs
`docgen render`, so that `docgen check` on it is clean (exit 0), as on a real repository between changes:

    mkdocs.yml                      one errors catalog per handler module
    backend/errors.py               the constructor `rpc_error` and `class Code(IntEnum)`
    backend/limits.py               constants computed from constants of errors.py
    backend/constants/cNN.py        codes computed from limits.BASE (imported across modules)
    backend/handlers/hNNN.py        100 error sites in 10 functions (3 of each function's in helpers it calls,
                                    one of those two helpers down), behind if/for/try/match guards; codes
                                    and statuses are literals, IntEnum and HTTPStatus members, imported
                                    constants, module constants derived from imports, and arithmetic
    docs/errors/hNNN.md             a page per catalog with an error-table region, cited and verified
    data/hNNN.notes.yaml            editors' notes, some quoting constants

`--nested` (`python -m benchmarks.synthetic --nested 1000 DIR`, the layout `make bench` measures) instead
moves the last four sites of each function into one helper the catalog does not list, in turn: a module-level
function, a method called on a new instance of a class of the module (`Op0001Checks().more(...)`), and the
same method called on a local bound to such an instance (`checks = Op0002Checks()`, then `checks.more(...)`).
Extraction follows all three, so every layout extracts exactly the number of sites asked for.
"""

from __future__ import annotations

import contextlib
import io
import random
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

import yaml

from docgen.shell.cli import main as docgen

SEED = 20260728
SITES_PER_FUNCTION = 10
FUNCTIONS_PER_MODULE = 10
SITES_PER_MODULE = SITES_PER_FUNCTION * FUNCTIONS_PER_MODULE
HANDLERS_PER_CONSTANTS_MODULE = 4
HELPER_SITES = 3
"""Of each function's sites, how many sit in the helpers it calls (one of them two helpers down)."""

ERRORS_MODULE = '''\
"""The error constructor and the codes of the synthetic backend."""

from enum import IntEnum
from http import HTTPStatus

SERVER_ERROR_MIN = -32099


class Code(IntEnum):
    PARSE_ERROR = -32700
    INVALID_REQUEST = -32600
    METHOD_NOT_FOUND = -32601
    INVALID_PARAMS = -32602
    INTERNAL_ERROR = -32603


def rpc_error(request_id, code, message, *, status=HTTPStatus.OK, data=None):
    """Build a JSON-RPC error response."""
    return {"id": request_id, "error": {"code": code, "message": message, "data": data}, "status": status}
'''

LIMITS_MODULE = '''\
"""Limits shared by every handler."""

from http import HTTPStatus

from backend.errors import SERVER_ERROR_MIN

BASE = SERVER_ERROR_MIN + 99
RATE_STATUS = HTTPStatus.TOO_MANY_REQUESTS
MAX_ITEMS = 4 * 25
'''

CODES = ("Code.INVALID_PARAMS", "Code.METHOD_NOT_FOUND", "-32602", "AREA_BASE - {k}", "{const}", "BASE - {k}")
STATUSES = ("400", "HTTPStatus.NOT_FOUND", "RATE_STATUS", "400 + {k}", None)
VERBS = ("rejected", "denied", "failed", "refused", "invalid")


def constants_module(number: int) -> str:
    """backend/constants/cNN.py: ten codes computed from a constant of another module."""
    lines = [f'"""Codes of group {number}."""\n', "from backend.limits import BASE\n"]
    lines += [f"C{number:02d}_{j} = BASE - {1000 + number * 10 + j}" for j in range(10)]
    return "\n".join(lines) + "\n"


def _guard(k: int) -> tuple[list[str], str]:
    """The statements that guard site `k`, and the indentation of the call inside them."""
    variant = k % 5
    if variant == 0:
        return [f'    if params.get("f{k}") is None:'], " " * 8
    if variant == 1:
        return [f"    if len(items) > MAX_ITEMS + {k}:"], " " * 8
    if variant == 2:
        return ["    for item in items:", f'        if item.get("kind") == "k{k}":'], " " * 12
    if variant == 3:
        handler = "    except (KeyError, ValueError):"
        return ["    try:", f'        value = int(params["f{k}"])', handler], " " * 8
    return ['    match params.get("mode"):', f'        case "m{k}":'], " " * 12


def _site(rng: random.Random, where: str, k: int, const: str) -> list[str]:
    """One guarded call of rpc_error: site `k` of the function `where` (`7-3`)."""
    guard, indent = _guard(k)
    code = rng.choice(CODES).format(k=k, const=const)
    status = rng.choice(STATUSES)
    verb = rng.choice(VERBS)
    if rng.random() < 0.3:
        message = f'f"Op {where}-{k} {verb}: item {{item_id}} is unknown"'
    else:
        message = f'"Op {where}-{k} {verb}: field f{k} is missing"'
    arguments = [f"request_id, {code}, {message}"]
    if status is not None:
        arguments.append(f"status={status.format(k=k)}")
    if rng.random() < 0.5:
        arguments.append(f'data={{"field": "f{k}"}}')
    comment = [f"{indent}# Op {where}-{k} needs field f{k}."] if rng.random() < 0.5 else []
    return [*guard, *comment, f"{indent}return rpc_error({', '.join(arguments)})"]


NESTED_SITES = 4
"""With --nested: how many of a function's sites move to its helper (a function or a method, in turn)."""
NESTED_FORMS = 3
"""The helper forms of --nested: a module function, a method of a new instance, a method of a local."""


def _nested(name: str, op: int, sites: list[list[str]]) -> tuple[list[str], list[str]]:
    """The call of the helper that holds `sites`, and the helper: a function, or a method of a class called
    on a new instance or on a local bound to one (by `op`, in turn)."""
    body = ['    items = params.get("items") or []', '    item_id = params.get("id")']
    for site in sites:
        body += site
    body.append("    return None")
    if op % NESTED_FORMS == 0:
        helper = ["", "", f"def _{name}_more(request_id, params):", *body]
        return [f"    found = _{name}_more(request_id, params)", *_RETURN_FOUND], helper
    owner = f"{name.title().replace('_', '')}Checks"
    helper = ["", "", f"class {owner}:", "    def more(self, request_id, params):"]
    helper += ["    " + line for line in body]
    if op % NESTED_FORMS == 1:
        return [f"    found = {owner}().more(request_id, params)", *_RETURN_FOUND], helper
    local = [f"    checks = {owner}()", "    found = checks.more(request_id, params)"]
    return [*local, *_RETURN_FOUND], helper


_RETURN_FOUND = ["    if found is not None:", "        return found"]


def handler_module(
    rng: random.Random, area: int, sites: int, constants: int, *, nested: bool = False
) -> tuple[str, list[str]]:
    """backend/handlers/hNNN.py with `sites` error sites, and the names of its functions."""
    group = area // HANDLERS_PER_CONSTANTS_MODULE % constants
    lines = [
        f'"""Handlers of area {area}."""',
        "",
        "from http import HTTPStatus",
        "",
        f"from backend.constants.c{group:02d} import " + ", ".join(f"C{group:02d}_{j}" for j in range(10)),
        "from backend.errors import Code, rpc_error",
        "from backend.limits import BASE, MAX_ITEMS, RATE_STATUS",
        "",
        f"AREA_BASE = BASE - {100 + area}",
        f"AREA_LIMIT = MAX_ITEMS * 2 + {area}",
    ]
    functions, helpers = [], []
    for op in range((sites + SITES_PER_FUNCTION - 1) // SITES_PER_FUNCTION):
        name = f"op_{area:03d}_{op}"
        functions.append(name)
        count = min(SITES_PER_FUNCTION, sites - op * SITES_PER_FUNCTION)
        written = [_site(rng, f"{area}-{op}", k, f"C{group:02d}_{rng.randrange(10)}") for k in range(count)]
        doc = f"Operation {op} of area {area}."
        if nested and count > NESTED_SITES:
            lines += ["", "", f"def {name}(request_id, params):", f'    """{doc}"""']
            lines += ['    items = params.get("items") or []', '    item_id = params.get("id")']
            lines += [line for site in written[: count - NESTED_SITES] for line in site]
            call, helper = _nested(name, op, written[count - NESTED_SITES :])
            lines += [*call, "    return {'id': request_id, 'result': {}}"]
            helpers += helper
        else:
            lines += _operation(name, f"{area:03d}_{op}", doc, written)
    return "\n".join([*lines, *helpers]) + "\n", functions


def _operation(name: str, suffix: str, doc: str, calls: list[list[str]]) -> list[str]:
    """A configured function with its sites: the first ones in its own body, then HELPER_SITES in a helper
    it calls, the last of which (when there are enough) sits one helper deeper still."""
    own, helped = calls[: len(calls) - HELPER_SITES], calls[len(calls) - HELPER_SITES :]
    deeper = helped[-1:] if len(helped) == HELPER_SITES else []
    helped = helped[: len(helped) - len(deeper)]
    arguments = "request_id, params, items, item_id"
    lines = ["", "", f"def {name}(request_id, params):", f'    """{doc}"""']
    lines += ['    items = params.get("items") or []', '    item_id = params.get("id")']
    lines += [line for call in own for line in call]
    if helped:
        lines += [f"    if (refusal := _check_{suffix}({arguments})) is not None:", "        return refusal"]
    lines.append("    return {'id': request_id, 'result': {}}")
    if helped:
        lines += ["", "", f"def _check_{suffix}({arguments}):", *(line for call in helped for line in call)]
        if deeper:
            lines.append(f"    return _deeper_{suffix}({arguments})")
        else:
            lines.append("    return None")
    if deeper:
        lines += ["", "", f"def _deeper_{suffix}({arguments}):", *deeper[0], "    return None"]
    return lines


def _catalog(area: int, functions: Sequence[str]) -> dict[str, object]:
    return {
        "kind": "errors",
        "source": f"backend/handlers/h{area:03d}.py",
        "constructors": ["rpc_error"],
        "functions": list(functions),
        "arguments": {"code": 1, "message": 2, "status": "status", "data": "data"},
    }


def _page(area: int, functions: Sequence[str]) -> str:
    """A page citing two of the area's functions and the constructor; `prepare` stamps it with `docgen
    verify` once the catalogs exist (a fingerprint hashes the error paths as the catalog's facts)."""
    cited = {f"backend/handlers/h{area:03d}.py": list(functions[:2]), "backend/errors.py": ["rpc_error"]}
    meta = {
        "title": f"Errors of area {area}",
        "catalog": f"h{area:03d}",
        "based_on": [{"file": file, "symbols": symbols} for file, symbols in cited.items()],
    }
    front = yaml.safe_dump(meta, sort_keys=False, default_flow_style=False)
    title = f"# Errors of area {area}\n\nSee the [index](../index.md).\n\n"
    return f"---\n{front}---\n\n{title}<!-- docgen:begin error-table -->\n<!-- docgen:end error-table -->\n"


def write_project(root: Path, sites: int, *, seed: int = SEED, nested: bool = False) -> Path:
    """Write the synthetic project with `sites` error sites under `root` (emptied first)."""
    shutil.rmtree(root, ignore_errors=True)
    rng = random.Random(seed)
    areas = (sites + SITES_PER_MODULE - 1) // SITES_PER_MODULE
    constants = max(1, (areas + HANDLERS_PER_CONSTANTS_MODULE - 1) // HANDLERS_PER_CONSTANTS_MODULE)
    files = {
        "backend/__init__.py": "",
        "backend/errors.py": ERRORS_MODULE,
        "backend/limits.py": LIMITS_MODULE,
        "backend/constants/__init__.py": "",
        "backend/handlers/__init__.py": "",
        "docs/index.md": "# Synthetic backend\n\nError pages, one per handler module.\n",
    }
    files.update({f"backend/constants/c{n:02d}.py": constants_module(n) for n in range(constants)})
    catalogs, functions = {}, {}
    for area in range(areas):
        count = min(SITES_PER_MODULE, sites - area * SITES_PER_MODULE)
        text, functions[area] = handler_module(rng, area, count, constants, nested=nested)
        files[f"backend/handlers/h{area:03d}.py"] = text
        catalogs[f"h{area:03d}"] = _catalog(area, functions[area])
    config = {"site_name": f"docgen scale {sites}", "plugins": [{"docgen": {"catalogs": catalogs}}]}
    files["mkdocs.yml"] = yaml.safe_dump(config, sort_keys=False, default_flow_style=None, width=200)
    write_files(root, files)
    write_files(root, {f"docs/errors/h{area:03d}.md": _page(area, functions[area]) for area in range(areas)})
    return root


def write_files(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def write_notes(root: Path, pattern: str = "h*.yaml", constant: str = "MAX_ITEMS") -> int:
    """A cause and an action for every entry of every extracted catalog (`pattern` in data/), some of them
    quoting `constant`; returns the number of entries."""
    total = 0
    for catalog in sorted((root / "data").glob(pattern)):
        if catalog.name.endswith(".notes.yaml"):
            continue
        entries = yaml.safe_load(catalog.read_text(encoding="utf-8"))["entries"]
        notes = {}
        for index, entry in enumerate(entries):
            action = f"Send at most {{{{ {constant} }}}} items." if index % 7 == 0 else "Fix the request."
            notes[entry["id"]] = {"cause": f"The request breaks rule {entry['id']}.", "action": action}
        text = yaml.safe_dump({"entries": notes}, sort_keys=False, width=100)
        catalog.with_name(catalog.name.replace(".yaml", ".notes.yaml")).write_text(text, encoding="utf-8")
        total += len(entries)
    return total


def prepare(root: Path, sites: int, *, nested: bool = False) -> int:
    """Write the project, extract, write notes, render, stamp every page as verified; return the number of
    catalog entries."""
    write_project(root, sites, nested=nested)
    docgen_quietly(root, "extract")
    entries = write_notes(root)
    docgen_quietly(root, "render")
    pages = sorted(str(page) for page in (root / "docs" / "errors").glob("h*.md"))
    docgen_quietly(root, "verify", "--date", "2026-07-28", *pages)
    return entries


def docgen_quietly(root: Path, command: str, *args: str) -> None:
    """Run a docgen sub-command on the project in process, its report kept quiet unless it fails."""
    report = io.StringIO()
    with contextlib.redirect_stderr(report):
        code = docgen(["--config", str(root / "mkdocs.yml"), command, *args])
    if code != 0:
        raise RuntimeError(f"docgen {command} failed on {root}:\n{report.getvalue()[-3000:]}")


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m benchmarks.synthetic [--nested] SITES DIR`."""
    args = list(sys.argv[1:] if argv is None else argv)
    nested = "--nested" in args
    args = [arg for arg in args if arg != "--nested"]
    if len(args) != 2 or not args[0].isdigit():
        print("usage: python -m benchmarks.synthetic [--nested] SITES DIR", file=sys.stderr)
        return 2
    entries = prepare(Path(args[1]).resolve(), int(args[0]), nested=nested)
    print(f"{args[1]}: {entries} error sites", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
