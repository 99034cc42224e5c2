"""The routes catalog kind: the operations of an HTTP application and every error each can answer with,
read through its web framework.

`kind` is the adapter; `extract`, `check` and `regions` are its stage parts; `catalog` builds the catalog and
keeps its ids; `findings` is what check finds (operations and errors changed, the OpenAPI fragment and the
committed document); `openapi` is the fragment written beside the catalog and the statuses a committed
document lists; `evidence` holds the catalog to what probe recorded of its examples.
"""

from docgen.kinds.routes.kind import KIND as KIND
