#!/usr/bin/python3
"""Checks an `mtf graph` output with networkx against the trace's own events.

usage: check_graph.py DUMP GRAPH...

DUMP is `mtf dump TRACE`; from it this script counts, without mtf's graph code, each
location's MPI calls (every Enter of a region whose paradigm is MPI, plus each MPI event
outside any open MPI region, but for a send at the time an MPI call was left, with no MPI
call since: Extrae's blocking send, which is that call's) and the trace's point-to-point messages (send events and
receive events). Each GRAPH is read with networkx (every <graph> of a GraphML file; a
.dot file through pydot). Checks: the counts over message edges sum to the number of messages, and the
counts over communication nodes sum, per location (or over all when ranks are folded), to
the MPI calls. Prints the figures; exits 1 on a mismatch.
"""
import collections
import re
import sys

import networkx as nx
from networkx.readwrite.graphml import GraphMLReader

MPI_PARADIGM = 4
SENDS = {"MpiSend", "MpiIsend"}
RECEIVES = {"MpiRecv", "MpiIrecv"}
# MPI events that are an MPI call of their own when no MPI region is open.
STANDALONE = SENDS | RECEIVES | {
    "MpiIrecvRequest", "MpiIsendComplete", "MpiCollectiveEnd",
    "NonBlockingCollectiveRequest", "NonBlockingCollectiveComplete"}
REGION = re.compile(r"\bregion=(\d+)")
EVENT = re.compile(r"L\d+ ")


def count_events(dump_path):
    mpi_regions = set()
    calls = collections.Counter()
    stacks = collections.defaultdict(list)
    ended = {}  # location -> time its last MPI call was left, while no MPI call followed
    sends = receives = 0
    with open(dump_path, encoding="utf-8", errors="replace") as dump:
        for line in dump:
            if line.startswith("Region "):
                self_id = int(re.match(r"Region self=(\d+)", line).group(1))
                if int(re.findall(r"\bparadigm=(\d+)", line)[-1]) == MPI_PARADIGM:
                    mpi_regions.add(self_id)
                continue
            if not EVENT.match(line):
                continue
            fields = line.split(" ", 3)
            location, time, kind = int(fields[0][1:]), int(fields[1]), fields[2].strip()
            stack = stacks[location]
            if kind == "Enter":
                region = int(REGION.search(line).group(1))
                stack.append(region)
                if region in mpi_regions:
                    calls[location] += 1
                    ended.pop(location, None)
            elif kind == "Leave":
                region = int(REGION.search(line).group(1))
                if region in stack:  # closes the calls inside it too
                    closed = stack[len(stack) - 1 - stack[::-1].index(region):]
                    del stack[len(stack) - len(closed):]
                    if any(r in mpi_regions for r in closed):
                        ended[location] = time
            else:
                sends += kind in SENDS
                receives += kind in RECEIVES
                if kind in STANDALONE and not any(r in mpi_regions for r in stack):
                    if kind in SENDS and ended.get(location) == time:
                        continue
                    calls[location] += 1
                    ended.pop(location, None)
    return calls, sends, receives


def unquote(value):
    return value.strip('"') if isinstance(value, str) else value


def read_graphs(path, dot):
    if dot:
        return [nx.nx_pydot.read_dot(path)]
    return list(GraphMLReader()(path=path))


def check(graph_path, calls, sends, receives):
    graphs = read_graphs(graph_path, graph_path.endswith(".dot"))
    messages = 0
    node_calls = collections.Counter()
    folded = False
    for graph in graphs:
        for _, _, data in graph.edges(data=True):
            if unquote(data.get("kind")) == "message":
                messages += int(unquote(data["count"]))
        for _, data in graph.nodes(data=True):
            if unquote(data.get("kind")) != "communication":
                continue
            if "location" not in data:
                folded = True
            node_calls[int(unquote(data.get("location", -1)))] += int(unquote(data["count"]))
    if folded:
        calls = collections.Counter({-1: sum(calls.values())})
    calls = +calls  # drop zero entries
    print(f"{graph_path}: graphs {len(graphs)}; messages: sends {sends}, receives {receives}, "
          f"message edges {messages}; MPI calls {sum(calls.values())}, "
          f"communication nodes {sum(node_calls.values())}")
    for location in sorted(set(calls) | set(node_calls)):
        if calls[location] != node_calls[location]:
            print(f"  location {location}: {calls[location]} MPI calls, "
                  f"{node_calls[location]} in communication nodes")
    return messages == sends == receives and node_calls == calls


def main():
    calls, sends, receives = count_events(sys.argv[1])
    results = [check(path, calls, sends, receives) for path in sys.argv[2:]]
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
