"""The Python tool's side inside its sandboxed process. agentui never imports this module: its
source is run with `python -I -c`, the code to run in `main.py` of the working directory.

File descriptors: 0 brings replies from the runtime, 1 takes requests to it (one JSON object a
line each way); 2 is the output pipe, and the code's stdout is pointed there too, so what it
prints comes back in order. The code finds `fork`, `wait`, `ask_user` and `AgentError` ready to
use (also as `from agentui import fork, wait, ask_user`). Limits are set before the code runs,
soft and hard alike, so the code cannot raise them again.

Before the code runs, in this order (each only where agentui's configuration asks for it):
- a keeper: this process forks; the fork runs the code, the keeper waits for it, kills what it
  left behind (the keeper is a child subreaper, so orphans come back to it) and exits as the
  code did. Without bubblewrap the keeper first takes new user, pid, network and IPC
  namespaces (where the kernel allows them), so the code is the first process of a pid
  namespace of its own: when it ends, the kernel ends every process it started.
- every capability dropped (bounding set, ambient, effective, permitted), root's too;
- limits: CPU, address space, and the number of processes (counted in the sandbox's own user
  namespace, so only the sandbox's processes count);
- Landlock (through landlockpy): read-only access to the system and Python, read-write to the
  working directory only, no TCP bind or connect, signals and abstract unix sockets scoped to
  the sandbox, no_new_privs. If it was asked for and cannot be applied, no code runs.
- a first request, `ready`: agentui reads the sandbox's user namespace from /proc (so it can
  tell the sandbox's processes from its own others) and puts the tree in its cgroup.

On Linux the process dies with agentui (a parent-death signal), adopts whatever its children
leave behind (a child subreaper), and kills every process below it before it exits, those in
a session of their own too. agentui kills the same tree when it stops the code.
"""

from __future__ import annotations

import ast
import contextlib
import ctypes
import json
import os
import resource
import signal
import sys
import threading
import traceback
import types
from typing import Any, TextIO

CODE_FILE = "main.py"
PR_SET_PDEATHSIG = 1
PR_CAPBSET_DROP = 24
PR_SET_CHILD_SUBREAPER = 36
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
MS_NOSUID, MS_NODEV, MS_BIND, MS_REC, MS_PRIVATE = 2, 4, 4096, 16384, 1 << 18
CAPABILITY_VERSION_3 = 0x20080522
LAST_CAPABILITY = 63
# The code as the first process of a pid namespace ignores SIGXCPU (a namespace's init gets no
# signal it has no handler for): its handler exits with this status, which the keeper turns
# back into death by SIGXCPU for agentui.
CPU_EXIT = 128 + signal.SIGXCPU


class AgentError(Exception):
    """A request to the agent runtime failed: fork refused, a subagent failed or was stopped."""


class SandboxSetupError(Exception):
    """The sandbox agentui asked for could not be set up: the code must not run."""


class _Channel:
    def __init__(self, replies: TextIO, requests: TextIO) -> None:
        self._replies = replies
        self._requests = requests
        self._lock = threading.Lock()  # one request at a time, even from threads
        self._last_id = 0

    def call(self, op: str, **fields: Any) -> Any:
        with self._lock:
            self._last_id += 1
            self._requests.write(json.dumps({"id": self._last_id, "op": op, **fields}) + "\n")
            self._requests.flush()
            line = self._replies.readline()
        if not line:
            raise AgentError("the agent runtime is gone")
        reply = json.loads(line)
        if not reply.get("ok"):
            raise AgentError(reply.get("error") or f"{op} failed")
        return reply.get("value")


