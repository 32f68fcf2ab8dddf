"""``BodyCoupling``: the term of the step that couples rigid bodies and the liquid, both ways.

Stages (``terms/base.py``):

* ``max_time_step``: finds each body's footprint (the vertices whose normal line crosses the
  solid, ``shapes.py``) for the step, and limits dt by the CFL speed the bodies' pressure gives
  the liquid under them (``press.py``);
* ``accelerate`` (every Runge-Kutta stage): the pressure p (n,) the bodies put on the free
  surface, and its push -grad p / rho; ``pressure`` is the array the conservative scheme's
  fluxes see (``presses``);
* ``hold`` (after every stage's update): the drag between the liquid and the bodies, implicit:
  on a wet column under a body the liquid's velocity relative to the body's, w, shrinks to
  w / (1 + dt (c_1 + c_2 |w|) / d) (the drag per wetted area rho (c_1 + c_2 |w|) w spread over
  the column's depth d), so a towed body drags the liquid along;
* ``exchange`` (once, after the transport): the liquid's pressure and drag on each body, the
  contacts with the surface and the other bodies, and one step of the integrator
  (``dynamics.py``); kinematic bodies move to their pose at the step's end.

The liquid is moved by the pressure only through its momentum, so the volume is exactly
conserved (nothing is added or removed). The body feels sum_i A_i p_i n_i at the bottom points
of the wet columns: the buoyancy rho g V_sub acting at the centre of the submerged volume (the
horizontal moment of the column weights), so bodies right themselves or capsize as their
metacentre says.
"""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree
from scipy.spatial.transform import Rotation

from ..terms.base import Term
from .contacts import ground_rows, pair_rows, point_velocity
from .dynamics import ADDED_MASS, Rows, advance_body
from .press import apply_surface_pressure, body_pressure, pressed_time_step
from .rotation import quaternion_to_matrix

STIFFNESS = 10.0        # k: the penalty on liquid entering a body, in units of rho g_n
LINEAR_DRAG = 0.01      # c_1, m/s: the linear drag per wetted area is rho c_1 w
QUADRATIC_DRAG = 0.05   # c_2: the quadratic drag per wetted area is rho c_2 |w| w
RADIATION = 0.25        # the normal damping per wetted area, rho sqrt(g_n d) times this


