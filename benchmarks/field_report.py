"""Summaries of the field benchmark (:mod:`benchmarks.field`): the table it prints and
the JSON it writes (every sample, so that the results can be tabulated later).

    python -m benchmarks.field_report FILE.json ...   # Markdown tables of saved runs
"""
from __future__ import annotations

import json
import os
import platform
import statistics


def summary(samples: list[float]) -> dict:
    """Median, min and max of ``samples`` (seconds)."""
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples)}


def program_record(workload, size: str, input_rows: dict, results: dict, skipped: dict,
                   reference: str, problems: list[str]) -> dict:
    """The JSON record of one program: its input, every variant's samples and summary
    (with the ratio of its median to the reference's), the variants left out and why,
    and any disagreement found."""
    ref = results.get(reference)
    ref_median = summary(ref["samples"])["median"] if ref else None
    variants = {}
    for label, r in results.items():
        s = summary(r["samples"])
        s["ratio_to_dl2sql"] = s["median"] / ref_median if ref_median else None
        variants[label] = {"samples": r["samples"], **s, "counts": r["counts"],
                           "rows": sum(r["counts"].values()),
                           "iterations": r["iterations"]}
    return {"program": workload.name, "input": workload.describe(size),
            "input_rows": input_rows, "variants": variants, "skipped": skipped,
            "agree": not problems, "problems": problems}


def _iterations_text(label: str, iterations) -> str:
    if iterations is None:
        return "-"
    if iterations == 0 and label.startswith("dl2sql"):
        return "0 (rec. query)"  # dl2sql ran the stratum as one recursive CTE
    return str(iterations)


def print_table(records: list[dict], engine: str) -> None:
    """Per program and variant: median, spread, ratio to dl2sql, rows, iterations."""
    print(f"\nfield benchmark, engine {engine}: median of the runs (min-max), "
          f"ratio = variant median / dl2sql median")
    head = (f"{'program':<9} {'variant':<40} {'median s':>9} {'min-max s':>15} "
            f"{'ratio':>7} {'rows':>11} {'iterations':>15}")
    print(head)
    print("-" * len(head))
    for rec in records:
        for label, v in rec["variants"].items():
            ratio = f"{v['ratio_to_dl2sql']:.2f}x" if v["ratio_to_dl2sql"] else "-"
            spread = f"{v['min']:.3f}-{v['max']:.3f}"
            print(f"{rec['program']:<9} {label:<40} {v['median']:>9.3f} {spread:>15} "
                  f"{ratio:>7} {v['rows']:>11,} "
                  f"{_iterations_text(label, v['iterations']):>15}")
        for label, why in rec["skipped"].items():
            print(f"{rec['program']:<9} {label:<40} {'skipped: ' + why}")
        if rec["problems"]:
            for p in rec["problems"]:
                print(f"{rec['program']:<9} DISAGREEMENT: {p}")


def write_json(path: str, engine: str, args, records: list[dict], extra: dict) -> None:
    """Write every record to ``path`` with what the run was made on."""
    doc = {"engine": engine, "quick": args.quick, "runs": args.runs,
           "machine": {"cores": os.cpu_count(), "python": platform.python_version(),
                       "platform": platform.platform(), **extra},
           "programs": records}
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)


def markdown(doc: dict) -> str:
    """A Markdown table of a JSON file's results: per program and variant, the median
    and min-max seconds, the ratio to dl2sql, rows and iterations; then the variants
    left out and why."""
    lines = [f"| program | input | variant | median s | min-max s | vs dl2sql | rows "
             f"| iterations |", "|---|---|---|---:|---:|---:|---:|---:|"]
    skipped = []
    for rec in doc["programs"]:
        for label, v in rec["variants"].items():
            ratio = f"{v['ratio_to_dl2sql']:.2f}x" if v["ratio_to_dl2sql"] else "-"
            lines.append(f"| {rec['program']} | {rec['input']} | {label} | "
                         f"{v['median']:.2f} | {v['min']:.2f}-{v['max']:.2f} | {ratio} | "
                         f"{v['rows']:,} | {_iterations_text(label, v['iterations'])} |")
        skipped += [f"* {rec['program']}, {label}: {why}" for label, why in rec["skipped"].items()]
        skipped += [f"* {rec['program']}: DISAGREEMENT: {p}" for p in rec["problems"]]
    return "\n".join(lines + [""] + skipped) + "\n"


if __name__ == "__main__":
    import sys

    for path in sys.argv[1:]:
        with open(path) as f:
            print(markdown(json.load(f)))