def _api(channel: _Channel) -> dict[str, Any]:
    def fork(prompt: str, profile: str | None = None) -> str:
        """Start a subagent on `prompt` (a self-contained task), with the named agent profile
        if any; returns its handle."""
        named = None if profile is None else str(profile)
        return str(channel.call("fork", prompt=str(prompt), profile=named))

    def wait(handle: str) -> str:
        """Wait for a forked subagent; its result. Raises AgentError if it did not complete."""
        return str(channel.call("wait", handle=str(handle)))

    def ask_user(question: str) -> str | None:
        """Ask the person and wait for the answer; None when they decline."""
        answer = channel.call("ask_user", question=str(question))
        return None if answer is None else str(answer)

    return {"fork": fork, "wait": wait, "ask_user": ask_user, "AgentError": AgentError}


# -- the process ------------------------------------------------------------------------------


# The C library the interpreter already has loaded, by its own handle: finding it by name
# (ctypes.util.find_library) runs `ldconfig -p` each time, and while places are hidden, nothing
# new can be found anyway.
_LIBC = ctypes.CDLL(None, use_errno=True)


def _prctl(option: int, value: int, arg3: int = 0) -> int:
    if not sys.platform.startswith("linux"):
        return -1
    status: int = _LIBC.prctl(option, value, arg3, 0, 0)
    return status


def _guard(parent: int | None) -> None:
    """Die with `parent` (agentui; None: bubblewrap does that), adopt the code's orphans."""
    if parent is not None:
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # agentui went before the signal was set: follow it
            os._exit(1)
    _prctl(PR_SET_CHILD_SUBREAPER, 1)


def _write(path: str, text: str) -> None:
    with open(path, "w") as file:
        file.write(text)


def _isolate() -> bool:
    """New user, mount, pid, network and IPC namespaces (the pid one for what this process
    starts next; its own uid and gid mapped to themselves); False where the kernel refuses."""
    uid, gid = os.geteuid(), os.getegid()
    flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC
    if _LIBC.unshare(flags) != 0:
        return False
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1")
    _write("/proc/self/gid_map", f"{gid} {gid} 1")
    return True


def _mount(source: str, target: str, kind: str | None, flags: int, data: str = "") -> None:
    encoded = [None if x is None else x.encode() for x in (source, target, kind, data or None)]
    if _LIBC.mount(encoded[0], encoded[1], encoded[2], flags, encoded[3]) != 0:
        error = os.strerror(ctypes.get_errno())
        raise SandboxSetupError(f"cannot mount {target} in the sandbox: {error}")


def _hide(places: list[str], shown: list[str]) -> None:
    """Cover `places` (shared temporary places, homes, agentui's directories: where other
    programs keep their sockets, which Landlock before ABI 9 does not guard) with empty
    in-memory file systems, showing `shown` again under each at once (the working directory,
    which is TMPDIR, and Python). Only in the mount namespace `_isolate` made, never the
    machine's: it is made private first."""
    _mount("none", "/", None, MS_REC | MS_PRIVATE)
    handles = {}
    for path in shown:
        with contextlib.suppress(OSError):
            handles[path] = os.open(path, os.O_PATH | os.O_CLOEXEC)
    for place in places:
        _mount("tmpfs", place, "tmpfs", MS_NOSUID | MS_NODEV, "mode=755,size=64k")
        for path, handle in handles.items():
            if path == place or path.startswith(place.rstrip("/") + "/"):
                os.makedirs(path, exist_ok=True)
                _mount(f"/proc/self/fd/{handle}", path, None, MS_BIND | MS_REC)
    for handle in handles.values():
        os.close(handle)


