"""Mesh input (``mesh``: load_mesh and validate_mesh; ``procedural``) and the frame writers (npz
and VTU/PVD in ``writers``, VTKHDF in ``vtkhdf``, USD in ``usd``, ``checkpoint``). This room
stands below the geometry: it imports nothing of surfflow but the leaves (errors, config, look).
"""
