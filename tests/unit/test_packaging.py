"""What gets installed: every package folder of dl2sql is listed in pyproject.toml, and
the standard library's Python builtins install as ``dl2sql.udfs`` (from the
repository's top-level ``udfs/``), never as a top-level ``udfs``."""
from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[2]


def test_every_package_folder_is_listed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    # every folder holding Python modules, with or without an __init__.py: one without
    # is a namespace package that an editable install finds and `pip install .` leaves out
    folders = {".".join(p.parent.relative_to(ROOT).parts)
               for p in (ROOT / "dl2sql").rglob("*.py") if "__pycache__" not in p.parts}
    assert set(config["packages"]) == folders | {"dl2sql.udfs"}
    assert all((ROOT.joinpath(*f.split(".")) / "__init__.py").is_file() for f in folders)
    assert config["package-dir"] == {"dl2sql.udfs": "udfs"}
    assert (ROOT / "udfs" / "__init__.py").is_file()


def test_udfs_import_inside_dl2sql_only(tmp_path) -> None:
    import subprocess
    import sys

    # outside the repository, whose own folder would put udfs/ on the path
    code = ("import importlib.util, dl2sql.udfs.std; "
            "print(importlib.util.find_spec('udfs') is None)")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "True"