class BodyCoupling(Term):
    """Rigid bodies (``RigidBody``) in the liquid on ``geom`` under ``params``."""

    name = "bodies"
    stages = ("max_time_step", "accelerate", "hold", "exchange")
    presses = True
    stiffness = STIFFNESS  # k of the penalty on wholly covered cells

    def __init__(self, geom, params):
        self.params = params
        self.bodies: list = []
        self.pressure = np.zeros(geom.n_vertices)
        self.gravity = np.asarray(params.gravity, dtype=np.float64)
        up = -self.gravity / max(float(np.linalg.norm(self.gravity)), 1e-300)
        self.up = up if np.linalg.norm(self.gravity) > 0.0 else np.zeros(3)
        self.use_geometry(geom)
        self.find_footprints()

    def add(self, body) -> None:
        """Add a ``RigidBody``."""
        self.bodies.append(body)

    def use_geometry(self, geom) -> None:
        self.geom = geom
        self.tree = None                                    # built when a footprint is wanted
        self.cell = float(np.sqrt(geom.dual_areas.max()))
        self.corners = vertex_corners(geom.faces, geom.n_vertices)
        self.sampled = {}                                   # body index -> (rows, samples)
        self.gravity_normal = float(np.linalg.norm(self.gravity)) * np.maximum(
            geom.normals @ self.up, 0.0)

    # ---- where the bodies are -----------------------------------------------------------------

    def find_footprints(self, bottom=None, top: float = 0.0) -> None:
        """rows (k,) vertices, owner (k,) body index, low, high (k,) the solid's span along the
        normal of each vertex under a body (above the bottom), for the current poses; the
        candidates lie within the body's radius plus the highest bottom plus ``top`` (the
        deepest liquid, m) of its centre."""
        g = self.geom
        bottom = g.bottom if bottom is None else bottom
        if self.bodies and self.tree is None:
            self.tree = cKDTree(g.vertices)
        reach = self.cell + float(np.abs(bottom).max()) + top
        parts = [footprint(body, g, lambda rows, k=k: self.cell_samples(k, rows), bottom,
                           np.sort(self.tree.query_ball_point(body._position,
                                                              body.shape.radius + reach)))
                 for k, body in enumerate(self.bodies)]
        samples = self.corners.shape[1] * KITE_SAMPLES
        self.rows = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, np.int64)
        self.owner = np.concatenate([np.full(len(p[0]), k) for k, p in enumerate(parts)]) \
            if parts else np.zeros(0, np.int64)
        self.low = np.concatenate([p[1] for p in parts]) if parts else np.zeros((0, samples))
        self.high = np.concatenate([p[2] for p in parts]) if parts else np.zeros((0, samples))
        self.shift = np.concatenate([p[3] for p in parts]) if parts else np.zeros((0, samples, 3))
        self.weights = np.concatenate([p[4] for p in parts]) if parts else np.zeros((0, samples))
        points = g.vertices[self.rows] + g.normals[self.rows] * self.low.mean(axis=1)[:, None]
        moving = np.zeros((len(self.rows), 3))
        for k, body in enumerate(self.bodies):
            mine = self.owner == k
            moving[mine] = point_velocity(body, points[mine])
        self.body_velocity = np.einsum("kaj,kj->ka", g.tangent_frames[self.rows], moving)

    def cell_samples(self, slot: int, rows: np.ndarray):
        """``cell_samples`` of ``rows`` on this geometry, kept for body ``slot`` while its rows
        stay the same (a body moves across few cells in a step)."""
        kept = self.sampled.get(slot)
        if kept is None or not np.array_equal(kept[0], rows):
            g = self.geom
            kept = (rows.copy(), cell_samples(g.vertices, g.faces, g.dual_areas, self.corners, rows))
            self.sampled[slot] = kept
        return kept[1]

    def max_time_step(self, state, fields) -> float:
        """Find the footprints; dt <= cfl spacing / (|u| + sqrt((1 + k) g_n d)) under bodies."""
        self.find_footprints(state.bottom, float(state.depth.max()))
        r = self.rows
        return pressed_time_step(fields.ring_spacing[r], state.depth[r],
                                 np.linalg.norm(state.velocity[r], axis=1),
                                 self.gravity_normal[r], STIFFNESS, self.params.cfl)

    # ---- the body on the liquid ---------------------------------------------------------------

    def press_columns(self, bottom, depth) -> np.ndarray:
        """p (k, S) on the footprint rows' samples for this depth (n,)
        (``press.body_pressure``) with the rows' stiffness (``row_stiffness``); a row's
        pressure is its samples' mean weighted by their shares of the cell (``row_mean``)."""
        r = self.rows
        low = np.maximum(self.low, bottom[r][:, None])
        return body_pressure(self.gravity_normal[r][:, None], (bottom[r] + depth[r])[:, None],
                             low, self.high, self.row_stiffness()[:, None], self.params.density)

    def row_stiffness(self) -> np.ndarray:
        """k (k,) of the footprint rows: the penalty on rows wholly under a body, 1 / (1 - f)
        on a row whose samples cover a fraction f < 1 of its cell (the body's edge crosses it).

        At rest such a column holds the volume of a cell whose covered part is pressed down to
        the body's bottom s_lo and whose free part stands at the free surface H: its level is
        L = H - f (H - s_lo). Its pressure, the samples' mean, f rho g_n k (L - s_lo), must then
        make L + p / (rho g_n) = H, which gives k = 1 / (1 - f): the liquid gives way by the
        volume the body's part of the cell displaces (k = 1 gave way by f / (1 + f) of it, a
        third instead of a half for a half-covered cell). Never more than the penalty."""
        covered = self.row_mean(self.high > self.low)
        free = np.maximum(1.0 - covered, 1.0 / (1.0 + self.stiffness))
        return np.minimum(1.0 / free, self.stiffness)

    def row_mean(self, values: np.ndarray) -> np.ndarray:
        """(k,) the footprint rows' means of values (k, S) on their samples, each weighted by
        its share of the cell."""
        return np.einsum("ks,ks->k", self.weights, values)

    def accelerate(self, geom, fields, state, bottom, depth, velocity, acceleration) -> None:
        """pressure (n,) = the bodies' p; acceleration += -grad p / rho on the wet vertices."""
        self.pressure.fill(0.0)
        if not len(self.rows):
            return
        np.add.at(self.pressure, self.rows, self.row_mean(self.press_columns(bottom, depth)))
        p = self.params
        apply_surface_pressure(geom.neighbor_offsets, geom.neighbor_indices,
                               geom.dual_edge_vectors, geom.dual_areas, fields.fit_weights,
                               state.friction_share, depth, self.pressure, 1.0 / p.density,
                               p.min_depth, acceleration)

    def hold(self, geom, fields, depth, velocity, dt: float) -> None:
        """The drag between the liquid and the bodies on the wet columns under them, implicit."""
        wet = self.pressure[self.rows] > 0.0
        r = self.rows[wet]
        w = velocity[r] - self.body_velocity[wet]
        rate = (LINEAR_DRAG + QUADRATIC_DRAG * np.linalg.norm(w, axis=1)) / np.maximum(
            depth[r], self.params.min_depth)
        velocity[r] = self.body_velocity[wet] + w / (1.0 + dt * rate)[:, None]

    # ---- the liquid on the bodies -------------------------------------------------------------

    def exchange(self, geom, state, dt: float) -> dict:
        """Move every body one step: the liquid's pressure and drag, contacts, gravity."""
        rows = [Rows.join([]) for _ in self.bodies]
        liquid = self.liquid_rows(geom, state)
        submerged = np.zeros(len(self.bodies))
        bounds = np.searchsorted(self.owner, np.arange(len(self.bodies) + 1))   # owner is sorted
        samples = self.low.shape[1]
        for k, body in enumerate(self.bodies):
            mine = slice(bounds[k], bounds[k + 1])
            sampled = slice(samples * bounds[k], samples * bounds[k + 1])
            parts = [liquid.select(sampled),
                     ground_rows(body, self.rows[mine], geom.vertices, geom.normals,
                                 geom.dual_areas, state.bottom, *spanned(self.low[mine],
                                                                         self.high[mine]))]
            rows[k] = Rows.join([rows[k], *parts])
            submerged[k] = liquid.volume[sampled].sum()
        for a, b in touching_pairs(self.bodies):
            ra, rb = pair_rows(self.bodies[a], self.bodies[b])
            rows[a], rows[b] = Rows.join([rows[a], ra]), Rows.join([rows[b], rb])
        time = state.time + dt
        for k, body in enumerate(self.bodies):
            if body.kinematic is None:
                added = ADDED_MASS * self.params.density * submerged[k]
                advance_body(body, rows[k], self.gravity, added, dt)
            else:
                follow(body, time, dt)
        return {}

    def liquid_rows(self, geom, state):
        """The liquid's rows on all footprint samples (k S): the force A w_s p_b n at the
        solid's bottom, p_b = rho g_n (h - s_lo) (at most rho g_n T) from the liquid's
        hydrostatic head h = L + p / (rho g_n) (the level its pressure stands for: the far free
        surface, at rest), its stiffness A w_s (1 + k) rho g_n where the penalty acts, the drag
        (w_s the sample's share of the cell); ``volume`` (k S,) the submerged volume
        A w_s p_b / (rho g_n) of each."""
        r, p, samples = self.rows, self.params, self.low.shape[1]
        each = lambda x: np.repeat(x, samples, axis=0)                      # noqa: E731
        level = state.bottom[r] + state.depth[r]
        g_n = self.gravity_normal[r]
        head = level + self.pressed_head(state)
        low = np.maximum(self.low, state.bottom[r][:, None])
        thickness = np.maximum(self.high - low, 0.0)
        pressure = (p.density * g_n[:, None] * np.clip(head[:, None] - low, 0.0, thickness)
                    ).reshape(-1)
        normals, g_n = each(geom.normals[r]), each(g_n)
        areas = (geom.dual_areas[r][:, None] * self.weights).reshape(-1)
        low, thickness = low.reshape(-1), thickness.reshape(-1)
        points = each(geom.vertices[r]) + self.shift.reshape(-1, 3) + low[:, None] * normals
        entered = each(level) - low
        k = each(self.row_stiffness())
        penalised = (entered > 0.0) & (k * entered < thickness)
        stiffness = np.where(penalised, areas * (1.0 + k) * p.density * g_n, 0.0)
        liquid = each(np.einsum("ka,kaj->kj", state.velocity[r], geom.tangent_frames[r]))
        moving = each(np.einsum("ka,kaj->kj", self.body_velocity, geom.tangent_frames[r]))
        slip = np.linalg.norm(liquid - moving, axis=1)
        drag = np.where(pressure > 0.0, areas * p.density * (LINEAR_DRAG + QUADRATIC_DRAG * slip),
                        0.0)
        impedance = np.where(pressure > 0.0, areas * p.density * RADIATION * np.sqrt(
            g_n * each(np.maximum(state.depth[r], 0.0))), 0.0)
        rows = LiquidRows(points, normals, (areas * pressure)[:, None] * normals, stiffness,
                          impedance, drag, liquid)
        with np.errstate(divide="ignore", invalid="ignore"):
            rows.volume = np.where(g_n > 0.0, areas * pressure / (p.density * g_n), 0.0)
        return rows

    def collide(self, positions: np.ndarray, velocities: np.ndarray) -> None:
        """Droplets (positions, velocities (p, 3), in place) that flew into a body leave it by
        its nearest face and lose their speed into it (relative to the body's point there)."""
        for body in self.bodies:
            offset = positions - body._position
            near = np.flatnonzero(np.einsum("ij,ij->i", offset, offset) < body.shape.radius ** 2)
            if not len(near):
                continue
            rotation = body.rotation
            depth, normal = body.shape.distance(offset[near] @ rotation)
            inside = depth > 0.0
            hit, normal = near[inside], normal[inside] @ rotation.T
            positions[hit] += depth[inside][:, None] * normal
            moving = point_velocity(body, positions[hit])
            into = np.minimum(np.einsum("ij,ij->i", velocities[hit] - moving, normal), 0.0)
            velocities[hit] -= into[:, None] * normal

    def pressed_head(self, state) -> np.ndarray:
        """p / (rho g_n) (k,) on the footprint rows: the head the bodies' pressure adds."""
        g_n = self.gravity_normal[self.rows]
        pressure = self.row_mean(self.press_columns(state.bottom, state.depth))
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(g_n > 0.0, pressure / (self.params.density * g_n), 0.0)

    # ---- state in and out ---------------------------------------------------------------------

    def state_dict(self) -> dict:
        """body_state (m, 13): position, quaternion (w, x, y, z), velocity, angular velocity."""
        return {"body_state": np.array([b.state_array() for b in self.bodies]).reshape(-1, 13)}

    def load_state_dict(self, data: dict) -> None:
        if "body_state" in data:
            for body, row in zip(self.bodies, np.asarray(data["body_state"]), strict=True):
                body.set_state(row[:3], row[3:7], row[7:10], row[10:13])
                # the quaternion as saved, bit for bit (set_state normalises it: an ulp off)
                body._orientation = np.array(row[3:7])
            self.find_footprints()


