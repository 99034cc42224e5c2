"""The YAML node tree of plain data, built directly rather than through PyYAML's representer.

Dumping a 10,000-entry catalog spent half its time in the representer, which looks up a function by type,
tracks every object for aliases, and weighs a flow style for every mapping, only to build the nodes below.
Here the four types catalogs are made of (mappings, lists, strings and ints) become their nodes exactly as
`yamlio._StableDumper` represents them: no aliases, block style, multi-line strings as literal blocks. Any
other value (and any subclass: a bool, an IntEnum) is handed to the dumper's own representer, so the node,
and so the text, is always the one `yaml.dump` would give (tests/test_yamlio.py compares the two).
"""

from __future__ import annotations

from typing import Any

import yaml

_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"


def represent(dumper: yaml.representer.SafeRepresenter, data: Any) -> yaml.Node:
    """The node `dumper` (made with `default_flow_style=False, sort_keys=False`) would represent `data` by."""
    kind = type(data)
    if kind is str:
        return yaml.ScalarNode(_STR, data, style="|" if "\n" in data else None)
    if kind is int:
        return yaml.ScalarNode(_INT, str(data))
    if kind is dict:
        pairs = [(represent(dumper, key), represent(dumper, value)) for key, value in data.items()]
        return yaml.MappingNode(_MAP, pairs, flow_style=False)
    if kind is list or kind is tuple:
        return yaml.SequenceNode(_SEQ, [represent(dumper, item) for item in data], flow_style=False)
    return dumper.represent_data(data)
