"""OMI_seat's settings: back, foot and knee points (the file's frame: Y up, metres) and the spine-knee angle."""

from __future__ import annotations

from ..io.omi.units import seat
from .units import Binding

BINDING = Binding(seat.NAME, "seat", "Seat", seat.FIELDS, seat.Seat, points=("back", "knee", "foot"))
