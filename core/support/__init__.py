"""Small support modules every layer may use: clock, paths, errors, terminal text, processes."""
