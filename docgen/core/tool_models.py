"""A tools catalog as a typed value: the tools, resources and prompts a server publishes (`Tool`), each
with the parameters a client passes (`Parameter`).

`from_data` reads data that has already passed the tools catalog's JSON Schema, so it trusts its types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any, Literal

from docgen.core.model_base import Json, Source
from docgen.core.records import record


@record
class Parameter:
    """A parameter of a tool, resource or prompt, as a client passes it."""

    name: str
    type: str
    required: bool
    default: Json
    description: str

    def as_data(self) -> dict[str, Json]:
        return {
            "name": self.name,
            "type": self.type,
            "required": self.required,
            "default": self.default,
            "description": self.description,
        }


@record
class Tool:
    """A tool, resource or prompt the server publishes, read from its decorator and docstring."""

    name: str
    function: str
    description: str
    parameters: tuple[Parameter, ...]
    uri_template: str | None = None
    """Resources only: the URI they answer."""

    def as_data(self) -> dict[str, Json]:
        data: dict[str, Json] = {"name": self.name, "function": self.function}
        if self.uri_template is not None:
            data["uri_template"] = self.uri_template
        data["description"] = self.description
        data["parameters"] = [parameter.as_data() for parameter in self.parameters]
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Tool:
        return cls(
            name=data["name"],
            function=data["function"],
            description=data["description"],
            parameters=tuple(Parameter(**parameter) for parameter in data["parameters"]),
            uri_template=data.get("uri_template"),
        )


TOOL_KINDS = ("tools", "resources", "prompts")


@record
class ToolsCatalog:
    """The tools, resources and prompts a server publishes, each list in source order."""

    name: str
    sources: tuple[Source, ...]
    tools: tuple[Tool, ...]
    resources: tuple[Tool, ...]
    prompts: tuple[Tool, ...]
    kind: Literal["tools"] = field(default="tools", init=False)

    def items(self, kind: str) -> tuple[Tool, ...]:
        """The list of one of `TOOL_KINDS`."""
        lists = {"tools": self.tools, "resources": self.resources, "prompts": self.prompts}
        return lists[kind]

    def as_data(self) -> dict[str, Json]:
        data: dict[str, Json] = {
            "catalog": self.name,
            "kind": self.kind,
            "sources": [source.as_data() for source in self.sources],
        }
        for kind in TOOL_KINDS:
            data[kind] = [item.as_data() for item in self.items(kind)]
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ToolsCatalog:
        lists = {kind: tuple(Tool.from_data(item) for item in data[kind]) for kind in TOOL_KINDS}
        return cls(
            name=data["catalog"],
            sources=tuple(Source.from_data(source) for source in data["sources"]),
            tools=lists["tools"],
            resources=lists["resources"],
            prompts=lists["prompts"],
        )
