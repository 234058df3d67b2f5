"""The code fingerprint a resume checkpoint is checked against (core/session/checkpoint.py)
reads the core package's sources as os.walk did (it is worked out before a resumed session's
first frame, now from scandir's entries: issue 36): the same files, in the same order, so a
checkpoint taken by this code still stands, and one taken by other code does not."""

from __future__ import annotations

import os
from pathlib import Path

from agentui.core.session import checkpoint
from agentui.core.session.checkpoint import _NOT_IN_A_PLAN, _source_lines


def _as_os_walk_reads_them(root: Path) -> list[str]:
    """The lines as code_fingerprint made them with os.walk and os.path.relpath."""
    lines = []
    for folder, children, files in os.walk(root):
        top = folder == str(root)
        children[:] = sorted(
            c for c in children if c != "__pycache__" and not (top and c in _NOT_IN_A_PLAN)
        )
        for name in sorted(f for f in files if f.endswith(".py")):
            stat = os.stat(os.path.join(folder, name))
            relative = os.path.relpath(os.path.join(folder, name), root)
            lines.append(f"{relative}:{stat.st_size}:{stat.st_mtime_ns}\n")
    return lines


def _lines(root: Path) -> list[str]:
    lines: list[str] = []
    _source_lines(str(root), "", lines, top=True)
    return lines


def test_the_sources_are_read_as_os_walk_read_them(tmp_path: Path) -> None:
    for name in ("a.py", "b.txt", "z.py", "state/run.py", "state/deep/x.py", "state/b.py",
                 "__pycache__/a.cpython-311.pyc", "state/__pycache__/run.py",
                 "providers/p.py", "state/providers/kept.py", "Zeta/upper.py"):  # fmt: skip
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name)
    (tmp_path / "linked").symlink_to(tmp_path / "state")  # a linked folder is not walked into
    (tmp_path / "linked.py").symlink_to(tmp_path / "a.py")  # a linked file is read
    lines = _lines(tmp_path)
    assert lines == _as_os_walk_reads_them(tmp_path)
    assert "state/providers/kept.py" in "".join(lines)  # only the top's providers are left out
    assert not any(line.startswith("providers") for line in lines)


def test_the_core_package_s_fingerprint_is_the_one_os_walk_gave() -> None:
    root = Path(checkpoint.__file__).resolve().parent.parent
    assert _lines(root) == _as_os_walk_reads_them(root)


def test_a_source_that_changes_changes_the_lines(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("one")
    before = _lines(tmp_path)
    (tmp_path / "a.py").write_text("one more")
    assert _lines(tmp_path) != before
