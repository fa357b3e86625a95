"""Messages an artist can read on a big scene: one line per kind of finding, its objects counted and the first
few named, each message once, and never more than a screenful per import or export."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .named import first_few, plural

MOST_LINES = 20
MOST_NAMED = 12  # names on one summary line
MOST_NAMED_ALIKE = 40  # on a line of findings alike but for their words (a file's keys): each named
FEW = 3  # a kind met this often or less keeps each message: on a small scene every object is named in full
# "object 'Crate': ..." or the import's "node 3 'Crate' (/nodes/3/...): ...": whom the message is about
# A quoted word, its escapes unrolled (the same matches as '(?:[^'\\]|\\.)*', without a step per character)
_SUBJECT = re.compile(r"^(?:object|node \d+) '([^'\\]*(?:\\.[^'\\]*)*)'(?: \([^)]*\))?: ")
_QUOTED = re.compile(r"'[^'\\]*(?:\\.[^'\\]*)*'")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_POINTER = re.compile(r"^/\S*: ")  # a message about a JSON pointer starts with it
_LONG_TAIL = 24  # characters after the last quoted word that make a kind of their own when lines run out


@dataclass
class _Kind:
    severity: str
    first: str  # the first message of this kind, whole
    subjects: list[str] = field(default_factory=list)  # the objects the messages are about, in order
    words: list[str] = field(default_factory=list)  # the other quoted words they say (a key, a node), once each
    messages: list[str] = field(default_factory=list)
    known_words: set[str] = field(default_factory=set)  # `words` as a set: a kind may name thousands

    def named(self, by_words: bool = False) -> list[str]:
        """What tells the messages apart: their objects, or (all about one object, or `by_words`) the words
        that differ."""
        objects = list(dict.fromkeys(self.subjects))
        if len(objects) > 1 and not by_words:
            return objects
        common = set.intersection(*(set(_QUOTED.findall(message)) for message in self.messages))
        return [word for word in self.words if f"'{word}'" not in common and word not in objects]

    @property
    def count(self) -> int:
        return len(self.messages)


_QUOTED_PARTS = re.compile(f"({_QUOTED.pattern})")  # splits a message into its text and quoted words, in turn


def _kind_key(message: str, is_name: Callable[[str], bool] | None,
              numberless: dict[str, str]) -> tuple[str, str | None, str, list[str]]:
    """What messages of one kind share (object names and numbers left out; other quoted words, such as a
    file's key, kept), whom this one is about, the message without that subject, and its quoted words.

    The numbers are left out part by part (no number runs across a quote), each part once (`numberless`):
    the messages of a kind repeat their text between the names."""
    found = _SUBJECT.match(message)
    rest = message[found.end():] if found else message
    parts = _QUOTED_PARTS.split(rest)  # text, quoted word, text, ..., text
    key = []
    for index, part in enumerate(parts):
        if index % 2 and (is_name is None or is_name(text := part[1:-1]) or is_name(text.split(".")[0])):
            key.append("'?'")
            continue
        plain = numberless.get(part)
        if plain is None:
            plain = numberless[part] = _NUMBER.sub("#", part)
        key.append(plain)
    return "".join(key), found.group(1) if found else None, rest, parts[1::2]


_SUFFIX = re.compile(r" \[(?:the same for \d+ findings: .*|and \d+ more like it)\]$")


def first_of(line: str) -> str:
    """A summary line's first message (the line itself when it summarises nothing)."""
    return _SUFFIX.sub("", line)


def summarise(messages: Iterable[tuple[str, str]], most: int = MOST_LINES,
              is_name: Callable[[str], bool] | None = None) -> list[tuple[str, str]]:
    """(severity, message) pairs -> at most `most` lines: repeats dropped, each kind once with its count.

    `is_name` tells an object's name from other quoted words (without it, every quoted word is a name).
    A kind met a few times keeps its messages as they are; a kind met more often is its first message followed
    by how many objects it concerns and the first few of them. Beyond `most` lines, the last says how many more.
    """
    kinds: dict[tuple[str, str], _Kind] = {}
    seen: set[tuple[str, str]] = set()
    numberless: dict[str, str] = {}
    for severity, message in messages:
        if (severity, message) in seen:
            continue
        seen.add((severity, message))
        key, subject, rest, words = _kind_key(message, is_name, numberless)
        kind = kinds.get((severity, key))
        if kind is None:
            kind = kinds[severity, key] = _Kind(severity, message)
        kind.messages.append(message)
        _note(kind, message, subject, rest, words)
    lines = _lines(kinds.values())
    if len(lines) > most:  # many kinds: those alike but for the words they name (a file's keys) share a line
        lines = _lines(_coarser(kinds.values()), by_words=True)
    if len(lines) <= most:
        return lines
    hidden = lines[most - 1:]
    worst = "warning" if any(severity != "info" for severity, _text in hidden) else "info"
    return [*lines[:most - 1], (worst, f"{len(hidden)} more kinds of finding, not shown here")]


def _coarser(kinds: Iterable[_Kind]) -> list[_Kind]:
    """Kinds alike once every quoted word and pointer is left out, as one kind naming the words that differ."""
    merged: dict[tuple[str, str], _Kind] = {}
    for kind in kinds:
        rest = _POINTER.sub("", _SUBJECT.sub("", kind.first))
        tail = _QUOTED.split(rest)[-1]  # what is said of the last word named: "was kept from an OMI file: ..."
        key = (kind.severity, _NUMBER.sub("#", tail if len(tail) >= _LONG_TAIL else _QUOTED.sub("'?'", rest)))
        found = merged.setdefault(key, _Kind(kind.severity, kind.first))
        for message in kind.messages:
            found.messages.append(message)
            found_subject = _SUBJECT.match(message)
            _note(found, message, found_subject.group(1) if found_subject else None)
    return list(merged.values())


def _note(kind: _Kind, message: str, subject: str | None, rest: str | None = None,
          words: list[str] | None = None) -> None:
    """Note the message's subject and quoted words (`rest`: the message without its subject, and `words`: its
    quoted words, if known)."""
    if subject is not None:
        kind.subjects.append(subject)
    if words is None:
        words = _QUOTED.findall(_SUBJECT.sub("", message) if rest is None else rest)
    known = kind.known_words
    new = [word[1:-1] for word in words if word[1:-1] not in known]
    kind.words += new
    kind.known_words.update(new)


def _lines(kinds: Iterable[_Kind], *, by_words: bool = False) -> list[tuple[str, str]]:
    lines = []
    for kind in kinds:
        named = kind.named(by_words) if kind.count > FEW else []
        if kind.count <= FEW:
            lines += [(kind.severity, message) for message in kind.messages]
        elif named:
            lines.append((kind.severity, f"{kind.first} [the same for {plural(kind.count, 'finding')}: "
                                         f"{first_few(named, MOST_NAMED_ALIKE if by_words else MOST_NAMED)}]"))
        else:
            lines.append((kind.severity, f"{kind.first} [and {kind.count - 1} more like it]"))
    return lines
