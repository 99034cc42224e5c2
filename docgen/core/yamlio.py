"""YAML in and out: line-aware loading with located errors, and byte-stable dumping. The files themselves
are read within docgen's limits by `reader`."""

from __future__ import annotations

import io
from dataclasses import field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from docgen.core import yaml_cache, yamlnodes
from docgen.core import yamlbounds as bounds
from docgen.core.errors import CatalogError, DocgenError
from docgen.core.limits import YAML_MAX_DEPTH
from docgen.core.reader import read_text
from docgen.core.records import record

Path_ = tuple[str | int, ...]


class _TolerantLoader(yaml.SafeLoader):
    """SafeLoader that reads unknown tags (mkdocs.yml's `!!python/name:`, `!ENV`) as plain values."""


def _construct_unknown(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_mapping(node)  # type: ignore[arg-type]


_TolerantLoader.add_multi_constructor("!", _construct_unknown)
_TolerantLoader.add_multi_constructor("tag:yaml.org,2002:python/", _construct_unknown)

if hasattr(yaml, "CSafeLoader"):

    class _FastLoader(yaml.CSafeLoader):
        """The same loader on libyaml's parser (PyYAML's wheels include it): many times faster."""

    _FastLoader.add_multi_constructor("!", _construct_unknown)
    _FastLoader.add_multi_constructor("tag:yaml.org,2002:python/", _construct_unknown)
    _LOADERS: tuple[type[Any], ...] = (_FastLoader, _TolerantLoader)
else:  # pragma: no cover
    _LOADERS = (_TolerantLoader,)


@record
class LoadedYaml:
    """A parsed YAML document; the line of every key and item is found when an error message asks for one."""

    data: Any
    file: str
    text: str = ""
    loader: type[Any] = field(default=_LOADERS[-1], repr=False, compare=False)
    """The loader that parsed `text`, so that lines come from the same parser as the data."""

    @cached_property
    def lines(self) -> dict[Path_, int]:
        """The line of every key and item, by path.

        Recorded on first use rather than while loading: it means composing the document again, but only an
        error or a finding ever asks for a line, and nearly every file docgen reads has neither.
        """
        lines: dict[Path_, int] = {}
        loader = self.loader(self.text)
        try:
            node = loader.get_single_node()
            if node is not None:
                _record_lines(node, (), lines)
        finally:
            loader.dispose()
        return lines

    def line(self, path: Path_) -> int | None:
        """The line of the key or item at `path` (keys as text, items by index); None when there is none.

        The one way docgen finds where something is written in a YAML file, for findings and errors alike.
        """
        return self.lines.get(tuple(path))

    def line_of(self, path: Path_) -> int:
        """The line of `path`, or of its nearest ancestor that has one (the first line at worst): for an
        error about something that may be missing, such as a required key."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return 1


def load_yaml(
    text: str, file: str | Path, *, error: type[DocgenError] = CatalogError, aliases: bool = False
) -> LoadedYaml:
    """Parse `text`; a syntax error, or a shape docgen refuses (docgen/core/yamlbounds.py), becomes
    `error` located at `file:line`.

    `aliases=True` (for mkdocs.yml only) lets anchors and aliases through, bounded; docgen's own files may
    have none. A large text parsed cleanly by an earlier run is taken from docgen/core/yaml_cache.py.
    """
    variant = f"aliases={aliases}|loaders={len(_LOADERS)}"
    kept = yaml_cache.get(text, variant)
    if kept is not None and 0 <= kept[1] < len(_LOADERS):
        return LoadedYaml(data=kept[0], file=str(file), text=text, loader=_LOADERS[kept[1]])
    loader = _LOADERS[0]
    try:
        bounds.refuse_deep_brackets(text)
        try:
            data = _parse(text, loader, aliases=aliases)
        except yaml.YAMLError:
            # libyaml words some errors differently: the pure-Python parser reports them as it always has.
            loader = _LOADERS[-1]
            data = _parse(text, loader, aliases=aliases)
    except bounds.Refused as err:
        raise error(err.message, file=file, line=err.line, hint=err.hint) from err
    except RecursionError as err:
        refused = bounds.too_deep(None)
        raise error(refused.message, file=file, hint=refused.hint) from err
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        problem = err.problem or err.context or "malformed YAML"
        raise error(
            f"invalid YAML: {problem}",
            file=file,
            line=mark.line + 1 if mark else None,
            hint="fix the YAML syntax at that line (indentation, quoting, a missing colon)",
        ) from err
    except (yaml.YAMLError, ValueError) as err:  # ValueError: an integer too long to read
        long = bounds.long_integer(text) if isinstance(err, ValueError) else None
        if long is not None:
            raise error(long.message, file=file, line=long.line, hint=long.hint) from err
        raise error(f"invalid YAML: {err}", file=file) from err
    yaml_cache.put(text, variant, data, _LOADERS.index(loader))
    return LoadedYaml(data=data, file=str(file), text=text, loader=loader)


def _parse(text: str, loader_class: type[Any], *, aliases: bool) -> Any:
    """The data of `text`, without lines (LoadedYaml.lines finds them again from the text when asked)."""
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        anchor = bounds.anchor_line(text, loader_class) if "&" in text else None
        if anchor is not None and not aliases:
            bounds.refuse_anchors(text, loader_class)
        if anchor is None:
            try:
                return _plain(node, loader, 0)  # no alias, so every node is built once, as in a tree
            except _NotPlain:
                pass
        bounds.check_expansion(node, anchor)  # aliases followed, depth and duplicate keys, as `_plain` does
        return loader.construct_document(node)
    finally:
        loader.dispose()


_STR, _MAP, _SEQ = (f"tag:yaml.org,2002:{name}" for name in ("str", "map", "seq"))
_SPECIAL_KEYS = {"tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"}


class _NotPlain(Exception):
    """The document has a node `_plain` leaves to PyYAML's constructor (a merge key, a tagged collection)."""


def _plain(node: yaml.Node, loader: Any, depth: int) -> Any:
    """The data of a document of plain mappings, lists and scalars, built straight from its nodes.

    PyYAML's constructor does the same in five times the time: it remembers every node (for aliases) and
    builds each collection in two steps (for recursive ones). Without anchors neither can happen. Scalars
    other than strings are still built by the loader, so `404`, `yes` and `~` read as they always have.
    """
    if isinstance(node, yaml.ScalarNode):
        return node.value if node.tag == _STR else loader.construct_object(node)
    if depth >= YAML_MAX_DEPTH:
        raise bounds.too_deep(node.start_mark.line + 1)
    if isinstance(node, yaml.SequenceNode) and node.tag == _SEQ:
        return [_plain(item, loader, depth + 1) for item in node.value]
    if not (isinstance(node, yaml.MappingNode) and node.tag == _MAP):
        raise _NotPlain  # a tagged collection (`!!set`, `!ENV [...]`), or a tag at odds with its node
    mapping: dict[Any, Any] = {}
    key_lines: dict[Any, int] = {}
    for key, value in node.value:
        if not isinstance(key, yaml.ScalarNode) or key.tag in _SPECIAL_KEYS:
            raise _NotPlain  # a merge key, or a list or mapping as a key (which PyYAML rejects, located)
        name = _plain(key, loader, depth + 1)
        if name in mapping:
            raise bounds.duplicate_key(key.value, key_lines[name], key.start_mark.line + 1)
        key_lines[name] = key.start_mark.line + 1
        mapping[name] = _plain(value, loader, depth + 1)
    return mapping


def _record_lines(node: yaml.Node, path: Path_, lines: dict[Path_, int]) -> None:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            child = (*path, str(key.value))
            lines[child] = key.start_mark.line + 1
            _record_lines(value, child, lines)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _record_lines(item, (*path, index), lines)


def read_yaml(
    path: Path,
    display: str,
    *,
    error: type[DocgenError] = CatalogError,
    aliases: bool = False,
    within: Path | None = None,
) -> LoadedYaml:
    """Read and parse a YAML file; unreadable or non-UTF-8 files become `error` too."""
    text = read_text(path, display, error=error, within=within)
    return load_yaml(text, display, error=error, aliases=aliases)


class _StableDumper(yaml.SafeDumper):
    """Block style, no aliases, multi-line strings as literal blocks."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _represent_str(dumper: yaml.representer.SafeRepresenter, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_StableDumper.add_representer(str, _represent_str)
_StableDumper.add_representer(tuple, yaml.SafeDumper.represent_list)
_DUMPERS: list[type[Any]] = [_StableDumper]

if hasattr(yaml, "CSafeDumper"):

    class _FastDumper(yaml.CSafeDumper):
        """The same dumper on libyaml's emitter, many times faster."""

        def ignore_aliases(self, data: Any) -> bool:
            return True

    _FastDumper.add_representer(str, _represent_str)
    _FastDumper.add_representer(tuple, yaml.SafeDumper.represent_list)
    _DUMPERS.append(_FastDumper)


def _one_line_ascii(data: Any) -> bool:
    """Whether every string in `data`, keys included, is printable ASCII without a line break.

    On such documents libyaml's emitter writes the very bytes PyYAML's does; it folds and escapes other text
    differently, which would change committed catalogs.
    """
    if isinstance(data, str):
        return data.isascii() and data.isprintable()
    if isinstance(data, dict):
        return all(_one_line_ascii(key) and _one_line_ascii(value) for key, value in data.items())
    if isinstance(data, list | tuple):
        return all(_one_line_ascii(item) for item in data)
    return True


def dump_yaml(data: Any, *, header: str = "") -> str:
    """Dump `data` the same way every time: insertion order kept, fixed width, a comment header.

    What `yaml.dump` does, but docgen/yamlnodes.py builds the nodes, in half the representer's time.
    """
    stream = io.StringIO()
    dumper_class = _DUMPERS[-1] if _one_line_ascii(data) else _DUMPERS[0]
    dumper = dumper_class(
        stream, sort_keys=False, default_flow_style=False, allow_unicode=True, width=100, indent=2
    )
    try:
        dumper.open()
        dumper.serialize(yamlnodes.represent(dumper, data))
        dumper.close()
    finally:
        dumper.dispose()
    return header + stream.getvalue()
