"""Numba kernels: arrays and scalars in, preallocated arrays out; one module per physical term."""
