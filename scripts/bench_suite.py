"""The measures `scripts/bench --check` judges, each a ratio to a baseline timed in the same minutes (alternating
runs, best of them: noise only ever adds time), but for the recorder's call, CPU nanoseconds per event. `Suite`
writes the traces once and measures them in groups, so that scripts/bench_check.py can measure a group again.

- `check/zstd <shape>`, `info/zstd <shape>`: `lifetrace check` and `lifetrace info` of a trace against `zstd -dc`
  of the same file, for each shape: `random-compact` (the seed-42 random walk with a heartbeat every 25 s, about
  5 bytes per event), `random` (the seed-42 random walk), and the shapes of scripts/bench_shapes.py.
  For `jsonl` (the JSON Lines path: the seed-42 random walk converted to JSON Lines) the baseline is `zstd -dc`
  of those JSON Lines compressed with `zstd -3`: what it costs to merely get the same bytes out.
- `export-perfetto/check`, `export-chrome/check`: each export of the seed-42 random walk to a new file (after a
  `sync`, with no earlier export left) against `check` of the same walk; in the full mode also
  `export-perfetto/check <shape>`, `export-chrome/check <shape>` for each shape of scripts/bench_shapes.py, its
  trace written at the exports' size.
- `import/awk`: `lifetrace import` of a Console capture made of the bundled captures' entries against awk
  splitting its fields (its thresholds judge the median of the pairwise ratios: awk's run is too short for a
  best-of).
- `check-cores random`: `check`'s CPU time over its wall time in its fastest run on the `random` shape: the
  cores it keeps busy (judged against a floor, not a ceiling).
- `recorder-call-ns` (full mode only): CPU time per `record()` call, one thread, from Benchmarks' lifetrace-bench.
"""
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import bench_shapes

# Events per trace: the quick mode's in scripts/test (under a minute), the full mode's for the docs' table.
SIZES = {
    "quick": {"walk": 3_000_000, "shape": 800_000, "jsonl": 500_000, "export": 300_000, "capture": 10_000_000,
              "runs": 7, "export_shapes": ()},
    "full": {"walk": 10_000_000, "shape": 2_000_000, "jsonl": 1_000_000, "export": 1_000_000,
             "capture": 100_000_000, "runs": 9, "export_shapes": bench_shapes.SHAPES},
}


def _run(args, stdout=subprocess.DEVNULL):
    """Runs a command; returns (wall seconds, CPU seconds of the child). `check` exits 1 on findings."""
    with tempfile.TemporaryFile() as stderr:
        start = time.perf_counter()
        process = subprocess.Popen([str(a) for a in args], stdout=stdout, stderr=stderr)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            stderr.seek(0)
            sys.exit(f"bench: {' '.join(map(str, args))} failed: {stderr.read().decode(errors='replace').strip()}")
    return wall, usage.ru_utime + usage.ru_stime


def alternate(commands, runs, before=None):
    """Runs each command `runs` times, alternating; returns each one's [(wall, cpu)]."""
    samples = {name: [] for name in commands}
    for _ in range(runs):
        for name, args in commands.items():
            if before:
                before()
            samples[name].append(_run(args))
    return samples


def ratio(samples, name, base):
    """The best-of ratio of `name` to `base` (`value`, what a threshold judges unless it names `of: median`), with
    the median of the runs' pairwise ratios and the best CPU ratio beside it."""
    best = {n: min(w for w, _ in samples[n]) for n in (name, base)}
    best_cpu = {n: min(c for _, c in samples[n]) for n in (name, base)}
    pairs = [a[0] / b[0] for a, b in zip(samples[name], samples[base])]
    return {"value": best[name] / best[base], "median": statistics.median(pairs),
            "cpu": best_cpu[name] / best_cpu[base] if best_cpu[base] > 0 else None,
            "seconds": best[name], "base_seconds": best[base], "runs": len(pairs)}


def _sh(*args):
    subprocess.run([str(a) for a in args], check=True, stdout=subprocess.DEVNULL)


