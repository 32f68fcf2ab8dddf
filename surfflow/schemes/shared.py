"""What both momentum schemes use: the friction coefficients, the well-balanced
gravity-pressure acceleration (``kernels/pressure.py``) and the dyes carried on a continuity's
limited mass fluxes (``kernels/tracers.py``)."""

from __future__ import annotations

import numpy as np

from ..kernels.pressure import apply_gravity_pressure
from ..kernels.records import CarrierFluxes, Levels, TracerUpdate, rings_of
from ..kernels.tracers import carry, limited_faces


def friction_coefficients(params) -> tuple[float, float]:
    """(linear gamma (1/s), laminar 3 nu (m^2/s)) of kernels/friction.py for ``params``."""
    laminar = params.friction_model == "laminar"
    return (0.0 if laminar else params.friction), (3.0 * params.viscosity if laminar else 0.0)


NO_SENSOR = np.zeros(0)  # ``gravity_pressure``'s sensor where no Landshoff term reads it


def gravity_pressure(geom, fields, state, params, active, bottom, depth, dt, velocity,
                     sensor=NO_SENSOR) -> None:
    """velocity += dt a on the wet vertices of ``depth``, a the well-balanced gravity-pressure
    acceleration (kernels/pressure.py), looking at ``active.moving`` (schemes/active.py: every
    wet vertex among them); sensor (n,) receives the continuity's shock sensor there
    (kernels/shocks.py), unless it is ``NO_SENSOR``."""
    apply_gravity_pressure(active.moving, rings_of(geom, fields),
                           Levels(fields.vertex_height, fields.normal_rise, bottom,
                                  params.gravity_magnitude),
                           fields.tangent_gravity, state.friction_share, depth, params.min_depth,
                           dt, velocity, sensor, fields.wall_projections)


def summed_pressure(pressures, total):
    """The pressing terms' surface pressures (n,) each (``terms/base.py``) as one (n,) array:
    the only one, or their sum written into ``total`` (zeros without any)."""
    if len(pressures) == 1:
        return pressures[0]
    if pressures:  # summed in place: no (k, n) temporary
        np.copyto(total, pressures[0])
        for pressure in pressures[1:]:
            total += pressure
    return total


def carry_dyes(geom, fields, params, active, depth, depth_out, velocity, shift, dye, mass_flux,
               boundary_flux, outflow_factor, dt, faces, outflow, dye_out) -> None:
    """dye_out (n, n_dyes): the dyes carried on a continuity's limited mass fluxes from depth to
    depth_out, second order (kernels/tracers.py, faces moved back by shift u), at the vertices
    ``active.moving`` (schemes/active.py; kept at ``active.resting``); faces (nnz, n_dyes),
    outflow (n, n_dyes) scratch. Nothing runs without dyes."""
    if not dye.shape[1]:
        return
    rings = rings_of(geom, fields)
    fluxes = CarrierFluxes(mass_flux, boundary_flux, outflow_factor)
    limited_faces(active.moving, rings, depth, params.min_depth, dye, velocity, shift, fluxes, dt,
                  faces)
    carry(active.moving, active.resting, rings, depth, depth_out, dye, faces, fluxes, dt, 1.0,
          TracerUpdate(dye_out, outflow))
