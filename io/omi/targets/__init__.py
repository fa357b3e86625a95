"""Engine targets: what a target changes in the document its dialects wrote (`form.Form`, step by step),
and how the import recognises and folds back the layout it writes. A target is its module here plus one
registration line in `io/omi/dialects/builtin.py`."""
