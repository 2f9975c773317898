"""The kit's generated driver files are found again by content, and never trusted when changed."""

from __future__ import annotations

from grader.kit.generated import cached_file


def test_a_generated_file_is_written_once_and_rewritten_when_changed(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path))
    first = cached_file("kit-drivers", "nim", "X = 1\n")
    assert first.read_text(encoding="utf-8") == "X = 1\n" and first.parent == tmp_path / "kit-drivers"
    stamp = first.stat().st_mtime_ns
    assert cached_file("kit-drivers", "nim", "X = 1\n") == first and first.stat().st_mtime_ns == stamp
    first.write_text("X = 2  # written by someone else\n", encoding="utf-8")
    assert cached_file("kit-drivers", "nim", "X = 1\n") == first
    assert first.read_text(encoding="utf-8") == "X = 1\n"
    nested = cached_file("tree-drivers", "ctp-26", "Y = 1\n", "driver.py")
    assert nested.name == "driver.py" and nested.parent.parent == tmp_path / "tree-drivers"
    assert cached_file("kit-drivers", "nim", "X = 3\n") != first  # another text, another file
