/* tracepipe - arkts: OpenHarmony ArkTS / V8 DevTools profiler data reader
 *
 * The parsing core of `arkts-src`. A thin element creates a reader on the
 * input stream in start(), calls arkts_reader_read_batch() in create()
 * until it hands out NULL (EOS), and posts the stats and the warning
 * summary on the bus.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>
#include <trace/trace.h>

G_BEGIN_DECLS

/**
 * ArktsMemoryMode:
 * @ARKTS_MODE_AUTO: infer from the messages (ArkTSConfig `type` -1)
 * @ARKTS_MODE_SNAPSHOT: `{"id":1,"result":{}}` ends one snapshot
 *   (ArkTSConfig `type` 0)
 * @ARKTS_MODE_TIMELINE: `{"id":1,...}` starts and `{"id":2,...}` ends the
 *   timeline (ArkTSConfig `type` 1)
 *
 * What the `{"id":N,"result":{}}` markers of a message stream mean.
 */
typedef enum
{
  ARKTS_MODE_AUTO,
  ARKTS_MODE_SNAPSHOT,
  ARKTS_MODE_TIMELINE,
} ArktsMemoryMode;

/**
 * ArktsInputKind:
 * @ARKTS_INPUT_UNKNOWN: nothing read yet
 * @ARKTS_INPUT_MESSAGES: a DevTools message stream (lines, concatenated
 *   objects or a JSON array)
 * @ARKTS_INPUT_HEAP_SNAPSHOT: a plain `.heapsnapshot` / `.heaptimeline`
 * @ARKTS_INPUT_CPU_PROFILE: a plain `.cpuprofile` (modern or `head` form)
 * @ARKTS_INPUT_HEAP_PROFILE: a sampling heap profile (`.heapprofile`)
 *
 * What the reader found in its input (known after the first read).
 */
typedef enum
{
  ARKTS_INPUT_UNKNOWN,
  ARKTS_INPUT_MESSAGES,
  ARKTS_INPUT_HEAP_SNAPSHOT,
  ARKTS_INPUT_CPU_PROFILE,
  ARKTS_INPUT_HEAP_PROFILE,
} ArktsInputKind;

/**
 * ArktsReaderOptions:
 * @pid: the profiled process (ArkTSConfig `pid`), or %TRACE_ID_UNKNOWN
 * @tid: the profiled thread, or %TRACE_ID_UNKNOWN (then a CPU profile's
 *   own `tid`, else @pid)
 * @mode: meaning of the stream's markers
 * @start_time: where heap data sits on the stream's clock, in ns: the
 *   first snapshot, or the start of the timeline (a heap file carries no
 *   absolute time)
 * @snapshot_interval: ns between two snapshots of a message stream in
 *   snapshot mode (ArkTSConfig `interval`, seconds there)
 * @cpu_profiler_interval: the sampling interval in ns, used only to place
 *   samples of a CPU profile that carries neither deltas, timestamps nor a
 *   usable start/end (0: unknown)
 * @clock_domain: the stream's clock; %TRACE_CLOCK_UNKNOWN lets the reader
 *   decide from the content
 * @top_n: how many constructors / functions a summary lists
 * @read_size: bytes per read of the input (0: 256 KiB); small values are
 *   for tests
 *
 * What a plain file does not tell, so the element takes it as properties.
 */
typedef struct
{
  gint64 pid;
  gint64 tid;
  ArktsMemoryMode mode;
  gint64 start_time;
  gint64 snapshot_interval;
  gint64 cpu_profiler_interval;
  TraceClockDomain clock_domain;
  guint top_n;
  gsize read_size;
} ArktsReaderOptions;

