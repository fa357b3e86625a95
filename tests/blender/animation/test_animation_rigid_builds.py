"""Following a channel with Blender's rigid bodies builds its objects again at rest, nudged and at its keys'
extremes; the other objects' settings, which the build reads (collision collections, joints' bodies), do not
change during one channel, so they are converted once per channel, not once per build
(`io/blender/animation/imports/rigid.RigidFollow`)."""

from __future__ import annotations

import collections

import addon_loader
import import_support as support
import pytest
import test_animation_import_keys

pytestmark = pytest.mark.usefixtures("omi_addon")


def test_the_other_objects_are_converted_once_per_channel(tmp_path, monkeypatch):
    path = test_animation_import_keys._file(tmp_path)
    settings_physics = addon_loader.module("properties.convert_build").SettingsPhysics
    real_convert = settings_physics._convert
    converted: collections.Counter[str] = collections.Counter()

    def counted(self, obj):
        converted[obj.name] += 1
        return real_convert(self, obj)

    monkeypatch.setattr(settings_physics, "_convert", counted)
    support.import_gltf(path)
    channels = 6  # the file's: the crate's mass and velocity, the lid's shape, the hinge's drive (2) and limit
    # the floor-less file's lid is an owner in one channel (its shape: a few builds), another object in five
    assert converted["Lid"] <= channels + 6, converted
