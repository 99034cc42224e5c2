"""Every bound docgen applies, reached from what a pull request can change, is a located error (exit 3),
never a silent cut nor an internal fault: each test builds the input in a copy of a project, runs the real
CLI in a process of its own, and checks the exit code, the `file:line` and the message, that no traceback
is shown and that nothing in the tree changed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from docgen.core.errors import SourceError
from docgen.core.yamlio import read_yaml
from docgen.extract import program, targets
from tests.conftest import REPO_ROOT
from tests.extract.test_routes import shop_project
from tests.helpers import copy_project, make_project, run_extract_in_memory
from tests.test_untrusted import docgen, line_of, tree

COMMANDS = ["extract", "check"]


def refused(root: Path, command: str, located: str, message: str) -> None:
    """`docgen <command>` on `root` ends at exit 3 with `message` at `located`, and changes nothing."""
    before = tree(root)
    done = docgen(root, command)
    said = done.stdout + done.stderr
    assert done.returncode == 3, said
    assert done.stderr.startswith(f"docgen {command}: error: {located}: "), said
    assert message in done.stderr, said
    assert "Traceback" not in said and "internal error" not in said
    assert tree(root) == before


# Item 4: routers nested past the limit, and a constant past the folding limits.


def router_chain(root: Path, length: int) -> Path:
    """The shop application including a chain of `length` routers (one module each), the last of which has
    a route that raises 418."""
    shop = root / "shop"
    for index in range(length):
        last = index == length - 1
        text = "from fastapi import APIRouter, HTTPException\n"
        text += "" if last else f"from shop import chain{index + 1}\n"
        text += "\nrouter = APIRouter()\n"
        if last:
            text += '\n\n@router.get("/teapot")\ndef teapot() -> None:\n'
            text += '    raise HTTPException(status_code=418, detail="I am a teapot")\n'
        else:
            text += f"router.include_router(chain{index + 1}.router)\n"
        (shop / f"chain{index}.py").write_text(text, encoding="utf-8")
    main = shop / "main.py"
    text = main.read_text(encoding="utf-8").replace("import items, orders", "import chain0, items, orders")
    main.write_text(text + "\napp.include_router(chain0.router)\n", encoding="utf-8")
    return root


def test_a_route_at_the_depth_limit_is_documented(tmp_path: Path) -> None:
    root = router_chain(shop_project(tmp_path), 20)
    done = docgen(root, "check")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "418-i-am-a-teapot" in done.stdout


@pytest.mark.parametrize("command", COMMANDS)
def test_routers_nested_past_the_limit_are_a_located_error(tmp_path: Path, command: str) -> None:
    root = router_chain(shop_project(tmp_path), 30)
    message = (
        "routers are nested more than 20 deep: this include_router of 'shop.chain20.router' is call 21 of a "
        f"chain that starts at shop/main.py:{line_of(root / 'shop' / 'main.py', 'chain0.router')}"
    )
    refused(root, command, "shop/chain19.py:5", message)


def test_a_router_that_includes_itself_is_a_located_error(tmp_path: Path) -> None:
    root = shop_project(tmp_path)
    with (root / "shop" / "items.py").open("a", encoding="utf-8") as stream:
        stream.write("\nfrom shop import orders as _orders\nrouter.include_router(_orders.router)\n")
    orders = root / "shop" / "orders.py"
    with orders.open("a", encoding="utf-8") as stream:
        stream.write("\nfrom shop import items as _items\nrouter.include_router(_items.router)\n")
    located = f"shop/orders.py:{line_of(orders, 'router.include_router(_items.router)')}"
    message = "the router 'shop.items.router' includes itself (shop.items.router -> shop.orders.router"
    refused(root, "check", located, message)


# The one call depth bound (MAX_CALL_DEPTH, 12), for an errors catalog's helpers and a route's dependencies
# and calls alike: a chain exactly as deep is followed to its end, one call deeper is a located error.


def raise_chain(root: Path, length: int, calls_from: int) -> Path:
    """The shop application with `read_item` depending on `link0`, which reaches `link<length>` through
    `length` links (those before `calls_from` as dependencies declared in their parameters, the rest as
    calls); `link<length>` raises 418, `length + 1` calls below `read_item`."""
    text = "from typing import Annotated\n\nfrom fastapi import Depends, HTTPException\n"
    for index in range(length):
        if index < calls_from:
            parameter = f'v: Annotated[str, Depends(link{index + 1})] = ""'
            text += f"\n\ndef link{index}({parameter}) -> str:\n    return v\n"
        else:
            text += f"\n\ndef link{index}() -> str:\n    return link{index + 1}()\n"
    text += (
        f'\n\ndef link{length}() -> str:\n    raise HTTPException(status_code=418, detail="I am a teapot")\n'
    )
    (root / "shop" / "deep.py").write_text(text, encoding="utf-8")
    items = root / "shop" / "items.py"
    text = items.read_text(encoding="utf-8")
    old = "def read_item(item_id: int) -> dict[str, object]:"
    assert old in text
    text = text.replace(
        old, 'def read_item(item_id: int, _: Annotated[str, Depends(link0)] = "") -> dict[str, object]:'
    )
    items.write_text(f"from typing import Annotated\n\nfrom shop.deep import link0\n{text}", encoding="utf-8")
    return root


def test_a_raise_at_the_call_depth_limit_is_documented(tmp_path: Path) -> None:
    root = raise_chain(shop_project(tmp_path), 11, calls_from=6)
    done = docgen(root, "extract")
    assert done.returncode == 0, done.stdout + done.stderr
    catalog = read_yaml(root / "data" / "shop-routes.yaml", "data/shop-routes.yaml").data
    teapots = [(e["id"], e["function"], e["file"]) for e in catalog["errors"] if e["status"] == 418]
    assert teapots == [("418-i-am-a-teapot", "shop.deep.link11", "shop/deep.py")]


def cut(root: Path, located: str, message: str) -> None:
    """`docgen extract` on `root` goes on past a call deeper than the bound, and tells where it stopped:
    the raise below it is not in the catalog."""
    done = docgen(root, "extract")
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    [line] = [line for line in done.stderr.splitlines() if line.startswith(f"{located}: ")]
    assert message in line, said
    assert "what they raise is not listed for GET /items/{item_id}" in line, said
    assert "Traceback" not in said and "418" not in (root / "data" / "shop-routes.yaml").read_text("utf-8")
    assert docgen(root, "render").returncode == 0
    checked = docgen(root, "check")  # what extract could not follow fails check: never passed as clean
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert f"{located}: source-unfollowed: call depth: {message}" in checked.stdout, checked.stdout


@pytest.mark.parametrize("calls_from", [6, 12], ids=["dependencies-then-calls", "dependencies"])
def test_a_raise_past_the_call_depth_limit_through_dependencies_is_told_where_the_walk_stops(
    tmp_path: Path, calls_from: int
) -> None:
    root = raise_chain(shop_project(tmp_path), 12, calls_from)
    deep = root / "shop" / "deep.py"
    # A dependency is followed from the function that declares it, so the walk stops at its `def`.
    located = f"shop/deep.py:{line_of(deep, 'return link12()' if calls_from < 12 else 'def link11(')}"
    chain = " -> ".join(["shop.items.read_item", *(f"shop.deep.link{i}" for i in range(13))])
    message = (
        "shop.items.read_item reaches shop.deep.link12 through 13 calls, more than docgen follows (12): "
    )
    cut(root, located, message + chain)


def test_a_raise_past_the_call_depth_limit_is_told_where_the_walk_stops(tmp_path: Path) -> None:
    root = shop_project(tmp_path)
    items = root / "shop" / "items.py"
    calls = "".join(f"\n\ndef deep{i}() -> None:\n    deep{i + 1}()\n" for i in range(14))
    last = '\n\ndef deep14() -> None:\n    raise HTTPException(status_code=418, detail="I am a teapot")\n'
    text = items.read_text(encoding="utf-8")
    old = "    return find_item(item_id)\n"
    assert old in text
    items.write_text(text.replace(old, "    deep0()\n" + old, 1) + calls + last, encoding="utf-8")
    located = f"shop/items.py:{line_of(items, '    deep12()')}"
    message = "shop.items.read_item reaches shop.items.deep12 through 13 calls, more than docgen follows (12)"
    cut(root, located, message)


def helper_chain(tmp_path: Path, top: int) -> Path:
    """An errors catalog whose endpoint calls `h<top>`, which calls down to `h13`, which builds the error."""
    chain = "".join(f"\ndef h{i}(r):\n    return h{i + 1}(r)\n" for i in range(13))
    bottom = "\ndef h13(r):\n    return _rpc_error(None, -32000, 'Deep', status=400)\n"
    source = f"{chain}{bottom}\ndef endpoint(r):\n    return h{top}(r)\n"
    return make_project(tmp_path, source, extra={"docs/index.md": "# x\n"})


def test_a_helper_at_the_depth_limit_is_documented(tmp_path: Path) -> None:
    root = helper_chain(tmp_path, 2)
    done = docgen(root, "extract")
    assert done.returncode == 0, done.stdout + done.stderr
    [entry] = read_yaml(root / "data" / "errors.yaml", "data/errors.yaml").data["entries"]
    assert (entry["function"], entry["path"]) == ("h13", ["endpoint", *(f"h{i}" for i in range(2, 14))])


def test_a_helper_past_the_depth_limit_is_a_located_error(tmp_path: Path) -> None:
    root = helper_chain(tmp_path, 0)
    located = f"app/server.py:{line_of(root / 'app' / 'server.py', 'return h12(r)')}"
    chain = " -> ".join(["endpoint", *(f"h{i}" for i in range(13))])
    refused(
        root,
        "extract",
        located,
        f"endpoint reaches h12 through 13 calls, more than docgen follows (12): {chain}",
    )


SERVER = "backend/app/mcp_server.py"


def constant(old: str, new: str) -> Callable[[Path], Path]:
    def edit(root: Path) -> Path:
        path = root / SERVER
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {SERVER}: the test needs updating"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        return root

    return edit


FOLDING_BOMBS = {
    "a constant the catalog and templates use": (
        constant("MAX_BODY_BYTES = 256 * 1024", "MAX_BODY_BYTES = 9 ** 9 ** 9"),
        "MAX_BODY_BYTES = 9",
        "MAX_BODY_BYTES: `9 ** 9 ** 9` is too large to fold: the result would have at least 1,162,261,468 "
        "bits; docgen folds constants up to 4,096 bits",
    ),
    "a constant nothing uses": (
        constant("MAX_BODY_BYTES = 256 * 1024", "MAX_BODY_BYTES = 256 * 1024\nUNUSED = 'x' * 10**10"),
        "UNUSED = ",
        "UNUSED: `'x' * 10 ** 10` is too large to fold: it would make 10,000,000,000 items",
    ),
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case", FOLDING_BOMBS.values(), ids=FOLDING_BOMBS)
def test_a_folding_bomb_is_a_located_error(
    tmp_path: Path, case: tuple[Callable[[Path], Path], str, str], command: str
) -> None:
    edit, needle, message = case
    root = edit(copy_project(REPO_ROOT, tmp_path / "project"))
    refused(root, command, f"{SERVER}:{line_of(root / SERVER, needle)}", message)


# Item 6: what used to end in an internal fault (exit 4) or in a message without a line.

USES_CODE = """\
from app.codes import CODE

