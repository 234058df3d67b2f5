"""`python -m agentui.tui.cli`: the `agentui` command, started as the executable starts it."""

import sys

from agentui.tui.cli.launch import main

sys.exit(main())
