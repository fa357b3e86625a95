"""io/omi/dialects."""
