"""Helpers shared by the fuzz tests."""
import copy


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


def mutate(data, path, value, delete):
    """A deep copy of ``data`` with the item at ``path`` set to ``value`` (or, with ``delete``
    and a mapping parent, removed)."""
    out = copy.deepcopy(data)
    cur = out
    for k in path[:-1]:
        cur = cur[k]
    if delete and isinstance(cur, dict):
        del cur[path[-1]]
    else:
        cur[path[-1]] = value
    return out