def endpoint(request_id):
    return _rpc_error(request_id, CODE, "boom")
"""

USE = ("app/server.py", "from app.codes import CODE")
"""The import of CODE in the server, which the message names when the chain breaks there."""


def re_exports(hops: int) -> dict[str, str]:
    files = {"app/codes.py": "from app.hop0 import CODE\n", f"app/hop{hops}.py": "CODE = -32000\n"}
    files.update({f"app/hop{i}.py": f"from app.hop{i + 1} import CODE\n" for i in range(hops)})
    return files


IMPORTS: dict[str, tuple[dict[str, str], tuple[str, str], str]] = {
    "a module that imports its own name": (
        {"app/codes.py": "from app.codes import CODE\n"},
        ("app/codes.py", "from app.codes import CODE"),
        "CODE is imported from app.codes, which imports CODE from itself and defines no CODE",
    ),
    "a cycle of star imports": (
        {"app/codes.py": "from app.other import *\n", "app/other.py": "from app.codes import *\n"},
        USE,
        "CODE is imported from app.codes.CODE, but app.codes does not define CODE (nor do the modules it "
        "star-imports: app.other), so the import fails when the server runs",
    ),
    "a package that is not installed": (
        {"app/codes.py": "\nfrom not_installed_anywhere import CODE\n"},
        ("app/codes.py", "from not_installed_anywhere"),
        "CODE is imported from not_installed_anywhere.CODE, but not_installed_anywhere is not in the source "
        "nor installed in the environment docgen reads",
    ),
    "an import cycle": (
        {"app/codes.py": "from app.other import CODE\n", "app/other.py": "from app.codes import CODE\n"},
        USE,
        "CODE is imported in a cycle (app.codes.CODE -> app.other.CODE -> app.codes.CODE): the modules "
        "app.codes, app.other import it from each other and none defines it",
    ),
    "a re-export chain over 64 hops": (
        re_exports(70),
        USE,
        "CODE is imported through more than 64 names (re-exported from module to module, starting with this "
        "import of app.codes.CODE); docgen follows at most 64",
    ),
}


def import_project(root: Path, files: dict[str, str]) -> Path:
    return make_project(root, USES_CODE, extra={"docs/index.md": "# Errors\n", **files})


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case", IMPORTS.values(), ids=IMPORTS)
def test_an_import_that_leads_nowhere_is_a_located_error(
    tmp_path: Path, case: tuple[dict[str, str], tuple[str, str], str], command: str
) -> None:
    files, (file, needle), message = case
    root = import_project(tmp_path, files)
    refused(root, command, f"{file}:{line_of(root / file, needle)}", message)


def test_a_re_export_chain_at_the_limit_is_followed(tmp_path: Path) -> None:
    root = import_project(tmp_path, re_exports(60))
    assert docgen(root, "extract").returncode == 0
    assert "code: -32000" in (root / "data" / "errors.yaml").read_text(encoding="utf-8")


def test_a_name_from_a_star_import_is_followed(tmp_path: Path) -> None:
    files = {"app/codes.py": "from app.other import *\n", "app/other.py": "CODE = -32001\n"}
    root = import_project(tmp_path, files)
    assert docgen(root, "extract").returncode == 0
    assert "code: -32001" in (root / "data" / "errors.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("command", ["check", "render"])  # extract does not read the document
def test_a_100000_digit_number_in_the_openapi_document_is_a_located_error(
    tmp_path: Path, command: str
) -> None:
    root = shop_project(tmp_path)
    document = root / "openapi.json"
    text = document.read_text(encoding="utf-8")
    document.write_text(text.replace('"version": "1.0.0"', f'"version": "1.0.0",\n"x-n": {"9" * 100_000}'))
    message = "a number of 100,000 digits; docgen reads integers of at most 1,234 digits here"
    refused(root, command, f"openapi.json:{line_of(document, 'x-n')}", message)


def test_a_route_helper_re_exported_past_the_limit_is_a_located_error(tmp_path: Path) -> None:
    root = shop_project(tmp_path)
    shop = root / "shop"
    for index in range(70):
        (shop / f"hop{index}.py").write_text(f"from shop.hop{index + 1} import helper\n", encoding="utf-8")
    (shop / "hop70.py").write_text(
        "from fastapi import HTTPException\n\n\ndef helper() -> None:\n"
        '    raise HTTPException(status_code=418, detail="I am a teapot")\n',
        encoding="utf-8",
    )
    items = shop / "items.py"
    text = items.read_text(encoding="utf-8")
    old = "    return find_item(item_id)\n"
    assert old in text
    text = text.replace(old, "    helper()\n" + old, 1)
    items.write_text("from shop.hop0 import helper\n" + text, encoding="utf-8")
    message = (
        "`helper` is imported through more than 64 names (a cycle of imports, or re-exported from module"
    )
    refused(root, "check", f"shop/items.py:{line_of(items, '    helper()')}", message)


def test_a_package_past_the_module_limit_is_a_located_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bound (5,000 modules) lowered to 3 in process, so that the test writes a few files only."""
    monkeypatch.setattr(program, "MAX_MODULES", 3)
    root = shop_project(tmp_path)
    with pytest.raises(SourceError) as caught:
        run_extract_in_memory(root)
    assert caught.value.file is not None and caught.value.file.startswith("shop/")
    assert caught.value.line is not None
    assert "leads to more than 3 modules of shop through its imports" in caught.value.message


