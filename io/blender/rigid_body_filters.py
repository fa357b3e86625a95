"""OMI collision filters -> Blender collision collections.

Blender (Bullet) lets two rigid bodies collide when they share at least one of 20 collision
collections; OMI lets them collide when each one's filter accepts the other's collision systems. The
two are matched exactly by cliques: every group of filters that all collide with each other gets one
collection, and a body belongs to the collections of its filter's groups. Bodies with the same filter
values therefore share their collections. Without filters every body lands in collection 0, Blender's
default.

What Blender cannot say is reported: more groups than 20 collections (the extra groups share the last
collection, so they collide too much rather than fall through each other), and a filter that does not
collide with itself while colliding with others (Blender makes bodies that share collections collide).

Pure Python: no bpy, so the mapping is tested on its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..omi import model

COLLECTION_COUNT = 20

FilterKey = model.CollisionFilter | None  # None: no filter, collides with everything


def _accepts(own: FilterKey, other: FilterKey) -> bool:
    """Whether `own`'s mask lets it collide with a body whose filter is `other`."""
    if own is None:
        return True
    members = set(other.collision_systems) if other is not None else set()
    if own.collide_with_systems:
        return bool(members & set(own.collide_with_systems))
    if own.not_collide_with_systems:
        return not members or bool(members - set(own.not_collide_with_systems))
    return True


def collide(a: FilterKey, b: FilterKey) -> bool:
    """OMI's meaning: both filters accept each other."""
    return _accepts(a, b) and _accepts(b, a)


def _key(value: FilterKey) -> tuple:
    """Filter values without their names: two library entries with equal lists are one filter."""
    if value is None:
        return ()
    return (tuple(value.collision_systems), tuple(value.collide_with_systems), tuple(value.not_collide_with_systems))


@dataclass(frozen=True)
class Assignment:
    """Collision collections per filter (by value), and what could not be expressed."""

    collections: dict[tuple, tuple[bool, ...]]
    problems: tuple[str, ...]

    def of(self, value: FilterKey) -> tuple[bool, ...]:
        return self.collections.get(_key(value), _ONLY_FIRST)


_ONLY_FIRST = (True,) + (False,) * (COLLECTION_COUNT - 1)


def _label(value: FilterKey) -> str:
    if value is None:
        return "no filter"
    return repr(value.name) if value.name else f"systems {list(value.collision_systems)}"


def _cliques(count: int, adjacent: list[list[bool]]) -> list[set[int]]:
    """Greedy edge clique cover (self-loops included): every colliding pair shares at least one clique."""
    uncovered = {(i, j) for i in range(count) for j in range(i, count) if adjacent[i][j]}
    cliques: list[set[int]] = []
    for i, j in sorted(uncovered):
        if (i, j) not in uncovered:
            continue
        clique = {i, j}
        for k in range(count):
            if k not in clique and all(adjacent[k][m] for m in clique):
                clique.add(k)
        cliques.append(clique)
        uncovered -= {(a, b) for a in clique for b in clique if a <= b}
    return cliques


def assign(filters: Iterable[FilterKey]) -> Assignment:
    """Collision collections for every filter value in `filters` (None: a body without a filter)."""
    values: dict[tuple, FilterKey] = {}
    for value in filters:
        values.setdefault(_key(value), value)
    keys = sorted(values, key=lambda k: (k != (), k))  # "no filter" first: its group gets collection 0
    count = len(keys)
    adjacent = [[collide(values[a], values[b]) for b in keys] for a in keys]
    problems: list[str] = []
    for i, key in enumerate(keys):
        if not adjacent[i][i] and any(adjacent[i]):
            problems.append(f"bodies with filter {_label(values[key])} collide with each other in Blender: "
                            "bodies sharing collision collections always collide")
            adjacent[i][i] = True
    cliques = _cliques(count, adjacent)
    if len(cliques) > COLLECTION_COUNT:
        problems.append(f"the collision filters need {len(cliques)} collision collections, Blender has "
                        f"{COLLECTION_COUNT}: the last groups share collection {COLLECTION_COUNT}")
    collections: dict[tuple, tuple[bool, ...]] = {}
    for i, key in enumerate(keys):
        flags = [False] * COLLECTION_COUNT
        for index, clique in enumerate(cliques):
            if i in clique:
                flags[min(index, COLLECTION_COUNT - 1)] = True
        collections[key] = tuple(flags)
    return Assignment(collections, tuple(problems))