class LiquidRows(Rows):
    """Rows with a ``volume`` (k,) and ``select(mask)`` for one body's part."""

    def select(self, mask) -> Rows:
        """The rows ``mask`` picks (a slice or a (k,) bool array)."""
        return Rows(self.points[mask], self.normals[mask], self.forces[mask],
                    self.stiffness[mask], self.normal_damping[mask], self.tangent_damping[mask],
                    self.targets[mask])


def footprint(body, geom, samples_of, bottom, near):
    """(rows (k,), low (k, S), high (k, S), offsets (k, S, 3), weights (k, S)): the vertices
    whose dual cell's normal lines cross ``body`` above its bottom, and the solid's span
    [low, high] along them (m from the vertex) at the S samples of the cell (``samples_of(rows)``
    gives their ``cell_samples``), so a body's edge crosses a cell gradually and the covered
    share of a cell is integrated over the cell itself."""
    near = np.asarray(near, dtype=np.int64)
    vertices, normals = geom.vertices, geom.normals
    offset = vertices[near] - body._position
    along = np.einsum("ij,ij->i", offset, normals[near])
    across = np.einsum("ij,ij->i", offset, offset) - along * along
    reach = body.shape.radius + np.sqrt(geom.dual_areas[near])
    near, offset = near[across < reach * reach], offset[across < reach * reach]
    shift, weights = samples_of(near)
    samples = shift.shape[1]
    rotation = body.rotation
    points = (offset[:, None, :] + shift).reshape(-1, 3) @ rotation
    directions = np.repeat(normals[near], samples, axis=0) @ rotation
    low, high = (x.reshape(len(near), samples) for x in body.shape.span(points, directions))
    low, high = np.where(low < high, low, 0.0), np.where(low < high, high, 0.0)
    keep = (high > bottom[near][:, None]).any(axis=1) & (weights > 0.0).any(axis=1)
    return near[keep], low[keep], high[keep], shift[keep], weights[keep]


