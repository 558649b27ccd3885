# SPDX-License-Identifier: Apache-2.0
"""The fleet report under srun names the Slurm job and each rank's node,
and is written again from its JSON.

Usage: test_slurm_report.py NAME (environment: HB, HB_FAULTS,
HB_FIXTURE_DIR, HB_SBATCH), as test_slurm.py, whose single-node Slurm
this starts.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../support"))
import hbtest  # noqa: E402
from hbtest import expect  # noqa: E402
from test_slurm import HB, Cluster, skip_unless_slurm, suite_file  # noqa: E402


def test_srun_report_names_the_slurm_job_and_each_ranks_node():
    skip_unless_slurm()
    out = tempfile.mktemp(suffix=".json")
    with Cluster() as c:
        p = c.run(["srun", "--mpi=pmix", "-n", "2", HB, "run", suite_file(),
                   "--format", "json", "--output", out])
        expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
        with open(out) as f:
            doc = json.load(f)
        job = doc["fleet"]["job"]
        jobs = c.run(["scontrol", "show", "jobs"]).stdout
    expect(job and f"JobId={job} " in jobs, f"job {job} in {jobs[:300]}")
    host = doc["fleet"]["hosts"][0]["host"]
    expect(doc["fleet"]["nodes"] == [{"host": host, "ranks": [0, 1]}],
           f"nodes {doc['fleet']['nodes']}")
    expect(all(h["report"]["run"]["fleet"]["job"] == job
               for h in doc["fleet"]["hosts"]), "each rank's run")
    text = subprocess.run([HB, "report", out], capture_output=True,
                          text=True, timeout=60).stdout
    expect(f"Job   : {job}\n" in text and
           f"Nodes : 1 node: {host} (ranks 0-1)" in text, text)
    expect(len(doc["results"]) == 2 * len(doc["fleet"]["spread"]),
           "each result once")


if __name__ == "__main__":
    hbtest.main()
