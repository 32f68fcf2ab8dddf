"""Shore coefficients for :class:`~surfflow.ripples.Ripples`: a sloping beach along the edge.

``shore_band(geom, width)`` gives each vertex min(distance to the mesh's edge / width, 1): 0 on
the edge (held), rising linearly to free water 1 at ``width`` metres from it (the 3D distance to
the nearest boundary vertex). Waves running up such a band are damped away instead of
reflected (``model.py`` gives the damping each coefficient means).
"""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

from ..checks import check_range
from ..errors import ParameterError


def shore_band(geom, width: float) -> np.ndarray:
    """(n,) shore coefficients in [0, 1]: the distance (m) to the nearest boundary vertex over
    ``width`` (m), at most 1.

    Examples
    --------
    >>> import surfflow as sf
    >>> from surfflow.io.procedural import plane
    >>> geom = sf.precompute(plane((1.0, 1.0), (4, 4)), feature_size=0)
    >>> shore_band(geom, 0.5).reshape(5, 5)[2]          # the middle row, edge to edge
    array([0. , 0.5, 1. , 0.5, 0. ])
    """
    check_range("shore_width", width, 0.0, low_open=True)
    edge = geom.vertices[geom.is_boundary]
    if len(edge) == 0:
        raise ParameterError("shore_width needs an open mesh, and this one is closed (no edge); "
                             "give per-vertex shore coefficients instead")
    distance, _ = cKDTree(edge).query(geom.vertices)
    return np.minimum(distance / width, 1.0)
