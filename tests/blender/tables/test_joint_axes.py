"""The joint axis change has one home (issue #20 item 2): `tables/axes.joint_axes`, the same change every vector
takes (`vec_to_blender`), read by the settings conversion, the build and the adoption of Blender constraints;
no other module holds an axis table."""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_a_lone_axis_goes_where_the_vector_along_it_goes(omi):
    axes = omi("io.blender.tables.axes")
    for gltf_axis in range(3):
        unit = [1.0 if i == gltf_axis else 0.0 for i in range(3)]
        (blender_axis,), sign = axes.joint_axes((gltf_axis,), to_blender=True)
        assert axes.vec_to_blender(unit)[blender_axis] == sign
        assert axes.joint_axes((blender_axis,), to_blender=False) == ((gltf_axis,), sign)


def test_several_axes_keep_no_sign_and_come_back(omi):
    axes = omi("io.blender.tables.axes")
    for count in (2, 3):
        for chosen in combinations(range(3), count):
            there, sign = axes.joint_axes(chosen, to_blender=True)
            assert sign == 1 and axes.joint_axes(there, to_blender=False) == (chosen, 1)


def test_a_one_sided_range_on_a_flipped_axis_round_trips(omi):
    axes = omi("io.blender.tables.axes")
    (_axis,), sign = axes.joint_axes((2,), to_blender=True)  # glTF Z is Blender -Y
    assert sign == -1
    assert axes.signed_range(*axes.signed_range(None, 0.5, sign), sign) == (None, 0.5)


def test_no_other_module_changes_joint_axes():
    table = re.compile(r"\{0: \(0, 1\), 1: \(2, -?1\), 2: \(1, -?1\)\}")
    holders = sorted(str(path.relative_to(ROOT)) for folder in ("io", "properties", "operators", "panels")
                     for path in (ROOT / folder).rglob("*.py") if table.search(path.read_text()))
    assert holders == ["io/blender/tables/axes.py"]
    assert not [path for folder in ("io", "properties", "operators") for path in (ROOT / folder).rglob("*.py")
                if re.search(r"axis_to_(gltf|blender)", path.read_text())]
