#!/usr/bin/env python3
"""Reads `ncu --csv` output: one row per metric, every field quoted, numbers with thousands
separators ("1,048,576"), and the profiled program's own stdout and ==PROF== lines mixed into
the same stream (shared/notes/gpu-machine.md). Prints the sum of each metric over the rows
that carry it as JSON ({"metric": value, ...}); exit 1 when no metric row was found, so a
check that parsed nothing cannot pass.
Usage: ncu_csv.py FILE [METRIC ...]   (metrics: only these, each required)"""
import csv
import json
import sys


def metric_sums(lines):
    header, sums = None, {}
    for row in csv.reader(lines):
        if header is None:
            if "Metric Name" in row and "Metric Value" in row:
                header = row
            continue  # the program's own output before ncu's table
        if len(row) != len(header):
            continue  # a line of the program's output among the rows
        rec = dict(zip(header, row))
        value = rec["Metric Value"].replace(",", "").strip()
        try:
            number = float(value)
        except ValueError:
            continue  # "n/a" and the like
        sums[rec["Metric Name"]] = sums.get(rec["Metric Name"], 0.0) + number
    return sums


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], newline="", encoding="utf-8", errors="replace") as f:
        sums = metric_sums(f)
    wanted = argv[2:]
    missing = [m for m in wanted if m not in sums]
    if not sums or missing:
        print("ncu_csv: " + ("no metric rows in " + argv[1] if not sums else "missing " + ", ".join(missing)),
              file=sys.stderr)
        return 1
    print(json.dumps({m: sums[m] for m in (wanted or sums)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
