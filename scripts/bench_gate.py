"""What `scripts/bench --check` judges with: whether the machine is quiet enough for a ratio to mean anything,
and each measured ratio against its threshold in Benchmarks/thresholds.json.

A ratio of two programs timed in turn on a 2-core machine holds only while nothing else runs: `check` decodes on
one core and analyzes on the other, so another process on a core moves its wall time towards its CPU time (about
3.8× `zstd -dc` instead of 2.2×) and the bench would blame the code. So the bench measures the machine first and
all along:

- **Other processes' CPU**: /proc/stat's busy time (user, nice, system, irq, softirq and the hypervisor's steal)
  over a window, less what this process and its reaped children used in it (getrusage), in cores. Over a second
  before the run and over the whole run; above `--busy-limit` (0.25 of a core) the run is not judged.
- **A calibration spin**: one busy loop alone, then one on every core at once; where another process holds a core
  the loops running together each get less of one (two loops on the one free core of two: about half). Below 0.8
  of the lone loop's speed the run is not judged. It is the only measure where /proc/stat is missing (macOS), and
  it is blind when every core is already shared (the lone loop slows as much: 0.86 at 2.0 other cores, measured),
  which /proc/stat sees.

A run not judged is retried after a pause, `--attempts` times in all; then the bench says why and exits 0.
"""
import json
import os
import resource
import subprocess
import sys
import time

SPIN_SHARE_LIMIT = 0.8


def _proc_stat():
    """Seconds of busy CPU (steal included) since boot on the cores this process may run on, or None without
    /proc/stat (a container may see more of the host's cores than it is given: those do not count)."""
    try:
        allowed = os.sched_getaffinity(0)
        with open("/proc/stat") as f:
            lines = [line.split() for line in f if line.startswith("cpu") and line[3:4].isdigit()]
        busy = 0
        for fields in lines:
            if int(fields[0][3:]) in allowed:
                user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[1:9])
                busy += user + nice + system + irq + softirq + steal
    except (OSError, ValueError, AttributeError):
        return None
    return busy / os.sysconf("SC_CLK_TCK")


def _own_cpu():
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class Window:
    """Opens on creation; `others()` is the CPU other processes took since, in cores (None without /proc/stat).
    Only children already reaped are counted as this process's: close a window after its commands have ended."""

    def __init__(self):
        self.start, self.stat, self.own = time.perf_counter(), _proc_stat(), _own_cpu()

    def others(self):
        stat = _proc_stat()
        wall = time.perf_counter() - self.start
        if stat is None or self.stat is None or wall <= 0:
            return None
        return max(0.0, (stat - self.stat) - (_own_cpu() - self.own)) / wall


SPIN = ("import sys, time\nstart = time.perf_counter()\nwhile time.perf_counter() < start + 0.05: pass\n"
        "n, end = 0, time.perf_counter() + float(sys.argv[1])\nwhile time.perf_counter() < end: n += 1\nprint(n)")


def _spin(processes, seconds):
    loops = [subprocess.Popen([sys.executable, "-c", SPIN, str(seconds)], stdout=subprocess.PIPE, text=True)
             for _ in range(processes)]
    return [int(p.communicate()[0]) for p in loops]


def spin_share(seconds=0.4):
    """The speed of a busy loop on every core at once, as a share of one loop's alone (the slowest of them)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    alone = max(_spin(1, seconds)[0], 1)
    together = min(_spin(cores, seconds))
    return together / alone


def machine():
    """The machine a figure was measured on, as the docs name it."""
    model = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        model = subprocess.run(["sysctl", "-n", "machdep.cpu.brand_string"], capture_output=True,
                               text=True).stdout.strip() or model
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    zstd = subprocess.run(["zstd", "--version"], capture_output=True, text=True).stdout.strip()
    return {"cores": os.cpu_count(), "cpu": model, "swift": swift[0] if swift else "unknown",
            "zstd": zstd.split(",")[0].replace("*** ", "").strip()}


class Gate:
    """Says whether the machine is quiet enough to judge, before a run and after it."""

    def __init__(self, busy_limit):
        self.busy_limit, self.window, self.notes = busy_limit, None, {}

    def before(self):
        """Why the machine is too busy to start (empty when quiet); opens the run's window when it is quiet."""
        reasons = []
        window = Window()
        time.sleep(1.0)
        others = window.others()
        share = spin_share()
        load = os.getloadavg()[0]
        self.notes = {"load_1min": round(load, 2), "others_before_cores": None if others is None else round(others, 2),
                      "spin_share": round(share, 2)}
        if others is not None and others > self.busy_limit:
            reasons.append(f"other processes used {others:.2f} cores in the second before the run "
                           f"(limit {self.busy_limit})")
        if share < SPIN_SHARE_LIMIT:
            reasons.append(f"a busy loop on every core ran at {share:.2f} of one loop alone (limit "
                           f"{SPIN_SHARE_LIMIT}): another process holds a core")
        if not reasons:
            self.window = Window()
        return reasons

    def after(self):
        """Why the run cannot be judged (empty when the machine stayed quiet)."""
        others = self.window.others() if self.window else None
        self.notes["others_during_cores"] = None if others is None else round(others, 2)
        self.notes["load_1min_after"] = round(os.getloadavg()[0], 2)
        if others is not None and others > self.busy_limit:
            return [f"other processes used {others:.2f} cores while the bench ran (limit {self.busy_limit})"]
        return []


def load_thresholds(path, mode):
    with open(path) as f:
        return json.load(f)[mode]


def figure(measure, entry):
    """The figure of a measure a threshold judges: its `value` (the best-of ratio), or the median of its pairwise
    ratios where the threshold says `"of": "median"`."""
    return measure.get("median" if entry.get("of") == "median" else "value")


def passes(value, entry):
    return value >= entry["min"] if "min" in entry else value <= entry["max"]


def judge(measures, thresholds):
    """Each measure against its threshold (a ceiling, `max`, or for `check-cores` a floor, `min`): a list of
    (name, judged figure, threshold, passed); a measure with no threshold, or a threshold with no measure, is a
    fault of the bench (passed None)."""
    verdicts = []
    for name, entry in thresholds.items():
        if name.startswith("_"):
            continue
        value = figure(measures.get(name, {}), entry)
        verdicts.append((name, value, entry.get("min", entry.get("max")), None if value is None else passes(value, entry)))
    for name in measures:
        if name not in thresholds:
            verdicts.append((name, measures[name]["value"], None, None))
    return verdicts
