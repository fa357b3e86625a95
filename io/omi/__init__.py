"""Pure-Python OMI physics core: data model, reader (every revision), rules, writer (current revision)."""
