"""Code for the sandbox tests that tries one thing and says how it went, in one line."""

from __future__ import annotations


def attempt(label: str, action: str) -> str:
    """Code that prints `label: ok` if `action` works, else `label: <exception name>`."""
    return (
        f"try:\n    {action}\n    print('{label}: ok')\n"
        f"except Exception as exc:\n    print('{label}:', type(exc).__name__)\n"
    )
