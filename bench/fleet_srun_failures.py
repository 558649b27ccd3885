#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How long a fleet under srun takes to end when a rank dies, hangs or is
stopped, and whether it leaves a report: the srun column of
docs/fleet.md's failure table, measured on a single-node Slurm started
here (as root; munged, slurmctld and slurmd from a temporary directory,
the cluster of tests/integration/fleet/test_slurm.py).

Usage: bench/fleet_srun_failures.py [BUILD_DIR] [RANKS_STOPPED] [ROWS]
  (defaults: build-mpi 4 all; ROWS: hook, outside or all)
Needs an MPI build with the tests (hostbench-faults beside hostbench).
Two kinds of rows:
- with the fault hook (HOSTBENCH_FLEET_FAULT=RANK:POINT[:hang], 2 tasks,
  two cases of timeout = 2s, fleet_timeout = 3s): srun's time from start
  to end, its exit status, and whether rank 0 wrote a report;
- from outside, on the shipped hostbench (RANKS_STOPPED tasks, a case
  of timeout = 8s, fleet_timeout = 10s): kill -9 or kill -STOP of a task
  while its first case runs; the time from the signal to the give-up
  (the line naming the rank) and to srun's end.
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build-mpi")
STOPPED_RANKS = int(sys.argv[2]) if len(sys.argv) > 2 else 4
ROWS = sys.argv[3] if len(sys.argv) > 3 else "all"
HERE = os.path.dirname(os.path.abspath(__file__))
os.environ.setdefault("HB", os.path.join(BUILD, "hostbench"))
os.environ.setdefault("HB_FAULTS", os.path.join(BUILD, "hostbench-faults"))
os.environ.setdefault("HB_SBATCH", os.path.join(
    HERE, "../examples/slurm/hostbench.sbatch"))
sys.path.insert(0, os.path.join(HERE, "../tests/integration/fleet"))
sys.path.insert(0, os.path.join(HERE, "../tests/support"))
os.environ.setdefault("HB_MPIRUN", "mpirun")
os.environ.setdefault("HB_FIXTURE_DIR", BUILD)
import hbtest  # noqa: E402
import test_fleet  # noqa: E402
import test_slurm  # noqa: E402

HB, HB_FAULTS = os.environ["HB"], os.environ["HB_FAULTS"]

# the suites of tests/integration/fleet/test_fleet.py's failure tests:
# two cases of timeout = 2s, fleet_timeout = 3s; a case of timeout = 8s,
# fleet_timeout = 10s
HOOK_SUITE = test_fleet.GLOBAL + test_fleet.FAULT_SUITE
OUTSIDE_SUITE = test_fleet.GLOBAL + test_fleet.FREEZE_SUITE

HOOKS = ["1:init", "1:init:hang", "1:hello", "1:hello:hang", "1:peers",
         "1:agree:hang", "1:clock:hang", "1:case", "1:case:hang",
         "1:result", "1:end", "0:case", "0:case:hang"]


class Step:
    """srun --mpi=pmix of hb on ranks tasks, its stderr read as it comes."""

    def __init__(self, cluster, ranks, suite, hb=HB, fault=None):
        self.out = tempfile.mktemp(suffix=".json")
        self.suite = test_slurm.suite_file(suite)
        env = dict(cluster.env)
        if fault:
            env["HOSTBENCH_FLEET_FAULT"] = fault
        self.start = time.monotonic()
        self.p = subprocess.Popen(
            ["srun", "--mpi=pmix", "--overcommit", "-n", str(ranks), hb,
             "run", self.suite, "--format", "json", "--output", self.out,
             "--no-store"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True)
        self.lines = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.p.stderr:
            self.lines.append((time.monotonic(), line))

    def wait(self, timeout=300):
        try:
            self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        self.end = time.monotonic()
        self.reader.join(timeout=10)
        return self.end - self.start

    def first(self, words):
        for when, line in self.lines:
            if words in line:
                return when
        return None

    def stderr(self):
        return "".join(line for _, line in self.lines)


def hook_row(cluster, fault):
    step = Step(cluster, 2, HOOK_SUITE, hb=HB_FAULTS, fault=fault)
    took = step.wait()
    report = os.path.exists(step.out)
    return (f"| {fault} | {took:.1f} s | exit {step.p.returncode} | "
            f"{'report' if report else 'no report'} |")


def outside_row(cluster, rank, sig):
    step = Step(cluster, STOPPED_RANKS, OUTSIDE_SUITE)
    pids = hbtest.wait_for(lambda: test_slurm.tasks_of(step.suite,
                                                       STOPPED_RANKS),
                           "every task", timeout=120)
    hbtest.wait_for(lambda: test_fleet.in_case(pids[rank]) or
                    step.p.poll() is not None, "in a case", timeout=120)
    time.sleep(0.5)
    os.kill(pids[rank], sig)
    hit = time.monotonic()
    took = step.wait(timeout=120)
    for pid in pids.values():  # a stopped task, should it outlive srun
        for s in (signal.SIGCONT, signal.SIGKILL):
            try:
                os.kill(pid, s)
            except ProcessLookupError:
                pass
    gave = [w for w in (step.first("giving up"), step.first(" lost: "))
            if w is not None]
    name = signal.Signals(sig).name
    gave_text = f"{min(gave) - hit:.1f} s" if gave else "-"
    m = re.search(r"fleet: .*(lost|giving up).*", step.stderr())
    return (f"| rank {rank} {name} in a case, {STOPPED_RANKS} tasks | "
            f"gave up {gave_text} after the signal | srun ended "
            f"{step.end - hit:.1f} s after it (total {took:.1f} s), exit "
            f"{step.p.returncode} | "
            f"{'report' if os.path.exists(step.out) else 'no report'} | "
            f"{m.group(0)[:160] if m else ''} |")


def main():
    test_slurm.skip_unless_slurm()
    with test_slurm.Cluster() as cluster:
        if ROWS in ("hook", "all"):
            print("| fault | srun start to end | status | report |")
            print("|---|---|---|---|")
            for fault in HOOKS:
                print(hook_row(cluster, fault), flush=True)
            print()
        for rank, sig in ((1, signal.SIGKILL), (1, signal.SIGSTOP),
                          (0, signal.SIGKILL), (0, signal.SIGSTOP)):
            if ROWS in ("outside", "all"):
                print(outside_row(cluster, rank, sig), flush=True)


if __name__ == "__main__":
    main()
