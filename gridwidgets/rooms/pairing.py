"""How a room seats its students: pure functions over the students (seat
tokens, in arrival order), the games they played (each game's players, in
player order) and their points. Nothing here holds a room or a lock, so a
pairing is tested with lists (``tests/test_rooms_pairing.py``).

The pairings (:data:`PAIRINGS`, the module text of :mod:`gridwidgets.rooms.model`
says them as a teacher reads them):

- ``"arrival"``: in arrival order, a game as soon as it has its players.
- ``"round-robin"``: the circle method (:func:`circle`), so that over
  ``n - 1`` rounds (``n`` even) everyone meets everyone once; a student who
  joins late fits in without a rematch while a fresh pairing exists
  (:func:`round_robin`).
- ``"swiss"``: equal points meet, no rematch while one can be avoided (:func:`swiss`).
- ``"agent"``: each student against the room's agent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

__all__ = ["AGENT", "PAIRINGS", "ROUND_PAIRINGS", "SWISS_TRIES", "circle", "fresh_pairs", "groups", "met_of", "orient",
           "round_groups", "round_robin", "swiss"]

#: how a room pairs its students
PAIRINGS = ("arrival", "round-robin", "swiss", "agent")
#: the pairings in which nobody plays until the teacher starts a round
ROUND_PAIRINGS = ("round-robin", "swiss")
#: the player entry of a seat held by the room's agent
AGENT = "agent"
#: the most tries :func:`fresh_pairs` makes before it gives up (bounded time for any class)
SWISS_TRIES = 20_000


def groups(tokens: Sequence[str], n: int) -> list[list[str]]:
    """``tokens`` in games of ``n`` in order; the last game's empty seats go to the agent."""
    return [list(tokens[i : i + n]) + [AGENT] * max(0, i + n - len(tokens)) for i in range(0, len(tokens), n)]


