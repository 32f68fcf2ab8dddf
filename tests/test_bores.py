"""The conservative scheme's fluxes around bores inside the momentum scheme (schemes/bores.py):
where they act, that they are Heun's, and that the step around them keeps the volume."""

import numpy as np

import builders
import exact_solutions as exact
import surfflow as sf
from runtime_cases import numba_threads
from surfflow.geometry.topology import entry_rows, ring_entries
from validation_cases import INVISCID, make_simulation, strip_width

DAM, LEFT, RIGHT = 5.0, 0.005, 0.001


def dam_break(scheme="momentum", n_along=200, n_across=2):
    """Stoker's dam break on the 603-vertex strip of benchmarks/validation/anuga_compare.py."""
    V, F = builders.strip(10.0, strip_width(n_along, n_across), n_along, n_across, seed=2)
    sim, geom = make_simulation(V, F, scheme=scheme, max_dt=1.0, **INVISCID)
    sim.set_depth(np.where(geom.vertices[:, 0] < DAM, LEFT, RIGHT))
    return sim, geom


def count_bores(sim) -> list:
    """Wrap the scheme's ``find``; returns the list it appends each step's region (a copy, or
    None where the step has no bore) to."""
    bores, seen = sim.scheme.bores, []
    find = bores.find

    def counted(*args):
        found = find(*args)
        seen.append(bores.region.copy() if found else None)
        return found
    bores.find = counted
    return seen


def test_ring_entries_list_each_ring_in_order():
    _, geom = dam_break()
    offsets = geom.neighbor_offsets
    vertices = np.array([7, 3, 300, 3])
    expected = np.concatenate([np.arange(offsets[v], offsets[v + 1]) for v in vertices])
    assert np.array_equal(ring_entries(offsets, vertices), expected)
    assert ring_entries(offsets, np.array([], dtype=np.int64)).size == 0


