"""Python implementations of the extern functions of upstream's ``tutorial.dl`` (whose
Rust is ``tutorial.rs``), for ``tests/test_conformance.py``."""


def string_slice_unsafe(x: str, start: int, end: int) -> str:
    """``x[start..end]`` as Rust slices a ``&str``: by byte offsets into its UTF-8
    encoding, failing (Rust panics) when an offset is out of range, ``start > end``,
    or an offset falls inside a multi-byte character."""
    data = x.encode("utf-8")
    if not 0 <= start <= end <= len(data):
        raise ValueError(f"byte range {start}..{end} is out of bounds of a string of "
                         f"{len(data)} bytes")
    try:
        return data[start:end].decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"byte range {start}..{end} does not fall on character "
                         f"boundaries") from None
