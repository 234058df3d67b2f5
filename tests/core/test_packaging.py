"""`pip install .` (the README's command) installs every package and data file of the source
tree: the package list in pyproject.toml is written out, and an editable install (the tests')
would find a forgotten folder anyway, so this compares the list with the folders.

A folder of data files (no __init__.py: the built-in profiles, the shipped scenes) is listed as a
package too, with its files as that package's data: setuptools warns at every install about a
data folder inside a package that is not in the list."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def source_folders() -> dict[str, Path]:
    """Every folder of the mapped trees that holds a file, by its package name."""
    found: dict[str, Path] = {}
    for package, folder in SETUPTOOLS["package-dir"].items():
        top = ROOT / folder
        for file in top.rglob("*"):
            if file.is_file() and "__pycache__" not in file.parts:
                relative = file.parent.relative_to(top)
                found[".".join([package, *relative.parts])] = file.parent
    return found


def test_every_package_folder_is_in_the_package_list() -> None:
    listed = set(SETUPTOOLS["packages"])
    on_disk = set(source_folders())
    assert on_disk - listed == set(), "add these to [tool.setuptools] packages"
    assert listed - on_disk == set(), "these listed packages have no folder"


def test_every_data_file_is_its_own_package_s_data() -> None:
    """Each file that is not Python is matched by a package-data glob of the package (folder)
    that holds it, never by a path into a subfolder (which makes that subfolder unlisted)."""
    data = SETUPTOOLS["package-data"]
    assert all("/" not in glob for globs in data.values() for glob in globs)
    unshipped = [
        str(file.relative_to(ROOT))
        for package, folder in source_folders().items()
        for file in folder.iterdir()
        if file.is_file()
        and file.suffix not in (".py", ".pyc")
        and not any(fnmatch(file.name, glob) for glob in data.get(package, []))
    ]
    assert unshipped == [], "add these to [tool.setuptools.package-data]"
