"""Python implementations of the extern functions upstream's ``simple.dl`` calls: the
``allocate`` library's (whose Rust is ``lib/allocate.rs``), for
``tests/test_conformance.py``.

Every allocator walks the numbers of ``min_val..=max_val`` cyclically, starting after
the largest number allocated already (when that lies outside the range, after
``max_val``, so at ``min_val``), each number at most once, skipping those allocated.
Values are dl2sql's runtime values: a ``Set`` is a sorted tuple, a ``Map`` a tuple of
``(key, value)`` pairs, a ``Vec`` a tuple, an ``Option`` a ``Record``.
"""
from dl2sql.runtime.values import Record


def _free(taken, min_val: int, max_val: int, start: int):
    """The numbers of the range not in ``taken``, in the order they are tried: each
    after ``start``, wrapping from ``max_val`` to ``min_val``, every number once."""
    if max_val < min_val:
        raise ValueError(f"allocation range is empty: max_val {max_val} < min_val {min_val}")
    n = start
    for _ in range(max_val - min_val + 1):
        n = min_val if n == max_val else n + 1
        if n not in taken:
            yield n


def _start(taken, min_val: int, max_val: int, default: int) -> int:
    last = max(taken) if taken else default
    return last if min_val <= last <= max_val else default


def allocate(allocated, toallocate, min_val, max_val):
    """A number for each element of ``toallocate`` in order, while numbers last."""
    taken = set(allocated)
    free = _free(taken, min_val, max_val, _start(taken, min_val, max_val, max_val))
    return tuple(zip(toallocate, free))


def allocate_opt(allocated, toallocate, min_val, max_val):
    """As :func:`allocate`, ``Some`` number per element; ``None`` once none is left."""
    taken = set(allocated)
    free = _free(taken, min_val, max_val, _start(taken, min_val, max_val, max_val))
    out = []
    for b in toallocate:
        n = next(free, None)
        out.append((b, Record("ddlog_std::None", ()) if n is None
                    else Record("ddlog_std::Some", (n,))))
    return tuple(out)


def adjust_allocation(allocated, toallocate, min_val, max_val):
    """Each element of ``toallocate`` with its number in the map ``allocated``, or a new
    one while numbers last (elements left without one are left out)."""
    numbers = dict(allocated)
    taken = set(numbers.values())
    free = _free(taken, min_val, max_val, _start(taken, min_val, max_val, max_val))
    out = []
    for b in toallocate:
        n = numbers[b] if b in numbers else next(free, None)
        if n is not None:
            out.append((b, n))
    return tuple(out)


def allocate_with_hint(allocated, toallocate, min_val, max_val):
    """A number for each ``(element, hint)``: the first free one from the hint (or from
    after the last number given), wrapping around; stops when a search finds none, or
    when one searched the whole range."""
    if max_val < min_val:
        raise ValueError(f"allocation range is empty: max_val {max_val} < min_val {min_val}")
    taken = set(allocated)
    n = _start(taken, min_val, max_val, min_val)
    out = []

    def after(x: int) -> int:
        return min_val if x == max_val else x + 1
    for b, hint in toallocate:
        if hint.ctor.endswith("Some"):
            n = hint.fields[0]
        for tried in range(max_val - min_val + 1):
            if n not in taken:
                out.append((b, n))
                taken.add(n)
                if tried == max_val - min_val:
                    return tuple(out)
                n = after(n)
                break
            if tried == max_val - min_val:
                return tuple(out)
            n = after(n)
    return tuple(out)
