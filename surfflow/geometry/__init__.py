"""Pure functions (V, F, params) -> arrays, one concept a module; ``surface`` holds the container."""
