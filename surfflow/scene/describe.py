"""``describe_file``: what a file is and what it holds, for ``surfflow info``.

Recognises scene files (.toml), geometry caches, checkpoints, output frames and the output
mesh (.npz), VTU frames and PVD series, USD stages, and any mesh file trimesh reads.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..errors import CacheError


def describe_file(path: str | os.PathLike, **mesh_options) -> dict[str, str]:
    """An ordered {label: text} summary of the file at ``path``; ``mesh_options`` (units, up,
    repair) go to ``load_mesh`` when it is a mesh file."""
    path = Path(path)
    if not path.exists():
        raise CacheError(f"{str(path)!r} does not exist; check the path")
    suffix = path.suffix.lower()
    if suffix == ".toml":
        return _describe_scene(path)
    if suffix == ".npz":
        return _describe_npz(path)
    if suffix == ".pvd":
        return _describe_pvd(path)
    if suffix == ".vtu":
        return _describe_vtu(path)
    if suffix == ".vtkhdf":
        from ..io.vtkhdf import describe_vtkhdf
        return describe_vtkhdf(path)
    if suffix in (".usd", ".usda", ".usdc"):
        from ..io.usd import describe_stage
        return describe_stage(path)
    return _describe_mesh(path, **mesh_options)


def _describe_scene(path: Path) -> dict:
    from .scene import load_scene
    scene = load_scene(path)
    mesh = scene.mesh.path.name if scene.mesh.path else f"procedural {scene.mesh.procedural}"
    if scene.mode == "ripples":
        return _describe_ripple_scene(scene, mesh)
    return {"type": "scene", "name": scene.name, "mesh": mesh, "liquid": scene.liquid,
            "friction": f"{scene.params.friction_model}, tensors from {scene.friction_tensor}",
            "sources": ", ".join(s.kind for s in scene.sources) or "none",
            "emitters": ", ".join(e.kind for e in scene.emitters) or "none",
            "motion": scene.motion.kind if scene.motion is not None else "none",
            "droplets": _describe_droplets(scene.droplets),
            "duration": f"{scene.duration} s at {scene.fps} fps ({scene.n_frames} frames)",
            "output": f"{scene.output.directory} ({', '.join(scene.output.formats)})"}


def _describe_ripple_scene(scene, mesh: str) -> dict:
    """A ``mode = "ripples"`` scene: its [ripples] table in a few lines."""
    r = scene.ripples
    speed = f"{r.wave_speed} m/s" if r.wave_speed is not None else f"sqrt(g {r.depth} m)"
    return {"type": "scene (ripples)", "name": scene.name, "mesh": mesh,
            "waves": f"speed {speed}, damping {r.damping} 1/s, edge {r.edge}",
            "drops": f"{len(r.drops)}, rain {r.rain_rate} per m^2 s",
            "duration": f"{scene.duration} s at {scene.fps} fps ({scene.n_frames} frames)",
            "output": f"{scene.output.directory} ({', '.join(scene.output.formats)})"}


def _describe_droplets(spec) -> str:
    """The [droplets] table in a line: the engine and its particle budget."""
    if spec is None:
        return "none"
    budget = "default" if spec.max_particles is None else f"{spec.max_particles}"
    return f"{spec.engine}, max_particles {budget}"


def _describe_npz(path: Path) -> dict:
    with np.load(path, allow_pickle=False) as data:
        keys = set(data.files)
        if "neighbor_offsets" in keys:
            from ..geometry.surface import SurfaceGeometry
            from ..step_limits import cells_line, dual_cell_sizes
            geom = SurfaceGeometry.load(path)
            return {"type": "geometry cache", "vertices": geom.n_vertices, "faces": geom.n_faces,
                    "area": f"{geom.area:.6g} m^2", "boundary vertices": int(geom.is_boundary.sum()),
                    "components": len(np.unique(geom.components)),
                    "dual cells": cells_line(dual_cell_sizes(geom)), "key": geom.key}
        if "geometry_key" in keys:
            from ..io.checkpoint import load_checkpoint
            checkpoint = load_checkpoint(path)
            state = checkpoint.state
            if "ripple_height" in state:
                return {"type": "checkpoint (ripples)", "frame": checkpoint.frame,
                        "time": f"{checkpoint.time:.6g} s", "vertices": len(state["ripple_height"]),
                        "geometry key": checkpoint.geometry_key, **dict(checkpoint.meta)}
            return {"type": "checkpoint", "frame": checkpoint.frame,
                    "time": f"{checkpoint.time:.6g} s", "vertices": len(state["depth"]),
                    "dyes": state["dye"].shape[1], "sources": len(state["source_kinds"]),
                    "geometry key": checkpoint.geometry_key,
                    **dict(checkpoint.meta)}
        if "depth" in keys:
            depth = data["depth"]
            return {"type": "output frame", "frame": int(data["frame"]),
                    "time": f"{float(data['time']):.6g} s", "vertices": len(depth),
                    "fields": ", ".join(sorted(keys - {"time", "frame"})),
                    "wet vertices": int((depth > 0).sum()), "max depth": f"{depth.max():.6g} m"}
        if {"vertices", "faces"} <= keys:
            return {"type": "output mesh", "vertices": len(data["vertices"]),
                    "faces": len(data["faces"])}
    raise CacheError(f"{str(path)!r} is an .npz that surfflow did not write (keys {sorted(keys)[:8]})")


def _describe_pvd(path: Path) -> dict:
    from ..io.writers import read_pvd
    entries = read_pvd(path)
    times = [t for t, _ in entries]
    return {"type": "VTU series index", "frames": len(entries),
            "time": f"{min(times):.6g} to {max(times):.6g} s" if times else "none"}


def _describe_vtu(path: Path) -> dict:
    import meshio
    mesh = meshio.read(path)
    return {"type": "VTU frame", "points": len(mesh.points),
            "cells": sum(len(block.data) for block in mesh.cells),
            "fields": ", ".join(sorted(mesh.point_data))}


def _describe_mesh(path: Path, **mesh_options) -> dict:
    from ..io.mesh_report import mesh_report
    return mesh_report(path, **mesh_options).lines()
