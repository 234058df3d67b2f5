"""Finding a session by its id reads no session: `agentui --resume ID` brings neither the
reader's rules nor the fold before its first frame (core/session/finding.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PROBE = """
import json, sys
from pathlib import Path
from agentui.core.session.finding import find_session
found = find_session(sys.argv[1], Path(sys.argv[2]))
print(json.dumps({"found": str(found), "loaded": sorted(sys.modules)}))
"""

READ_ONLY_TO_LIST = (
    "agentui.core.session.reader",
    "agentui.core.session.fold",
    "agentui.core.session.store",
    "agentui.core.session.summary",
    "pydantic",
)


def test_finding_a_session_by_its_id_loads_no_reader(tmp_path: Path) -> None:
    wanted = tmp_path / "20260101T000000Z-aaaa.jsonl"
    wanted.write_text("not read\n")
    (tmp_path / "20260101T000100Z-bbbb.jsonl").write_text("not read either\n")
    out = subprocess.run(
        [sys.executable, "-c", PROBE, "20260101T000000Z", str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    answer = json.loads(out.stdout)
    assert answer["found"] == str(wanted)
    assert [name for name in READ_ONLY_TO_LIST if name in answer["loaded"]] == []
