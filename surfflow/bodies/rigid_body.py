"""``RigidBody``: a solid that floats on, sinks in and slides over the liquid.

    boat = sf.RigidBody.box(extents=(0.1, 0.04, 0.06), density=500, position=(0, 0.05, 0))
    cork = sf.RigidBody.sphere(radius=0.02, density=240, position=(0.1, 0.05, 0))
    sim.add_body(boat); sim.advance(1.0); boat.position, boat.orientation

SI units. The pose is the centre of mass ``position`` (3,) m and ``orientation`` (4,), a unit
quaternion (w, x, y, z), scalar first; ``velocity`` (3,) m/s and ``angular_velocity`` (3,)
rad/s are in world space. A kinematic body follows ``kinematic``, a callable t -> (position,
orientation) or ``sf.motion.Keyframes``, and is pushed by nothing.
"""

from __future__ import annotations

import numpy as np
import trimesh

from ..errors import ParameterError
from .rotation import as_quaternion, quaternion_to_matrix
from .shapes import ball_shape, box_shape, mesh_shape

SHAPES = ("box", "sphere", "mesh")


class RigidBody:
    """A rigid body: shape, mass properties, pose and velocities.

    Parameters
    ----------
    mesh : trimesh.Trimesh or (V (v, 3), F (f, 3))
        a closed mesh in metres; its centre of mass becomes the body's origin (``position`` is
        where that centre is). Floats and collides as its convex hull.
    density : float > 0, kg/m^3, default 500
        the body's density (water: 1000).
    position : (3,) floats, m, default (0, 0, 0)
        the centre of mass.
    orientation : (3, 3) rotation or (4,) quaternion (w, x, y, z), optional
        the rotation from the body frame to the world (identity if None).
    velocity, angular_velocity : (3,) floats, m/s and rad/s, default zeros
        world-space velocity of the centre of mass and angular velocity.
    friction : float >= 0, dimensionless, default 0.5
        Coulomb friction coefficient against the ground and other bodies.
    kinematic : callable or None
        t -> (position (3,), orientation (3, 3) or (4,)), or a ``sf.motion.Keyframes`` (its
        translation moves ``position``, its rotation turns the body): the body follows it, is
        moved by nothing, and still pushes the liquid and other bodies.

    Examples
    --------
    >>> import surfflow as sf
    >>> box = sf.RigidBody.box(extents=(0.1, 0.1, 0.1), density=500.0, position=(0, 0.2, 0))
    >>> round(box.mass, 6), box.orientation
    (0.5, array([1., 0., 0., 0.]))
    """

    def __init__(self, mesh, density=500.0, position=(0.0, 0.0, 0.0), orientation=None,
                 velocity=(0.0, 0.0, 0.0), angular_velocity=(0.0, 0.0, 0.0), friction=0.5,
                 kinematic=None):
        if not isinstance(mesh, trimesh.Trimesh):
            mesh = trimesh.Trimesh(*mesh, process=True)
        shape, volume, inertia, _ = mesh_shape(mesh)
        self._setup(shape, volume, inertia, "mesh", density, position, orientation, velocity,
                    angular_velocity, friction, kinematic)

    def _setup(self, shape, volume, inertia, kind, density, position=(0.0, 0.0, 0.0),
               orientation=None, velocity=(0.0, 0.0, 0.0), angular_velocity=(0.0, 0.0, 0.0),
               friction=0.5, kinematic=None) -> None:
        self.kind = kind
        if not (np.isfinite(density) and density > 0.0):
            raise ParameterError(f"density={density!r} must be a finite density > 0 in kg/m^3")
        if not (np.isfinite(friction) and friction >= 0.0):
            raise ParameterError(f"friction={friction!r} must be a finite coefficient >= 0")
        if kinematic is not None and not callable(kinematic):
            raise ParameterError("kinematic must be a callable t -> (position, orientation) or "
                                 "a sf.motion.Keyframes")
        self.shape, self.volume = shape, float(volume)
        self.density, self.friction = float(density), float(friction)
        self.mass = self.density * self.volume
        self.body_inertia = self.density * inertia
        self.kinematic = kinematic
        self._position = vector3("position", position)
        self._orientation = as_quaternion(orientation)
        self._velocity = vector3("velocity", velocity)
        self._angular_velocity = vector3("angular_velocity", angular_velocity)
        self._start = (self._position.copy(), self._orientation.copy())

    @classmethod
    def box(cls, extents, density=500.0, **pose):
        """A box with these (3,) edge lengths (m) along its body axes; ``pose``: the keywords of
        ``RigidBody`` (position, orientation, velocity, angular_velocity, friction, kinematic)."""
        body = cls.__new__(cls)
        body._setup(*box_shape(extents), "box", density, **pose)
        return body

    @classmethod
    def sphere(cls, radius, density=500.0, **pose):
        """A solid sphere of ``radius`` (m); ``pose`` as for :meth:`box`."""
        body = cls.__new__(cls)
        body._setup(*ball_shape(radius), "sphere", density, **pose)
        return body

    # ---- the pose, read at any time -----------------------------------------------------------

    @property
    def position(self) -> np.ndarray:
        """(3,) centre of mass (m), a copy."""
        return self._position.copy()

    @property
    def orientation(self) -> np.ndarray:
        """(4,) unit quaternion (w, x, y, z) of the body-to-world rotation, a copy."""
        return self._orientation.copy()

    @property
    def rotation(self) -> np.ndarray:
        """(3, 3) body-to-world rotation matrix."""
        return quaternion_to_matrix(self._orientation)

    @property
    def velocity(self) -> np.ndarray:
        """(3,) velocity of the centre of mass (m/s), a copy."""
        return self._velocity.copy()

    @property
    def angular_velocity(self) -> np.ndarray:
        """(3,) world-space angular velocity (rad/s), a copy."""
        return self._angular_velocity.copy()

    def world_inertia(self) -> np.ndarray:
        """(3, 3) inertia tensor about the centre of mass in world axes (kg m^2)."""
        r = self.rotation
        return r @ self.body_inertia @ r.T

    def world_vertices(self) -> np.ndarray:
        """(v, 3) the display mesh's vertices at the current pose (m)."""
        return self.shape.mesh.vertices @ self.rotation.T + self._position

    def pose_at(self, time: float) -> tuple[np.ndarray, np.ndarray]:
        """A kinematic body's (position (3,), quaternion (4,)) at ``time``."""
        if hasattr(self.kinematic, "translations"):                     # sf.motion.Keyframes
            start, turned = self._start
            moved = self.kinematic(start + np.vstack([np.zeros(3), np.eye(3)]), time)
            rotation = (moved[1:] - moved[0]).T
            return moved[0], as_quaternion(rotation @ quaternion_to_matrix(turned))
        position, orientation = self.kinematic(time)
        return vector3("kinematic position", position), as_quaternion(orientation)

    # ---- state in and out ---------------------------------------------------------------------

    def set_state(self, position, orientation, velocity, angular_velocity) -> None:
        """Place the body: (3,) m, quaternion (w, x, y, z) or 3x3, (3,) m/s, (3,) rad/s."""
        self._position = vector3("position", position)
        self._orientation = as_quaternion(orientation)
        self._velocity = vector3("velocity", velocity)
        self._angular_velocity = vector3("angular_velocity", angular_velocity)

    def state_array(self) -> np.ndarray:
        """(13,) position, quaternion, velocity, angular velocity: what a checkpoint keeps."""
        return np.concatenate([self._position, self._orientation, self._velocity,
                               self._angular_velocity])

    def __repr__(self) -> str:
        x, y, z = self._position
        return (f"RigidBody({self.kind}, mass={self.mass:.4g} kg, position=({x:.4g}, {y:.4g}, "
                f"{z:.4g}){', kinematic' if self.kinematic is not None else ''})")


def vector3(name: str, value) -> np.ndarray:
    """(3,) finite float64 copy of ``value``, or a ParameterError naming ``name``."""
    array = np.array(value, dtype=np.float64).reshape(-1)
    if array.shape != (3,) or not np.isfinite(array).all():
        raise ParameterError(f"{name}={value!r} must be 3 finite numbers (x, y, z)")
    return array