def circle(tokens: Iterable[str], k: int) -> list[list[str]]:
    """Round ``k`` (from 0) of a round robin by the circle method: the first
    stays, the others turn one place per round; an odd count gets the agent;
    who moves first alternates round by round."""
    ring: list[str] = list(tokens)
    if len(ring) % 2:
        ring.append(AGENT)
    n = len(ring)
    if n == 0:
        return []
    rest = ring[1:]
    shift = k % max(1, n - 1)
    rest = rest[-shift:] + rest[:-shift] if shift else rest
    order = [ring[0], *rest]
    pairs = [[order[i], order[n - 1 - i]] for i in range(n // 2)]
    return [p if (k + i) % 2 == 0 else p[::-1] for i, p in enumerate(pairs)]


def fresh_pairs(order: Sequence[str], met: Mapping[str, set[str]]) -> list[list[str]] | None:
    """Pairs of ``order`` (best placed first) where nobody meets someone met
    before: each student, best placed first, takes the best placed fresh
    opponent that still lets the rest be paired (depth-first, at most
    :data:`SWISS_TRIES` tries); ``None`` if there is none."""
    tries = [0]

    def pair(rest: list[str]) -> list[list[str]] | None:
        if not rest:
            return []
        a = rest[0]
        for b in rest[1:]:
            if b in met.get(a, ()):
                continue
            tries[0] += 1
            if tries[0] > SWISS_TRIES:
                return None
            tail = pair([t for t in rest[1:] if t != b])
            if tail is not None:
                return [[a, b], *tail]
        return None

    return pair(list(order))


def met_of(played: Iterable[Sequence[str]]) -> dict[str, set[str]]:
    """Who met whom in ``played`` (each game's players; the first and the last
    of a game, as two-player games have them), both ways; the agent counts as
    a player (a student who had the agent once has met it)."""
    met: dict[str, set[str]] = {}
    for players in played:
        a, b = players[0], players[-1]
        met.setdefault(a, set()).add(b)
        met.setdefault(b, set()).add(a)
    return met


def round_robin(tokens: Sequence[str], round_: int, played: Sequence[Sequence[str]]) -> list[list[str]]:
    """Round ``round_`` (from 1) of a round robin of two-player games that
    keeps its schedule when students join late: the circle method's round
    (:func:`circle` over ``tokens`` in arrival order) where none of its pairs
    met before in ``played``; else its fresh pairs stay and the others are
    paired again among themselves without a rematch, or, if they cannot be,
    the whole round is paired without a rematch in the circle's order
    (:func:`fresh_pairs`); only when no pairing without a rematch exists (or
    none is found within :data:`SWISS_TRIES` tries) is the circle's round
    played as it is. With nobody late this is exactly the circle method: over
    ``n - 1`` rounds (``n`` even, the agent making an odd count even)
    everyone meets everyone once. A late joiner of an odd class takes the
    agent's place in the circle (arrival order puts them there), so the
    schedule goes on unchanged.

    Returns:
        the round's pairs, each ``[first mover, second mover]`` as the circle
        gives them (:func:`orient` turns a pair that met before).
    """
    planned = circle(tokens, round_ - 1)
    met = met_of(played)

    def fresh(pair: list[str]) -> bool:
        return pair[1] not in met.get(pair[0], ())

    if all(fresh(p) for p in planned):
        return planned
    kept = [p for p in planned if fresh(p)]
    again = fresh_pairs([t for p in planned if not fresh(p) for t in p], met)
    if again is not None:
        return kept + again
    whole = fresh_pairs([t for p in planned for t in p], met)
    return whole if whole is not None else planned


def swiss(tokens: Sequence[str], n: int, points: Mapping[str, float],
          played: Sequence[Sequence[str]]) -> list[list[str]]:
    """A round of Swiss pairing: students in order of ``points`` (join order
    among equals), each meeting the best placed opponent not met in
    ``played`` that still lets everyone else be paired (:func:`fresh_pairs`;
    else the nearest in points, rematches allowed); of a pair, the one who
    moved first less often moves first; with an odd count the lowest placed
    student who has not played the agent yet plays it. Games of more than two
    players: groups in order of points."""
    order = sorted(tokens, key=lambda t: -points.get(t, 0.0))  # stable: join order among equals
    if n != 2:
        return groups(order, n)
    met: dict[str, set[str]] = {t: set() for t in tokens}
    first = dict.fromkeys(tokens, 0)
    byes: set[str] = set()
    for players in played:
        a, b = players[0], players[-1]
        met.setdefault(a, set()).add(b)
        met.setdefault(b, set()).add(a)
        first[a] = first.get(a, 0) + 1
        if AGENT in players:
            byes.update(t for t in players if t != AGENT)
    bye = None
    if len(order) % 2:
        bye = next((t for t in reversed(order) if t not in byes), order[-1])
        order.remove(bye)
    matched = fresh_pairs(order, met)
    if matched is None:  # no pairing without a rematch (or too long to find): the nearest in points
        matched = [[order[i], order[i + 1]] for i in range(0, len(order), 2)]
    pairs = [[a, b] if first.get(a, 0) <= first.get(b, 0) else [b, a] for a, b in matched]
    return pairs + ([[bye, AGENT]] if bye is not None else [])


def orient(group: list[str], played: Sequence[Sequence[str]]) -> list[str]:
    """``group`` turned so that the seating it had least often in ``played``
    comes first: the same ordered group never comes back while another turn
    of it is fresher (two players: the colours swap from one meeting to the next)."""
    if sum(t != AGENT for t in group) < 2:
        return group
    seen: dict[tuple[str, ...], int] = {}
    for players in played:
        key = tuple(players)
        seen[key] = seen.get(key, 0) + 1
    turns = [group[k:] + group[:k] for k in range(len(group))]
    return min(turns, key=lambda t: seen.get(tuple(t), 0))  # min keeps the first of equals


def round_groups(pairing: str, tokens: Sequence[str], n: int, round_: int, played: Sequence[Sequence[str]],
                 points: Mapping[str, float]) -> list[list[str]]:
    """The games of round ``round_`` (from 1) for the students ``tokens`` (in
    arrival order), ``n`` players a game, by ``pairing`` (a key of
    :data:`PAIRINGS`); ``played``: the players of every game before; ``points``:
    each token's points (Swiss only). Each group lists its players in player
    order (the agent's seats :data:`AGENT`).

    Raises:
        ValueError: an unknown pairing.
    """
    tokens = list(tokens)
    if pairing == "agent":
        return [[t] + [AGENT] * (n - 1) for t in tokens]
    if pairing == "swiss":
        return swiss(tokens, n, points, played)
    if pairing == "round-robin" and n == 2:
        return [orient(g, played) for g in round_robin(tokens, round_, played)]
    if pairing == "round-robin":  # more than two a game: turn the seating one place a round
        k = (round_ - 1) % max(1, len(tokens))
        tokens = tokens[k:] + tokens[:k]
    elif pairing != "arrival":
        raise ValueError(f"pairing must be one of {', '.join(PAIRINGS)}, got {str(pairing)[:30]!r}")
    return [orient(g, played) for g in groups(tokens, n)]
