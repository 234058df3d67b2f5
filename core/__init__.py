"""agentui.core: the agent runtime. Pure asyncio/anyio + pydantic; never imports the front end."""


def __getattr__(name: str) -> str:
    # Looked up when asked for (`--version`): importing importlib.metadata would slow every start.
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("agentui")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0.0.0+unknown"
