"""A toy extension unit, `TOY_gadget`, added from the tests as a new extension would be added: its unit
(`unit.py`), its properties file (`properties.py`) and its panel file (`panel.py`), registered by one call
(tests/blender/scenarios/test_toy_extension.py). Nothing in the add-on knows it."""