def test_a_method_looked_for_past_the_base_class_limit_is_a_located_error(tmp_path: Path) -> None:
    classes = (
        "class C0:\n    def check(self, r):\n        return _rpc_error(None, -32000, 'Deep', status=400)\n"
    )
    classes += "".join(f"\nclass C{i + 1}(C{i}):\n    pass\n" for i in range(10))
    server = f"{classes}\nclass Handler(C10):\n    def endpoint(self, r):\n        return self.check(r)\n"
    root = make_project(tmp_path, server, functions="Handler.endpoint", extra={"docs/index.md": "# x\n"})
    # The first class whose methods are listed is C9 (a call may name `C9.method`): C1 is 8 levels above it.
    located = f"app/server.py:{line_of(root / 'app' / 'server.py', 'class C1(C0)')}"
    refused(
        root,
        "extract",
        located,
        "looking for a method, docgen went 8 levels of base classes up to app.server.C1",
    )


def forwarding_classes(levels: int) -> str:
    """`ApiError`, then `levels` subclasses each passing its arguments on through `super().__init__`."""
    text = "class ApiError(Exception):\n"
    text += "    def __init__(self, request_id, code, message, status=400, data=None):\n"
    text += "        super().__init__(message)\n"
    text += "\nclass S0(ApiError):\n    def __init__(self, request_id, message):\n"
    text += "        super().__init__(request_id, -32000, message)\n"
    for index in range(1, levels):
        text += f"\nclass S{index}(S{index - 1}):\n    def __init__(self, request_id, message):\n"
        text += "        super().__init__(request_id, message)\n"
    return text + f"\ndef endpoint(request):\n    raise S{levels - 1}(None, 'Deep')\n"


