"""load_run: one catena run directory into a Run.

Numbers are read exactly: the CSV and JSON files hold each double in its shortest
round-trip form, which Python's float() (and NumPy's loadtxt, which parses the same way)
turns back into the same bits, so the three trajectory formats give equal arrays. A frame's
time is its step times dt, computed as catena computes it, where the file stores none (NPY
without trajectory-frames.npy).
"""

import csv
import json
import os

import numpy as np

FORMATS = ("npy", "csv", "json")

# Columns of catena's CSV tables read as integers (-1 where empty) or as text; every other
# column is a float (NaN where empty).
_INT_COLUMNS = {"step", "link", "point_a", "point_b", "index", "a", "b", "live_links"}
_TEXT_COLUMNS = {"kind"}


class CatenaError(Exception):
    """A run directory that cannot be read; the message names the file and says why."""


class Run:
    """One run, as catena wrote it.

    path        the run directory
    format      the trajectory file read: "npy", "csv" or "json"
    positions   (frames, points, dimensions) float64, m
    steps       (frames,) int64: the step of each recorded frame
    time        (frames,) float64, s
    dimensions  2 or 3
    dt          the time step, s (None when nothing says)
    links       (links, 2) int64 point indices, as the model was built (model.json; links
                reserved for cuts included: topology holds when links change); None
                without model.json
    rest        (links,) float64 rest lengths, m
    faces       (faces, 3) int64 point indices of the triangles
    names       list of each point's name ("chain.20", or a point's own name)
    mass        (points,) float64, kg
    bodies      list of dicts: name, type, first_point, points, first_link, links
    events      structured array of events.csv (step, time, kind, link, point_a, point_b,
                stretch, force); None without the file
    metrics     structured array of metrics.csv (step, time, error_sum, error_max,
                max_stretch, kinetic, potential, max_speed, live_links)
    topology    structured array of topology.csv (step, kind, index, a, b, value)
    summary     summary.json as a dict
    scenario    scenario.json (the effective scenario) as a dict
    """

    def __init__(self, path):
        self.path = path
        self.format = None
        self.positions = None
        self.steps = None
        self.time = None
        self.dimensions = None
        self.dt = None
        self.links = None
        self.rest = None
        self.faces = None
        self.names = None
        self.mass = None
        self.bodies = None
        self.events = None
        self.metrics = None
        self.topology = None
        self.summary = None
        self.scenario = None

    def __repr__(self):
        shape = None if self.positions is None else self.positions.shape
        return "<catena.Run %r: %s, positions %s>" % (self.path, self.format, shape)


class _Files:
    """The run's files: those summary.json lists when it has a manifest ("files"), each
    checked against its listed size; otherwise those present."""

    def __init__(self, path):
        self.dir = path
        self.listed = None
        if not os.path.isdir(path):
            raise CatenaError("%s: not a directory" % path)
        self.summary = self.json("summary.json") if self.has("summary.json") else None
        if isinstance(self.summary, dict) and isinstance(self.summary.get("files"), list):
            status = self.summary.get("status")
            if status in ("running", "failed"):
                why = self.summary.get("error") or "its files are not complete"
                raise CatenaError("%s: the run is %s: %s" % (self.at("summary.json"), status, why))
            self.listed = {f.get("name"): f.get("size") for f in self.summary["files"]}

    def at(self, name):
        return os.path.join(self.dir, name)

    def has(self, name):
        if self.listed is not None and name != "summary.json":
            return name in self.listed
        return os.path.isfile(self.at(name))

    def path(self, name):
        """The path of a file that must be there (and have its listed size)."""
        p = self.at(name)
        if not self.has(name):
            raise CatenaError("%s: the run wrote no %s" % (self.dir, name))
        size = self.listed.get(name) if self.listed else None
        if size is not None and os.path.getsize(p) != size:
            raise CatenaError("%s: %d bytes, but summary.json lists %d: it changed after the run"
                              % (p, os.path.getsize(p), size))
        return p

    def json(self, name):
        p = self.at(name) if name == "summary.json" else self.path(name)
        try:
            with open(p, "rb") as f:
                return json.load(f)
        except (OSError, ValueError) as e:
            raise CatenaError("%s: %s" % (p, e)) from None


