"""The six-step human-in-the-loop workflow a root task runs by default in the app and `run`.

Kept free of imports on purpose: importing one module of it does not pull in the runtime. Nothing
below it imports it: the types its events carry and the notes it writes live at the
conversation's level (core/protocol/workflow_report.py, core/protocol/workflow_notes.py).
"""
