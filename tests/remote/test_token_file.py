"""The server's token file: written only when saved (once the server listens), 0600; the default
one used again at every start unless `new`; one that others may read replaced (the default) or
refused (`--token-file`); read back by `agentui attach`."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from agentui.core.remote.client import read_token
from agentui.core.remote.token_file import default_token_path, server_token
from agentui.core.support.errors import AgentUIError

GOOD = "x" * 43


@pytest.fixture
def default_file() -> Path:
    path = default_token_path()
    path.unlink(missing_ok=True)
    return path


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_token_is_written_only_when_saved(default_file: Path) -> None:
    token = server_token(None)
    assert (token.path, token.reused) == (default_file, False)
    assert not default_file.exists()  # a server that cannot listen never saves it
    token.save()
    assert mode(default_file) == 0o600 and read_token(None) == token.token


def test_the_default_token_is_used_again_until_a_new_one_is_asked_for(default_file: Path) -> None:
    first = server_token(None)
    first.save()
    again = server_token(None)
    assert (again.token, again.reused, again.replaced_because) == (first.token, True, None)
    again.save()  # nothing to write
    assert read_token(None) == first.token
    rotated = server_token(None, new=True)
    assert rotated.token != first.token and not rotated.reused
    rotated.save()
    assert read_token(None) == rotated.token and mode(default_file) == 0o600


@pytest.mark.parametrize(
    ("content", "file_mode", "because"),
    [
        (GOOD, 0o644, "others may read it (its mode is 0644)"),
        (GOOD, 0o640, "others may read it (its mode is 0640)"),
        ("short", 0o600, "its token is too short"),
        ("two words here, long enough", 0o600, "its token is not one word"),
        ("", 0o600, "its token is empty"),
    ],
)
def test_an_unusable_default_token_is_replaced(
    default_file: Path, content: str, file_mode: int, because: str
) -> None:
    default_file.parent.mkdir(parents=True, exist_ok=True)
    default_file.write_text(content + "\n")
    default_file.chmod(file_mode)
    token = server_token(None)
    assert not token.reused and token.token != content
    assert token.replaced_because is not None and token.replaced_because.startswith(because)
    token.save()
    assert mode(default_file) == 0o600 and read_token(None) == token.token


def test_a_chosen_token_file_is_read_as_it_is_or_refused(tmp_path: Path) -> None:
    chosen = tmp_path / "my-token"
    chosen.write_text(GOOD + "\n")
    chosen.chmod(0o600)
    token = server_token(chosen)
    assert (token.token, token.path, token.reused) == (GOOD, chosen, True)
    chosen.chmod(0o644)
    with pytest.raises(AgentUIError) as exposed:
        server_token(chosen)
    assert str(exposed.value) == (
        f"cannot use the token file {chosen}: others may read it (its mode is 0644); run "
        f"`chmod 600 {chosen}`, or remove it for a new token"
    )
    assert mode(chosen) == 0o644  # the person's file: not changed behind their back
    chosen.chmod(0o600)
    chosen.write_text("kept\n")
    with pytest.raises(AgentUIError, match="its token is too short"):
        server_token(chosen)
    fresh = tmp_path / "sub" / "fresh-token"
    token = server_token(fresh)
    assert not token.reused and not fresh.exists()
    token.save()
    assert read_token(fresh) == token.token and mode(fresh) == 0o600


def test_a_missing_token_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "absent"
    with pytest.raises(AgentUIError, match=str(missing)):
        read_token(missing)
    empty = tmp_path / "empty"
    empty.write_text("\n")
    with pytest.raises(AgentUIError, match="is empty"):
        read_token(empty)
