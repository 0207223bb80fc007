"""`scripts/bench --check`: measures (bench_suite), judges against Benchmarks/thresholds.json when the machine is
quiet (bench_gate), and with --write-docs writes the judged run's table between the markers of README.md,
docs/performance.md and docs/performance-figures.md.

Exit status: 0 every measure within its threshold, or the machine too busy to judge through every attempt (said
on standard error); 1 a measure past its threshold (each named with its ratio and threshold); 2 a measure with no
threshold or a threshold with no measure (the bench and the thresholds file disagree)."""
import datetime
import json
import math
import os
import pathlib
import subprocess
import sys
import time

import bench_gate
import bench_suite

ROOT = pathlib.Path(__file__).resolve().parent.parent
THRESHOLDS = ROOT / "Benchmarks" / "thresholds.json"
BEGIN, END = "<!-- bench:begin (scripts/bench --check --write-docs writes this part) -->", "<!-- bench:end -->"
DOCS = ("README.md", "docs/performance.md", "docs/performance-figures.md")


def log(message):
    print(message, file=sys.stderr, flush=True)


def commit():
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                           text=True).stdout.strip()
    return (head.stdout.strip() or "unknown") + (" with uncommitted changes" if dirty else "")


def fmt(value, digits=2):
    return "—" if value is None else f"{value:.{digits}f}"


