"""Tools from MCP servers (stdio and streamable HTTP), named `SERVER__tool` in the registry."""
