"""The tools catalog kind: the tools, resources and prompts an MCP server registers with its decorators
(`kind` is the adapter; `extract` and `regions` its stage parts; `drift` is what check finds)."""

from docgen.kinds.tools.kind import KIND as KIND
