#!/usr/bin/env python3
"""Checks that .tpy files are valid Python 3 syntax (DESIGN.md section 2).

    python3 tools/check_python_syntax.py DIR_OR_FILE...

Every .tpy file under the given directories (and every file given directly)
must parse with Python's own `ast.parse`, so editors, highlighters and
formatters work on it. A file whose purpose is to be invalid Python (a golden
test of a lexer or parser error) says so with a header line

    # PYTHON-SYNTAX: invalid

in its leading comment block; such a file is skipped, and it is an error if it
does parse (the marker would be stale). Exit status 1 when any file fails.
"""
import ast
import os
import sys
import warnings

MARKER = "# PYTHON-SYNTAX: invalid"


def has_marker(text):
    for line in text.splitlines():
        if not line.startswith("#"):
            return False  # the marker belongs to the leading comment block
        if line.strip() == MARKER:
            return True
    return False


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs.sort()
                files += [os.path.join(root, n) for n in sorted(names) if n.endswith(".tpy")]
        elif os.path.isfile(p):
            files.append(p)
        else:
            print(f"python_syntax: {p}: no such file or directory", file=sys.stderr)
            sys.exit(2)
    return files


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    files = collect(argv)
    checked, skipped, failed = 0, 0, 0
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        text = data.decode("utf-8", "replace")
        invalid_expected = has_marker(text)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # e.g. invalid escape sequences: still valid syntax
                ast.parse(data, filename=path)
            ok = True
            err = None
        except (SyntaxError, ValueError) as e:  # TabError and IndentationError are SyntaxErrors
            ok = False
            err = e
        if invalid_expected:
            skipped += 1
            if ok:
                failed += 1
                print(f"{path}: marked '{MARKER}' but parses as Python; remove the marker")
            continue
        checked += 1
        if not ok:
            failed += 1
            where = f"{path}:{getattr(err, 'lineno', '?')}:{getattr(err, 'offset', '?')}"
            print(f"{where}: not valid Python: {type(err).__name__}: {getattr(err, 'msg', err)}")
    print(f"python_syntax: {checked} parsed, {skipped} marked invalid, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
