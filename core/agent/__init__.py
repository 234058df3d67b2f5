"""One agent's life: its run, loop, turns, hooks, questions, pause gate, interventions, tree and limits."""
