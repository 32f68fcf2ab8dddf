"""Moves of the smoothing stage that keep the triangulation usable (SPEC §2 item 1).

The smoothing moves the vertices of the input mesh X (n, 3), F (m, 3) with its connectivity
unchanged, so the flow surface can only be as smooth as the triangles can follow: a protrusion
narrower than the feature size, flattened, crushes its triangles into slivers, and a tangential
move longer than the ring folds them over. Every move x_old -> x_new of the smoothing is
therefore taken as

    x_i = x_old_i + s_i (x_new_i - x_old_i),      s_i in [0, 1],

with s_i = 1 wherever the moved mesh stays faithful to the input, and halved on the corners of
the triangles where it does not, until it does. A triangle t is faithful when

* its smallest altitude keeps at least ``ALTITUDE_KEPT`` of the input's, h_t(x) >= h_t(X) / 2:
  the mesh's length scales, and with them the time step, shrink by at most half; and
* the dihedral angle across each of its edges folds no further than the input's or a right
  angle: n_t(x) . n_u(x) >= min(n_t(X) . n_u(X), 0) - sin(1 deg) for the face u across the
  edge; and
* it faces the side of each corner's vertex normal, as the flow's flattened one-rings need,
  unless the input did not: n_t(x) . n_v(x) >= min(n_t(X) . n_v(X), 0) - sin(1 deg) for its
  corners v.

The degree (``FOLD_MARGIN``) lets an input that stands exactly at a right angle (a box's edges,
a tetrahedron's corner, whose face is parallel to the vertex normal) move by round-off and by
the slight turns of its own smoothing: a face less than a degree past the vertical flattens into
the ring with under 2 % of its area inverted.

The input is faithful to itself, so s = 0 always satisfies both: the halving ends (a vertex
halved ``HALVINGS`` times stops moving). Where nothing is violated the move is taken exactly,
bit for bit.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .frames import vertex_normals

ALTITUDE_KEPT = 0.5
HALVINGS = 20
FOLD_MARGIN = np.sin(np.radians(1.0))


class MoveGuard:
    """The input mesh's reference lengths and folds, and :meth:`limit` for moves of its vertices.

    X: (n, 3) input positions; F: (m, 3) int, consistently oriented triangles; weighting: the
    vertex normals' ("area" or "angle", ``frames.vertex_normals``).
    """

    def __init__(self, X: np.ndarray, F: np.ndarray, weighting: str):
        self.F = F
        self.weighting = weighting
        self.pairs = _face_pairs(F, X.shape[0])
        normals, self.altitudes = _normals_and_altitudes(X, F)
        self.fold = np.minimum(_pair_cosines(normals, self.pairs), 0.0) - FOLD_MARGIN
        self.facing = np.minimum(self._corner_cosines(X, normals), 0.0) - FOLD_MARGIN
        tails, heads = F.ravel(), np.roll(F, -1, axis=1).ravel()
        self.rings = sp.csc_matrix((np.ones(2 * F.size), (np.r_[heads, tails], np.r_[tails, heads])),
                                   shape=(X.shape[0],) * 2)  # column v: v's one-ring

    def _corner_cosines(self, x, normals):
        """(m, 3) n_t . n_v for the corners v of each face t."""
        return np.einsum("ij,ikj->ik", normals, vertex_normals(x, self.F, self.weighting)[self.F])

    def unfaithful_vertices(self, x: np.ndarray) -> np.ndarray:
        """(n,) bool: the vertices whose moves shape a criterion x violates (module docstring):
        the corners of a triangle that lost more than half its smallest altitude or of the two
        triangles folding too far across their edge, and the one-ring of a corner whose normal a
        triangle turns away from (the normal follows the whole ring)."""
        normals, altitudes = _normals_and_altitudes(x, self.F)
        bad = altitudes < ALTITUDE_KEPT * self.altitudes
        bad[self.pairs[_pair_cosines(normals, self.pairs) < self.fold].ravel()] = True
        vertices = np.zeros(x.shape[0], dtype=bool)
        vertices[self.F[bad]] = True
        turned = self.F[self._corner_cosines(x, normals) < self.facing]
        vertices[turned] = True
        vertices[self.rings[:, turned].indices] = True
        return vertices

    def limit(self, x_old: np.ndarray, x_new: np.ndarray) -> np.ndarray:
        """x_old + s (x_new - x_old) (n, 3), s (n,) in [0, 1] as large as the faithfulness allows
        (module docstring); x_new itself where s = 1. x_old must be faithful: every violated
        criterion then has a vertex still moving among those it names, so the halving ends."""
        step = np.ones(x_old.shape[0])
        x = x_new
        bad = self.unfaithful_vertices(x)
        while bad.any():
            step[bad] *= 0.5
            step[step < 0.5 ** HALVINGS] = 0.0
            x = np.where((step == 1.0)[:, None], x_new, x_old + step[:, None] * (x_new - x_old))
            bad = self.unfaithful_vertices(x) & (step > 0.0)
        return x


def _face_pairs(F, n_vertices):
    """(k, 2) int: the faces on either side of each edge shared by two faces, found as the
    directed edge (i, j) of one face meeting the reverse (j, i) of another."""
    tails = F.ravel()
    heads = np.roll(F, -1, axis=1).ravel()
    faces = np.repeat(np.arange(F.shape[0]), 3)
    keys = tails * n_vertices + heads
    order = np.argsort(keys, kind="stable")
    reverse = heads * n_vertices + tails
    at = np.minimum(np.searchsorted(keys[order], reverse), keys.size - 1)
    found = keys[order][at] == reverse
    first, second = faces[found], faces[order[at[found]]]
    keep = first < second
    return np.stack([first[keep], second[keep]], axis=1)


def _normals_and_altitudes(x, F):
    """Unit face normals (m, 3) (zero for a degenerate face) and smallest altitudes (m,),
    2 area / longest edge."""
    corners = x[F]
    cross = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    twice_area = np.linalg.norm(cross, axis=1)
    normals = cross / np.where(twice_area > 0.0, twice_area, 1.0)[:, None]
    longest = np.linalg.norm(corners - np.roll(corners, -1, axis=1), axis=2).max(axis=1)
    return normals, twice_area / np.where(longest > 0.0, longest, 1.0)


def _pair_cosines(normals, pairs):
    """(k,) n_t . n_u for the face pairs (k, 2)."""
    return np.einsum("ij,ij->i", normals[pairs[:, 0]], normals[pairs[:, 1]])
