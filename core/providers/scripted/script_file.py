"""Reading a script file: apart from what it holds (script.py, which loads pydantic), so that the
app can say a script it cannot read before its first frame, not a moment after."""

from __future__ import annotations

from pathlib import Path

from agentui.core.support.errors import ScriptError


def read_script(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ScriptError(f"cannot read script {path}: {exc.strerror}") from None
