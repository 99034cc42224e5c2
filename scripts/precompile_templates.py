"""Write docgen/templating/compiled/: the code docgen's environment generates for each packaged template.

Run it after changing a template in docgen/templating/builtin/, the sandbox's code generator or the pinned
Jinja (tests/templating/test_precompiled.py fails until it is run):

    .venv/bin/python scripts/precompile_templates.py            # write the folder
    .venv/bin/python scripts/precompile_templates.py --check    # exit 1, naming each stale file
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from docgen.render.environment import make_environment
from docgen.templating import precompiled
from docgen.templating.packaged import PACKAGED, packaged_templates

FOLDER = Path(precompiled.__file__).resolve().parent / "compiled"


def expected() -> dict[str, str]:
    """File name -> text the folder should hold for today's templates, environment and Jinja."""
    environment = make_environment({})
    environment.bytecode_cache = None  # the code itself, never a cached copy of it
    return precompiled.generate(environment, packaged_templates(), PACKAGED)


def stale(folder: Path = FOLDER, wanted: dict[str, str] | None = None) -> list[str]:
    """The files of `folder` that differ from what they should hold (`wanted`, by default `expected()`), are
    missing, or should not be there."""
    wanted = expected() if wanted is None else wanted
    present = {path.name for path in folder.glob("*.py")} if folder.is_dir() else set()
    differ = [n for n, text in wanted.items() if not _holds(folder / n, text)]
    return sorted({*differ, *(present - set(wanted))})


def _holds(path: Path, text: str) -> bool:
    return path.is_file() and path.read_text(encoding="utf-8") == text


def write(folder: Path = FOLDER) -> list[str]:
    """Bring `folder` up to date; the names of the files written or removed."""
    wanted = expected()
    changed = stale(folder, wanted)
    folder.mkdir(exist_ok=True)
    for name in changed:
        if name in wanted:
            (folder / name).write_text(wanted[name], encoding="utf-8")
        else:
            (folder / name).unlink()
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the folder is stale")
    options = parser.parse_args(argv)
    changed = stale() if options.check else write()
    verb = "stale" if options.check else "written"
    for name in changed:
        print(f"docgen/templating/compiled/{name}: {verb}")
    return 1 if options.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
