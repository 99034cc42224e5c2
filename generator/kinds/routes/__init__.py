"""The routes catalog kind: the operations of an HTTP application and every error each can answer with,
read through its web framework (`kind` is the adapter; `check` and `render` its stage parts)."""

from generator.kinds.routes.kind import KIND as KIND