def write_shape(lifetrace, out, shape, events, name):
    """Writes `events` of `shape` as `out/gate-<name>.lifetrace` (through JSON Lines and `lifetrace convert`), checks
    that it is a valid lifecycle, and returns its path."""
    jsonl, trace = out / f"gate-{name}.jsonl", out / f"gate-{name}.lifetrace"
    bench_shapes.write(shape, jsonl, events)
    _sh(lifetrace, "convert", jsonl, trace)
    jsonl.unlink()
    # A shape is a valid lifecycle: check finds nothing in it (findings would time their reporting too).
    checked = subprocess.run([str(lifetrace), "check", str(trace)], capture_output=True, text=True)
    if checked.returncode != 0:
        sys.exit(f"bench: the {shape} shape has findings or fails to read:\n{checked.stdout[-2000:]}{checked.stderr}")
    return trace


def make_traces(lifetrace, out, sizes):
    """Writes every shape's trace; returns {shape: (trace, baseline file for zstd -dc)}."""
    traces = {}
    simulate = [lifetrace, "simulate", "--scenario", "random", "--seed", "42"]
    compact = out / "gate-random-compact.lifetrace"
    _sh(*simulate, "--events", sizes["walk"], "--heartbeat", "25s", "-o", compact)
    traces["random-compact"] = (compact, compact)
    walk = out / "gate-random.lifetrace"
    _sh(*simulate, "--events", sizes["walk"], "-o", walk)
    traces["random"] = (walk, walk)
    for shape in bench_shapes.SHAPES:
        trace = write_shape(lifetrace, out, shape, sizes["shape"], shape)
        traces[shape] = (trace, trace)
    jsonl = out / "gate-random.jsonl"
    _sh(*simulate, "--events", sizes["jsonl"], "-o", jsonl)
    zst = out / "gate-random.jsonl.zst"
    _sh("zstd", "-3", "-q", "-f", jsonl, "-o", zst)
    traces["jsonl"] = (jsonl, zst)
    return traces


