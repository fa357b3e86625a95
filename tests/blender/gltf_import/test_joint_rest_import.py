"""The import names a joint whose connected body starts outside the joint's limits (io/omi/checks/joint_rest, the
same check `validate` makes): a slider and a hinge, each inside its limits (no message) and outside
(a warning naming the joint, the connected node, the axis and by how much). Bullet then pulls the body
into range on the first frame, as the file's engines would."""

from __future__ import annotations

import import_support as support
import pytest
from hostile.corpus import HINGE_LIMITS, SLIDER_LIMITS, joint_document, turn_z

pytestmark = pytest.mark.usefixtures("omi_addon")

LIMIT_WORDS = "beyond the limit's"


def limit_warnings(tmp_path, document: dict) -> list[str]:
    imported = support.import_gltf(support.write_gltf(tmp_path, "joint", document))
    assert imported.result == {'FINISHED'}
    assert imported.obj("Joint").rigid_body_constraint is not None or support.constraints_of(imported.obj("Joint"))
    return [text for text in imported.warnings if LIMIT_WORDS in text]


def test_a_slider_and_a_hinge_inside_their_limits_import_without_a_word(tmp_path):
    assert limit_warnings(tmp_path, joint_document(SLIDER_LIMITS, {"translation": [0.8, 0, 0]})) == []
    assert limit_warnings(tmp_path, joint_document(HINGE_LIMITS, {"rotation": turn_z(-0.4)})) == []


def test_a_slider_past_its_max_is_named_at_import(tmp_path):
    warnings = limit_warnings(tmp_path, joint_document(SLIDER_LIMITS, {"translation": [1.5, 0, 0]}))
    assert len(warnings) == 1, warnings
    assert "node 2 'Joint'" in warnings[0] and "'Rail' starts 1.5 m along the joint's X axis" in warnings[0]
    assert "0.5 m beyond the limit's max 1 m" in warnings[0]


def test_a_hinge_turned_past_its_limit_is_named_at_import(tmp_path):
    warnings = limit_warnings(tmp_path, joint_document(HINGE_LIMITS, {"rotation": turn_z(-0.7)}))
    assert len(warnings) == 1, warnings
    assert "node 2 'Joint'" in warnings[0] and "about the joint's Z axis" in warnings[0]
    assert "11.5° beyond the limit's min -28.6°" in warnings[0]
