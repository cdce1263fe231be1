#!/usr/bin/env python3
"""Checks that ctnn's headers depend on each other in one direction (docs/design.md §7).

Each header of include/ctnn belongs to a layer (its first folder; the files at the top level have layers of
their own). A layer may include only the layers listed for it in ALLOWED: `ir` at the bottom; `reference`
(the reference kernels, kernel/reference, and the kernel interface they use) on `ir`; `ops` (the op
descriptors) on those two; `memory` and `kernel` on `ops` and below; `pass` on those; `print` (the module
printer, whose op fields come from the descriptors) on `ops` and below; `runtime` on top; the
frontends on `ops` and below; `compile.hpp` and `ctnn.hpp` (the public entry points) on everything. Besides include arrows, two more rules:

* a `detail` folder or namespace is private to its layer: no file outside `pass/` includes `pass/detail/...`
  or names `pass::detail::` (likewise for the other layers, and for the frontends among themselves);
* the tools (tools/*.cpp) use the public API only: no `ctnn/**/detail/` header, no `::detail::` name.

The dependencies that break these rules today are listed in KNOWN_DEBT with the words of the issue that
asks to remove them. The check fails on any arrow that is neither allowed nor listed, and notes (without
failing) a listed one that has disappeared, so that the list can shrink.

Usage: check_layering.py [--root DIR]      check the repository (default: this script's parent folder)
       check_layering.py --self-test       check that the checker finds a planted backward arrow
Standard library only; exit status 0 when clean, 1 on a new violation, 2 on a usage error.
"""
import argparse
import os
import re
import sys
import tempfile

# Layer of a header, from its path relative to include/ctnn.
TOP_LEVEL_LAYERS = {
    "version.hpp": "version",
    "errors.hpp": "errors",
    "compile.hpp": "api",
    "ctnn.hpp": "api",
    "target.hpp": "ir",  # the targets' instruction sets: vocabulary that compile options and passes share
}

# The reference kernels and the kernel interface they use, below the op descriptors (ops/), which name them.
REFERENCE_HEADERS = {"kernel/params.hpp", "kernel/requant_arrays.hpp", "kernel/row_source.hpp"}

# Which layers each layer may include (itself always). `support` is include/ctnn/detail: small helpers
# (constexpr math, TFLite's quantization arithmetic, index folds) shared by the layers above ir.
ALLOWED = {
    "version": set(),
    "ir": {"version"},
    "support": {"ir"},
    "reference": {"ir", "support"},
    "ops": {"ir", "support", "reference"},
    "memory": {"ir", "support", "reference", "ops"},
    "kernel": {"ir", "support", "reference", "ops"},
    "errors": {"ir"},
    "pass": {"ir", "support", "reference", "ops", "memory", "kernel", "errors"},
    "frontend": {"ir", "support", "reference", "ops", "errors"},
    "print": {"ir", "support", "reference", "ops"},
    "runtime": {"ir", "support", "reference", "ops", "memory", "kernel", "pass", "errors", "version", "print"},
    "api": {"ir", "support", "reference", "ops", "memory", "kernel", "pass", "runtime", "frontend", "errors", "version", "print"},
}

# Namespaces whose `detail` belongs to one folder (a frontend's detail is private to that frontend).
DETAIL_OWNERS = {
    "pass": "pass/",
    "memory": "memory/",
    "kernel": "kernel/",
    "ops": "ops/",
    "runtime": "runtime/",
    "onnx": "frontend/onnx",
    "tflite": "frontend/tflite",
    "dsl": "frontend/dsl",
}

# (file, what it depends on) -> why it is still there. `what` is an included header (relative to
# include/) or a `namespace::detail` name. Remove an entry when its arrow is gone.
KNOWN_DEBT = {
}

INCLUDE = re.compile(r'^\s*#\s*include\s*<(ctnn/[^>]+)>', re.MULTILINE)
DETAIL_USE = re.compile(r'\b(?:(ctnn)::|(\w+)::)detail::')
LINE_COMMENT = re.compile(r'//[^\n]*')


def layer_of(header):
    """The layer of a path relative to include/ctnn (e.g. 'pass/plan_memory.hpp' -> 'pass')."""
    if "/" not in header:
        return TOP_LEVEL_LAYERS.get(header, "api")
    if header.startswith("kernel/reference/") or header in REFERENCE_HEADERS:
        return "reference"
    folder = header.split("/", 1)[0]
    return "support" if folder == "detail" else folder


def detail_owner_violation(relative, namespace):
    """The owning folder when `relative` (path under include/ctnn) may not name namespace::detail."""
    owner = DETAIL_OWNERS.get(namespace)
    if owner is None or relative.startswith(owner):
        return None
    return owner


