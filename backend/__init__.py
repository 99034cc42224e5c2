"""The Connect MCP server that docgen documents (see backend/app/mcp_server.py)."""
