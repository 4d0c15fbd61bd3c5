"""Helpers shared by the fuzz tests."""


def leaf_paths(obj, prefix=()):
    """Every path (tuple of keys / indices) below ``obj``, the root excluded, depth first."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield prefix + (k,)
            yield from leaf_paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield prefix + (i,)
            yield from leaf_paths(v, prefix + (i,))
