"""io/omi/write."""
