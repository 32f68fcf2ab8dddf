"""Scenes: the scene language (``scene``: TOML files, presets, motion tables), TOML writing,
``describe`` (what ``surfflow info`` says of a file), the assembly of a Simulation from a scene
(``scene_setup``), the frame-by-frame run (``runner``: ``sf.SceneRunner``), the frame loop that
renderers share (``rendering``), the USD export of a finished run (``usd_export``), and a bare
mesh's default scene (``default_scene``) with the telling of a scene file from a mesh file
(``scene_input``).

This room stands above the Simulation and below the renderers; it imports no optional engine
when imported.
"""