def scan(root):
    """Yields (file, dependency, message) for every dependency that breaks a rule."""
    include_root = os.path.join(root, "include", "ctnn")
    for folder, _, files in sorted(os.walk(include_root)):
        for name in sorted(files):
            if not name.endswith(".hpp"):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, include_root).replace(os.sep, "/")
            source = open(path, encoding="utf-8").read()
            layer = layer_of(relative)
            for included in INCLUDE.findall(source):
                target = included[len("ctnn/"):]
                target_layer = layer_of(target)
                if target_layer != layer and target_layer not in ALLOWED.get(layer, set()):
                    yield (f"include/ctnn/{relative}", included,
                           f"layer '{layer}' may not include layer '{target_layer}'")
                elif "/detail/" in target and target_layer != "support" and not relative.startswith(target.split("/detail/")[0] + "/"):
                    yield (f"include/ctnn/{relative}", included, "includes another layer's detail header")
            code = LINE_COMMENT.sub("", source)
            for ctnn_ns, namespace in set(DETAIL_USE.findall(code)):
                if ctnn_ns:
                    continue  # ctnn::detail is the shared support layer
                owner = detail_owner_violation(relative, namespace)
                if owner is not None:
                    yield (f"include/ctnn/{relative}", f"{namespace}::detail",
                           f"names {namespace}::detail, which is private to {owner}")
    tools = os.path.join(root, "tools")
    if os.path.isdir(tools):
        for name in sorted(os.listdir(tools)):
            if not name.endswith((".cpp", ".hpp")):
                continue
            path = os.path.join(tools, name)
            source = open(path, encoding="utf-8").read()
            for included in INCLUDE.findall(source):
                if "/detail/" in included:
                    yield (f"tools/{name}", included, "a tool includes a detail header (tools use the public API)")
            code = LINE_COMMENT.sub("", source)
            for ctnn_ns, namespace in set(DETAIL_USE.findall(code)):
                spelled = f"{ctnn_ns or namespace}::detail"
                yield (f"tools/{name}", spelled, f"a tool names {spelled} (tools use the public API)")


def check(root, out=sys.stdout):
    found = sorted(set(scan(root)))
    new = [(f, d, why) for f, d, why in found if (f, d) not in KNOWN_DEBT]
    present = {(f, d) for f, d, _ in found}
    for f, d, why in new:
        print(f"NEW {f} -> {d}: {why}", file=out)
    for (f, d), why in sorted(KNOWN_DEBT.items()):
        if (f, d) in present:
            print(f"debt {f} -> {d} ({why})", file=out)
        else:
            print(f"note: {f} -> {d} is gone: remove it from KNOWN_DEBT in scripts/check_layering.py", file=out)
    print(f"{len(new)} new violation(s), {len(present & set(KNOWN_DEBT))} known debt", file=out)
    return 1 if new else 0


def self_test():
    """The checker must flag a planted backward arrow, a detail leak and a tool's detail use."""
    planted = {
        "include/ctnn/ir/a.hpp": "#include <ctnn/memory/b.hpp>\n",          # ir on memory: backward
        "include/ctnn/memory/b.hpp": "#include <ctnn/ir/a.hpp>\n",          # allowed
        "include/ctnn/kernel/c.hpp": "int x = ctnn::pass::detail::f();\n",   # another layer's detail
        "include/ctnn/pass/detail/d.hpp": "// pass::detail::g() in a comment is fine\n",
        "include/ctnn/frontend/e.hpp": "#include <ctnn/pass/detail/d.hpp>\n",  # frontend on pass
        "tools/t.cpp": "#include <ctnn/ir/a.hpp>\nint y = ctnn::detail::h();\n",
    }
    expected = {
        ("include/ctnn/ir/a.hpp", "ctnn/memory/b.hpp"),
        ("include/ctnn/kernel/c.hpp", "pass::detail"),
        ("include/ctnn/frontend/e.hpp", "ctnn/pass/detail/d.hpp"),
        ("tools/t.cpp", "ctnn::detail"),
    }
    with tempfile.TemporaryDirectory() as root:
        for relative, text in planted.items():
            path = os.path.join(root, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        found = {(f, d) for f, d, _ in scan(root)}
    if found != expected:
        print(f"self-test FAILED: found {sorted(found)}, expected {sorted(expected)}")
        return 1
    print(f"self-test passed: {len(expected)} planted violations found, nothing else")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not os.path.isdir(os.path.join(args.root, "include", "ctnn")):
        print(f"check_layering.py: {args.root} has no include/ctnn", file=sys.stderr)
        return 2
    return check(args.root)


if __name__ == "__main__":
    sys.exit(main())
