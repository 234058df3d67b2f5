"""The agent tree keeps a one-line Text label as it is given (Textual's Tree copies every label
to cut it at its first line, twice for each row added: ~3 ms of a 1,000-agent resume's first
frame, issue 36); a label of several lines is still cut at its first, as Textual cuts it."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Tree

from agentui.tui.app.widgets.agent_tree import AgentTree


def test_a_one_line_label_is_kept_and_a_longer_one_cut_as_textual_cuts_it() -> None:
    tree = AgentTree(lambda: 0.0)
    textuals = Tree[str]("textual's")
    one_line = Text("main.1 Part 1", style="bold")
    assert tree.process_label(one_line) is one_line
    empty = Text()
    assert tree.process_label(empty) is empty
    for label in (Text("first line\nsecond", style="italic"), "[b]markup[/b]\nmore", "plain"):
        assert tree.process_label(label) == textuals.process_label(label)