class Suite:
    """The measures of one mode ("quick" or "full") in groups that share their runs: each trace shape's `check`
    and `info` against `zstd -dc`, the exports, import, the recorder. The traces are written once, when the suite
    is made, and kept until `close()`, so that a group can be measured again (`measure(names)`)."""

    def __init__(self, lifetrace, out, mode, recorder=None, log=print):
        self.lifetrace, self.out, self.sizes, self.recorder, self.log = lifetrace, out, SIZES[mode], recorder, log
        self.traces = make_traces(lifetrace, out, self.sizes)
        self.walk = out / "gate-export.lifetrace"
        _sh(lifetrace, "simulate", "--scenario", "random", "--seed", "42", "--events", self.sizes["export"],
            "-o", self.walk)
        self.capture = out / "gate-capture.log"
        fixtures = pathlib.Path(__file__).resolve().parent.parent / "Tests" / "LifetraceImportTests" / "Fixtures"
        bench_shapes.write_capture(fixtures, self.capture, self.sizes["capture"])
        self.groups = [([f"check/zstd {shape}", f"info/zstd {shape}"]
                        + (["check-cores random"] if shape == "random" else []),
                        lambda shape=shape: self._shape(shape)) for shape in self.traces]
        self.groups.append((["export-perfetto/check", "export-chrome/check"], lambda: self._exports(self.walk)))
        self.export_traces = {shape: write_shape(lifetrace, out, shape, self.sizes["export"], f"export-{shape}")
                              for shape in self.sizes["export_shapes"]}
        for shape, trace in self.export_traces.items():
            self.groups.append(([f"export-perfetto/check {shape}", f"export-chrome/check {shape}"],
                                lambda shape=shape, trace=trace: self._exports(trace, shape)))
        self.groups.append((["import/awk"], self._import))
        if recorder:
            self.groups.append((["recorder-call-ns"], self._recorder))

    def measure(self, names=None):
        """Measures every group, or those holding one of `names`: {name: {"value": …, …}}."""
        measures = {}
        for group, run in self.groups:
            if names is None or any(name in names for name in group):
                measures.update(run())
        return measures

    def close(self):
        for trace, baseline in self.traces.values():
            trace.unlink(missing_ok=True)
            baseline.unlink(missing_ok=True)
        for path in (self.walk, self.capture, self.out / "gate-imported.lifetrace",
                     self.out / "gate-recorder.lifetrace", *self.export_traces.values()):
            path.unlink(missing_ok=True)

    def _shape(self, shape):
        lifetrace, (trace, baseline) = self.lifetrace, self.traces[shape]
        samples = alternate({"zstd": ["zstd", "-dc", baseline], "check": [lifetrace, "check", trace],
                             "info": [lifetrace, "info", trace]}, self.sizes["runs"])
        events = bench_shapes.count_events(lifetrace, trace)
        measures = {}
        for name in ("check", "info"):
            measures[f"{name}/zstd {shape}"] = dict(ratio(samples, name, "zstd"), events=events,
                                                    bytes_per_event=trace.stat().st_size / events)
        if shape == "random":
            # check's CPU over its wall time in its fastest run: about 1.5 while it decodes on a second thread
            # and analyzes on the caller's, at most 1 once both are on one (nothing else tells the two apart
            # as plainly: ratios to zstd -dc move with the trace's shape).
            wall, cpu = min(samples["check"])
            measures["check-cores random"] = {"value": cpu / wall, "events": events, "seconds": wall,
                                              "runs": self.sizes["runs"]}
        self.log(f"bench: {shape}: check {measures[f'check/zstd {shape}']['value']:.2f}×, "
                 f"info {measures[f'info/zstd {shape}']['value']:.2f}× zstd -dc")
        return measures

    def _exports(self, trace, shape=None):
        """Both exports of `trace` against its `check`; the measures named for `shape`, if given."""
        outputs = {"perfetto": self.out / "gate.pftrace", "chrome": self.out / "gate.json"}

        def fresh():
            for output in outputs.values():
                output.unlink(missing_ok=True)
            os.sync()

        commands = {"check": [self.lifetrace, "check", trace]}
        for name, output in outputs.items():
            commands[name] = [self.lifetrace, "export", "--format", name, trace, "-o", output]
        samples = alternate(commands, self.sizes["runs"], before=fresh)
        fresh()
        events = bench_shapes.count_events(self.lifetrace, trace)
        suffix = f" {shape}" if shape else ""
        measures = {f"export-{name}/check{suffix}": dict(ratio(samples, name, "check"), events=events)
                    for name in outputs}
        self.log(f"bench: exports{suffix}: perfetto {measures[f'export-perfetto/check{suffix}']['value']:.2f}×, "
                 f"chrome {measures[f'export-chrome/check{suffix}']['value']:.2f}× check")
        return measures

    def _import(self):
        capture = self.capture
        samples = alternate({
            "import": [self.lifetrace, "import", capture, "-o", self.out / "gate-imported.lifetrace", "--process", "App"],
            "awk": ["awk", "-F", "\t", '$3 == "App" {n++} END {print n+0}', capture]}, self.sizes["runs"])
        measure = dict(ratio(samples, "import", "awk"),
                       megabytes_per_second=capture.stat().st_size / 1e6 / min(w for w, _ in samples["import"]))
        self.log(f"bench: import {measure['value']:.2f}× awk (median {measure['median']:.2f}×)")
        return {"import/awk": measure}

    def _recorder(self):
        calls = []
        for _ in range(3):
            lines = subprocess.run([self.recorder, "recorder", "3000000", "1", str(self.out / "gate-recorder.lifetrace")],
                                   check=True, capture_output=True, text=True).stdout.splitlines()
            fields = {line.split()[0]: dict(f.split("=") for f in line.split()[1:]) for line in lines}
            if fields["recorder-call"]["lost"] != "0":
                sys.exit(f"bench: the recorder lost events: {lines}")
            calls.append(float(fields["recorder-call"]["ns_per_event"]))
        return {"recorder-call-ns": {"value": min(calls), "median": statistics.median(calls), "runs": 3}}
