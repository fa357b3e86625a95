"""io/omi/checks."""
