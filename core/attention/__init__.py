"""Services that call the person back: what waits on them and for how long."""
