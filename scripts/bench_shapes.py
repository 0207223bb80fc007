"""The trace shapes scripts/bench measures besides the seed-42 random walk: JSON Lines written here, from a seeded
random draw, then converted to .lifetrace by `lifetrace convert` (so that the bytes are the writer's own).

- `few-scenes`: three scenes brought to the foreground once per process, then a long run of heartbeats (one a
  second with a millisecond's jitter, 2,000 in a row) with a scene resigning and becoming active now and then: few records of any kind but
  heartbeats, the most compact shape (the kind of the held-out trace of issue 46: 3 scenes, long heartbeats).
- `many-scenes`: one process with 400 scenes connected, each walked through inactive, background, foreground and
  active at random, some disconnected and others connected in their place: the analyzer's per-scene tables large.
- `many-processes`: a process launched every ten events (launch, both finish-launching callbacks, one scene to the
  foreground and back, a save), each suspended and reclaimed with no callback: process tracking per event.

Every shape is a valid lifecycle: scripts/bench_suite.py stops when `lifetrace check` finds anything in one.
"""
import json
import random
import subprocess

HEADER = {"lifetrace": 1, "clock": "continuous", "app": "com.example.bench", "scene_manifest": True}
SHAPES = ("few-scenes", "many-scenes", "many-processes")


class _Writer:
    def __init__(self, f, rng):
        self.f, self.rng, self.t, self.count = f, rng, 100_000_000_000, 0

    def event(self, ev, gap, scene=None, dur=True, **fields):
        self.t += gap
        parts = [f'"t":{self.t}', f'"ev":"{ev}"']
        if scene is not None:
            parts.append(f'"scene":"{scene}"')
        for key, value in fields.items():
            parts.append(f'"{key}":{json.dumps(value)}')
        if dur:
            d = self.rng.randrange(200_000, 9_000_000)
            parts.append(f'"dur":{d}')
            self.t += d
        self.f.write("{" + ",".join(parts) + "}\n")
        self.count += 1

    def launch(self, pid):
        self.event("process.launch", self.rng.randrange(1_000_000_000, 60_000_000_000), dur=False, reason="user",
                   pid=pid)
        self.event("app.willFinishLaunching", 1_500_000)
        self.event("app.didFinishLaunching", 1_800_000)

    def connect(self, scene):
        self.event("app.configurationForConnecting", 1_000_000, scene)
        self.event("scene.willConnect", 1_000_000, scene)
        self.event("scene.willEnterForeground", 1_000_000, scene)
        self.event("scene.didBecomeActive", 1_000_000, scene)

    def background(self, scene):
        self.event("scene.willResignActive", self.rng.randrange(1_000_000, 5_000_000_000), scene)
        self.event("scene.didEnterBackground", 1_000_000, scene)


def _few_scenes(w, events):
    pid = 1000
    while w.count < events:
        pid += 1
        w.launch(pid)
        scenes = ("S1", "S2", "S3")
        for scene in scenes:
            w.connect(scene)
        for beat in range(2000):
            if w.rng.random() < 0.01:
                scene = w.rng.choice(scenes)
                w.event("scene.willResignActive", 100_000_000, scene)
                w.event("scene.didBecomeActive", 100_000_000, scene)
            # A timer's jitter: a millisecond either way.
            w.event("heartbeat", 1_000_000_000 + w.rng.randrange(-1_000_000, 1_000_000), dur=False)
        for scene in scenes:
            w.background(scene)
        w.event("custom.save", 2_000_000, dur=False)


def _many_scenes(w, events):
    w.launch(2001)
    state, serial = {}, 0
    for _ in range(400):
        serial += 1
        w.connect(f"S{serial}")
        state[f"S{serial}"] = "active"
    names = list(state)
    while w.count < events:
        i = w.rng.randrange(len(names))
        scene = names[i]
        s = state[scene]
        gap = w.rng.randrange(1_000_000, 2_000_000_000)
        if s == "active":
            w.event("scene.willResignActive", gap, scene)
            state[scene] = "inactive"
        elif s == "inactive":
            if w.rng.random() < 0.5:
                w.event("scene.didBecomeActive", gap, scene)
                state[scene] = "active"
            else:
                w.event("scene.didEnterBackground", gap, scene)
                state[scene] = "background"
        elif w.rng.random() < 0.05:
            w.event("scene.didDisconnect", gap, scene)
            del state[scene]
            serial += 1
            names[i] = f"S{serial}"
            w.connect(names[i])
            state[names[i]] = "active"
        else:
            w.event("scene.willEnterForeground", gap, scene)
            state[scene] = "inactive"


def _many_processes(w, events):
    pid = 3000
    while w.count < events:
        pid += 1
        w.launch(pid)
        w.connect("S1")
        w.background("S1")
        w.event("custom.save", 1_000_000, dur=False)


def write(shape, path, events, seed=42):
    """Writes `shape` as JSON Lines of at least `events` events to `path`."""
    make = {"few-scenes": _few_scenes, "many-scenes": _many_scenes, "many-processes": _many_processes}[shape]
    header = dict(HEADER, heartbeat_ns=1_000_000_000) if shape == "few-scenes" else HEADER
    with open(path, "w") as f:
        f.write(json.dumps(header, separators=(",", ":")) + "\n")
        make(_Writer(f, random.Random(seed)), events)


def count_events(lifetrace, trace):
    """The events of a trace, as `lifetrace info --json` counts them."""
    out = subprocess.run([str(lifetrace), "info", "--json", str(trace)], check=True, capture_output=True,
                         text=True).stdout
    return int(out.split('"events":')[1].split(",")[0])


# Console captures for the import rows: the bundled captures' entries, re-timed and repeated.

def console_entries(fixtures):
    """The bundled Console captures' entries (level, process, message with its continuation lines), with their
    apps renamed to one (`App`) so that every lifecycle line counts."""
    entries = []
    for name in ("cold-launch.console.log", "background.console.log", "foreground.console.log"):
        current = None
        for line in (fixtures / name).read_text().splitlines():
            if line.startswith("#"):
                continue
            parts = line.split("\t", 3)
            if len(parts) == 4 and parts[0] and " " not in parts[0] and parts[1][2:3] == ":":
                if current:
                    entries.append(current)
                process = "App" if parts[2] in ("MobileJarvisNative", "hootowl") else parts[2]
                current = [parts[0], process, parts[3]]
            elif current:
                current[2] += "\n" + line
        if current:
            entries.append(current)
    return entries


def write_entries(fixtures, path, size, render):
    """Writes a capture of about `size` bytes: the Console captures' entries, one millisecond apart, over and
    over, each as `render(level, process, message, ms)` prints it."""
    entries = console_entries(fixtures)
    written, ms = 0, 0
    with path.open("w") as f:
        while written < size:
            for level, process, message in entries:
                text = render(level, process, message, ms)
                f.write(text)
                written += len(text.encode())
                ms += 1


def clock(ms):
    """`HH:MM:SS` of `ms` milliseconds after midnight."""
    s = ms // 1000
    return f"{s // 3600 % 24:02d}:{s // 60 % 60:02d}:{s % 60:02d}"


def write_capture(fixtures, path, size):
    """Writes a Console capture of about `size` bytes, as Console copies lines."""
    write_entries(fixtures, path, size, lambda level, process, message, ms:
                  f"{level}\t{clock(ms)}.{ms % 1000:03d}000+0000\t{process}\t{message}\n")
