"""In-place geometry updates of a deforming surface: the same bits as ``update_positions`` and
``surface_fields``, and no array allocated per move."""

import tracemalloc

import numpy as np
import pytest

import builders
import surfflow as sf
from runtime_cases import curved_patch
from surfflow.geometry.precompute import update_positions
from surfflow.geometry.workspace import GeometryWorkspace
from surfflow.motion import Twist, Wave
from surfflow.state import surface_fields, update_surface_fields

ARRAYS = ("vertices", "original_vertices", "bottom", "normals", "dual_areas", "tangent_frames",
          "edge_transforms", "neighbor_coords", "dual_edge_vectors", "boundary_normals",
          "friction_tensors")


def bumpy_patch():
    """An open patch with detail (bottom heights) that the feature friction tensors feel."""
    V, F = builders.rectangle(0.0, 1.0, 0.0, 0.8, 16, 13, jitter=0.2, seed=3)
    V[:, 2] = 0.1 * np.sin(3.0 * V[:, 0]) + 0.01 * np.sin(40.0 * V[:, 0] + 25.0 * V[:, 1])
    return sf.precompute((V, F), feature_size=0.1)


def user_tensor_sphere():
    V, F = builders.icosphere(1.0, 2)
    return sf.precompute((V, F), smoothing_iterations=0,
                         friction_tensors=np.tile(np.diag([3.0, 1.0]), (len(V), 1, 1)))


@pytest.mark.parametrize("make, motion", [(bumpy_patch, Wave(0.05, 0.5, 0.2)),
                                          (user_tensor_sphere, Twist(90.0, 0.3, axis=(0, 0, 1)))])
def test_workspace_moves_equal_update_positions_bit_for_bit(make, motion):
    geom = make()
    workspace = GeometryWorkspace(geom)
    moved = reference = geom
    held = []
    for t in (0.05, 0.1, 0.15, 0.2):
        vertices = motion(geom.vertices, t)
        moved, reference = workspace.update(moved, vertices), update_positions(reference, vertices)
        held.append(moved)
        for name in ARRAYS:
            assert np.array_equal(getattr(moved, name), getattr(reference, name)), name
            assert not getattr(moved, name).flags.writeable, name
    assert held[-1].normals is not held[-2].normals                   # two sets, in turn
    assert np.may_share_memory(held[-1].normals, held[-3].normals)    # and no new ones
    assert not np.array_equal(held[-1].normals, held[-2].normals)     # it really moved
    if geom.feature_gains is not None:
        assert np.abs(moved.friction_tensors - geom.friction_tensors).max() > 1e-3
    else:
        assert moved.friction_tensors is geom.friction_tensors       # attached to the material


@pytest.mark.parametrize("boundary", ["wall", "outflow"])
def test_fields_refilled_in_place_equal_fresh_ones(boundary):
    geom = curved_patch()
    gravity = (0.3, -1.0, -9.7)
    fields = surface_fields(geom, gravity, boundary)
    moved = update_positions(geom, Wave(0.05, 0.5, 0.2)(geom.vertices, 0.1))
    update_surface_fields(fields, moved, gravity, boundary)
    for name, fresh in surface_fields(moved, gravity, boundary)._asdict().items():
        assert np.array_equal(getattr(fields, name), fresh), name
    assert (fields.wall_projections[geom.is_boundary] != np.eye(2)).any() == (boundary == "wall")


def test_a_move_allocates_no_array():
    """Moving the surface and refilling the fields allocates less than one (n,) array, a fixed
    few kB of Python objects (numpy reports its allocations to tracemalloc); update_positions
    allocates the whole geometry."""
    V, F = builders.rectangle(0.0, 1.0, 0.0, 1.0, 70, 70, jitter=0.2, seed=1)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    workspace, fields = GeometryWorkspace(geom), surface_fields(geom, (0, 0, -9.81), "wall")
    positions = [Wave(0.05, 0.5, 0.2)(geom.vertices, t) for t in (0.1, 0.2, 0.3)]

    def peak_bytes(move, vertices):
        tracemalloc.start()
        move(vertices)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return peak

    def in_place(vertices):
        moved = workspace.update(geom, vertices)
        update_surface_fields(fields, moved, (0, 0, -9.81), "wall")

    in_place(positions[0])                                           # compiles
    assert max(peak_bytes(in_place, v) for v in positions[1:]) < geom.dual_areas.nbytes
    assert peak_bytes(lambda v: update_positions(geom, v), positions[1]) > 10 * geom.normals.nbytes


class Rebuilding:
    """The one-shot path: a new geometry from ``update_positions`` every move."""

    def update(self, geom, vertices):
        return update_positions(geom, vertices)


def test_a_moving_simulation_equals_one_rebuilt_by_update_positions():
    geom = bumpy_patch()
    params = sf.Params(gravity=(0.0, -2.0, -9.81))
    moving, rebuilt = (sf.Simulation(geom, params, motion=Wave(0.05, 0.5, 0.2)) for _ in range(2))
    rebuilt.term("motion").workspace = Rebuilding()
    for sim in (moving, rebuilt):
        sim.set_depth(np.full(geom.n_vertices, 2e-3))
        sim.add_rain(1e-4)
        for _ in range(8):
            sim.step()
    for name in ARRAYS:
        assert np.array_equal(getattr(moving.geometry, name), getattr(rebuilt.geometry, name)), name
    assert np.array_equal(moving.depth, rebuilt.depth)
    assert np.array_equal(moving.state.velocity, rebuilt.state.velocity)
    assert abs(moving.ledger()["balance_error"]) < 1e-12 * moving.ledger()["current"]
    assert np.abs(moving.depth - 2e-3).max() > 1e-6                       # the liquid moved
