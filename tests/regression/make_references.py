"""Regenerate the regression references: every shipped example's state after a fixed number of
steps, one ``<example>.npz`` each, beside this script.

    python tests/regression/make_references.py [NAME ...]

Run it only on purpose: when a change is meant to alter results. ``tests/test_regression.py``
compares the current code against these files bit for bit, so a refactor that should not change
results proves it did not.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
STEPS = 60  # enough for every example's sources, motion and droplets to act


def example_names() -> list[str]:
    examples = Path(__file__).resolve().parents[2] / "surfflow" / "examples"
    return sorted(p.stem for p in examples.glob("*.toml"))


def example_state(name: str, output_dir: Path) -> dict:
    """The state dict of example ``name`` after ``STEPS`` steps (geometry cache in output_dir)."""
    import surfflow as sf

    examples = Path(__file__).resolve().parents[2] / "surfflow" / "examples"
    runner = sf.SceneRunner(sf.load_scene(examples / f"{name}.toml"), output_dir=output_dir,
                            cache_dir=output_dir / "cache")
    sim = runner.simulation
    for _ in range(STEPS):
        sim.step()
    return sim.state_dict()


def main(names: list[str]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for name in names or example_names():
            state = example_state(name, Path(tmp))
            np.savez_compressed(HERE / f"{name}.npz", **state)
            print(f"{name}: {len(state)} arrays, t = {float(state['time']):.6g} s")


if __name__ == "__main__":
    main(sys.argv[1:])
