"""The rigid bodies' integrator: semi-implicit Euler on the forces, implicit in the stiff and
damping parts, with added mass.

Every force on a body comes as *rows*, one per contact point (a wet column under it, a point
on the ground, a point touching another body): the point x_r (3,), the unit normal n_r (3,),
a force f_r (3,) at the current pose, the normal stiffness K_r (N/m: f changes by -K_r along
n_r per metre the point moves along n_r), the normal and tangential damping c_n, c_t (N s/m)
and the velocity the point is damped towards, u_r (3,). With the generalised velocity
U = (v, omega) and J_r = [I, -[r]x] (the point's velocity J_r U, r = x_r - x_c), one step is

    (M + dt sum_r J_r^T C_r J_r + dt^2 sum_r J_r^T K_r n_r n_r^T J_r) U' =
        M U + dt (F + sum_r J_r^T (f_r + C_r u_r))

C_r = c_n n n^T + c_t (I - n n^T), F gravity and the gyroscopic torque -omega x I omega; then
x += dt v', q turned by dt omega' (symplectic Euler). Backward Euler on the stiff and damping
parts keeps a light body on stiff liquid or ground stable at any dt the liquid takes.

Added mass: the liquid a body accelerates moves with it. The mass matrix is M = diag((m + m_a)
I, I_c (m + m_a) / m) with m_a = C_a rho V_sub, V_sub the submerged volume and C_a = 0.5 (a
sphere's coefficient in unbounded liquid), so a body much lighter than the liquid it displaces
keeps an inertia of at least C_a rho V_sub. On a shallow liquid that resolves its own squeeze
flow under the body this counts the liquid's inertia twice (docs/guide/bodies.md, the heave).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..kernels.bodies import add_rows
from .rotation import turn

ADDED_MASS = 0.5  # C_a: the added mass is C_a rho V_sub
ROW_FIELDS = ("points", "normals", "forces", "stiffness", "normal_damping", "tangent_damping",
              "targets")


@dataclass
class Rows:
    """Contact rows of one body: points, normals, forces (k, 3); stiffness, normal_damping,
    tangent_damping (k,); target velocities (k, 3)."""

    points: np.ndarray
    normals: np.ndarray
    forces: np.ndarray
    stiffness: np.ndarray
    normal_damping: np.ndarray
    tangent_damping: np.ndarray
    targets: np.ndarray

    @staticmethod
    def join(parts: list) -> Rows:
        """All rows of ``parts`` (a list of Rows) in one."""
        if not parts:
            return Rows(*(np.zeros((0, 3)) if f in ("points", "normals", "forces", "targets")
                          else np.zeros(0) for f in ROW_FIELDS))
        return Rows(*(np.concatenate([getattr(p, f) for p in parts]) for f in ROW_FIELDS))


def advance_body(body, rows: Rows, gravity: np.ndarray, added_mass: float, dt: float) -> None:
    """One semi-implicit step of ``body`` (module docstring) under ``rows`` and ``gravity``
    (3,) m/s^2; ``added_mass`` m_a (kg)."""
    share = (body.mass + added_mass) / body.mass
    inertia = body.world_inertia()
    mass = np.zeros((6, 6))
    mass[:3, :3] = np.eye(3) * body.mass * share
    mass[3:, 3:] = inertia * share
    v, w = body._velocity, body._angular_velocity
    u = np.concatenate([v, w])
    force = np.concatenate([body.mass * gravity, -np.cross(w, inertia @ w)])
    system = mass.copy()
    add_rows(*(np.ascontiguousarray(getattr(rows, f)) for f in ROW_FIELDS),
             np.ascontiguousarray(body._position), dt, system, force)
    u = np.linalg.solve(system, mass @ u + dt * force)
    body._velocity, body._angular_velocity = u[:3], u[3:]
    body._position = body._position + dt * u[:3]
    body._orientation = turn(body._orientation, u[3:], dt)
