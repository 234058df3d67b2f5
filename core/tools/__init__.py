"""Tools the model can call, their registry, and the built-ins."""
