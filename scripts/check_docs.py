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

    python3 scripts/check_docs.py --compile-options

checks instead, without compiling anything, that the one list of ctnn::compile's options (the table between
`<!-- compile-options: begin -->` and `<!-- compile-options: end -->` in docs/design.md §0) names exactly the
options the code defines (types tagged `using ctnn_<kind>_option = void;`, ctnn::pipeline, the pools and
the settings of ctnn::patch_execution), and that the places that repeat part of it agree with the code:
the errors of compile.hpp (an unknown option, a patch setting given alone) and of plan_memory's steps
(pass/detail/planning_step.hpp), and docs/memory.md's table of memory options. Ends with
`docs: compile options: N listed, 0 problems`; exits 1 on a problem, which it names. Run by the ctest
`docs_compile_options`.
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


CANONICAL = ROOT / "docs/design.md"
OPTION_NAME = re.compile(r"ctnn::(\w+)\b(?!::)")  # not a namespace: ctnn::memory::...
STRUCT = re.compile(r"\bstruct (\w+)\s*[:{]")  # a definition, not the word in a comment


def code_options() -> dict[str, set[str]]:
    """The options the headers define, by kind: tagged (a `ctnn_<kind>_option` member: top-level options, the
    memory ones among them), pools (inside ctnn::pools<>) and patch settings (inside ctnn::patch_execution<>)."""
    kinds: dict[str, set[str]] = {"top": set(), "memory": set(), "pool": set(), "patch_setting": set()}
    for header in sorted((ROOT / "include/ctnn").rglob("*.hpp")):
        text = header.read_text()
        for tag in re.finditer(r"using ctnn_(\w+)_option = void;", text):
            owner = STRUCT.findall(text[:tag.start()])
            kinds["top"].add(owner[-1])
            if tag.group(1) == "memory":
                kinds["memory"].add(owner[-1])
        for info in re.finditer(r"static constexpr memory::pool_info info\b", text):
            kinds["pool"].add(STRUCT.findall(text[:info.start()])[-1])
        kinds["patch_setting"].update(re.findall(r"struct patch_setting<(\w+)\b", text))
        kinds["top"].update(re.findall(r"struct is_pipeline<(\w+)<Passes\.\.\.>>", text))
    return kinds


def message_names(path: Path, after: str) -> set[str]:
    """The ctnn:: names a static_assert message of `path` gives after the words `after` (up to its `);`)."""
    text = path.read_text()
    start = text.find(after)
    if start < 0:
        return {f"<no message containing '{after}' in {path.relative_to(ROOT)}>"}
    return set(OPTION_NAME.findall(text[start:text.index(");", start)]))


def table_names(path: Path, begin: str, end: str) -> set[str]:
    """The ctnn:: names in the first column of the table between the lines `begin` and `end` of `path`."""
    lines = path.read_text().splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip().startswith(begin)), None)
    if first is None:
        return set()
    names: set[str] = set()
    for line in lines[first + 1:]:
        if line.strip().startswith(end) or not line.startswith("|"):
            break
        names.update(OPTION_NAME.findall(line.split("|")[1]))
    return names


def check_compile_options() -> int:
    code = code_options()
    every = code["top"] | code["pool"] | code["patch_setting"]
    listed = table_names(CANONICAL, "<!-- compile-options: begin -->", "<!-- compile-options: end -->")
    problems = []

    def compare(where: str, names: set[str], expected: set[str], allowed: set[str] | None = None) -> None:
        for name in sorted(expected - names):
            problems.append(f"{where} does not name ctnn::{name}, an option of the code")
        for name in sorted(names - (expected if allowed is None else allowed)):
            problems.append(f"{where} names ctnn::{name}, which is no such option of the code")

    design = f"{CANONICAL.relative_to(ROOT)} (the compile-options table, §0)"
    compare(design, listed, every)
    compare("include/ctnn/compile.hpp's error for an unknown option",
            message_names(ROOT / "include/ctnn/compile.hpp", "an option is not a compile option ("), code["top"])
    compare("include/ctnn/compile.hpp's error for a patch setting given alone",
            message_names(ROOT / "include/ctnn/compile.hpp", "ctnn::streamed_input, ") - {"patch_execution"},
            code["patch_setting"])
    compare("include/ctnn/pass/detail/planning_step.hpp's error",
            message_names(ROOT / "include/ctnn/pass/detail/planning_step.hpp", "is not a memory option"), code["memory"])
    compare("docs/memory.md's table of options", table_names(ROOT / "docs/memory.md", "| option | effect |", "<none>"),
            code["memory"], every)
    for problem in problems:
        print(f"  PROBLEM   {problem}")
    if problems:
        print(f"  (the list is {design}: add or remove the option there and in the places above)")
    print(f"docs: compile options: {len(listed)} listed, {len(problems)} problems")
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--cxx", default="g++")
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build/docs")
    parser.add_argument("--flag", action="append", default=[], help="an extra compiler flag (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the blocks and their marks only")
    parser.add_argument("--compile-options", action="store_true",
                        help="check the list of compile options against the code instead (compiles nothing)")
    args = parser.parse_args()
    if args.compile_options:
        return check_compile_options()
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
