"""Mesh input (``mesh``: load_mesh and validate_mesh; ``procedural``) and the frame writers (npz,
VTU/PVD in ``writers``, USD in ``usd``, ``checkpoint``). This room stands below the geometry: it
imports nothing of surfflow but the leaves (errors, config, look).
"""
