"""Reading meshes and scenes, writing outputs and checkpoints."""