def _keep(pid1: bool) -> None:
    """Fork: the fork returns and runs the code; this process waits for it, ends what it left
    behind and exits as it did (a signal's death by that signal)."""
    child = os.fork()
    if child == 0:
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the keeper's death is the code's
        if pid1:
            signal.signal(signal.SIGXCPU, lambda *_: os._exit(CPU_EXIT))
        return
    os.close(0)  # the channel is the code's: its end is seen when the code ends
    os.close(1)
    _, status = os.waitpid(child, 0)
    _end_descendants()
    if os.WIFSIGNALED(status) or (pid1 and os.WEXITSTATUS(status) == CPU_EXIT):
        signum = os.WTERMSIG(status) if os.WIFSIGNALED(status) else signal.SIGXCPU
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        os._exit(128 + signum)  # a signal whose default is not to end a process
    os._exit(os.WEXITSTATUS(status))


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def _drop_capabilities() -> None:
    """No capability left, now or after an exec (root's too)."""
    for cap in range(LAST_CAPABILITY + 1):
        _prctl(PR_CAPBSET_DROP, cap)  # EINVAL past the kernel's last, EPERM without SETPCAP
    _prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    header = _CapHeader(CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    if _LIBC.capset(ctypes.byref(header), data) != 0:
        raise SandboxSetupError(f"cannot drop capabilities: {os.strerror(ctypes.get_errno())}")


def _effective_capabilities() -> str:
    """The effective set, as /proc/self/status shows it (hexadecimal)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("CapEff:"):
                return line.split()[1]
    return "unknown"


def _set_limits(cpu_s: int | None, memory_bytes: int | None, processes: int | None) -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if cpu_s:
        # SIGXCPU at the soft limit ends the process; the hard limit is the backstop.
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
    if memory_bytes:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    if processes:
        # Counted per user in the sandbox's own user namespace: its processes, no one else's.
        resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))


def _landlock(rules: dict[str, Any]) -> dict[str, Any]:
    """Apply the Landlock rules (see core/tools/landlock_rules.py); what the kernel took."""
    sys.path.insert(0, rules["library"])
    try:
        import landlockpy as ll
    except ImportError as exc:
        raise SandboxSetupError(f"landlockpy cannot be imported: {exc}") from exc
    finally:
        sys.path.remove(rules["library"])
    abi = ll.abi_version()
    if abi < 1:
        raise SandboxSetupError("this kernel offers no Landlock")
    every = ll.fs_for_abi(abi)
    read_dir = every & (ll.AccessFS.READ_FILE | ll.AccessFS.READ_DIR | ll.AccessFS.EXECUTE)
    read_file = every & (ll.AccessFS.READ_FILE | ll.AccessFS.EXECUTE)
    device = every & (ll.AccessFS.READ_FILE | ll.AccessFS.WRITE_FILE | ll.AccessFS.TRUNCATE)
    with ll.Ruleset(
        handled_fs=every, handled_net=ll.net_for_abi(abi), scoped=ll.scope_for_abi(abi)
    ) as ruleset:
        for path in rules["read"]:
            if os.path.exists(path):
                ruleset.allow_path(path, read_dir if os.path.isdir(path) else read_file)
        for path in rules["devices"]:
            if os.path.exists(path):
                ruleset.allow_path(path, device)
        for path in rules["write"]:
            ruleset.allow_path(path, every)
        ruleset.restrict(no_new_privs=True)
        return {
            "abi": abi,
            "net": _names(ll.AccessNet, ruleset.handled_net),
            "scoped": _names(ll.Scope, ruleset.scoped),
        }


def _names(flags: Any, chosen: Any) -> list[str]:
    return [str(flag.name).lower() for flag in flags if flag and flag in chosen]


def _below(root: int) -> list[int] | None:
    """Every live process below `root`; None when /proc cannot be read (Landlock hides it)."""
    children: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] not in ("Z", "X"):
            children.setdefault(int(fields[1]), []).append(int(name))
    found, frontier = [], [root]
    while frontier:
        frontier = [pid for parent in frontier for pid in children.get(parent, [])]
        found += frontier
    return found


def _end_descendants() -> None:
    """Stop every process below this one (stopped, none can fork), then kill and reap them."""
    if os.getpid() == 1:  # the first of its own pid namespace: all the others are below it
        with contextlib.suppress(OSError):
            os.kill(-1, signal.SIGKILL)
    elif _below(os.getpid()) is None:
        return  # out of sight here: the keeper, outside Landlock, ends them
    stopped: set[int] = set()
    for _ in range(20):
        fresh = [pid for pid in _below(os.getpid()) or [] if pid not in stopped]
        if not fresh:
            break
        for pid in fresh:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGSTOP)
        stopped.update(fresh)
    for pid in stopped:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        while True:  # every child, adopted ones too, until none is left
            os.waitpid(-1, 0)


def _run(source: str, namespace: dict[str, Any]) -> int:
    """Run the code as a script; print the value of a final expression, as a REPL would."""
    try:
        tree = ast.parse(source, CODE_FILE)
    except SyntaxError as exc:
        traceback.print_exception(exc, limit=0)
        return 1
    last: ast.Expression | None = None
    final = tree.body[-1] if tree.body else None
    if isinstance(final, ast.Expr):
        tree.body.pop()
        last = ast.Expression(final.value)
    try:
        exec(compile(tree, CODE_FILE, "exec"), namespace)
        if last is not None:
            value = eval(compile(last, CODE_FILE, "eval"), namespace)
            if value is not None:
                print(repr(value))
    except SystemExit:
        raise
    except BaseException as exc:
        if isinstance(exc, MemoryError):
            namespace.clear()  # free what the code hoarded, so the traceback can be printed
        # Show the code's own frames, not this runner's.
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != CODE_FILE:
            tb = tb.tb_next
        traceback.print_exception(type(exc), exc, tb)
        return 1
    return 0


def _sandbox(config: dict[str, Any]) -> dict[str, Any]:
    """Set up what `config` asks for, before any of the code runs; what was set up."""
    facts: dict[str, Any] = {"namespaces": False}
    facts["hidden"] = False
    if config.get("keep"):
        isolated = bool(config.get("isolate")) and _isolate()
        facts["namespaces"] = isolated
        if isolated and config.get("hide"):
            _hide(config["hide"], config["show"])
            facts["hidden"] = True
        _keep(pid1=isolated)
    confined = config.get("landlock") is not None
    if config.get("drop_capabilities"):
        _drop_capabilities()
    facts["capabilities"] = _effective_capabilities()  # before Landlock hides /proc
    in_own_user_namespace = facts["namespaces"] or config.get("bubblewrap", False)
    processes = config.get("max_processes") if in_own_user_namespace else None
    _set_limits(config.get("cpu_s"), config.get("memory_bytes"), processes)
    facts["max_processes"] = processes
    if confined:
        facts["landlock"] = _landlock(config["landlock"])
    return facts


def main() -> None:
    config = json.loads(sys.argv[1])
    _guard(config.get("parent"))
    try:
        facts = _sandbox(config)
    except (SandboxSetupError, OSError) as exc:
        print(f"the sandbox could not be set up, so the code did not run: {exc}", file=sys.stderr)
        sys.exit(125)
    if config.get("probe"):
        print(json.dumps(facts), flush=True)
        # Set up and waiting, as a run waits for its `ready` reply: agentui puts this tree in
        # its cgroup meanwhile, then closes our stdin.
        while os.read(0, 4096):
            pass
        return
    replies = os.fdopen(os.dup(0), "r", encoding="utf-8")
    requests = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)  # the code reads end-of-file, never our replies
    os.close(null)
    os.dup2(2, 1)  # and what it prints goes to the output pipe
    channel = _Channel(replies, requests)
    channel.call("ready")
    api = _api(channel)
    module = types.ModuleType("agentui")
    module.__dict__.update(api)
    sys.modules["agentui"] = module
    with open(CODE_FILE, encoding="utf-8") as file:
        source = file.read()
    sys.argv = [CODE_FILE]
    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": __builtins__, **api}
    try:
        status = _run(source, namespace)
    finally:
        _end_descendants()  # also when the code calls sys.exit()
    sys.exit(status)


if __name__ == "__main__":
    main()
