"""The routes catalog kind: the operations of an HTTP application and every error each can answer with,
read through its web framework (`kind` is the adapter; `extract`, `check` and `regions` its stage parts;
`findings` what check finds: operations and errors changed, the OpenAPI fragment and the committed
document)."""

from generator.kinds.routes.kind import KIND as KIND
