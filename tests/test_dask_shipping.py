"""Submissions and exercise folders travel to Dask workers as content: what arrives is what was sent."""

from __future__ import annotations

import io
import zipfile

import pytest

from grader.judging import submissions
from grader.bulk import shipping


def test_a_one_file_submission_arrives_under_its_own_name(tmp_path):
    source = tmp_path / "sent" / "alice.py"
    source.parent.mkdir()
    source.write_text("def minimax(node, max_depth, player_a_moves):\n    return 7\n")
    parcel = shipping.pack_submission(source)
    assert parcel == shipping.Parcel("alice.py", False, (("alice.py", source.read_bytes()),))
    (tmp_path / "worker").mkdir()
    arrived = submissions.load(shipping.unpack_submission(parcel, tmp_path / "worker"))
    original = submissions.load(source)
    assert arrived.problem is None and arrived.path.name == "alice.py"
    assert arrived.sha256 == original.sha256 and arrived.entry_file.name == original.entry_file.name


def test_a_folder_travels_without_its_tests_and_keeps_its_entry(tmp_path):
    folder = tmp_path / "sent" / "bob"
    folder.mkdir(parents=True)
    (folder / "helpers.py").write_text("X = 1\n")
    (folder / "solution.py").write_text("from helpers import X\ndef minimax(n, d, p):\n    return X\n")
    (folder / "test_mine.py").write_text("import pytest\n")
    (folder / "notes.txt").write_text("not code\n")
    parcel = shipping.pack_submission(folder)
    assert parcel.folder and parcel.name == "bob"
    assert [name for name, _ in parcel.files] == ["helpers.py", "solution.py"]
    (tmp_path / "worker").mkdir()
    arrived = submissions.load(shipping.unpack_submission(parcel, tmp_path / "worker"))
    assert arrived.sha256 == submissions.load(folder).sha256
    assert arrived.entry_file.name == "solution.py" and arrived.path.name == "bob"


def test_a_submission_that_cannot_be_read_any_more_is_one_clear_error(tmp_path):
    with pytest.raises(shipping.ShippingError, match="no such file"):
        shipping.pack_submission(tmp_path / "gone.py")


@pytest.mark.parametrize("name", ["../evil.py", "a/b.py", "..", ""])
def test_names_that_would_leave_the_folder_are_refused(tmp_path, name):
    parcel = shipping.Parcel("x", True, ((name, b"print(1)\n"),))
    with pytest.raises(shipping.ShippingError, match="refusing"):
        shipping.unpack_submission(parcel, tmp_path)
    assert list(tmp_path.iterdir()) in ([], [tmp_path / "x"])


def test_a_backslash_is_part_of_a_name_where_it_is_no_separator(tmp_path, monkeypatch):
    """The local pool on POSIX grades ``we\\ird.py``; a POSIX worker does too. A Windows worker (its separators
    forced here) refuses it, as its own local pool could not have read it."""
    source = tmp_path / "sent" / "we\\ird.py"
    source.parent.mkdir()
    source.write_text("def minimax(node, max_depth, player_a_moves):\n    return 7\n")
    parcel = shipping.pack_submission(source)
    (tmp_path / "worker").mkdir()
    arrived = submissions.load(shipping.unpack_submission(parcel, tmp_path / "worker"))
    assert arrived.problem is None and arrived.path.name == "we\\ird.py"
    assert arrived.sha256 == submissions.load(source).sha256
    monkeypatch.setattr(shipping, "_separators", lambda: ("/", "\\"))
    (tmp_path / "windows").mkdir()
    with pytest.raises(shipping.ShippingError, match="refusing"):
        shipping.unpack_submission(parcel, tmp_path / "windows")
    assert list((tmp_path / "windows").iterdir()) == []


def test_a_windows_worker_refuses_a_name_with_a_drive(monkeypatch):
    """The 122nd helper: on Windows ``folder / "C:x.py"`` is a path on drive C:, outside the folder."""
    import os

    monkeypatch.setattr(os, "name", "nt")
    assert ":" in shipping._separators()
    with pytest.raises(shipping.ShippingError, match="refusing"):
        shipping._plain_name("C:x.py")


def test_an_exercise_folder_round_trips_without_caches(tmp_path):
    folder = tmp_path / "mine"
    (folder / "exercises" / "ex1").mkdir(parents=True)
    (folder / "exercises" / "ex1" / "exercise.toml").write_text('id = "ex1"\n')
    (folder / "exercises" / "ex1" / "__pycache__").mkdir()
    (folder / "exercises" / "ex1" / "__pycache__" / "x.pyc").write_bytes(b"\0")
    (folder / "reference").mkdir()
    (folder / "reference" / "ex1.py").write_text("ANSWER = 7\n")
    data = shipping.zip_folder(folder)
    assert data == shipping.zip_folder(folder)  # the same bytes every time: the job's name depends on them
    out = shipping.unzip_folder(data, tmp_path / "worker" / "ex")
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert files == ["exercises/ex1/exercise.toml", "reference/ex1.py"]
    assert (out / "reference" / "ex1.py").read_text() == "ANSWER = 7\n"


def test_an_archive_member_leaving_the_folder_is_refused(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("../outside.py", "x = 1\n")
    with pytest.raises(shipping.ShippingError, match="refusing"):
        shipping.unzip_folder(buffer.getvalue(), tmp_path / "in")
    assert not (tmp_path / "outside.py").exists()
