"""Checks of the validation suite's own ingredients: the test meshes (``builders``) and the
exact solutions (``exact_solutions``), each against an independent property (area, orientation,
the PDE it should solve, conservation), so a wrong known answer cannot hide a solver bug."""

import numpy as np
import pytest
import trimesh
from scipy.integrate import trapezoid

import builders
import exact_solutions as exact


def face_normals(V, F):
    return trimesh.Trimesh(V, F, process=False).face_normals


def central_difference(f, x, h):
    """(f(x + h) - f(x - h)) / (2 h), the derivative of f at x to O(h^2)."""
    return (f(x + h) - f(x - h)) / (2.0 * h)


def test_rectangle_is_irregular_flat_and_covers_its_box():
    V, F = builders.rectangle(0.0, 3.0, 0.0, 2.0, 30, 20, seed=7)
    mesh = trimesh.Trimesh(V, F, process=False)
    assert mesh.area == pytest.approx(6.0, rel=1e-12)
    assert np.all(face_normals(V, F)[:, 2] > 0.999)
    assert mesh.area_faces.min() > 0.2 * mesh.area_faces.mean()
    valence = np.bincount(F.ravel(), minlength=len(V))
    assert len(np.unique(valence)) >= 4, "the triangulation should be irregular"
    assert V[:, 0].min() == 0.0 and V[:, 0].max() == 3.0 and V[:, 1].max() == 2.0


def test_inclined_plane_has_the_tilted_normal_and_true_area():
    angle = np.radians(30.0)
    V, F = builders.inclined_plane(1.0, 0.04, angle, 100, 4)
    assert trimesh.Trimesh(V, F, process=False).area == pytest.approx(0.04, rel=1e-12)
    np.testing.assert_allclose(face_normals(V, F), [[np.sin(angle), 0.0, np.cos(angle)]] * len(F),
                               atol=1e-12)


def test_hemispherical_bowl_is_an_open_hemisphere_seen_from_inside():
    V, F = builders.hemispherical_bowl(2.0, 16)
    mesh = trimesh.Trimesh(V, F, process=False)
    np.testing.assert_allclose(np.linalg.norm(V, axis=1), 2.0, rtol=1e-12)
    assert V[:, 2].max() <= 1e-12 and V[:, 2].min() == -2.0
    assert mesh.euler_number == 1 and mesh.is_winding_consistent
    towards_centre = -mesh.triangles_center
    assert np.all(np.einsum("ij,ij->i", mesh.face_normals, towards_centre) > 0)
    assert mesh.area == pytest.approx(2 * np.pi * 4.0, rel=5e-3)


def test_icosphere_has_a_vertex_at_the_top_and_outward_normals():
    V, F = builders.icosphere(1.5, 3)
    mesh = trimesh.Trimesh(V, F, process=False)
    assert mesh.is_watertight and mesh.euler_number == 2
    np.testing.assert_allclose(V[np.argmax(V[:, 2])], [0.0, 0.0, 1.5], atol=1e-12)
    assert np.all(np.einsum("ij,ij->i", mesh.face_normals, mesh.triangles_center) > 0)


def test_lake_depth_puts_the_free_surface_at_the_level():
    V, F = builders.hemispherical_bowl(1.0, 12)
    normals = -V / np.linalg.norm(V, axis=1, keepdims=True)
    depth = exact.lake_depth(V, normals, np.array([0.0, 0.0, -9.81]), -0.4)
    wet = depth > 0
    np.testing.assert_allclose(V[wet, 2] + depth[wet] * normals[wet, 2], -0.4, atol=1e-15)
    assert np.all(V[~wet, 2] >= -0.4)


