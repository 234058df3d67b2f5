"""`agentui replay ID --from SEQ` (what `agentui search` prints for a match): what came before
the event shows at once, the play goes on from there at the recorded pace."""

from __future__ import annotations

import argparse

import pytest

from agentui.core.protocol.events import TextDelta
from agentui.core.support.clock import FrozenClock
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.replay_feed import ReplayFeed
from agentui.tui.cli.replay import replay_parser

from .helpers import settle
from .test_history_and_replay import _recorded_run


def _events(count: int) -> list[TextDelta]:
    return [
        TextDelta(seq=n, ts=1000.0 + n, agent_id="a1", iteration=1, delta=f"w{n} ")
        for n in range(1, count + 1)
    ]


def test_a_feed_from_an_event_holds_what_came_before_it_ready() -> None:
    feed = ReplayFeed(_events(10), start_seq=7)
    assert [e.seq for e in feed.drain()] == [1, 2, 3, 4, 5, 6]
    assert feed.drain() == [] and not feed.done  # the rest is played, paced


def test_a_feed_from_past_the_end_shows_everything_and_one_from_the_start_nothing_yet() -> None:
    assert len(ReplayFeed(_events(3), start_seq=99).drain()) == 3
    assert ReplayFeed(_events(3)).drain() == []


@pytest.mark.anyio
async def test_the_rest_plays_after_it() -> None:
    feed = ReplayFeed(_events(4), speed=1e6, start_seq=3)
    feed.drain()
    await feed.play()
    assert [e.seq for e in feed.drain()] == [3, 4] and feed.done


@pytest.mark.parametrize("written", ["0", "-3", "seven"])
def test_from_takes_an_event_number(written: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        replay_parser().parse_args(["last", "--from", written])
    assert "--from" in capsys.readouterr().err


def test_from_is_read() -> None:
    args = replay_parser().parse_args(["last", "--from", "42"])
    assert isinstance(args, argparse.Namespace) and args.start_seq == 42


@pytest.mark.anyio
async def test_the_replay_selects_the_agent_whose_event_it_starts_at() -> None:
    recorded = await _recorded_run()  # a1 is selected first; a2 is its subagent
    of_a2 = [e.seq for e in recorded if e.agent_id == "a2"]
    feed = ReplayFeed(recorded, speed=1e6, start_seq=of_a2[len(of_a2) // 2])
    assert feed.start_agent == "a2"
    app = AgentUIApp(replay=feed, clock=FrozenClock(), remember_theme=False)
    async with app.run_test() as pilot:
        await settle(pilot, lambda: app.host.done)
        assert app.main.selected_id == "a2"
