"""Agent profiles: declared agent kinds (instructions, tools, model, persona) and their JSON
output contracts.

- profile.py   AgentProfile and where it came from; a bad contract is refused on load
- contract.py  the JSON contract at run time: parse an answer, validate it, name what is wrong
- loading.py   a profile from a dict (a scene's own) or a TOML / JSON file
- catalog.py   the built-in profiles, then the person's own (`<config dir>/agents/`), by name
- prompt.py    the one place a profile becomes instructions (with its return template)
- answer.py    holding a JSON agent's final answer to its contract, with bounded retries
- config.py    the `[profiles]` settings

This package's own import loads nothing: `core/config/settings.py` imports its settings at start-up.
"""