def test_ritter_solution_conserves_volume_and_solves_the_mass_equation():
    x0, dl, t = 5.0, 0.005, 6.0
    x = np.linspace(0.0, 10.0, 200_001)
    volume = trapezoid(exact.ritter_depth(x, t, x0, dl), x)
    assert volume == pytest.approx(dl * x0, rel=1e-6)
    c = np.sqrt(exact.G * dl)
    xs = np.linspace(x0 - 0.9 * c * t, x0 + 1.9 * c * t, 50)

    def flux(xx):
        return exact.ritter_depth(xx, t, x0, dl) * 2.0 / 3.0 * (c + (xx - x0) / t)

    d_t = central_difference(lambda tt: exact.ritter_depth(xs, tt, x0, dl), t, 1e-4)
    np.testing.assert_allclose(d_t + central_difference(flux, xs, 1e-4), 0.0, atol=1e-8)


def test_thacker_solution_solves_radial_shallow_water_and_conserves_volume():
    h0, a, r0, t = 0.1, 1.0, 0.8, 0.7
    r, e = np.linspace(0.05, 0.7, 30), 1e-5

    def depth(rr, tt):
        return exact.thacker_depth(rr, tt, h0, a, r0)

    def u(rr, tt):
        return exact.thacker_radial_velocity(rr, tt, h0, a, r0)

    def surface(rr, tt):
        return exact.thacker_free_surface(rr, tt, h0, a, r0)

    mass = (central_difference(lambda tt: depth(r, tt), t, e)
            + central_difference(lambda rr: rr * depth(rr, t) * u(rr, t), r, e) / r)
    momentum = (central_difference(lambda tt: u(r, tt), t, e)
                + u(r, t) * central_difference(lambda rr: u(rr, t), r, e)
                + exact.G * central_difference(lambda rr: surface(rr, t), r, e))
    np.testing.assert_allclose(mass, 0.0, atol=1e-7)
    np.testing.assert_allclose(momentum, 0.0, atol=1e-7)
    rr = np.linspace(0.0, 2.0, 400_001)
    volumes = [trapezoid(2 * np.pi * rr * depth(rr, tt), rr) for tt in (0.0, 0.5, 1.3)]
    np.testing.assert_allclose(volumes, volumes[0], rtol=1e-6)
    period = 2 * np.pi / exact.thacker_omega(h0, a)
    np.testing.assert_allclose(depth(rr, period), depth(rr, 0.0), atol=1e-14)


def test_nusselt_depth_carries_the_poiseuille_flux():
    nu, angle, depth = 1e-4, np.radians(30.0), 2e-3
    z = np.linspace(0.0, depth, 100_001)
    profile = exact.G * np.sin(angle) / nu * (depth * z - 0.5 * z ** 2)
    flux = trapezoid(profile, z)
    assert exact.nusselt_depth(flux, nu, angle) == pytest.approx(depth, rel=1e-9)


def test_draining_film_solves_the_thin_film_equation_at_the_top():
    """At the pole, dd/dt = -(1/(R sin theta)) d/dtheta (sin theta q), q = g sin theta d^3/(3 nu),
    which tends to -2 g d^3 / (3 nu R)."""
    d0, nu, R, t, theta = 1e-3, 1e-4, 1.0, 4.0, 1e-3
    d = exact.draining_film_depth(t, d0, nu, R)
    d_t = central_difference(lambda tt: exact.draining_film_depth(tt, d0, nu, R), t, 1e-4)

    def sin_times_flux(th):
        return np.sin(th) * exact.G * np.sin(th) * d ** 3 / (3 * nu)

    assert d_t == pytest.approx(-2 * exact.G * d ** 3 / (3 * nu * R), rel=1e-7)
    assert d_t == pytest.approx(-central_difference(sin_times_flux, theta, 1e-5)
                                / (R * np.sin(theta)), rel=1e-5)


def test_linear_wave_solves_the_wave_equation():
    d0, x, t, e = 1.0, np.linspace(5.0, 15.0, 40), 1.2, 1e-3

    def eta(xx, tt):
        return exact.linear_wave_surface(xx, tt, 10.0, 1e-3, 1.0, d0)

    eta_tt = (eta(x, t + e) - 2 * eta(x, t) + eta(x, t - e)) / e ** 2
    eta_xx = (eta(x + e, t) - 2 * eta(x, t) + eta(x - e, t)) / e ** 2
    np.testing.assert_allclose(eta_tt, exact.G * d0 * eta_xx, atol=1e-7)
