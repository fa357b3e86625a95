"""OMI collision filters -> Blender collision collections.

Blender (Bullet) lets two rigid bodies collide when they share at least one of 20 collision
collections; OMI lets them collide when each one's filter accepts the other's collision systems. The
two are matched exactly by cliques: every group of filters (or of bodies) that all collide with each other
gets one collection, and a body belongs to the collections of its groups. Bodies with the same filter
values share their collections, except when their filter does not collide with itself: those are told
apart. Without filters every body lands in collection 0, Blender's default.

What Blender cannot say is reported: more groups than 20 collections (the extra groups share the last
collection, so they collide too much rather than fall through each other), and bodies whose filter does
not collide with itself when they cannot each get collections of their own (Blender makes bodies that
share a collection collide).

Pure Python: no bpy, so the mapping is tested on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...omi import model

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
    """Collision collections per body (in the order given), and what could not be expressed."""

    collections: tuple[tuple[bool, ...], ...]
    problems: tuple[str, ...]


def _label(value: FilterKey) -> str:
    if value is None:
        return "no filter"
    return repr(value.name) if value.name else f"systems {list(value.collision_systems)}"


def _cliques(count: int, adjacent: list[list[bool]]) -> list[set[int]]:
    """Greedy edge clique cover: every adjacent pair, and every vertex adjacent to itself, shares a clique."""
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


Vertex = tuple[tuple, int | None]  # (filter key, body index when the vertex is one body, else None)


def _cover(keys: list[tuple], classes: dict[tuple, FilterKey],
           apart: set[tuple]) -> tuple[list[Vertex], list[set[int]]]:
    """Cliques over one vertex per filter value, or per body for the values in `apart` (`keys`: each body's
    filter values).

    A shared vertex stands for several bodies, which Blender makes collide with each other: it is
    adjacent to itself whenever it collides with anything. Bodies kept apart are never adjacent to
    bodies of their own filter.
    """
    vertices: list[Vertex] = []
    for key in classes:
        if key in apart:
            vertices.extend((key, index) for index, body_key in enumerate(keys) if body_key == key)
        else:
            vertices.append((key, None))
    count = len(vertices)
    adjacent = [[False] * count for _ in range(count)]
    for i, (key_i, body_i) in enumerate(vertices):
        for j, (key_j, _body_j) in enumerate(vertices):
            if i != j and not (key_i == key_j and body_i is not None):
                adjacent[i][j] = collide(classes[key_i], classes[key_j])
    for i, (key, body) in enumerate(vertices):
        adjacent[i][i] = body is None and (collide(classes[key], classes[key]) or any(adjacent[i]))
    return vertices, _cliques(count, adjacent)


def assign(bodies: list[FilterKey]) -> Assignment:
    """Collision collections for each body, given each body's filter (None: no filter).

    Bodies whose filter collides with itself share their collections. Those whose filter does not get
    collections of their own, while Blender's 20 allow it; otherwise they share them and collide.
    """
    keys = [_key(body) for body in bodies]
    classes: dict[tuple, FilterKey] = {}
    for index in sorted(range(len(bodies)), key=lambda at: (keys[at] != (), keys[at])):  # "no filter" first: 0
        classes.setdefault(keys[index], bodies[index])
    apart = {key for key, value in classes.items() if not collide(value, value)}
    vertices, cliques = _cover(keys, classes, apart)
    problems: list[str] = []
    if len(cliques) > COLLECTION_COUNT and apart:
        vertices, cliques = _cover(keys, classes, set())
        for key in sorted(apart):
            vertex = vertices.index((key, None))
            if keys.count(key) > 1 and any(vertex in clique for clique in cliques):
                problems.append(f"bodies with filter {_label(classes[key])} collide with each other in Blender: "
                                "too few collision collections to keep them apart")
    if len(cliques) > COLLECTION_COUNT:
        problems.append(f"the collision filters need {len(cliques)} collision collections, Blender has "
                        f"{COLLECTION_COUNT}: the last groups share collection {COLLECTION_COUNT}")
    flags_of: dict[Vertex, list[bool]] = {}
    for number, clique in enumerate(cliques):
        for vertex in clique:
            flags_of.setdefault(vertices[vertex], [False] * COLLECTION_COUNT)[min(number, COLLECTION_COUNT - 1)] = True
    flags = {vertex: tuple(values) for vertex, values in flags_of.items()}  # made once, shared by its bodies
    nothing = (False,) * COLLECTION_COUNT
    collections = tuple(flags.get((key, index)) or flags.get((key, None)) or nothing for index, key in enumerate(keys))
    return Assignment(collections, tuple(problems))
