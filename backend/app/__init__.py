"""Application package of the Connect MCP server."""
