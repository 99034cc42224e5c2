"""The errors catalog kind: every error a server's configured functions can answer with, read from the calls
of its error constructors (`kind` is the adapter; `check` and `render` its stage parts)."""

from generator.kinds.errors.kind import KIND as KIND