/**
 * ArktsSkipReason:
 * @ARKTS_SKIP_MALFORMED_MESSAGE: a message that is not a JSON object
 * @ARKTS_SKIP_UNKNOWN_METHOD: a message with a method the reader ignores
 * @ARKTS_SKIP_UNKNOWN_RESULT: a `{"id":N,"result":...}` that is neither a
 *   marker nor a CPU profile (e.g. `result.data`)
 * @ARKTS_SKIP_BAD_CHUNK: an `addHeapSnapshotChunk` without a usable chunk
 * @ARKTS_SKIP_TRUNCATED_SNAPSHOT: a snapshot document cut off (end marker
 *   or end of input before its closing brace); dropped
 * @ARKTS_SKIP_MALFORMED_SNAPSHOT: a snapshot document that is not valid
 *   JSON or lacks its meta; dropped
 * @ARKTS_SKIP_BAD_NODE: a heap node with an unknown type or a nodes array
 *   not a multiple of the node stride
 * @ARKTS_SKIP_BAD_EDGE: an edge whose `to_node` is not a node index or
 *   whose type is unknown
 * @ARKTS_SKIP_COUNT_MISMATCH: declared `node_count`/`edge_count` or the
 *   nodes' `edge_count` sum differ from the arrays (data kept)
 * @ARKTS_SKIP_BAD_PROFILE: a CPU or heap profile that cannot be used
 * @ARKTS_SKIP_BAD_PROFILE_NODE: a call-tree node without id, with an
 *   unknown child or in a cycle
 * @ARKTS_SKIP_BAD_SAMPLE: a CPU sample naming an unknown node or without a
 *   timestamp
 * @ARKTS_SKIP_BAD_STATS: a malformed `heapStatsUpdate` / `lastSeenObjectId`
 * @ARKTS_SKIP_TRAILING_DATA: bytes after the end of a plain document
 * @ARKTS_SKIP_N_REASONS: the number of reasons
 *
 * Why something of the input was not used.
 */
typedef enum
{
  ARKTS_SKIP_MALFORMED_MESSAGE,
  ARKTS_SKIP_UNKNOWN_METHOD,
  ARKTS_SKIP_UNKNOWN_RESULT,
  ARKTS_SKIP_BAD_CHUNK,
  ARKTS_SKIP_TRUNCATED_SNAPSHOT,
  ARKTS_SKIP_MALFORMED_SNAPSHOT,
  ARKTS_SKIP_BAD_NODE,
  ARKTS_SKIP_BAD_EDGE,
  ARKTS_SKIP_COUNT_MISMATCH,
  ARKTS_SKIP_BAD_PROFILE,
  ARKTS_SKIP_BAD_PROFILE_NODE,
  ARKTS_SKIP_BAD_SAMPLE,
  ARKTS_SKIP_BAD_STATS,
  ARKTS_SKIP_TRAILING_DATA,
  ARKTS_SKIP_N_REASONS
} ArktsSkipReason;

/**
 * ArktsSkipStat:
 * @count: how many times
 * @first_where: where the first one was (`line 12`, `line 12, snapshot
 *   offset 345`, `byte offset 99`), %NULL if never
 * @first_detail: what the first one was, %NULL if never
 */
typedef struct
{
  guint64 count;
  char *first_where;
  char *first_detail;
} ArktsSkipStat;

/**
 * ArktsReaderStats:
 * @bytes: bytes read (after decompression)
 * @messages: DevTools messages read
 * @chunks: `addHeapSnapshotChunk` messages
 * @progress_messages: `reportHeapSnapshotProgress` messages
 * @snapshots: heap snapshot documents converted (timelines included)
 * @timelines: of which heap timelines (with samples or allocation traces)
 * @heap_samples: timeline `samples` rows
 * @stats_updates: `heapStatsUpdate` messages
 * @cpu_profiles: CPU profiles converted
 * @samples: CPU samples converted
 * @samples_reordered: whether some CPU profile had negative time deltas
 *   (its samples were sorted by time)
 * @heap_profiles: sampling heap profiles converted
 * @skipped: per #ArktsSkipReason
 */
typedef struct
{
  guint64 bytes;
  guint64 messages;
  guint64 chunks;
  guint64 progress_messages;
  guint64 snapshots;
  guint64 timelines;
  guint64 heap_samples;
  guint64 stats_updates;
  guint64 cpu_profiles;
  guint64 samples;
  guint64 samples_reordered;
  guint64 heap_profiles;
  ArktsSkipStat skipped[ARKTS_SKIP_N_REASONS];
} ArktsReaderStats;

typedef struct _ArktsReader ArktsReader;

void arkts_reader_options_init (ArktsReaderOptions *opts);

ArktsReader *arkts_reader_new (GInputStream *in,
                               const char *location,
                               TraceStringPool *pool,
                               const ArktsReaderOptions *opts);
gboolean arkts_reader_read_batch (ArktsReader *reader,
                                  TraceBatch **out,
                                  GError **error);
TraceClockDomain arkts_reader_get_clock_domain (ArktsReader *reader);
ArktsInputKind arkts_reader_get_input_kind (ArktsReader *reader);
const ArktsReaderStats *arkts_reader_get_stats (ArktsReader *reader);
char *arkts_reader_get_warning_summary (ArktsReader *reader);
void arkts_reader_free (ArktsReader *reader);

const char *arkts_skip_reason_to_string (ArktsSkipReason reason);
const char *arkts_input_kind_to_string (ArktsInputKind kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ArktsReader, arkts_reader_free)

G_END_DECLS
