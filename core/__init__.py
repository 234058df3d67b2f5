"""agentui.core: the agent runtime. Pure asyncio/anyio + pydantic; never imports the front end."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("agentui")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"
