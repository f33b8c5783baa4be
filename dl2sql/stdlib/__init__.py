"""DDlog's standard library modules as dl2sql bundles them (``import group`` and the
like resolve here before the ``-L`` directories)."""
from __future__ import annotations

import functools
import re
from pathlib import Path

_HERE = Path(__file__).parent


@functools.lru_cache(maxsize=None)
def _functions_by_module() -> dict[str, frozenset]:
    found = {}
    for path in sorted(_HERE.glob("*.dl")):
        text = path.read_text(encoding="utf-8")
        names = re.findall(r"^\s*(?:extern\s+)?function\s+(\w+)\s*\(", text, re.MULTILINE)
        found[path.stem] = frozenset(names)
    return found


def modules_defining(function: str) -> list[str]:
    """The bundled library modules (other than ``ddlog_std``, always imported) that
    define a function named ``function``, for a hint on an unknown function."""
    return [module for module, names in _functions_by_module().items()
            if module != "ddlog_std" and function in names]
