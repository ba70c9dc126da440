"""One timed call of mtf.open(TRACE).events() in a fresh process: prints
'SECONDS DF_BYTES RSS_GROWTH_BYTES ROWS CPU_SECONDS MINOR_FAULTS' (RSS growth = peak RSS
during the call minus the RSS before it; CPU = user + system time of the call, on every
thread, without the interpreter's start; minor faults = page faults of the call). Run by
bench_events.sh with Debian's /usr/bin/python3. COLUMNS=time,kind,... builds only those."""
import os
import resource
import sys
import time

import mtf


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def cpu_and_faults():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime, r.ru_minflt


trace = mtf.open(sys.argv[1])
before = rss_bytes()
cpu_before, faults_before = cpu_and_faults()
start = time.perf_counter()
df = trace.events(columns=os.environ["COLUMNS"].split(",") if os.environ.get("COLUMNS") else None)
seconds = time.perf_counter() - start
cpu_after, faults_after = cpu_and_faults()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
df_bytes = int(df.memory_usage(deep=True).sum())
print(f"{seconds:.3f} {df_bytes} {max(peak - before, 0)} {len(df)} "
      f"{cpu_after - cpu_before:.3f} {faults_after - faults_before}")
