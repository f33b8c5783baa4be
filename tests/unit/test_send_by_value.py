"""User extern functions reach Spark's workers with their code when they come from the
user's own files: a worker's ``sys.path`` is not the driver's, so a function pickled
by module name (the default for an importable module) could not be loaded there."""
from __future__ import annotations

import importlib
import json
import subprocess
import sys
import textwrap

from pyspark import cloudpickle

from dl2sql.runner.spark_python import send_by_value


def test_a_function_from_the_users_own_module_loads_where_the_module_does_not(tmp_path,
                                                                             monkeypatch):
    (tmp_path / "my_externs_mod.py").write_text(textwrap.dedent("""
        import json
        FACTOR = 3
        def triple(x):
            return FACTOR * x
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("my_externs_mod")
    try:
        send_by_value([module.triple, json.dumps, len])
        assert "my_externs_mod" in cloudpickle.list_registry_pickle_by_value()
        # installed modules (standard library, builtins) are still sent by name
        assert "json" not in cloudpickle.list_registry_pickle_by_value()
        payload = cloudpickle.dumps(module.triple)
    finally:
        cloudpickle.unregister_pickle_by_value(module)
        sys.modules.pop("my_externs_mod", None)
    # a fresh interpreter that cannot import my_externs_mod, as a worker
    loaded = subprocess.run(
        [sys.executable, "-c",
         "import sys, pickle; f = pickle.loads(sys.stdin.buffer.read()); print(f(14))"],
        input=payload, capture_output=True, cwd="/", timeout=60)
    assert loaded.stderr.decode() == ""
    assert loaded.stdout.decode().strip() == "42"
