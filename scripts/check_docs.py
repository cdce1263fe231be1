#!/usr/bin/env python3
"""Compiles, and runs, the C++ code blocks of README.md and docs/*.md as a reader would copy them.

Every ```cpp block is a complete translation unit unless the line before it (blank lines skipped) is an HTML
comment that marks it, invisible on the rendered page:

    <!-- doc-test: fragment -->              part of a larger program: not compiled (say why in the text)
    <!-- doc-test: model NAME=path ... -->   compile it with <ctnn/models/NAME.hpp> generated from the
                                             repository file `path` (as ctnn_add_model does)
    <!-- doc-test: include DIR ... -->       compile it with the repository folders DIR on the include path
                                             (e.g. examples/digits for its digits_model.hpp)

A block with `int main` is linked and run (it must exit 0); the others are compiled as they are (-c). The
flags are those of a user's build: -std=c++20 -Wall -Wextra -Wpedantic -Werror and ctnn's include directory.

    python3 scripts/check_docs.py --cxx g++ --build-dir build/docs [--list] [files...]

Prints one line per block and ends with `docs: N compiled (R run), F fragments, X failed`; exits 1 on a
failure. Run by the ctest `docs_code_blocks`.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARK = re.compile(r"<!--\s*doc-test:\s*(.*?)\s*-->")


@dataclass
class Block:
    doc: Path
    line: int
    code: str
    fragment: bool = False
    models: dict[str, str] = field(default_factory=dict)
    includes: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"


def blocks_of(doc: Path) -> list[Block]:
    lines = doc.read_text().splitlines()
    found, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "```cpp":
            start = i
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"), len(lines))
            block = Block(doc, start + 1, "\n".join(lines[start + 1:end]) + "\n")
            before = next((lines[j] for j in range(start - 1, -1, -1) if lines[j].strip()), "")
            mark = MARK.search(before)
            if mark:
                words = mark.group(1).split()
                if words and words[0] == "fragment":
                    block.fragment = True
                elif words and words[0] == "model":
                    for spec in words[1:]:
                        name, _, path = spec.partition("=")
                        block.models[name] = path
                elif words and words[0] == "include":
                    block.includes = words[1:]
                else:
                    sys.exit(f"check_docs: {doc}:{start}: unknown doc-test mark '{mark.group(1)}'")
            found.append(block)
            i = end
        i += 1
    return found


def run(command: list[str], cwd: Path | None = None) -> tuple[int, str]:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    return done.returncode, (done.stdout + done.stderr).strip()


def check(block: Block, cxx: str, build: Path, flags: list[str]) -> tuple[bool, str]:
    stem = re.sub(r"[^A-Za-z0-9]+", "_", block.label)
    work = build / stem
    (work / "ctnn/models").mkdir(parents=True, exist_ok=True)
    for name, path in block.models.items():
        model = ROOT / path
        if not model.exists():
            return False, f"model file {path} does not exist"
        status, out = run(["cmake", f"-DCTNN_MODEL_FILE={model}", f"-DCTNN_MODEL_HEADER={work}/ctnn/models/{name}.hpp",
                           f"-DCTNN_MODEL_NAME={name}", "-DCTNN_MODEL_NAMESPACE=ctnn::models",
                           "-P", str(ROOT / "cmake/ctnnAddModel.cmake")])
        if status != 0:
            return False, out
    source = work / "block.cpp"
    source.write_text(block.code)
    has_main = re.search(r"\bint\s+main\s*\(", block.code) is not None
    target = work / ("block" if has_main else "block.o")
    command = [cxx, "-std=c++20", "-Wall", "-Wextra", "-Wpedantic", "-Werror", f"-I{ROOT / 'include'}", f"-I{work}",
               *(f"-I{ROOT / d}" for d in block.includes), *flags, *([] if has_main else ["-c"]), str(source), "-o", str(target)]
    status, out = run(command)
    if status != 0:
        return False, out
    if has_main:
        status, out = run([str(target)], cwd=work)
        if status != 0:
            return False, f"exit status {status}\n{out}"
        return True, "compiled and run"
    return True, "compiled"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--cxx", default="g++")
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build/docs")
    parser.add_argument("--flag", action="append", default=[], help="an extra compiler flag (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the blocks and their marks only")
    args = parser.parse_args()
    docs = [f.resolve() for f in args.files] or [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    blocks = [b for doc in docs for b in blocks_of(doc)]
    compiled = ran = fragments = failed = 0
    for block in blocks:
        if block.fragment:
            fragments += 1
            print(f"  fragment  {block.label}")
            continue
        if args.list:
            print(f"  block     {block.label}" + (f" (models {block.models})" if block.models else ""))
            continue
        ok, what = check(block, args.cxx, args.build_dir.resolve(), args.flag)
        if ok:
            compiled += 1
            ran += what == "compiled and run"
            print(f"  ok        {block.label}: {what}")
        else:
            failed += 1
            print(f"  FAILED    {block.label}:\n" + "\n".join("      " + l for l in what.splitlines()[:40]))
    print(f"docs: {compiled} compiled ({ran} run), {fragments} fragments, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
