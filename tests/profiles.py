"""Hypothesis profiles, chosen by ``HYPOTHESIS_PROFILE`` (docs/testing.md).

- ``ci`` (the default): what the suite runs; each property test's ``max_examples`` is
  the number written in its ``@settings``, through :func:`examples`. Derandomized and
  without an example database: every run of the suite draws the same examples, so that
  a failure in CI is the change's, and replays the same way on any machine.
- ``thorough``: ten times as many examples of every property test, drawn at random
  and remembered in ``.hypothesis/`` (a failure found once is tried first next time),
  for a long run before a release
  (``HYPOTHESIS_PROFILE=thorough python -m pytest -m hypothesis``).

A test's ``@settings(max_examples=examples(n))`` keeps its own balance (a Spark test
runs fewer examples than its DuckDB twin) and scales with the profile.
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# the ci profile's max_examples: hypothesis's own default, so that ``examples(n)`` is n
CI_EXAMPLES = 100
PROFILES = {
    "ci": {"max_examples": CI_EXAMPLES, "derandomize": True, "database": None},
    "thorough": {"max_examples": 10 * CI_EXAMPLES},
}


def register() -> str:
    """Register the profiles and load the one ``HYPOTHESIS_PROFILE`` names (``ci``
    by default); returns its name."""
    for name, chosen in PROFILES.items():
        # no deadline: an example's time says more about a busy machine than the code
        settings.register_profile(
            name, deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
            **chosen)
    name = os.environ.get("HYPOTHESIS_PROFILE", "ci")
    if name not in PROFILES:
        raise ValueError(f"HYPOTHESIS_PROFILE={name!r}: the profiles are "
                         f"{', '.join(sorted(PROFILES))}")
    settings.load_profile(name)
    return name


def examples(n: int) -> int:
    """``n`` examples under the ``ci`` profile, scaled by the loaded profile."""
    return max(1, n * settings.default.max_examples // CI_EXAMPLES)
