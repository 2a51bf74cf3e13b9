"""The Python reader (python/catena) on runs made by the catena under test ($CATENA): the
positions of all three trajectory formats equal the CSV's numbers bit for bit (the issue's
"done when": catena.load_run("runs/hanging-chain") run as written, from the directory that
holds runs/); steps and times agree across formats, also for frames off the `every` grid
(trajectory-frames.npy); links, rest lengths, triangles and names match the model; events,
topology and metrics come back as typed columns; a manifest in summary.json is obeyed; and
`pip install` of python/ works offline, at the version of configure.ac."""

import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np

TOP = os.environ["top_srcdir"]
CATENA = os.environ["CATENA"]
sys.path.insert(0, os.path.join(TOP, "python"))
import catena  # noqa: E402

SCENARIOS = os.path.join(TOP, "scenarios")


def run(scenario, out, *args):
    subprocess.run([CATENA, "run", "-q", os.path.join(SCENARIOS, scenario), "-o", out]
                   + list(args), check=True)


def bits(a):
    """The array's bytes as integers, so that equality is bit for bit."""
    return np.ascontiguousarray(a, dtype=np.float64).view(np.uint64)


def csv_positions(path):
    """trajectory.csv parsed by Python's own float(), independently of the reader."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))[1:]
    npoints = max(int(r[2]) for r in rows) + 1
    values = [[float(v) for v in r[3:]] for r in rows]
    return np.array(values).reshape(len(rows) // npoints, npoints, -1)


class Reader(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(dir=os.environ.get("TMPDIR"))
        cls.cwd = os.getcwd()
        os.chdir(cls.tmp)
        run("hanging-chain.json", "runs/hanging-chain", "--format", "csv,json,npy")

    @classmethod
    def tearDownClass(cls):
        os.chdir(cls.cwd)
        shutil.rmtree(cls.tmp)

    def test_done_when(self):
        """The issue's command, as written, from the directory that holds runs/."""
        env = dict(os.environ, PYTHONPATH=os.path.join(TOP, "python"))
        code = ("import catena; r = catena.load_run('runs/hanging-chain'); "
                "print(r.format, r.positions.shape)")
        out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                             stdout=subprocess.PIPE, universal_newlines=True).stdout
        self.assertEqual(out.strip(), "npy (121, 41, 2)")

    def test_three_formats_bit_for_bit(self):
        want = csv_positions("runs/hanging-chain/trajectory.csv")
        self.assertEqual(want.shape, (121, 41, 2))
        first = None
        for fmt in ("csv", "json", "npy"):
            r = catena.load_run("runs/hanging-chain", format=fmt)
            self.assertEqual(r.format, fmt)
            self.assertEqual(r.positions.dtype, np.float64)
            self.assertTrue(np.array_equal(bits(r.positions), bits(want)), fmt)
            self.assertEqual(list(r.steps[:3]), [0, 10, 20])
            if first is None:
                first = r
            self.assertTrue(np.array_equal(r.steps, first.steps), fmt)
            self.assertTrue(np.array_equal(bits(r.time), bits(first.time)), fmt)

    def test_model_and_tables(self):
        r = catena.load_run("runs/hanging-chain")
        self.assertEqual(r.dimensions, 2)
        self.assertEqual(r.links.shape, (40, 2))
        self.assertEqual(r.links[7].tolist(), [7, 8])
        # rope of length 12 in 40 links
        self.assertTrue(np.allclose(r.rest, 0.3, rtol=0, atol=1e-15))
        self.assertEqual(r.faces.shape, (0, 3))
        self.assertEqual(r.names[20], "chain.20")
        self.assertEqual(len(r.names), 41)
        self.assertEqual(r.summary["status"], "ok")
        self.assertEqual(r.scenario["name"], "hanging-chain")
        self.assertEqual(len(r.metrics), 121)  # a row per recorded frame
        self.assertTrue(np.array_equal(r.metrics["step"], r.steps))
        self.assertEqual(r.metrics["live_links"].dtype, np.int64)
        self.assertEqual(len(r.events), 0)
        self.assertIsNone(r.topology)  # nothing could change
        self.assertAlmostEqual(r.dt, 1 / 120, delta=1e-15)

    def test_breaks_and_topology(self):
        """A chain whose link breaks: the event and topology rows, typed."""
        run("lamp-chain-breaks.json", "lamp", "--steps", "150", "--format", "csv,npy")
        r = catena.load_run("lamp")
        breaks = r.events[r.events["kind"] == "break"]
        self.assertGreaterEqual(len(breaks), 1)
        self.assertTrue(0 <= breaks["link"][0] < len(r.links))
        self.assertEqual(breaks["point_a"][0], r.links[breaks["link"][0]][0])
        dead = r.topology[r.topology["kind"] == "dead"]
        self.assertIn(breaks["link"][0], dead["index"])
        self.assertTrue(np.isnan(r.events["stretch"][r.events["kind"] == "impulse"]).all())
        self.assertTrue(np.array_equal(bits(r.positions),
                                       bits(catena.load_run("lamp", format="csv").positions)))

    def test_faces_3d(self):
        run("cloth-curtain.json", "cloth", "--steps", "5", "--format", "npy")
        r = catena.load_run("cloth")
        self.assertEqual(r.dimensions, 3)
        self.assertGreater(len(r.faces), 0)
        self.assertLess(r.faces.max(), r.positions.shape[1])
        self.assertEqual(len(r.names), r.positions.shape[1])
        self.assertEqual(r.bodies[0]["type"], "cloth")

    def test_off_grid_frames(self):
        """A run that settles off the every grid: NPY's steps from trajectory-frames.npy."""
        run("hanging-chain.json", "settled", "--format", "csv,npy", "--every", "7",
            "--until-settled", "0.01")
        n, c = (catena.load_run("settled", format=f) for f in ("npy", "csv"))
        self.assertNotEqual(c.steps[-1] % 7, 0)
        self.assertTrue(np.array_equal(n.steps, c.steps))
        self.assertTrue(np.array_equal(bits(n.time), bits(c.time)))
        self.assertTrue(np.array_equal(bits(n.positions), bits(c.positions)))

    def test_manifest(self):
        """With a manifest, only the files it lists, at the sizes it lists."""
        shutil.copytree("runs/hanging-chain", "listed")
        path = "listed/summary.json"
        with open(path) as f:
            summary = json.load(f)
        size = os.path.getsize("listed/trajectory.csv")
        summary["files"] = [{"name": "trajectory.csv", "size": size}]
        with open(path, "w") as f:
            json.dump(summary, f)
        r = catena.load_run("listed")
        self.assertEqual(r.format, "csv")  # the NPY file is there but not listed
        self.assertIsNone(r.metrics)
        summary["files"] = [{"name": "trajectory.csv", "size": size + 1}]
        with open(path, "w") as f:
            json.dump(summary, f)
        with self.assertRaisesRegex(catena.CatenaError, "trajectory.csv: .* bytes, but summary"):
            catena.load_run("listed")
        summary["status"] = "running"
        with open(path, "w") as f:
            json.dump(summary, f)
        with self.assertRaisesRegex(catena.CatenaError, "the run is running"):
            catena.load_run("listed")

    def test_errors(self):
        os.mkdir("empty")
        with self.assertRaisesRegex(catena.CatenaError, "empty: the run wrote no trajectory"):
            catena.load_run("empty")
        with self.assertRaisesRegex(catena.CatenaError, "not a directory"):
            catena.load_run("nowhere")
        with self.assertRaises(ValueError):
            catena.load_run("runs/hanging-chain", format="xml")

    def test_pip_install(self):
        """pip installs python/ offline (no build isolation, no dependencies fetched)."""
        import importlib.util
        if not importlib.util.find_spec("pip") or not importlib.util.find_spec("setuptools"):
            self.skipTest("pip or setuptools missing")
        src = os.path.join(self.tmp, "src")
        shutil.copytree(os.path.join(TOP, "python"), src)  # the build writes beside it
        target = os.path.join(self.tmp, "site")
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index",
                        "--no-build-isolation", "--no-deps", "--target", target, src],
                       check=True, stdout=subprocess.DEVNULL)
        env = dict(os.environ, PYTHONPATH=target)
        out = subprocess.run([sys.executable, "-c", "import catena; print(catena.__version__)"],
                             env=env, check=True, stdout=subprocess.PIPE,
                             universal_newlines=True, cwd=self.tmp).stdout
        self.assertEqual(out.strip(), os.environ["CATENA_VERSION"])


if __name__ == "__main__":
    unittest.main()