def test_region_follows_the_bore_and_leaves_the_fan():
    sim, geom = dam_break()
    seen = count_bores(sim)
    sim.advance(4.0)
    assert all(region is not None for region in seen[len(seen) // 10:]), "a bore goes unfound"
    x = geom.vertices[:, 0]
    region = seen[-1]
    bore = exact.stoker_shock(sim.time, DAM, LEFT, RIGHT)
    cell = 10.0 / 200
    assert np.any(np.abs(x[region] - bore) < cell)
    assert np.all(np.abs(x[region] - bore) < 6 * cell)  # the seeds' columns and two rings
    fan_end = DAM + sim.time * (2 * np.sqrt(exact.G * LEFT)
                                - 3 * np.sqrt(exact.G * exact.stoker_middle_depth(LEFT, RIGHT)))
    assert x[region].min() > fan_end


def test_region_follows_a_dry_bed_front_and_only_it():
    """Ritter's dam break (dry right of the dam): every step's region holds the wet tip, the
    vertices within a few cells of it and nothing upstream of the fan's middle; a lake whose
    shoreline is at rest, and the same dam break under friction that slaves the velocity, have
    no region."""
    V, F = builders.strip(10.0, 0.1, 200, 2, seed=2)
    sim, geom = make_simulation(V, F, max_dt=1.0, **INVISCID)
    x = geom.vertices[:, 0]
    sim.set_depth(np.where(x < DAM, LEFT, 0.0))
    seen = count_bores(sim)
    sim.advance(2.0)
    cell = 10.0 / 200
    assert seen[0] is None, "released at rest, the first step has no front"
    assert all(region is not None for region in seen[1:]), "a front goes unfound"
    tip = x[sim.depth >= sim.params.min_depth].max()
    assert np.any(np.abs(x[seen[-1]] - tip) < cell)
    assert x[seen[-1]].min() > tip - 8 * cell  # the seeds' columns and two rings
    lake = builders.strip(10.0, 0.1, 200, 2, seed=2)
    sim, geom = make_simulation(*lake, max_dt=1.0, **INVISCID)
    sim.set_bottom(0.01 * geom.vertices[:, 0])
    sim.set_depth(np.maximum(0.05 - 0.01 * geom.vertices[:, 0], 0.0))
    seen = count_bores(sim)
    sim.advance(0.5)
    assert seen and all(region is None for region in seen)
    sim, _ = make_simulation(V, F, max_dt=1.0, gravity=INVISCID["gravity"], friction=1e4,
                             friction_model="linear")
    sim.set_depth(np.where(x < DAM, LEFT, 0.0))
    seen = count_bores(sim)
    sim.advance(0.5)
    assert seen and all(region is None for region in seen)


def test_a_dry_bed_fronts_residue_keeps_its_momentum():
    """Ritter's dam break: ahead of the tip the liquid below min_depth moves on at the speed it
    came with (the front's, towards the dry bed; not at rest), the public velocity reports it,
    and the conservative scheme counts the residue at rest."""
    V, F = builders.strip(10.0, 0.1, 200, 2, seed=2)
    front_speed = 2.0 * np.sqrt(exact.G * LEFT)
    for scheme in ("momentum", "conservative"):
        sim, geom = make_simulation(V, F, scheme=scheme, max_dt=1.0, **INVISCID)
        x = geom.vertices[:, 0]
        sim.set_depth(np.where(x < DAM, LEFT, 0.0))
        sim.advance(1.5)
        seen = 0
        for _ in range(10):  # every 0.1 s from 1.6 to 2.5 s: a front vertex filling or not
            sim.advance(0.1)
            depth, state = np.asarray(sim.depth), sim.state.velocity
            residue = (depth > 0.0) & (depth < sim.params.min_depth)
            seen += int(residue.any())
            world = np.einsum("ia,iaj->ij", state, geom.tangent_frames)
            assert np.array_equal(sim.velocity, world)
            if scheme == "conservative":
                assert np.all(state[residue] == 0.0)
                continue
            assert np.all(world[residue, 0] > 0.5 * front_speed), world[residue]
            assert np.all(world[residue, 0] < 1.1 * front_speed), world[residue]
        assert seen, f"no residue ahead of the {scheme} scheme's front"


def test_no_bore_in_smooth_waves_at_rest_or_where_capillarity_rules():
    V, F = builders.strip(30.0, 0.4, 300, 4, seed=5)
    sim, geom = make_simulation(V, F, max_dt=1.0, **INVISCID)
    x = geom.vertices[:, 0]
    sim.set_depth(1.0 + exact.gaussian_hump(x, 10.0, 1e-3, 1.0))
    seen = count_bores(sim)
    sim.advance(2.0)
    assert seen and all(region is None for region in seen)
    # water on a 4 mm mesh: sigma / rho (pi / s)^2 is several times g, no vertex is watched
    V, F = builders.strip(0.4, 0.016, 100, 4, seed=5)
    sim, _ = make_simulation(V, F, surface_tension=0.072, max_dt=1.0, **INVISCID)
    assert not sim.scheme.bores.watching


def test_fluxes_are_heuns_and_antisymmetric():
    """With every vertex in the region, d - dt sum_j F_ij / A is the conservative scheme's Heun
    depth, to round-off, and F_ij = -F_ji bit for bit."""
    sim, geom = dam_break()
    sim.advance(1.0)
    s, bores, dt = sim.state, sim.scheme.bores, 0.02
    heun, heun_geom = dam_break("conservative")
    heun.state.depth[:] = s.depth
    heun.state.velocity[:] = s.velocity
    bottom = np.zeros(geom.n_vertices)
    bores.remember(s)
    bores.region[:] = True
    bores.weight[:] = 1.0
    flux = np.zeros(len(geom.neighbor_indices))
    alpha = np.ones(geom.n_vertices)
    bores.blend_fluxes(geom, sim.fields, s, bottom, dt, flux, np.zeros(geom.n_vertices), alpha)
    assert np.array_equal(flux, -flux[geom.reverse_edges])
    assert np.all(alpha == 1.0)  # no cell drains on a wet bed
    rows = entry_rows(geom.neighbor_offsets)
    depth = s.depth - dt * np.bincount(rows, flux, geom.n_vertices) / geom.dual_areas
    heun.scheme.transport(heun_geom, heun.fields, heun.state, bottom, dt)
    assert np.max(np.abs(depth - heun.state.depth)) < 1e-15
    assert np.max(np.abs(bores.velocity - heun.state.velocity)) < 1e-13


def test_stages_on_the_rings_around_the_region_are_whole_mesh_stages():
    """Heun's stages computed only as far as ``reaches`` goes give, at every step of a dam
    break, each stage's fluxes of the entries of ``outflow``, its outflow factors there and its
    state at ``moving``, and then the blended fluxes, limiter and velocity, of stages on every
    vertex, bit for bit. The stages' scratch is filled with NaN before, so a value read from
    outside the reach would show."""
    sim, geom = dam_break()
    bores, heun = sim.scheme.bores, sim.scheme.bores.heun
    blend, reaches, stage = bores.blend_fluxes, bores.reaches, heun.stage
    same, sizes = [], []

    def recorded(*args):
        stage(*args)
        outputs.append((heun.mass_flux.copy(), heun.outflow_factor.copy(), args[7].copy(),
                        args[8].copy()))

    def everywhere(geom):
        return heun.everywhere, heun.everywhere

    def compared(geom, fields, state, bottom, dt, edge_flux, boundary_flux, outflow_factor):
        flux, alpha = edge_flux.copy(), outflow_factor.copy()
        for scratch in (heun.mass_flux, heun.momentum_flux, heun.outflow_factor,
                        heun.grad_depth, heun.grad_velocity, bores.first_depth,
                        bores.first_velocity, bores.second_depth, bores.second_velocity):
            scratch.fill(np.nan)
        outputs.clear()
        blend(geom, fields, state, bottom, dt, edge_flux, boundary_flux, outflow_factor)
        velocity, restricted, reach = bores.velocity[bores.region], outputs[:], reaches(geom)
        sizes.append(len(reach[0].gradients))
        outputs.clear()
        bores.reaches = everywhere
        blend(geom, fields, state, bottom, dt, flux, boundary_flux, alpha)
        bores.reaches = reaches
        for mine, whole, r in zip(restricted, outputs, reach):
            e = ring_entries(geom.neighbor_offsets, r.outflow)
            same.append(np.array_equal(mine[0][e], whole[0][e])
                        and np.array_equal(mine[1][r.outflow], whole[1][r.outflow])
                        and np.array_equal(mine[2][r.moving], whole[2][r.moving])
                        and np.array_equal(mine[3][r.moving], whole[3][r.moving]))
        same.append(np.array_equal(flux, edge_flux) and np.array_equal(alpha, outflow_factor)
                    and np.array_equal(velocity, bores.velocity[bores.region]))
    outputs = []
    heun.stage = recorded
    bores.blend_fluxes = compared
    sim.advance(4.0)
    assert len(same) > 60 and all(same)
    assert max(sizes) < geom.n_vertices / 4  # the first stage's gradients: R and 5 rings


def test_volume_and_dye_exact_through_a_bore_running_into_a_pool():
    """A dam break into a shallower pool with a dyed reservoir and dry ground beyond: the
    blended fluxes keep the liquid's and the dye's volumes, the depth non-negative and the
    dye within [0, 1]."""
    _, geom = dam_break()
    x = geom.vertices[:, 0]
    sim = sf.Simulation(geom, sf.Params(max_dt=1.0, boundary="wall", **INVISCID), n_dyes=1)  # a channel
    sim.set_depth(np.where(x < DAM, LEFT, np.where(x < 8.0, RIGHT, 0.0)))
    sim.set_dye(np.where(x < DAM, 1.0, 0.0)[:, None])
    volume = float(geom.dual_areas @ sim.depth)
    dye = float(geom.dual_areas @ (sim.depth * sim.dye[:, 0]))
    seen = count_bores(sim)
    sim.advance(3.0)
    assert sum(region is not None for region in seen) > len(seen) // 2
    depth = np.asarray(sim.depth)
    assert abs(float(geom.dual_areas @ depth) - volume) < 1e-13 * volume
    assert abs(float(geom.dual_areas @ (depth * sim.dye[:, 0])) - dye) < 1e-12 * dye
    assert depth.min() >= 0.0 and np.all(np.isfinite(sim.velocity))
    assert sim.dye.min() >= 0.0 and sim.dye.max() <= 1.0


def test_results_do_not_depend_on_the_thread_count():
    depths = []
    for threads in (1, 2):
        with numba_threads(threads):
            sim, _ = dam_break()
            sim.advance(1.0)
        depths.append(np.asarray(sim.depth).copy())
    assert np.array_equal(*depths)


def test_a_residue_on_dry_ground_meets_the_liquid_at_a_contact_line():
    """With surface tension an edge between liquid and dry ground is a contact line (the wet
    side's own flow, no wave speeds: kernels/riemann.py), and a residue of 1e-28 m that an
    outflow limiter left on the dry vertex is dry ground too: the Heun stages' fluxes around it
    are those of a bare vertex to 1e-20 m^3/s. Read as wet at any depth above zero, the residue
    draws 6.5e-6 m^3/s here from its wet neighbour, and nothing at exactly 0: on the tilting
    tray's rim round-off left 1e-28 on one processor and 0 on another, and their runs parted
    by 1e-5 m of depth within ten steps."""
    V, F = builders.strip(1.0, 0.05, 40, 2, seed=3)
    geom = sf.precompute((V, F), feature_size=0)
    sim = sf.Simulation(geom, sf.Params(max_dt=0.01, boundary="wall", gravity=(0.0, 0.0, -9.81),
                                        surface_tension=0.072))
    x = geom.vertices[:, 0]
    depth = np.where(x < 0.5, 5e-3, 0.0)
    sim.set_depth(depth)
    rows = entry_rows(geom.neighbor_offsets)
    touching = np.unique(rows[depth[geom.neighbor_indices] > 0.0])
    front = int(touching[depth[touching] == 0.0][0])  # dry, with a wet neighbour
    entries = np.arange(geom.neighbor_offsets[front], geom.neighbor_offsets[front + 1])
    heun, n = sim.scheme.bores.heun, geom.n_vertices
    heun.use_geometry(geom, sim.fields)
    fluxes = []
    for residue in (0.0, 1e-28):
        start = depth.copy()
        start[front] = residue
        heun.stage(geom, sim.fields, sim.state, np.zeros(n), start, np.zeros((n, 2)), 1e-3,
                   np.zeros(n), np.zeros((n, 2)))
        fluxes.append(heun.mass_flux[entries].copy())
    assert np.abs(fluxes[1] - fluxes[0]).max() < 1e-20
