"""Model backends behind one protocol: the offline scripted model and Claude."""
