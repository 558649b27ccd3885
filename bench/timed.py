# SPDX-License-Identifier: Apache-2.0
"""Print "WALL CPU" milliseconds of a command, its output thrown away.

    timed.py COMMAND...

CPU is user + system of the command's processes alone (what this
interpreter's start already waited for is not the command's); on a shared
host the wall time is also the neighbours'.
"""
import resource
import subprocess
import sys
import time

ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
t = time.monotonic()
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL,
               stderr=subprocess.DEVNULL)
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(int((time.monotonic() - t) * 1000),
      int((ru.ru_utime + ru.ru_stime - ru0.ru_utime - ru0.ru_stime) * 1000))
