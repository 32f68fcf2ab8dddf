"""Regenerate the regression references: every shipped example's state after a fixed number of
steps, with the summaries a user reads off it and the fingerprint of the machine that made it,
one ``<example>.npz`` each, beside this script (or in ``--into DIR``).

    python tests/regression/make_references.py [--into DIR] [NAME ...]

Run it only on purpose: when a change is meant to alter results. ``tests/test_regression.py``
compares the current code against these files: bit for bit under the same fingerprint
(``machine.py``), within the stated tolerance of the summaries (``summaries.py``) under another.
To check a refactor against main on a machine other than the one that made the shipped files,
make references from main into a folder and point the test at it:
``SURFFLOW_REFERENCES=DIR python -m pytest tests/test_regression.py``.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
STEPS = 60  # enough for every example's sources, motion and droplets to act
SUMMARY = "summary:"  # key prefix of a summary's (value, scale) in a reference file
MACHINE = "machine"   # key of the fingerprint in a reference file


def reference_dir() -> Path:
    """Where the references are read from: ``SURFFLOW_REFERENCES`` or this folder."""
    return Path(os.environ.get("SURFFLOW_REFERENCES", HERE))


def example_names() -> list[str]:
    examples = Path(__file__).resolve().parents[2] / "surfflow" / "examples"
    return sorted(p.stem for p in examples.glob("*.toml"))


def example_simulation(name: str, output_dir: Path, **param_changes):
    """Example ``name``'s simulation after ``STEPS`` steps (geometry cache in output_dir), with
    its scene's ``Params`` changed by ``param_changes`` if any."""
    import dataclasses

    import surfflow as sf

    examples = Path(__file__).resolve().parents[2] / "surfflow" / "examples"
    scene = sf.load_scene(examples / f"{name}.toml")
    if param_changes:
        scene = dataclasses.replace(scene, params=scene.params.replace(**param_changes))
    runner = sf.SceneRunner(scene, output_dir=output_dir, cache_dir=output_dir / "cache")
    sim = runner.simulation
    for _ in range(STEPS):
        sim.step()
    return sim


def reference_arrays(sim) -> dict:
    """What a reference file holds: the state dict (but the tally of what set the steps, a
    record of the run and not its physics: ``StepLimits.to_arrays``), the summaries and the
    fingerprint."""
    from machine import fingerprint
    from summaries import summarize

    arrays = {key: value for key, value in sim.state_dict().items()
              if not key.startswith("step_limit")}
    arrays.update({SUMMARY + k: np.array(v) for k, v in summarize(sim).items()})
    arrays[MACHINE] = np.array(fingerprint())
    return arrays


def main(argv: list[str]) -> None:
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--into", type=Path, default=HERE, help="folder to write into")
    parser.add_argument("names", nargs="*", help="examples (default: all)")
    args = parser.parse_args(argv)
    args.into.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.names or example_names():
            arrays = reference_arrays(example_simulation(name, Path(tmp)))
            np.savez_compressed(args.into / f"{name}.npz", **arrays)
            print(f"{name}: {len(arrays)} arrays, t = {float(arrays['time']):.6g} s")


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(HERE))
    main(sys.argv[1:])
