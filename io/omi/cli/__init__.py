"""io/omi/cli."""
