"""The offline model: script files (script.py), the player (provider.py), the demo it plays
without a script (demo.py) and its offline narration (narration.py)."""
