"""Progress reporting for recursive strata: iteration, delta sizes, seconds.

:class:`RichProgress` draws one live line per running loop on stderr when stderr is a
terminal and stays silent otherwise (pipes, CI logs, tests), so it can always be passed.
"""
from __future__ import annotations

import sys
from typing import Optional


class RichProgress:
    """Shows stratum, iteration number, delta sizes and seconds per iteration.

    Use as a context manager around :func:`dl2sql.plan.interpret.execute`. With
    ``force`` it draws even when stderr is not a TTY (for demos)."""

    def __init__(self, console=None, force: bool = False):
        self.enabled = force or sys.stderr.isatty()
        self._console = console
        self._live = None
        self._line = ""

    def __enter__(self) -> "RichProgress":
        if self.enabled:
            from rich.console import Console  # deferred: rich loads only when progress is drawn
            from rich.live import Live  # deferred: rich loads only when progress is drawn

            console = self._console or Console(stderr=True)
            self._console = console
            self._live = Live("", console=console, refresh_per_second=8, transient=True)
            self._live.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self._live is not None:
            self._live.__exit__(*exc)
            self._live = None

    def on_iteration(self, stratum: str, iteration: int, counts: dict, seconds: float) -> None:
        """Update the live line for ``stratum``."""
        if self._live is None:
            return
        from rich.text import Text  # deferred: rich loads only when progress is drawn

        sizes = "  ".join(f"{name}={n:,}" for name, n in counts.items())
        self._live.update(
            Text.assemble(
                (f"{stratum}", "bold cyan"),
                f"  iteration {iteration}  ",
                (sizes, "green"),
                f"  {seconds:.3f} s/it",
            )
        )

    def on_loop_end(self, stratum: str, iterations: int, seconds: float) -> None:
        """Print a permanent summary line for a converged loop."""
        if self._console is not None and self.enabled:
            per = seconds / max(iterations, 1)
            self._console.print(
                f"[bold cyan]{stratum}[/]: {iterations} iterations in {seconds:.2f} s "
                f"({per:.3f} s/it)"
            )


    def on_stratum(self, stratum: str, method: str, seconds: float) -> None:
        """Print which method brought a stratum up to date in a transaction."""
        if self._console is not None and self.enabled:
            self._console.print(f"[bold cyan]{stratum}[/]: {method} in {seconds:.2f} s")

    def on_wide_integers(self, reason: str) -> None:
        """Print that the run goes on with wide integers stored WIDE, and why."""
        if self._console is not None and self.enabled:
            self._console.print(f"[bold cyan]wide integers[/]: {switch_text(reason)}")


def switch_text(reason: str) -> str:
    """What a run that switched to wide integers stored WIDE says (why: ``reason``)."""
    return f"stored as (num, big) pairs from now on, which hold any value ({reason})"


class RecordingProgress:
    """Keeps every iteration report in memory (for tests, benchmarks and
    ``--explain``)."""

    def __init__(self):
        self.iterations: list[tuple[str, int, dict, float]] = []
        self.loops: list[tuple[str, int, float]] = []
        self.strata: list[tuple[str, str, float]] = []  # (stratum, method, seconds)
        self.widened: list[str] = []  # why the run went on with wide integers WIDE

    def on_wide_integers(self, reason: str) -> None:
        """Record that the run went on with wide integers stored WIDE, and why."""
        self.widened.append(reason)

    def on_stratum(self, stratum: str, method: str, seconds: float) -> None:
        """Record the method that brought a stratum up to date in a transaction."""
        self.strata.append((stratum, method, seconds))

    def methods_summary(self, hidden=frozenset()) -> str:
        """Per stratum: how many transactions each method maintained it in, and their
        seconds; ``hidden`` relations (the compiler's) are left out of the strata's
        names, and strata of them only altogether."""
        table: dict[str, dict[str, list]] = {}
        for stratum, method, seconds in self.strata:
            shown = ", ".join(r for r in stratum.split(", ") if r not in hidden)
            if not shown:
                continue
            entry = table.setdefault(shown, {}).setdefault(method, [0, 0.0])
            entry[0] += 1
            entry[1] += seconds
        lines = []
        for stratum, methods in table.items():
            parts = ", ".join(f"{m} {n}x {t:.3f} s" for m, (n, t) in methods.items())
            lines.append(f"  {stratum}: {parts}")
        return "\n".join(lines)

    def on_iteration(self, stratum: str, iteration: int, counts: dict, seconds: float) -> None:
        """Record one iteration."""
        self.iterations.append((stratum, iteration, counts, seconds))

    def on_loop_end(self, stratum: str, iterations: int, seconds: float) -> None:
        """Record a converged loop."""
        self.loops.append((stratum, iterations, seconds))

    def seconds_per_iteration(self, stratum: Optional[str] = None) -> float:
        """Mean seconds per iteration over the recorded loops (optionally one stratum)."""
        loops = [l for l in self.loops if stratum is None or l[0] == stratum]
        its = sum(l[1] for l in loops)
        return sum(l[2] for l in loops) / its if its else 0.0


class LoopTimes:
    """A progress callback that passes everything on to ``inner`` and keeps the seconds
    of each stratum's loop and of each relation's tables (the first evaluation's:
    what recomputing it costs)."""

    def __init__(self, inner=None):
        self.inner, self.seconds = inner, {}
        self.made: dict[str, float] = {}  # seconds of the tables made, by relation

    def on_made(self, table, seconds: float) -> None:
        """Add the seconds a table took to its relation's (where the runner computes
        a table when it makes it, what evaluating the relation's stratum costs)."""
        rel = table.relation or table.name
        self.made[rel] = self.made.get(rel, 0.0) + seconds

    def on_loop_end(self, stratum: str, iterations: int, seconds: float) -> None:
        """Record the loop's seconds, then tell ``inner``."""
        self.seconds[stratum] = seconds
        if self.inner is not None and hasattr(self.inner, "on_loop_end"):
            self.inner.on_loop_end(stratum, iterations, seconds)

    def on_iteration(self, stratum: str, iteration: int, counts: dict, seconds: float) -> None:
        """Tell ``inner``, if any."""
        if self.inner is not None:
            self.inner.on_iteration(stratum, iteration, counts, seconds)

    def __getattr__(self, name):  # whatever else ``inner`` offers (on_stratum, ...)
        if self.inner is None:
            raise AttributeError(name)
        return getattr(self.inner, name)