def _table(path):
    """A CSV table of catena's as a structured array, one field per column."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise CatenaError("%s: empty, not even a header line" % path)
    header, body = rows[0], rows[1:]
    types = []
    for name in header:
        if name in _INT_COLUMNS:
            types.append((name, np.int64))
        elif name in _TEXT_COLUMNS:
            width = max([len(r[len(types)]) for r in body if len(r) > len(types)] + [1])
            types.append((name, "U%d" % width))
        else:
            types.append((name, np.float64))
    out = np.zeros(len(body), dtype=types)
    for i, row in enumerate(body):
        if len(row) != len(header):
            raise CatenaError("%s:%d: %d fields where the header has %d"
                              % (path, i + 2, len(row), len(header)))
        for (name, kind), cell in zip(types, row):
            try:
                if kind is np.int64:
                    out[name][i] = int(cell) if cell else -1
                elif kind is np.float64:
                    out[name][i] = float(cell) if cell else np.nan
                else:
                    out[name][i] = cell
            except ValueError:
                raise CatenaError("%s:%d: column %s: %r is not a number"
                                  % (path, i + 2, name, cell)) from None
    return out


def _read_csv(path, npoints):
    """trajectory.csv: rows step,time,point,x,y[,z], a frame's points in order."""
    with open(path) as f:
        header = f.readline().strip()
    if header not in ("step,time,point,x,y", "step,time,point,x,y,z"):
        raise CatenaError("%s:1: not a catena trajectory header: %r" % (path, header))
    dims = header.count(",") - 2
    data = np.loadtxt(path, delimiter=",", skiprows=1, dtype=np.float64, ndmin=2)
    if data.size == 0:
        return np.zeros((0, npoints or 0, dims)), np.zeros(0, np.int64), np.zeros(0)
    if npoints is None:
        npoints = int(data[:, 2].max()) + 1
    if data.shape[0] % npoints:
        raise CatenaError("%s: %d rows are not whole frames of %d points"
                          % (path, data.shape[0], npoints))
    frames = data.shape[0] // npoints
    point = data[:, 2].reshape(frames, npoints)
    step = data[:, 0].reshape(frames, npoints)
    if (point != np.arange(npoints)).any() or (step != step[:, :1]).any():
        raise CatenaError("%s: a frame does not list its %d points in order" % (path, npoints))
    positions = np.ascontiguousarray(data[:, 3:].reshape(frames, npoints, dims))
    return positions, data[::npoints, 0].astype(np.int64), data[::npoints, 1].copy()


def _read_json(path):
    """trajectory.json: metadata, then the frames with their step, time and x."""
    with open(path, "rb") as f:
        try:
            d = json.load(f)
        except ValueError as e:
            raise CatenaError("%s: %s" % (path, e)) from None
    if not isinstance(d, dict) or d.get("catena_trajectory") != 1:
        raise CatenaError("%s: not a catena trajectory (version 1)" % path)
    dims, npoints, frames = d["dimensions"], d["points"], d["frames"]
    positions = np.array([f["x"] for f in frames], dtype=np.float64)
    positions = positions.reshape(len(frames), npoints, dims)
    steps = np.array([f["step"] for f in frames], dtype=np.int64)
    time = np.array([f["time"] for f in frames], dtype=np.float64)
    return positions, steps, time


def _read_npy(files, every, dt):
    """trajectory.npy, and the steps and times from trajectory-frames.npy beside it, else
    frame k at step k * every, time step * dt."""
    positions = np.load(files.path("trajectory.npy"), allow_pickle=False)
    if positions.dtype != np.float64 or positions.ndim != 3:
        raise CatenaError("%s: expected float64 of shape (frames, points, dimensions)"
                          % files.at("trajectory.npy"))
    if files.has("trajectory-frames.npy"):
        fr = np.load(files.path("trajectory-frames.npy"), allow_pickle=False).reshape(-1, 2)
        return positions, fr[:, 0].astype(np.int64), fr[:, 1].copy()
    if every is None or dt is None:
        raise CatenaError("%s: no summary.json to say which steps its frames are"
                          % files.at("trajectory.npy"))
    steps = np.arange(positions.shape[0], dtype=np.int64) * every
    return positions, steps, steps.astype(np.float64) * dt


def _load_model(run, files):
    m = files.json("model.json")
    run.names = list(m["names"])
    run.mass = np.array(m["mass"], dtype=np.float64)
    run.bodies = list(m["bodies"])
    run.links = np.array(m["links"], dtype=np.int64).reshape(-1, 2)
    run.rest = np.array(m["rest"], dtype=np.float64)
    run.faces = np.array(m["faces"], dtype=np.int64).reshape(-1, 3)
    run.dimensions = m["dimensions"]


def load_run(path, format=None):
    """Reads the run directory path into a Run (see its fields).

    format chooses the trajectory file, "npy", "csv" or "json"; by default the first the
    run wrote in that order. Raises CatenaError when a file cannot be read or does not
    match the manifest summary.json holds."""
    if format is not None and format not in FORMATS:
        raise ValueError("format: expected one of %s, got %r" % (", ".join(FORMATS), format))
    files = _Files(path)
    run = Run(path)
    run.summary = files.summary
    params = (run.summary or {}).get("parameters", {})
    run.dt = params.get("dt")
    if files.has("scenario.json"):
        run.scenario = files.json("scenario.json")
    if files.has("model.json"):
        _load_model(run, files)
    kinds = [format] if format else [k for k in FORMATS if files.has("trajectory." + k)]
    if not kinds:
        raise CatenaError("%s: the run wrote no trajectory (trajectory.npy, .csv or .json)" % path)
    run.format = kinds[0]
    npoints = len(run.names) if run.names is not None else None
    if run.format == "npy":
        traj = _read_npy(files, params.get("every"), run.dt)
    elif run.format == "csv":
        traj = _read_csv(files.path("trajectory.csv"), npoints)
    else:
        traj = _read_json(files.path("trajectory.json"))
    run.positions, run.steps, run.time = traj
    run.dimensions = run.positions.shape[2]
    for name in ("events", "metrics", "topology"):
        if files.has(name + ".csv"):
            setattr(run, name, _table(files.path(name + ".csv")))
    return run