def vertex_corners(faces: np.ndarray, n_vertices: int) -> np.ndarray:
    """(n, K) the corners (3 f + c: face f's corner c) at each vertex, -1 past its last; K the
    largest number of faces at a vertex."""
    vertex = faces.reshape(-1)
    order = np.argsort(vertex, kind="stable")
    count = np.bincount(vertex, minlength=n_vertices)
    start = np.concatenate([[0], np.cumsum(count)[:-1]])
    slot = np.arange(len(vertex)) - np.repeat(start, count)
    table = np.full((n_vertices, max(int(count.max(initial=0)), 1)), -1, dtype=np.int64)
    table[vertex[order], slot] = order
    return table


def cell_samples(vertices, faces, dual_areas, corners, rows):
    """(offsets (k, S, 3), weights (k, S)): the samples of the dual cells of ``rows`` (k,).

    The barycentric dual cell of vertex i is the union of one kite per face at i: i, the
    midpoint of one edge, the face's centroid, the midpoint of the other edge (a third of the
    face). Each kite, the bilinear map x(s, t) of its corners, is sampled at the m x m points
    s, t = (a + 1/2) / m (m = ``KITE_SAMPLES_ALONG``), each weighted by |x_s x x_t| / m^2 / A_i:
    the midpoint rule on the cell itself, so the weights of a cell sum to 1 and a region of the
    plane is covered by the cells' samples exactly as often as it lies in them. S = K m^2; the
    slots past a vertex's faces have weight 0. ``offsets`` are x - x_i."""
    table = corners[rows]                                                     # (k, K)
    valid = table >= 0
    corner = np.where(valid, table, 0)
    face = faces[corner // 3]                                                 # (k, K, 3)
    c = corner % 3
    own = np.take_along_axis(face, c[..., None], axis=2)[..., 0]
    after = np.take_along_axis(face, ((c + 1) % 3)[..., None], axis=2)[..., 0]
    before = np.take_along_axis(face, ((c + 2) % 3)[..., None], axis=2)[..., 0]
    x0 = vertices[own]
    x1 = 0.5 * (x0 + vertices[after])
    x2 = (x0 + vertices[after] + vertices[before]) / 3.0
    x3 = 0.5 * (x0 + vertices[before])
    along = (np.arange(KITE_SAMPLES_ALONG) + 0.5) / KITE_SAMPLES_ALONG
    s, t = (a.reshape(-1) for a in np.meshgrid(along, along, indexing="ij"))   # (m^2,)
    corners_kite = np.stack([x0, x1, x2, x3], axis=2)                       # (k, K, 4, 3)
    shape = np.stack([(1 - s) * (1 - t), s * (1 - t), s * t, (1 - s) * t], axis=1)  # (m^2, 4)
    d_s = np.stack([-(1 - t), 1 - t, t, -t], axis=1)
    d_t = np.stack([-(1 - s), -s, s, 1 - s], axis=1)
    points = np.einsum("qc,kfcj->kfqj", shape, corners_kite)                  # (k, K, m^2, 3)
    jacobian = np.cross(np.einsum("qc,kfcj->kfqj", d_s, corners_kite),
                        np.einsum("qc,kfcj->kfqj", d_t, corners_kite))
    weights = np.linalg.norm(jacobian, axis=3) / len(s) / dual_areas[rows][:, None, None]
    weights = np.where(valid[:, :, None], weights, 0.0)
    offsets = np.where(valid[:, :, None, None], points - vertices[rows][:, None, None, :], 0.0)
    k, samples = len(rows), table.shape[1] * len(s)  # reshape(k, -1) fails for no rows
    return offsets.reshape(k, samples, 3), weights.reshape(k, samples)


def spanned(low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(low (k,), high (k,)): the widest span of each row's samples (k, S) that cross the body
    (0, 0 where none does)."""
    hit = high > low
    return (np.where(hit, low, np.inf).min(axis=1, initial=np.inf).clip(max=None),
            np.where(hit, high, -np.inf).max(axis=1, initial=-np.inf))


KITE_SAMPLES_ALONG = 4                       # m: each kite of a dual cell sampled m x m
KITE_SAMPLES = KITE_SAMPLES_ALONG ** 2


def touching_pairs(bodies) -> list[tuple[int, int]]:
    """The pairs (a < b) of bodies whose bounding spheres overlap, either free to move."""
    if len(bodies) < 2:
        return []
    centres = np.array([b._position for b in bodies])
    radii = np.array([b.shape.radius for b in bodies])
    free = np.array([b.kinematic is None for b in bodies])
    gap = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
    close = (gap < radii[:, None] + radii[None, :]) & (free[:, None] | free[None, :])
    a, b = np.nonzero(np.triu(close, k=1))
    return list(zip(a.tolist(), b.tolist(), strict=True))


def follow(body, time: float, dt: float) -> None:
    """Put a kinematic body at its pose at ``time``, its velocities the differences over dt."""
    position, orientation = body.pose_at(time)
    body._velocity = (position - body._position) / dt
    turned = orientation_difference(body._orientation, orientation)
    body._angular_velocity = turned / dt
    body._position, body._orientation = position, orientation


def orientation_difference(q0: np.ndarray, q1: np.ndarray) -> np.ndarray:
    """(3,) the rotation vector (rad) that turns q0 into q1 (world axes)."""
    turn = quaternion_to_matrix(q1) @ quaternion_to_matrix(q0).T
    return Rotation.from_matrix(turn).as_rotvec()
