"""Values remembered by the identity of plain data (the bank's cases and trees, which are dicts)."""

from __future__ import annotations

from grader.kit.by_identity import ByIdentity


def test_the_same_object_is_computed_once_an_equal_one_again_and_a_tag_apart():
    memory, calls = ByIdentity(cap=10), []

    def compute(label):
        calls.append(label)
        return label

    case = {"tree": 1}
    assert memory.get(case, lambda: compute("first")) == "first"
    assert memory.get(case, lambda: compute("again")) == "first"
    assert memory.get({"tree": 1}, lambda: compute("equal, not the same")) == "equal, not the same"
    assert memory.get(case, lambda: compute("tagged"), tag=True) == "tagged"
    assert calls == ["first", "equal, not the same", "tagged"]


def test_an_entry_keeps_its_object_so_an_id_is_never_answered_for_another():
    memory = ByIdentity(cap=10)
    memory.get({"n": 0}, lambda: "for the first dict")  # nothing else holds the dict: only the entry does
    later = [{"n": i} for i in range(50)]  # new dicts may not take the first one's id while it is remembered
    assert all(memory.get(d, lambda d=d: d["n"]) == d["n"] for d in later[:5])


def test_past_its_cap_the_memory_starts_afresh():
    memory, calls = ByIdentity(cap=3), []
    kept = [{"i": i} for i in range(5)]
    for d in kept:
        memory.get(d, lambda d=d: calls.append(d["i"]))
    memory.get(kept[0], lambda: calls.append("recomputed"))
    assert calls == [0, 1, 2, 3, 4, "recomputed"]
