"""One timed call of mtf.open(TRACE).events() in a fresh process: prints
'SECONDS DF_BYTES RSS_GROWTH_BYTES ROWS' (RSS growth = peak RSS during the call minus the
RSS before it). Run by bench_events.sh with Debian's /usr/bin/python3."""
import resource
import sys
import time

import mtf


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


trace = mtf.open(sys.argv[1])
before = rss_bytes()
start = time.perf_counter()
df = trace.events()
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
df_bytes = int(df.memory_usage(deep=True).sum())
print(f"{seconds:.3f} {df_bytes} {max(peak - before, 0)} {len(df)}")
