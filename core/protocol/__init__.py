"""The shared vocabulary at the bottom of core: events, the command port, and the payloads they carry."""
