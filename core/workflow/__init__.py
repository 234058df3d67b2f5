"""The six-step human-in-the-loop workflow a root task runs by default in the app and `run`.

Kept free of imports on purpose: the scripted provider and the event vocabulary import single
modules of this package (decisions, notes, report) without pulling in the runtime.
"""
