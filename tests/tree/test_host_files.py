"""Reading host memory files (tree.host_files): bounded, no symlink followed, bad input skipped with a reason."""

from __future__ import annotations

import os
from pathlib import Path

from mimomem.tree import host_files


def test_listing_skips_what_it_must_not_read_and_says_why(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    (folder / "team").mkdir(parents=True)
    (folder / "a.md").write_text("a")
    (folder / "team" / "b.md").write_text("b")
    (folder / "team" / "deep").mkdir()
    (folder / ".hidden.md").write_text("h")
    (folder / "notes.txt").write_text("t")
    outside = tmp_path / "secret.md"
    outside.write_text("outside the folder")
    (folder / "link.md").symlink_to(outside)
    (folder / "linkdir").symlink_to(tmp_path)
    os.mkfifo(folder / "pipe.md")
    bad = os.fsencode(str(folder)) + b"/bad-\xff.md"
    with open(bad, "wb") as handle:
        handle.write(b"x")
    found, skipped = host_files.listing(str(folder))
    assert found == [str(folder / "a.md"), str(folder / "team" / "b.md")]
    reasons = {Path(s.path).name: s.reason for s in skipped}
    assert reasons["link.md"].startswith("symlink")
    assert reasons["linkdir"].startswith("symlink")
    assert reasons[".hidden.md"] == "hidden"
    assert reasons["notes.txt"] == "not Markdown"
    assert reasons["pipe.md"] == "not a regular file"
    assert reasons["deep"].startswith("a folder two levels down")
    assert any("UTF-8" in s.reason for s in skipped)


def test_a_symlinked_folder_is_not_read(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "a.md").write_text("a")
    (tmp_path / "memory").symlink_to(real)
    found, skipped = host_files.listing(str(tmp_path / "memory"))
    assert found == [] and skipped[0].reason.startswith("the memory folder is a symlink")
    assert host_files.listing(str(tmp_path / "missing")) == ([], [])


def test_listing_is_capped(tmp_path: Path) -> None:
    for i in range(12):
        (tmp_path / f"n{i:02}.md").write_text("x")
    found, skipped = host_files.listing(str(tmp_path), limit=10)
    assert len(found) == 10 and len(skipped) == 2


def test_read_text_caps_size_and_never_follows_a_symlink(tmp_path: Path) -> None:
    big = tmp_path / "big.md"
    big.write_bytes(b"x" * (host_files.MAX_BYTES + 10))
    text, problem = host_files.read_text(str(big))
    assert len(text) == host_files.MAX_BYTES and "only the first" in problem
    (tmp_path / "link.md").symlink_to(big)
    try:
        host_files.read_text(str(tmp_path / "link.md"))
    except OSError:
        pass
    else:
        raise AssertionError("a symlink was read")
    (tmp_path / "latin1.md").write_bytes("caf\xe9 端口".encode("latin-1", "replace"))
    assert "\ufffd" in host_files.read_text(str(tmp_path / "latin1.md"))[0]


def test_parse_reads_the_frontmatter_and_survives_a_broken_one() -> None:
    good = host_files.parse(
        "/m/port.md", "---\nname: db-port\ndescription: the port\nmetadata:\n  type: project\n---\n\nPort 6439.\n"
    )
    assert (good.name, good.description, good.type, good.body.strip(), good.problem) == (
        "db-port",
        "the port",
        "project",
        "Port 6439.",
        "",
    )
    broken = host_files.parse("/m/port.md", "---\nname: [unclosed\n---\nPort 6439.\n")
    assert broken.name == "port" and "Port 6439." in broken.body and "frontmatter not read" in broken.problem
    unterminated = host_files.parse("/m/x.md", "---\nname: x\nno end")
    assert "no end" in unterminated.body and unterminated.problem
    plain = host_files.parse("/m/plain.md", "just text")
    assert (plain.name, plain.body, plain.problem) == ("plain", "just text", "")
    odd = host_files.parse("/m/odd.md", "---\n- a list\n---\nbody\n")
    assert odd.body.strip() == "body" and odd.problem


def test_index_gauge_counts_lines_then_characters_as_claude_code_does() -> None:
    lines = [f"- [Fact {i}](fact_{i}.md) — hook {i}" for i in range(1, 251)]
    gauge = host_files.index_gauge("/m/MEMORY.md", "\n".join(lines) + "\n")
    assert (gauge.lines, gauge.loaded_lines, gauge.over) == (250, 200, True)
    assert gauge.past[0] == (201, "Fact 201", "fact_201.md") and len(gauge.past) == 50
    long_lines = ["- " + "长" * 300 for _ in range(100)]  # 100 lines, 30,200 characters: cut by size
    gauge = host_files.index_gauge("/m/MEMORY.md", "\n".join(long_lines))
    assert gauge.lines == 100 and gauge.loaded_lines == 82 and gauge.over
    assert len(gauge.past) == 18
    small = host_files.index_gauge("/m/MEMORY.md", "# Index\n- [A](a.md) — a\n")
    assert not small.over and small.past == ()


def test_gemini_saved_section_only() -> None:
    text = "# My rules\n- be terse\n\n## Gemini Added Memories\n- the API port is 8081\n- 测试用 pytest\n"
    text += "\n## Other\n- x\n"
    saved, line = host_files.gemini_saved(text)
    assert "8081" in saved and "测试用" in saved and "be terse" not in saved and "- x" not in saved
    assert line == 5
    assert host_files.gemini_saved("# nothing saved\n") == ("", 0)
