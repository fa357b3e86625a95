"""Engine targets: what a target changes in the document its dialects wrote, in the vocabulary of `form`
(channel rewrites, then steps that each return a `Form`), with generic steps to build on (`scale_bake`), and
how the import recognises and folds back the layout it writes. A target is its module or folder here plus one
registration line in `io/omi/dialects/builtin.py`."""
