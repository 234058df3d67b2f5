"""The Landlock rules for one run of model code: what it may read, write and use of /dev.

Read (and run) only: the system's programs and libraries, a short list of files under /etc
that programs read to start (the dynamic linker's cache, time zone, users' names, TLS roots),
the Python installation, and the binding that applies the rules (landlockpy). Written: the
run's own temporary directory, and nothing else but the harmless devices (/dev/null, ...).
Everything else, the person's home, agentui's sessions and /proc among them, is out of reach.
Under bubblewrap /proc is the sandbox's own (a fresh procfs of its pid namespace): readable.

The sandbox child applies them (sandbox_child.py); agentui only writes them down, as JSON.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentui.core.tools.bubblewrap import python_places

SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What programs (Python, a shell, libc) read at start or for names, times and certificates;
# never the shadow files, keys or a user's configuration.
ETC = (
    "alternatives",
    "ca-certificates",
    "ssl",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "timezone",
    "nsswitch.conf",
    "passwd",
    "group",
    "hosts",
    "host.conf",
    "gai.conf",
    "protocols",
    "services",
    "mime.types",
    "locale.alias",
    "os-release",
    "python3",
)
DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom")


def library_path() -> Path:
    """The directory to put on sys.path to import landlockpy (where it is installed)."""
    import landlockpy  # only once Landlock is known to be there (sandbox_probe.landlock_abi)

    return Path(landlockpy.__file__).resolve().parent.parent


def rules(workdir: str, executable: str, *, own_proc: bool) -> dict[str, Any]:
    """The rules for a run in `workdir` on `executable`; `own_proc`: /proc shows only the
    sandbox's processes (bubblewrap), so it may be read."""
    read = [*SYSTEM, *(f"/etc/{name}" for name in ETC)]
    read += [str(place) for place in python_places(executable)]
    read.append(str(library_path()))
    if own_proc:
        read.append("/proc")
    return {
        "library": str(library_path()),
        "read": read,
        "write": [str(Path(workdir).resolve())],
        "devices": list(DEVICES),
    }
