"""Read catena run directories into NumPy arrays.

    import catena
    run = catena.load_run("runs/hanging-chain")
    run.positions        # (frames, points, dimensions) float64

The files are those of catena(1), OUTPUT FILES: trajectory.npy (with trajectory-frames.npy),
trajectory.csv or trajectory.json for the positions, model.json for the links, triangles and
point names, events.csv, metrics.csv, topology.csv, summary.json and scenario.json. NumPy is
the only dependency.
"""

from catena._run import CatenaError, Run, load_run

__all__ = ["CatenaError", "Run", "load_run"]
__version__ = "0.1.0"
