"""Check that the tests pin every finding: remove one producer at a time and expect the suite to fail.

    .venv/bin/python scripts/mutate_findings.py            # every producer of every kind (about 10 minutes)
    .venv/bin/python scripts/mutate_findings.py notes-gap  # the producers of some kinds only
    .venv/bin/python scripts/mutate_findings.py raise-added -- tests/check  # against some tests only

A producer is each place in docgen/check/ or docgen/kinds/ that names a finding kind
(`Kind.NOTES_GAP`): the `yield Finding(...)` statement around it is replaced by `pass`, or, where kinds sit
in a table (the facts drift compares, the fields a contract covers), that row is taken out. The tests run
with `-x` after each removal (the browser test aside); a removal the tests do not notice is printed as
SURVIVED and the script exits 1.
Every file is restored afterwards, whatever happens.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECK = ROOT / "docgen" / "check"
KINDS = ROOT / "docgen" / "kinds"
"""The catalog kinds produce the findings about their own catalogs (docgen/kinds/errors/evidence.py)."""
sys.path.insert(0, str(ROOT))

from docgen.core.findings import Kind  # noqa: E402


@dataclass(frozen=True)
class Producer:
    """Lines of one file that produce a finding of `kind`, and what they become when removed."""

    kind: Kind
    file: Path
    first: int
    last: int
    replacement: str

    def label(self) -> str:
        return f"{self.kind.value} ({self.file.relative_to(ROOT)}:{self.first})"


def producers(path: Path) -> Iterator[Producer]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Kind":
            yield _removal(Kind[node.attr], node, parents, path)


def _removal(kind: Kind, node: ast.AST, parents: dict[ast.AST, ast.AST], path: Path) -> Producer:
    """The smallest removal that silences this producer: its table row, else its statement."""
    child, parent = node, parents[node]
    while not isinstance(parent, ast.stmt):
        if isinstance(parent, ast.Dict):  # a row of a table, whether the kind is its key or its value
            assert isinstance(child, ast.expr)
            index = parent.values.index(child) if child in parent.values else parent.keys.index(child)
            key, value = parent.keys[index], parent.values[index]
            assert key is not None
            return Producer(kind, path, key.lineno, value.end_lineno or key.lineno, "")
        if isinstance(parent, ast.Tuple) and isinstance(parents.get(parent), ast.Tuple | ast.List):
            return Producer(kind, path, parent.lineno, parent.end_lineno or parent.lineno, "")
        child, parent = parent, parents[parent]
    indent = " " * parent.col_offset
    return Producer(kind, path, parent.lineno, parent.end_lineno or parent.lineno, f"{indent}pass\n")


def survives(producer: Producer, paths: list[str]) -> bool:
    """Whether the tests still pass with `producer` removed."""
    original = producer.file.read_text(encoding="utf-8")
    lines = original.splitlines(keepends=True)
    mutated = [*lines[: producer.first - 1], producer.replacement, *lines[producer.last :]]
    try:
        producer.file.write_text("".join(mutated), encoding="utf-8")
        tests = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-m", "not browser"]
        tests += paths
        done = subprocess.run(tests, cwd=ROOT, capture_output=True, text=True, check=False)
    finally:
        producer.file.write_text(original, encoding="utf-8")
    return done.returncode == 0


def main(argv: list[str]) -> int:
    kinds, paths = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    wanted = {Kind(value) for value in kinds} or set(Kind)
    files = [*sorted(CHECK.glob("*.py")), *sorted(KINDS.rglob("*.py"))]
    found = [p for path in files for p in producers(path) if p.kind in wanted]
    unproduced = wanted - {p.kind for p in found}
    for kind in sorted(unproduced):
        print(f"NO PRODUCER {kind.value}")
    survived = []
    for producer in found:
        outcome = survives(producer, paths)
        print(f"{'SURVIVED' if outcome else 'caught  '} {producer.label()}", flush=True)
        if outcome:
            survived.append(producer)
    print(f"{len(found)} producers removed one at a time: {len(found) - len(survived)} caught by the tests")
    return 1 if survived or unproduced else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