def table(mode, measures, thresholds, verdicts, notes, started, finished, confirmations):
    """The run as Markdown: what was measured where and when, then one row per measure."""
    m = bench_gate.machine()
    medians = [f"`{name}`" for name, entry in thresholds.items() if isinstance(entry, dict) and entry.get("of") == "median"]
    by_median = f", but {', '.join(medians)} judged on the median" if medians else ""
    lines = [
        f"`scripts/bench --check{' --quick' if mode == 'quick' else ''}`, {started:%d %B %Y, %H:%M}–{finished:%H:%M} "
        f"UTC, commit `{commit()}`; {m['cores']} cores ({m['cpu']}), {m['swift']}, {m['zstd']}. The machine as the "
        f"bench measured it: load {notes.get('load_1min')} (1 min) at the start, other processes "
        f"{notes.get('others_before_cores')} cores in the second before and {notes.get('others_during_cores')} cores "
        f"during the run, a busy loop on every core at {notes.get('spin_share')} of one alone. Ratios are best of "
        f"the alternating runs (the median of their pairwise ratios and the ratio of CPU times beside them)"
        f"{by_median}; a measure past its threshold is measured again, up to {confirmations} "
        f"times, and judged on its best measurement; thresholds from [Benchmarks/thresholds.json](Benchmarks/thresholds.json).",
        "",
        "| measure | events | value | median | CPU | threshold | goal | verdict |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, value, limit, passed in verdicts:
        measure, entry = measures.get(name, {}), thresholds.get(name, {})
        unit = " ns" if name.endswith("-ns") else "" if name.startswith("check-cores") else "×"
        events = f"{measure['events']:,}" if "events" in measure else "—"
        measured = measure.get("measured", [])
        again = f" (measured {len(measured)} times: {', '.join(fmt(t) for t in measured)})" if len(measured) > 1 else ""
        lines.append(f"| `{name}` | {events} | {fmt(value)}{unit} | {fmt(measure.get('median'))} | "
                     f"{fmt(measure.get('cpu'))} | {fmt(limit)}{unit} | {fmt(entry.get('goal'))} | "
                     f"{'pass' if passed else 'FAIL' if passed is False else 'no threshold'}{again} |")
    return "\n".join(lines)


def write_docs(text):
    for name in DOCS:
        path = ROOT / name
        page = path.read_text()
        if page.count(BEGIN) != 1 or page.count(END) != 1:
            sys.exit(f"bench: {name} must hold the markers {BEGIN} and {END} once each")
        head, rest = page.split(BEGIN)
        _, tail = rest.split(END)
        link = text if name == "README.md" else text.replace("](Benchmarks/", "](../Benchmarks/")
        path.write_text(f"{head}{BEGIN}\n{link}\n{END}{tail}")
        log(f"bench: wrote the run's table into {name}")


def confirm(suite, measures, thresholds, times, log):
    """Measures each group holding a measure past its threshold again, up to `times` times, while any of them is
    still past: a measure fails only if every one of its measurements is past (a real slip moves them all, a
    noisy minute one). Keeps the measurement that passes, or the nearest to passing, with every measurement's
    judged figure in `measured`."""
    for attempt in range(1, times + 1):
        past = [name for name, _, _, passed in bench_gate.judge(measures, thresholds) if passed is False]
        if not past:
            return
        log(f"bench: past the threshold: {', '.join(past)}; measuring again ({attempt} of {times})")
        again = suite.measure(past)
        for name in past:
            entry = thresholds[name]
            earlier, later = measures[name], again[name]
            measured = earlier.get("measured", [bench_gate.figure(earlier, entry)]) + [bench_gate.figure(later, entry)]
            floor = "min" in entry
            better = (bench_gate.figure(later, entry) > bench_gate.figure(earlier, entry)) == floor
            measures[name] = dict(later if better else earlier, measured=measured)


def run(lifetrace, out, mode, recorder, attempts, pause, busy_limit, ignore_busy, docs, confirmations=2):
    with open(THRESHOLDS) as f:
        thresholds = json.load(f)[mode]
    gate = bench_gate.Gate(busy_limit)
    for attempt in range(1, attempts + 1):
        started = datetime.datetime.now(datetime.timezone.utc)
        reasons = gate.before()
        if not reasons or ignore_busy:
            gate.window = gate.window or bench_gate.Window()
            suite = bench_suite.Suite(lifetrace, out, mode, recorder, log)
            try:
                measures = suite.measure()
                if not ignore_busy:
                    confirm(suite, measures, thresholds, confirmations, log)
            finally:
                suite.close()
            reasons += gate.after()
            if not reasons or ignore_busy:
                finished = datetime.datetime.now(datetime.timezone.utc)
                verdicts = bench_gate.judge(measures, thresholds)
                (out / f"check-{mode}.json").write_text(json.dumps(
                    {"notes": gate.notes, "started": started.isoformat(), "commit": commit(), "busy": reasons,
                     "measures": measures}, indent=1) + "\n")
                print(table(mode, measures, thresholds, verdicts, gate.notes, started, finished, confirmations))
                if reasons:
                    log("bench: NOT JUDGED (--ignore-busy): " + "; ".join(reasons))
                    return 0
                faults = [v for v in verdicts if v[3] is None]
                failures = [v for v in verdicts if v[3] is False]
                for name, value, limit, _ in faults:
                    log(f"bench: {name}: {'no threshold in ' + str(THRESHOLDS) if limit is None else 'not measured'}")
                for name, value, limit, _ in failures:
                    floor = "min" in thresholds[name]
                    times = measures[name].get("measured", [value])
                    log(f"bench: FAIL {name}: {value:.2f} {'below the floor' if floor else 'above the threshold'} "
                        f"{limit:.2f}" + (f" in each of {len(times)} measurements ({', '.join(fmt(t) for t in times)})"
                                          if len(times) > 1 else ""))
                if faults:
                    return 2
                if failures:
                    return 1
                if docs:
                    write_docs(table(mode, measures, thresholds, verdicts, gate.notes, started, finished, confirmations))
                log(f"bench: every measure within its threshold ({len(verdicts)} measures, {mode} mode)")
                return 0
        log(f"bench: the machine is too busy to judge (attempt {attempt} of {attempts}): {'; '.join(reasons)}")
        if attempt < attempts:
            time.sleep(pause)
    log(f"bench: SKIPPED: the machine stayed busy through {attempts} attempts, so no ratio was judged "
        "(run again on a quiet machine; --ignore-busy measures anyway, for information)")
    return 0


def sanity(thresholds_path=THRESHOLDS):
    """Every threshold is a finite number above its goal's floor: a check that cannot fail is a defect."""
    data = json.loads(pathlib.Path(thresholds_path).read_text())
    for mode, entries in data.items():
        if mode.startswith("_"):
            continue
        for name, entry in entries.items():
            limit = entry.get("min", entry.get("max")) if not name.startswith("_") else 0
            if not name.startswith("_") and not (isinstance(limit, (int, float)) and math.isfinite(limit)
                                                 and limit > 0 and entry.get("why")):
                sys.exit(f"bench: {thresholds_path}: {mode} {name} needs a finite max (or min) and a why")
    return os.EX_OK
