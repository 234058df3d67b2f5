"""Hostile text through the real `agentui` command: terminals see control characters, never obey.

A script's model text, thinking, question and python output carry terminal sequences (CSI,
OSC title, OSC 52 clipboard, OSC 8 link), BEL, backspace, CR, NUL, C1, bidi overrides, invisible characters
(a zero-width space, tag characters: hidden ASCII) and bytes that are not UTF-8. Text output and
Markdown exports show them visibly; JSON keeps them exact, written as escapes.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from agentui.core.protocol.events import parse_event

from .cli_runs import child_env
from .preloaded_cli import COMMAND, PRELOADED

ESC, BEL = "\x1b", "\x07"
HOSTILE = (
    f"clear{ESC}[2J move{ESC}[5;5H title{ESC}]0;pwned{BEL} "
    f"clip{ESC}]52;c;aGk={BEL} link{ESC}]8;;http://x.test/{ESC}\\go{ESC}]8;;{ESC}\\ "
    f"bell{BEL} back\bspace nul\x00 safe\rOVER c1\x9b2J \u202eflipped [bold]markup[/bold]"
    " zero\u200bwidth \U000e0068\U000e0069dden"
)
SHOWN = (
    "clear␛[2J move␛[5;5H title␛]0;pwned␇ "
    "clip␛]52;c;aGk=␇ link␛]8;;http://x.test/␛\\go␛]8;;␛\\ "
    "bell␇ back␈space nul␀ safe␍OVER c1\\x9b2J <U+202E>flipped [bold]markup[/bold]"
    " zero<U+200B>width <U+E0068><U+E0069>dden"
)
TASK = f"Plan {ESC}]0;task-title{BEL}a trip"
TASK_SHOWN = "Plan ␛]0;task-title␇a trip"
# Printed by the sandboxed code at run time: escapes, then bytes that are not UTF-8.
CODE = (
    "import sys\n"
    "print('py \\x1b[31mred\\x1b[0m \\x1b]0;py-title\\x07 done')\n"
    "sys.stdout.flush()\n"
    "sys.stdout.buffer.write(b'bad \\xff\\xfe bytes\\n')\n"
)
PY_SHOWN = "py ␛[31mred␛[0m ␛]0;py-title␇ done"
PY_RAW = f"py {ESC}[31mred{ESC}[0m {ESC}]0;py-title{BEL} done"

SCRIPT = {
    "agents": {
        "*": [
            {
                "thinking": f"think {HOSTILE}",
                "text": f"before {HOSTILE}",
                "tool_calls": [{"name": "ask_user", "arguments": {"question": f"q {HOSTILE}"}}],
            },
            {"text": "now python", "tool_calls": [{"name": "python", "arguments": {"code": CODE}}]},
            {"thinking": f"again {HOSTILE}", "text": f"answer {HOSTILE}"},
        ]
    }
}
# Bytes a terminal would act on; none may reach stdout or stderr.
CONTROL_BYTES = [
    b"\x1b",
    b"\x07",
    b"\x08",
    b"\r",
    b"\x00",
    b"\xc2\x9b",
    b"\xe2\x80\xae",
    b"\xe2\x80\x8b",
    "\U000e0068".encode(),
]


def agentui(home: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """Bytes, not text: the test sees exactly what a terminal would receive (the command forked
    from a process that has imported it: preloaded_cli.py)."""
    code, out, err = PRELOADED.run(list(args), env=child_env(home), cwd=home)
    return subprocess.CompletedProcess([*COMMAND, *args], code, out, err)


def assert_no_control_bytes(output: bytes) -> None:
    for control in CONTROL_BYTES:
        assert control not in output, (control, output)


def script_file(home: Path) -> str:
    path = home / "hostile.json"
    path.write_text(json.dumps(SCRIPT), encoding="utf-8")
    return str(path)


def test_text_mode_shows_controls_visibly_and_stdout_is_the_answer(tmp_path: Path) -> None:
    run = agentui(
        tmp_path, "run", "--yes", "--answer", "fine", "--script", script_file(tmp_path), TASK
    )

    assert run.returncode == 0, run.stderr.decode()
    assert_no_control_bytes(run.stdout)
    assert_no_control_bytes(run.stderr)
    stdout, stderr = run.stdout.decode(), run.stderr.decode()
    assert stdout == f"answer {SHOWN}\n", "stdout holds the final answer only"
    assert f"[main] before {SHOWN}\n" in stderr
    assert f"[main] question: q {SHOWN}\n" in stderr
    assert "[main] tool python" in stderr
    assert "answer" not in stderr and "Traceback" not in stderr


def test_json_mode_keeps_the_exact_strings(tmp_path: Path) -> None:
    run = agentui(
        tmp_path,
        "run",
        "--json",
        "--yes",
        "--answer",
        "fine",
        "--script",
        script_file(tmp_path),
        TASK,
    )

    assert run.returncode == 0, run.stderr.decode()
    assert_no_control_bytes(run.stdout)
    events = [parse_event(line) for line in run.stdout.decode().splitlines()]
    assert events[0].task == TASK  # type: ignore[attr-defined]
    text = "".join(e.delta for e in events if e.type == "text:delta")  # type: ignore[attr-defined]
    assert text == f"before {HOSTILE}now pythonanswer {HOSTILE}"
    thinking = "".join(e.delta for e in events if e.type == "thinking:delta")  # type: ignore[attr-defined]
    assert thinking == f"think {HOSTILE}again {HOSTILE}"
    (raised,) = [e for e in events if e.type == "query:raised" and e.kind == "question"]  # type: ignore[attr-defined]
    assert raised.prompt == f"q {HOSTILE}"  # type: ignore[attr-defined]
    (ran,) = [e for e in events if e.type == "tool:complete" and e.name == "python"]  # type: ignore[attr-defined]
    assert PY_RAW in ran.result  # type: ignore[attr-defined]
    assert "bad \ufffd\ufffd bytes" in ran.result, "undecodable bytes become U+FFFD"  # type: ignore[attr-defined]


def test_a_model_error_quoted_on_stderr_is_made_visible(tmp_path: Path) -> None:
    failing = {
        "agents": {
            "*": [
                {
                    "text": f"partial {HOSTILE}",
                    "error": {"message": f"down {HOSTILE}", "retryable": False, "after_chunks": 99},
                }
            ]
        }
    }
    script = tmp_path / "failing.json"
    script.write_text(json.dumps(failing), encoding="utf-8")
    run = agentui(tmp_path, "run", "--script", str(script), TASK)

    assert run.returncode == 1
    assert run.stdout == b"", "no answer, so nothing on stdout"
    assert_no_control_bytes(run.stderr)
    stderr = run.stderr.decode()
    assert f"[main] partial {SHOWN} [cut short]" in stderr
    assert f"model: down {SHOWN}" in stderr
    assert "did not complete" in stderr


def test_export_md_and_sessions_show_controls_visibly_json_keeps_them(tmp_path: Path) -> None:
    run = agentui(
        tmp_path, "run", "--yes", "--answer", "fine", "--script", script_file(tmp_path), TASK
    )
    assert run.returncode == 0, run.stderr.decode()

    md = agentui(tmp_path, "export", "last", "--format", "md")
    assert md.returncode == 0, md.stderr.decode()
    assert_no_control_bytes(md.stdout)
    markdown = md.stdout.decode()
    assert f"- Task: {TASK_SHOWN}" in markdown
    assert f"> think {SHOWN}" in markdown, "thinking"
    assert f"before {SHOWN}" in markdown and f"answer {SHOWN}" in markdown, "model text"
    assert f"q {SHOWN}" in markdown, "the question"
    assert PY_SHOWN in markdown and "bad \ufffd\ufffd bytes" in markdown, "python output"

    exported = agentui(tmp_path, "export", "last", "--format", "json")
    assert exported.returncode == 0, exported.stderr.decode()
    assert_no_control_bytes(exported.stdout)
    document = json.loads(exported.stdout)
    (root,) = document["roots"]
    transcript = document["agents"][root]["transcript"]
    assert f"think {HOSTILE}" in [item["text"] for item in transcript]
    assert any(PY_RAW in (item["detail"] or "") for item in transcript)
    assert document["agents"][root]["result"] == f"answer {HOSTILE}"

    listed = agentui(tmp_path, "sessions")
    assert listed.returncode == 0, listed.stderr.decode()
    assert_no_control_bytes(listed.stdout)
    assert TASK_SHOWN in listed.stdout.decode()
