"""The pure part of physics animation: the affine map of a channel's keys, the document with a value moved."""
