"""io/omi/summary: one line per kind of finding, repeats said once, a screenful at most."""

from __future__ import annotations

from omi_core import summary


def test_a_kind_met_once_keeps_its_message() -> None:
    assert summary.summarise([("info", "object 'A': a note")]) == [("info", "object 'A': a note")]


def test_a_kind_met_often_is_one_line_with_its_objects_counted() -> None:
    said = [("info", f"object 'Hinge{n}': its joint is written on a new node 'Hinge{n}.joint' under 'Body{n}'")
            for n in range(200)]
    [(severity, line)] = summary.summarise(said)
    assert severity == "info" and line.startswith("object 'Hinge0': its joint is written on a new node")
    assert "200 findings: 'Hinge0', 'Hinge1', 'Hinge2', 'Hinge3', 'Hinge4', 'Hinge5', 'Hinge6', 'Hinge7', 'Hinge8', " \
           "'Hinge9', 'Hinge10', 'Hinge11', ... (200)" in line


def test_import_messages_by_node_group_too_and_repeats_are_said_once() -> None:
    said = [("warning", f"node {n} 'Crate{n}' (/nodes/{n}/extensions): mass 0 kg is below 0.001 kg") for n in range(4)]
    said += [("warning", said[0][1])] * 3
    [(_severity, line)] = summary.summarise(said)
    assert "4 findings: 'Crate0', 'Crate1', 'Crate2', 'Crate3']" in line


def test_a_few_of_a_kind_are_each_said_in_full() -> None:
    said = [("info", f"object 'Door{n}': its hinge is written on a new node") for n in range(3)]
    assert summary.summarise(said) == said


def test_many_kinds_alike_but_for_a_key_share_a_line_naming_every_key() -> None:
    said = [("warning", f"/extensions/x/key{n}: key 'k{n}' is not read: kept as it is") for n in range(30)]
    said += [("warning", f"object 'Floor' (/nodes/0): key 'j{n}' was kept from an OMI file") for n in range(30)]
    lines = summary.summarise(said, is_name=lambda text: text == "Floor")
    assert len(lines) == 2
    assert "30 findings: 'k0', 'k1'" in lines[0][1] and "'j0', 'j1'" in lines[1][1]


def test_never_more_lines_than_asked() -> None:
    said = [("warning", f"finding of kind {chr(65 + n)}{'x' * n}") for n in range(40)]
    lines = summary.summarise(said, most=20)
    assert len(lines) == 20 and lines[-1] == ("warning", "21 more kinds of finding, not shown here")


def test_a_summary_line_gives_back_its_first_message() -> None:
    said = [("info", f"object 'Hinge{n}': its joint is written on a new node") for n in range(10)]
    [(_severity, line)] = summary.summarise(said)
    assert summary.first_of(line) == "object 'Hinge0': its joint is written on a new node"
    assert summary.first_of("object 'A': a note") == "object 'A': a note"
