#!/usr/bin/env python3
# Writes a synthetic V8 heap snapshot of about the requested size, laid
# out like V8's (one node row per line, 7 node fields, edges owned in node
# order, to_node a node index), for measuring the arkts reader's speed and
# peak memory on large inputs. Not used by the unit tests.
#
#   gen-heapsnapshot.py SIZE_MB OUT [--messages]
#
# --messages writes the same document as DevTools addHeapSnapshotChunk
# messages (102 400-character chunks, as V8 sends) ending with the ArkTS
# snapshot-mode marker {"id":1,"result":{}}.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import json
import random
import sys

NODE_TYPES = ["hidden", "array", "string", "object", "code", "closure", "regexp", "number",
              "native", "synthetic", "concatenated string", "sliced string", "symbol", "bigint",
              "object shape"]
META = {
    "node_fields": ["type", "name", "id", "self_size", "edge_count", "trace_node_id", "detachedness"],
    "node_types": [NODE_TYPES, "string", "number", "number", "number", "number", "number"],
    "edge_fields": ["type", "name_or_index", "to_node"],
    "edge_types": [["context", "element", "property", "internal", "hidden", "shortcut", "weak"],
                   "string_or_number", "node"],
    "trace_function_info_fields": ["function_id", "name", "script_name", "script_id", "line", "column"],
    "trace_node_fields": ["id", "function_info_index", "count", "size", "children"],
    "sample_fields": ["timestamp_us", "last_assigned_id"],
    "location_fields": ["object_index", "script_id", "line", "column"],
}
N_STRINGS = 50000
EDGES_PER_NODE = 4
# bytes per node row plus its edges, measured on this generator's output
BYTES_PER_NODE = 95


def pieces(n_nodes, rng):
    yield ('{"snapshot":{"meta":%s,"node_count":%d,"edge_count":%d,"trace_function_count":0},\n"nodes":['
           % (json.dumps(META, separators=(",", ":")), n_nodes, n_nodes * EDGES_PER_NODE))
    rows = []
    for i in range(n_nodes):
        rows.append("%s%d,%d,%d,%d,%d,0,%d\n" % ("," if i else "", rng.randrange(len(NODE_TYPES)),
                                                 rng.randrange(N_STRINGS), 2 * i + 1,
                                                 rng.randrange(16, 400), EDGES_PER_NODE, rng.randrange(3)))
        if len(rows) == 10000:
            yield "".join(rows)
            rows = []
    yield "".join(rows) + '],\n"edges":['
    rows = []
    for i in range(n_nodes * EDGES_PER_NODE):
        rows.append("%s%d,%d,%d\n" % ("," if i else "", rng.randrange(7), rng.randrange(N_STRINGS),
                                      rng.randrange(n_nodes) * 7))
        if len(rows) == 10000:
            yield "".join(rows)
            rows = []
    yield "".join(rows) + '],\n"trace_function_infos":[],\n"trace_tree":[],\n"samples":[],\n"locations":[],\n"strings":['
    yield ",\n".join(json.dumps("string %d \"quoted\" \u00e9" % i) for i in range(N_STRINGS)) + "]}\n"


def main():
    size_mb = float(sys.argv[1])
    out = open(sys.argv[2], "w")
    messages = "--messages" in sys.argv
    rng = random.Random(1)
    n_nodes = int(size_mb * 1024 * 1024 / BYTES_PER_NODE)
    pending = ""
    for piece in pieces(n_nodes, rng):
        if not messages:
            out.write(piece)
            continue
        pending += piece
        while len(pending) >= 102400:
            out.write(json.dumps({"method": "HeapProfiler.addHeapSnapshotChunk",
                                  "params": {"chunk": pending[:102400]}}, separators=(",", ":")) + "\n")
            pending = pending[102400:]
    if messages:
        out.write(json.dumps({"method": "HeapProfiler.addHeapSnapshotChunk",
                              "params": {"chunk": pending}}, separators=(",", ":")) + "\n")
        out.write('{"id":1,"result":{}}\n')
    out.close()


if __name__ == "__main__":
    main()
