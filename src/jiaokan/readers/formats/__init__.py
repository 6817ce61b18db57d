"""One module (or folder) per witness format: each defines a Reader that registers itself in jiaokan.readers."""
