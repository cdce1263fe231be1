#!/usr/bin/env python3
"""Checks that scripts/install_deps.sh installs everything the build and the test command call.

A fresh Debian 12 has git, g++ and cmake and nothing else ctnn needs; a developer's machine has much more, so a
green run there can hide a missing install step (numpy and onnx once stopped the configure step of a fresh
clone). This script reads what the build calls and compares it with install_deps.sh's PACKAGES list:

* programs: every `find_program(...)` name and `find_package(Python3 ...)` in the CMake files, and every
  command that scripts/test.sh, scripts/demo.sh and .ci/run run directly;
* Python modules: every import (also inside functions) of every `.py` file that a CMake file or those scripts
  name outside a comment, and of the repository's own modules those files import.

Each is mapped to its Debian package (the table below; a Python module `m` is `python3-m` unless the table
says otherwise) and must be in PACKAGES. Prints what it checked and exits 1 naming each missing package and
the file that needs it. Run by the ctest `fresh_machine_dependencies`; stdlib only.

    python3 scripts/check_deps.py [repository root]
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

# Program (as the build names it) -> the Debian package that provides it. A name not listed here is an
# error: add it with its package, and the package to install_deps.sh.
PROGRAM_PACKAGES = {
    "cmake": "cmake", "ctest": "cmake", "ninja": "ninja-build",
    "g++": "g++", "gcc": "gcc", "c++": "g++",
    "clang": "clang", "clang++": "clang",
    "arm-none-eabi-g++": "gcc-arm-none-eabi", "arm-none-eabi-gcc": "gcc-arm-none-eabi",
    # binutils-arm-none-eabi is a dependency of gcc-arm-none-eabi
    "arm-none-eabi-objcopy": "gcc-arm-none-eabi", "arm-none-eabi-objdump": "gcc-arm-none-eabi",
    "arm-none-eabi-size": "gcc-arm-none-eabi", "arm-none-eabi-nm": "gcc-arm-none-eabi",
    "qemu-system-arm": "qemu-system-arm",
    "python3": "python3",
    "chromium": "chromium",
    "objcopy": "binutils",  # a dependency of g++
    "git": "git", "awk": "mawk", "tee": "coreutils", "sed": "sed", "grep": "grep",
}
# Python modules whose Debian package is not python3-<module>.
MODULE_PACKAGES = {"sklearn": "python3-sklearn", "yaml": "python3-yaml", "google": "python3-protobuf"}
# Programs that are part of every Debian system (Essential: yes) or of the shell itself.
ESSENTIAL = {"bash", "sh", "env", "cd", "echo", "printf", "exec", "set", "awk", "tee", "sed", "grep", "id",
             "command", "dpkg-query", "apt-get", "sudo", "mktemp", "cat", "rm", "mkdir", "true", "false"}

CMAKE_COMMENT = re.compile(r"(?<![\\\"])#.*$")
FIND_PROGRAM = re.compile(r"find_program\s*\(\s*(\w+)\s+([^)]*)\)", re.S)
FIND_PYTHON = re.compile(r"find_package\s*\(\s*Python3?\b")
PY_FILE = re.compile(r"[A-Za-z0-9_./${}-]*?([A-Za-z0-9_-]+\.py)\b")
PROGRAM_KEYWORDS = {"NAMES", "PATHS", "HINTS", "NO_DEFAULT_PATH", "REQUIRED", "DOC", "NAMES_PER_DIR",
                    "PATH_SUFFIXES", "NO_CACHE"}


def install_list(root: Path) -> set[str]:
    text = (root / "scripts/install_deps.sh").read_text()
    block = re.search(r"^PACKAGES=\((.*?)^\)", text, re.S | re.M)
    if not block:
        sys.exit("check_deps: no PACKAGES=( ... ) list in scripts/install_deps.sh")
    words = []
    for line in block.group(1).splitlines():
        words += line.split("#", 1)[0].split()
    return set(words)


def uncommented_cmake(path: Path) -> str:
    return "\n".join(CMAKE_COMMENT.sub("", line) for line in path.read_text().splitlines())


def uncommented_shell(path: Path) -> str:
    return "\n".join(line.split(" #", 1)[0] for line in path.read_text().splitlines()
                     if not line.lstrip().startswith("#"))


def programs_of_cmake(text: str) -> set[str]:
    found = set()
    for _, args in FIND_PROGRAM.findall(text):
        words = args.split()
        names = words[words.index("NAMES") + 1:] if "NAMES" in words else words[:1]
        for word in names:
            if word in PROGRAM_KEYWORDS:
                break
            if "${" not in word:  # a name built from a variable (a toolchain prefix) is checked as its plain form
                found.add(word.strip('"'))
    if FIND_PYTHON.search(text):
        found.add("python3")
    return found


def programs_of_shell(text: str) -> set[str]:
    # The first word of each simple command that names a program by itself (not a variable or a path).
    found = set()
    for line in text.splitlines():
        for part in re.split(r"\|\||&&|\||;|\$\(|\bthen\b|\bdo\b|\belse\b", line):
            words = part.strip().split()
            if not words:
                continue
            word = words[0]
            if word in ("if", "while", "until", "!", "for", "case", "function", "local", "return", "exit",
                        "fi", "done", "esac", "}", "{", "((", "[[", "]]", "shift") or word.startswith(("$", "\"", "'", "(", "[", "-")):
                continue
            if re.fullmatch(r"[a-z][a-z0-9+._-]*", word) and "=" not in word and not word.endswith(")"):
                found.add(word)
    return found


def imports_of(path: Path, repo_modules: dict[str, Path], seen: set[Path]) -> set[str]:
    if path in seen:
        return set()
    seen.add(path)
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module.split(".")[0])
    third_party = set()
    for module in modules:
        if module in sys.stdlib_module_names or module == "__future__":
            continue
        if module in repo_modules:
            third_party |= imports_of(repo_modules[module], repo_modules, seen)
        else:
            third_party.add(module)
    return third_party


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent).resolve()
    skip = {"build", ".git"}
    files = [p for p in root.rglob("*") if p.is_file() and not skip & set(p.relative_to(root).parts)]
    cmake_files = [p for p in files if p.name == "CMakeLists.txt" or p.suffix == ".cmake"]
    shell_files = [root / f for f in ("scripts/test.sh", "scripts/demo.sh", ".ci/run") if (root / f).exists()]
    python_files: dict[str, list[Path]] = {}
    for p in files:
        if p.suffix == ".py":
            python_files.setdefault(p.name, []).append(p)
    repo_modules = {p.stem: p for paths in python_files.values() for p in paths}

    needs: dict[str, set[str]] = {}  # Debian package -> files that need it
    unknown: list[str] = []

    def need(package: str, why: Path) -> None:
        needs.setdefault(package, set()).add(str(why.relative_to(root)))

    called_scripts: dict[Path, Path] = {}
    for path in cmake_files + shell_files:
        text = uncommented_cmake(path) if path in cmake_files else uncommented_shell(path)
        programs = programs_of_cmake(text) if path in cmake_files else programs_of_shell(text)
        for program in sorted(programs):
            if path in shell_files and (program in ESSENTIAL or program not in PROGRAM_PACKAGES):
                continue  # shell built-ins and Essential tools; shell files run the others through find_program
            if program in PROGRAM_PACKAGES:
                need(PROGRAM_PACKAGES[program], path)
            else:
                unknown.append(f"{program} ({path.relative_to(root)})")
        for name in PY_FILE.findall(text):
            candidates = python_files.get(name, [])
            # A name shared by several scripts (run.py): the one beside the CMake file, else all of them.
            beside = [c for c in candidates if c.parent == path.parent]
            for script in beside or candidates:
                called_scripts[script] = path

    for script, caller in sorted(called_scripts.items()):
        need("python3", caller)
        for module in sorted(imports_of(script, repo_modules, set())):
            need(MODULE_PACKAGES.get(module, f"python3-{module}"), script)

    installed = install_list(root)
    print(f"check_deps: install_deps.sh installs {len(installed)} packages")
    print(f"check_deps: {len(called_scripts)} Python scripts called by the build: "
          + ", ".join(str(s.relative_to(root)) for s in sorted(called_scripts)))
    missing = 0
    for package in sorted(needs):
        ok = package in installed or package in ("cmake", "g++", "gcc", "binutils", "git", "mawk", "coreutils", "sed", "grep")
        print(f"  {'ok     ' if ok else 'MISSING'} {package:22} needed by {', '.join(sorted(needs[package]))}")
        missing += not ok
    for entry in unknown:
        print(f"  UNKNOWN program {entry}: add it and its Debian package to PROGRAM_PACKAGES in {Path(__file__).name}")
    if missing or unknown:
        print(f"check_deps: {missing} missing, {len(unknown)} unknown: a fresh Debian 12 would fail; add them to "
              "scripts/install_deps.sh (or make the step skip with a clear message)")
        return 1
    print("check_deps: every program and Python module the build calls is installed by scripts/install_deps.sh")
    return 0


if __name__ == "__main__":
    sys.exit(main())