def test_arguments_passed_on_past_the_forwarding_limit_are_a_located_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten classes deep is past the base-class limit first (the CLI reports that one); with that limit
    raised in process, the forwarding limit (8) is what stops extract."""
    monkeypatch.setattr(targets, "MAX_BASE_DEPTH", 20)
    root = make_project(tmp_path, forwarding_classes(10), constructors="ApiError")
    with pytest.raises(SourceError) as caught:
        run_extract_in_memory(root)
    assert (caught.value.file, caught.value.line) == ("app/server.py", line_of(root / SERVER_PY, "raise S9("))
    assert "of S9() is passed on through more than 8 super().__init__ calls" in caught.value.message


SERVER_PY = Path("app/server.py")


TABLES_SERVER = """\
from app.tables import T0

class BadInput(Exception):
    pass

def endpoint(request):
    handler = T0.get(request.method)
    try:
        result = handler(request.params)
    except BadInput as exc:
        return _rpc_error(None, -32602, f"Invalid params: {exc}", status=200)
    return result
"""


def nested_tables(levels: int) -> str:
    """`T0 = {**T1}`, ..., down to a table of one function that raises BadInput."""
    text = "from app.server import BadInput\n\ndef get(params):\n    raise BadInput('no')\n"
    text += f"\nT{levels} = {{'get': get}}\n"
    return text + "".join(f"T{i} = {{**T{i + 1}}}\n" for i in reversed(range(levels)))


def test_dispatch_tables_nested_past_the_limit_are_a_located_error(tmp_path: Path) -> None:
    extra = {"app/tables.py": nested_tables(7), "docs/index.md": "# x\n"}
    root = make_project(tmp_path, TABLES_SERVER, extra=extra)
    located = f"app/server.py:{line_of(root / 'app' / 'server.py', '    try:')}"
    refused(root, "extract", located, "the dispatch table T0 includes tables (`**OTHER`) more than 4 deep")


def test_dispatch_tables_at_the_limit_are_followed(tmp_path: Path) -> None:
    root = make_project(tmp_path, TABLES_SERVER, extra={"app/tables.py": nested_tables(4)})
    [entry] = run_extract_in_memory(root).catalogs["errors"].as_data()["entries"]
    assert [(site["file"], site["function"]) for site in entry["raises"]] == [("app/tables.py", "get")]
    assert entry["raises_scope"] == "reachable"  # found through the tables, not by the search anywhere


@pytest.mark.parametrize("command", COMMANDS)
def test_a_100000_digit_number_in_the_notes_is_a_located_error(tmp_path: Path, command: str) -> None:
    root = copy_project(REPO_ROOT, tmp_path / "project")
    notes = root / "data" / "mcp-errors.notes.yaml"
    with notes.open("a", encoding="utf-8") as stream:
        stream.write(f"x-n: {'9' * 100_000}\n")
    located = f"data/mcp-errors.notes.yaml:{line_of(notes, 'x-n: 9')}"
    refused(
        root, command, located, "an integer of 100,000 digits; docgen reads integers of at most 4,300 digits"
    )


def test_an_exception_with_too_many_ancestors_is_a_located_error(tmp_path: Path) -> None:
    root = shop_project(tmp_path)
    errors = root / "shop" / "errors.py"
    chain = "".join(f"\n\nclass Deep{i + 1}(Deep{i}):\n    pass\n" for i in range(70))
    errors.write_text(errors.read_text(encoding="utf-8") + "\n\nclass Deep0(Exception):\n    pass\n" + chain)
    items = root / "shop" / "items.py"
    text = items.read_text(encoding="utf-8")
    old = "    return find_item(item_id)\n"
    assert old in text
    text = text.replace(old, "    raise errors.Deep70()\n" + old, 1)
    items.write_text("from shop import errors\n" + text, encoding="utf-8")
    located = f"shop/errors.py:{line_of(errors, 'class Deep70(')}"
    refused(root, "check", located, "the class shop.errors.Deep70 has more than 64 classes among its bases")


def test_an_exception_with_too_many_bases_is_a_located_error(tmp_path: Path) -> None:
    bases = "".join(f"\nclass B{i}(Exception):\n    pass\n" for i in range(70))
    wide = f"\nclass Wide({', '.join(f'B{i}' for i in range(70))}):\n    pass\n"
    server = f"""{bases}{wide}
def endpoint(request):
    try:
        raise Wide()
    except B0:
        return _rpc_error(None, -32602, "Invalid", status=200)
"""
    root = make_project(tmp_path, server, extra={"docs/index.md": "# x\n"})
    located = f"app/server.py:{line_of(root / 'app' / 'server.py', 'class Wide(')}"
    refused(root, "extract", located, "the class app.server.Wide has more than 64 classes among its bases")
