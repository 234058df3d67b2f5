"""Session files are the person's own: they hold every task, answer and model reply. They are
created readable and writable by their owner alone (0600), as the server's token file is, in a
folder made for the owner alone (0700) when agentui makes it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700


def make_private_folder(folder: Path) -> None:
    """Make `folder` (and its parents) for the owner alone; one that exists is left as it is."""
    folder.mkdir(parents=True, exist_ok=True, mode=PRIVATE_FOLDER)


def create_private(path: Path) -> IO[bytes]:
    """A new file at `path`, open for writing, 0600 whatever the umask lets through wider;
    FileExistsError when there is one already (the caller draws another name)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    try:
        return os.fdopen(descriptor, "wb")
    except BaseException:
        os.close(descriptor)
        raise


def write_private(path: Path, text: str) -> None:
    """`text` as the whole of a new file at `path`, 0600 (one left there before is replaced)."""
    path.unlink(missing_ok=True)
    with create_private(path) as file:
        file.write(text.encode("utf-8"))
