# SPDX-License-Identifier: Apache-2.0
"""Fleet runs under a single-node Slurm, started here for the test.

Usage: test_slurm.py NAME (environment: HB, HB_FAULTS, HB_FIXTURE_DIR,
HB_SBATCH)
As root, with Debian's slurm-wlm (slurmctld, slurmd, munge) and jq
installed, each test starts munged, slurmctld and slurmd on localhost
from a temporary directory (its own key, sockets, ports and state: no
systemd, nothing of the host's configuration), runs a 2-task fleet with
`srun --mpi=pmix` or the example sbatch script, and stops every daemon it
started, whatever happens. Without them the tests skip.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402

HB = os.environ["HB"]
HB_FAULTS = os.environ["HB_FAULTS"]  # hostbench with the fault hook
SBATCH_SCRIPT = os.environ["HB_SBATCH"]
DAEMONS = ("munged", "slurmctld", "slurmd")
CLIENTS = ("srun", "sbatch", "sinfo", "jq")

SUITE = """[global]
duration = 50ms
repetitions = 2
warmup = 0
timeout = 5s
fleet_timeout = 3s

[memcpy]
target = mem/memcpy
size = 64K

[TCP pair]
target = transfer/tcp
peer = rank-pairs
size = 64K
"""


def sbin(name):
    return shutil.which(name, path="/usr/sbin:/usr/bin:/sbin:/bin")


def pid_in(pidfile):
    """The pid in pidfile, or None while it has none."""
    try:
        with open(pidfile) as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


CONF = """ClusterName=hbtest
SlurmctldHost=localhost(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={d}/munge.sock
CredType=cred/munge
SlurmctldPort={ctld}
SlurmdPort={slurmd}
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=hbnode NodeHostname={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=hb Nodes=hbnode Default=YES MaxTime=UNLIMITED State=UP OverSubscribe=FORCE:4
"""


class Cluster:
    """munged, slurmctld and slurmd from a temporary directory."""

    def __enter__(self):
        self.dir = tempfile.mkdtemp(prefix="hb-slurm-")
        os.chmod(self.dir, 0o755)  # munged wants its socket reachable
        for sub in ("state", "spool"):
            os.mkdir(os.path.join(self.dir, sub))
        key = os.path.join(self.dir, "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o400)
        conf = os.path.join(self.dir, "slurm.conf")
        with open(conf, "w") as f:
            f.write(CONF.format(d=self.dir, ctld=free_port(),
                                slurmd=free_port(),
                                host=socket.gethostname(),
                                cpus=os.cpu_count()))
        self.env = dict(os.environ, SLURM_CONF=conf)
        self.pids = []
        try:
            self._start(key)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _daemon(self, argv, pidfile):
        subprocess.run(argv, check=True, env=self.env, timeout=30,
                       stdout=subprocess.DEVNULL)
        # the daemon creates its pid file, then writes it: wait for the pid
        self.pids.append(hbtest.wait_for(
            lambda: pid_in(pidfile), f"{argv[0]} wrote no pid to {pidfile}",
            timeout=10, interval=0.05))

    def _start(self, key):
        d = self.dir
        self._daemon([sbin("munged"), "--force", f"--socket={d}/munge.sock",
                      f"--key-file={key}", f"--pid-file={d}/munged.pid",
                      f"--log-file={d}/munged.log",
                      f"--seed-file={d}/munged.seed"], f"{d}/munged.pid")
        self._daemon([sbin("slurmctld")], f"{d}/slurmctld.pid")
        self._daemon([sbin("slurmd"), "-N", "hbnode"], f"{d}/slurmd.pid")
        hbtest.wait_for(
            lambda: self.run(["sinfo", "-h", "-o", "%t"],
                             timeout=30).stdout.strip() == "idle",
            lambda: f"the node never came up: {self.logs()}",
            timeout=30, interval=0.2)

    def logs(self):
        out = ""
        for name in ("slurmctld.log", "slurmd.log"):
            try:
                with open(os.path.join(self.dir, name)) as f:
                    out += f"{name}: " + f.read()[-2000:]
            except OSError:
                pass
        return out

    def __exit__(self, *exc):
        for pid in reversed(self.pids):  # slurmd, slurmctld, munged
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
            if not hbtest.poll(lambda: not alive(pid), 10, 0.05):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(self.dir, ignore_errors=True)
        return False

    def run(self, argv, env=None, timeout=120):
        return subprocess.run(argv, env=dict(self.env, **(env or {})),
                              capture_output=True, text=True,
                              timeout=timeout)


def suite_file(text=SUITE):
    f = tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False)
    f.write(text)
    f.close()
    return f.name


def skip_unless_slurm():
    missing = [n for n in DAEMONS if not sbin(n)]
    missing += [n for n in CLIENTS if not shutil.which(n)]
    if missing or os.geteuid() != 0:
        raise hbtest.Skip(f"needs root and {', '.join(missing) or 'slurm'}")


def test_srun_runs_a_two_task_fleet_over_pmix():
    skip_unless_slurm()
    out = tempfile.mktemp(suffix=".json")
    with Cluster() as c:
        p = c.run(["srun", "--mpi=pmix", "-n", "2", HB, "run", suite_file(),
                   "--format", "json", "--output", out])
        jobs = c.run(["scontrol", "show", "jobs"]).stdout
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    with open(out) as f:
        doc = json.load(f)
    expect([h["status"] for h in doc["fleet"]["hosts"]] == ["ok", "ok"],
           f"hosts {doc['fleet']['hosts']}")
    expect(len(doc["results"]) == 4 and
           all(r["status"] == "ok" for r in doc["results"]),
           f"results {doc['results']}")
    # the report names Slurm's job and the node of each rank
    job, host = doc["fleet"]["job"], doc["fleet"]["hosts"][0]["host"]
    expect(job and f"JobId={job} " in jobs, f"job {job} in {jobs[:300]}")
    expect(doc["fleet"]["nodes"] == [{"host": host, "ranks": [0, 1]}],
           f"nodes {doc['fleet']['nodes']}")
    text = subprocess.run([HB, "report", out], capture_output=True,
                          text=True, timeout=60).stdout
    expect(f"Job   : {job}\n" in text and
           f"Nodes : 1 node: {host} (ranks 0-1)" in text, text)


def test_sbatch_script_exits_0_on_a_good_run_and_1_on_a_lost_rank():
    skip_unless_slurm()
    results = tempfile.mkdtemp()
    env = {"HOSTBENCH": HB, "HOSTBENCH_RESULTS": results,
           "HOSTBENCH_JOURNALS": results}
    with Cluster() as c:
        good = c.run(["sbatch", "--wait", "--time=5", "-n", "2",
                   "--ntasks-per-node=2", "-o",
                      f"{results}/good.log", SBATCH_SCRIPT, suite_file()],
                     env=env)
        # rank 1 hangs in its first case: rank 0 reports it lost
        bad = c.run(["sbatch", "--wait", "--time=5", "-n", "2",
                   "--ntasks-per-node=2", "-o",
                     f"{results}/bad.log", "--export",
                     "ALL,HOSTBENCH_FLEET_FAULT=1:case:hang",
                     SBATCH_SCRIPT, suite_file()],
                    env=dict(env, HOSTBENCH=HB_FAULTS))
    with open(f"{results}/good.log") as f:
        good_log = f.read()
    with open(f"{results}/bad.log") as f:
        bad_log = f.read()
    expect(good.returncode == 0, f"good: exit {good.returncode}: {good_log}")
    expect(bad.returncode == 1, f"bad: exit {bad.returncode}: {bad_log}")
    expect("rank 1 (" in bad_log and ": lost: no result within" in bad_log,
           f"the script names the lost rank: {bad_log}")


def test_under_srun_a_killed_task_ends_the_step_and_journals_keep_results():
    skip_unless_slurm()
    results = tempfile.mkdtemp()
    env = {"HOSTBENCH": HB_FAULTS, "HOSTBENCH_RESULTS": results,
           "HOSTBENCH_JOURNALS": results}
    with Cluster() as c:
        start = time.monotonic()
        # rank 1 dies in the second case (its first is journaled)
        p = c.run(["sbatch", "--wait", "--time=5", "-n", "2",
                   "--ntasks-per-node=2", "-o", f"{results}/log",
                   "--export", "ALL,HOSTBENCH_FLEET_FAULT=1:result",
                   SBATCH_SCRIPT, suite_file()], env=env)
        took = time.monotonic() - start
    with open(f"{results}/log") as f:
        log = f.read()
    expect(p.returncode == 1, f"exit {p.returncode}: {log}")
    expect("no fleet report" in log, log)
    # the journals, merged: marked incomplete, naming the dead task
    (partial,) = [n for n in os.listdir(results)
                  if n.endswith("-incomplete.json")]
    with open(os.path.join(results, partial)) as f:
        doc = json.load(f)
    expect(doc["incomplete"] is True and doc["dead_tasks"] == "1" and
           doc["ranks"] == [0, 1], f"{partial}: {doc}")
    expect(all(h["report"]["results"][0]["status"] == "ok"
               for h in doc["hosts"]), f"each rank's first case: {doc}")
    expect("task(s) 1 died" in log, log)
    journals = sorted(n for n in os.listdir(results) if n.endswith(
        ".journal"))
    expect(len(journals) == 2, f"one journal per rank: {journals}")
    for name in journals:
        with open(os.path.join(results, name)) as f:
            lines = [json.loads(x) for x in f if x.strip()]
        expect(len(lines) >= 1 and lines[0]["status"] == "ok",
               f"{name}: {lines}")
    print(f"killed task: sbatch ended after {took:.1f} s", file=sys.stderr)


def no_job(c):
    """Whether the cluster c's partition holds no job (squeue answers)."""
    q = c.run(["squeue", "-h", "-p", "hb"], timeout=30)
    return q.returncode == 0 and not q.stdout.strip()


def mpirun_in_allocation(fault):
    """sbatch --wait of mpirun --enable-recovery on 2 ranks of
    hostbench-faults where fault strikes, in an allocation of 3 minutes;
    returns (sbatch's process, the job's log, seconds it took)."""
    results = tempfile.mkdtemp()
    mpirun = shutil.which("mpirun")
    with Cluster() as c:
        start = time.monotonic()
        try:
            p = c.run(["sbatch", "--wait", "--time=3", "-n", "2",
                       "--ntasks-per-node=2", "-o", f"{results}/log",
                       "--export", f"ALL,HOSTBENCH_FLEET_FAULT={fault}",
                       "--wrap", f"{mpirun} --enable-recovery "
                       f"--allow-run-as-root -x HOSTBENCH_FLEET_FAULT -np 2 "
                       f"{HB_FAULTS} run {suite_file(FAULT_SUITE)} "
                       f"--format json --output {results}/fleet.json"],
                      timeout=100)
        except subprocess.TimeoutExpired:
            # the job held its allocation: end it before the cluster
            c.run(["scancel", "--signal=KILL", "--full", "-p", "hb"])
            hbtest.wait_for(lambda: no_job(c), "the cancelled job leaves",
                            timeout=30, interval=0.2)
            p = None
        took = time.monotonic() - start
    with open(f"{results}/log") as f:
        log = f.read()
    print(f"{fault}: the job ended after {took:.1f} s", file=sys.stderr)
    expect(p is not None, f"the job held its allocation: {log}")
    return p, log, took


# One case with short waits: 2 s for the case, 3 s more for a rank.
FAULT_SUITE = """[global]
duration = 50ms
repetitions = 2
warmup = 0
timeout = 2s
fleet_timeout = 3s

[memcpy]
target = mem/memcpy
size = 64K
"""


def test_mpirun_in_an_allocation_ends_when_a_rank_is_killed():
    skip_unless_slurm()
    p, log, took = mpirun_in_allocation("1:case")
    expect("lost: no result within" in log, f"rank 0 reported it: {log}")
    # the job is over long before its 3 minutes: the allocation is free
    expect(took < 90, f"the allocation was held {took:.0f} s: {log}")


def test_mpirun_in_an_allocation_ends_when_a_rank_hangs_before_mpi_init():
    skip_unless_slurm()
    p, log, took = mpirun_in_allocation("1:init:hang")
    expect("MPI_Init did not come back within 3 s" in log, log)
    expect(took < 90, f"the allocation was held {took:.0f} s: {log}")


# One case of 40 samples of 200 ms: long enough to stop a task in it; a
# rank is lost 12 s (timeout) + 3 s (fleet_timeout) after the case starts.
STOP_SUITE = FAULT_SUITE.replace("repetitions = 2", "repetitions = 40") \
    .replace("duration = 50ms", "duration = 200ms") \
    .replace("timeout = 2s", "timeout = 12s")


def tasks_of(suite, n):
    """{rank: pid} of the n hostbench tasks running suite, or None."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue  # gone while we looked
        if suite.encode() in argv and b"__helper" not in argv:
            for kv in env:
                if kv.startswith(b"SLURM_PROCID="):
                    found[int(kv.split(b"=")[1])] = int(pid)
    return found if len(found) == n else None


def test_under_srun_a_task_stopped_in_a_case_is_lost_and_reported():
    # kill -STOP from outside, no hook, at 4 tasks: rank 0 counts the
    # stopped task lost after the case's time and fleet_timeout, names
    # it, writes the report with the others ok, and the step ends
    skip_unless_slurm()
    out, suite = tempfile.mktemp(suffix=".json"), suite_file(STOP_SUITE)
    tasks = {}
    with Cluster() as c:
        p = subprocess.Popen(["srun", "--mpi=pmix", "--overcommit", "-n", "4",
                              HB, "run", suite, "--format", "json",
                              "--output", out, "--no-store"],
                             env=c.env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        try:
            tasks = hbtest.wait_for(lambda: tasks_of(suite, 4), "4 tasks")
            hbtest.wait_for(lambda: hbtest.in_case(tasks[1]) or
                            p.poll() is not None, "task 1 in its case")
            expect(p.poll() is None, "the step ended before the stop")
            os.kill(tasks[1], signal.SIGSTOP)
            stopped = time.monotonic()
            err = p.communicate(timeout=120)[1]
            took = time.monotonic() - stopped
        finally:
            for pid in tasks.values():
                for sig in (signal.SIGCONT, signal.SIGKILL):
                    try:
                        os.kill(pid, sig)
                    except ProcessLookupError:
                        pass
            if p.poll() is None:
                p.kill()
                p.communicate()
    print(f"task 1 stopped: srun ended {took:.1f} s later", file=sys.stderr)
    expect(p.returncode == 1 and os.path.exists(out),
           f"exit {p.returncode}, a report: {err}")
    with open(out) as f:
        hosts = json.load(f)["fleet"]["hosts"]
    expect([h["status"] for h in hosts] == ["ok", "lost", "ok", "ok"],
           f"{hosts}: {err}")
    expect("no result within 15 s" in hosts[1]["reason"], f"{hosts[1]}")
    expect("rank 1 (" in err and "lost: no result within 15 s" in err, err)
    # the case's time and fleet_timeout, plus 5 s (docs/fleet.md's bound)
    expect(took < 12 + 3 + 5, f"srun ended {took:.1f} s after the stop")


# A short first case, then one of 40 samples of 200 ms to be killed in.
KILL_SUITE = FAULT_SUITE.replace("timeout = 2s", "timeout = 12s") + """
[long]
target = mem/memcpy
size = 128K
duration = 200ms
repetitions = 40
"""


def lines_in(path):
    """The whole lines of the file at path (0 while it is missing)."""
    try:
        with open(path) as f:
            return f.read().count("\n")
    except OSError:
        return 0


def test_sbatch_merges_the_one_result_of_a_task_killed_in_its_second_case():
    # kill -9 from outside, no hook: task 1 dies in its second case with
    # one result journaled; the merged file keeps that result
    skip_unless_slurm()
    results, suite = tempfile.mkdtemp(), suite_file(KILL_SUITE)
    env = {"HOSTBENCH": HB, "HOSTBENCH_RESULTS": results,
           "HOSTBENCH_JOURNALS": results}
    with Cluster() as c:
        p = subprocess.Popen(["sbatch", "--wait", "--time=5", "-n", "2",
                              "--ntasks-per-node=2", "-o", f"{results}/log",
                              SBATCH_SCRIPT, suite],
                             env=dict(c.env, **env), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        try:
            tasks = hbtest.wait_for(lambda: tasks_of(suite, 2), "2 tasks")
            hbtest.wait_for(
                lambda: any(n.endswith("-1.journal") and
                            lines_in(os.path.join(results, n)) == 1
                            for n in os.listdir(results)),
                "task 1 journaled its first case")
            hbtest.wait_for(lambda: hbtest.in_case(tasks[1]),
                            "task 1 in its second case")
            os.kill(tasks[1], signal.SIGKILL)
            p.communicate(timeout=120)
        finally:
            if p.poll() is None:
                p.kill()
                p.communicate()
    with open(f"{results}/log") as f:
        log = f.read()
    expect(p.returncode == 1 and "no fleet report" in log,
           f"exit {p.returncode}: {log}")
    (partial,) = [n for n in os.listdir(results)
                  if n.endswith("-incomplete.json")]
    with open(os.path.join(results, partial)) as f:
        doc = json.load(f)
    expect(doc["ranks"] == [0, 1], f"every rank merged: {doc['ranks']}")
    one = doc["hosts"][1]["report"]["results"]
    expect(len(one) == 1 and one[0]["status"] == "ok" and
           one[0]["params"]["size"] == 65536, f"task 1's result: {one}")
    expect("rank 1: 1 case(s) finished" in log, log)
    left = [n for n in os.listdir(results) if ".tmp-" in n]
    expect(not left, f"left behind: {left}")


if __name__ == "__main__":
    hbtest.main()
