"""What the Python test scripts under tests/ that ctest runs with paths share: their
arguments (required options, a fresh work directory) and running a command that must exit
with a given status. A script imports it after putting tests/ on sys.path:

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import script_util
"""
import argparse
import os
import shutil
import subprocess
import sys


def fail(msg):
    """Ends the test: FAIL and why, exit status 1."""
    sys.exit("FAIL: " + msg)


def parse_args(*options):
    """The script's arguments: each of `options` ("--build", "--runtime-lib") is a required
    option with a value (a.build, a.runtime_lib); --work DIR, also required, is emptied and
    made anew."""
    ap = argparse.ArgumentParser()
    for o in options + ("--work",):
        ap.add_argument(o, required=True)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    return a


def run(cmd, expect=0, env=None):
    """subprocess.run(cmd) with its output captured as text; fails the test unless it exits `expect`."""
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != expect:
        fail(f"{' '.join(cmd)} exited {r.returncode}, expected {expect}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    return r
