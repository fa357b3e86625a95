"""io/omi/read."""
