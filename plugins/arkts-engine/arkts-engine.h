/* tracepipe - the ArkTS engine: OpenHarmony ArkTS / V8 DevTools profiler data
 *
 * An internal library (no module) that the arkts plugin (arkts-src) and
 * the htrace plugin (ArkTS plugin data inside htrace captures) both link:
 * the reader (arkts-reader.c) a source drives through the TraceFileSrc
 * reader contract, and the parts it is made of (message stream, heap
 * documents, profiles, the JSON skeleton scanner).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <trace/trace.h>

G_BEGIN_DECLS

/* The reader (arkts-reader.c) */

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

/* The defaults of the options that are arkts-src's properties, defined
 * once: arkts_reader_options_init() sets them (the element's init and the
 * tests call it) and the element's param specs announce them. */
#define DEFAULT_PID TRACE_ID_UNKNOWN
#define DEFAULT_TID TRACE_ID_UNKNOWN
#define DEFAULT_MODE ARKTS_MODE_AUTO
#define DEFAULT_START_TIME 0
#define DEFAULT_SNAPSHOT_INTERVAL (G_TIME_SPAN_SECOND * 1000) /* 1 s in ns */
#define DEFAULT_CPU_PROFILER_INTERVAL 0
#define DEFAULT_TOP 10

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

/* What the reader's parts share */

/* Positions in skip reports: -1 for "not known". */
#define ARKTS_NO_POS ((gint64) -1)

/* The longest a snapshot's "snapshot" object (meta and counts) may be:
 * real ones are a few KiB; this only stops a broken document from making
 * the capture grow without bound. */
#define ARKTS_MAX_META_SIZE (64 * 1024 * 1024)

/**
 * ArktsEnv:
 *
 * What the parts of a reader need from it: where events go (pool, ids),
 * where skips are counted, and the options that place events.
 */
typedef struct
{
  TraceStringPool *pool;
  ArktsReaderStats *stats;
  const char *location;
  gint64 pid;
  gint64 tid;
  guint top_n;
  gint64 cpu_profiler_interval;
  guint64 next_stack_node_id; /* stack node ids stay unique across profiles */
} ArktsEnv;

void arkts_env_skip (ArktsEnv *env,
                     ArktsSkipReason reason,
                     gint64 line,
                     gint64 offset,
                     const char *detail_format,
                     ...) G_GNUC_PRINTF (5, 6);

/* Heap snapshot / timeline documents (arkts-heap-doc.c, arkts-heap-summary.c) */

typedef enum
{
  ARKTS_SECTION_NONE,
  ARKTS_SECTION_SNAPSHOT,
  ARKTS_SECTION_NODES,
  ARKTS_SECTION_EDGES,
  ARKTS_SECTION_TRACE_FUNCTION_INFOS,
  ARKTS_SECTION_TRACE_TREE,
  ARKTS_SECTION_SAMPLES,
  ARKTS_SECTION_LOCATIONS,
  ARKTS_SECTION_STRINGS,
  ARKTS_SECTION_OTHER,
  ARKTS_N_SECTIONS
} ArktsSection;

const char *arkts_section_name (ArktsSection section);

typedef struct _ArktsHeapSummary ArktsHeapSummary;

ArktsHeapSummary *arkts_heap_summary_new (ArktsEnv *env,
                                          guint index,
                                          gint64 start_ts);
void arkts_heap_summary_free (ArktsHeapSummary *s);
void arkts_heap_summary_set_position_source (ArktsHeapSummary *s,
                                             const gint64 *line,
                                             const gint64 *offset);
gboolean arkts_heap_summary_set_meta (ArktsHeapSummary *s,
                                      const char *json,
                                      gsize len,
                                      GError **error);
void arkts_heap_summary_section_begin (ArktsHeapSummary *s,
                                       ArktsSection section);
void arkts_heap_summary_number (ArktsHeapSummary *s,
                                ArktsSection section,
                                gint64 value,
                                TraceBatch *out);
void arkts_heap_summary_section_end (ArktsHeapSummary *s,
                                     ArktsSection section,
                                     guint64 n_values);
guint arkts_heap_summary_trace_node_width (ArktsHeapSummary *s,
                                           guint *children_field);
void arkts_heap_summary_trace_node (ArktsHeapSummary *s,
                                    const gint64 *fields);
gboolean arkts_heap_summary_wants_string (ArktsHeapSummary *s,
                                          guint64 index);
void arkts_heap_summary_string (ArktsHeapSummary *s,
                                guint64 index,
                                const char *str,
                                gsize len);
gboolean arkts_heap_summary_is_timeline (ArktsHeapSummary *s);
void arkts_heap_summary_emit (ArktsHeapSummary *s,
                              TraceBatch *out);

typedef struct _ArktsHeapDoc ArktsHeapDoc;

ArktsHeapDoc *arkts_heap_doc_new (ArktsEnv *env,
                                  guint index,
                                  gint64 start_ts);
void arkts_heap_doc_free (ArktsHeapDoc *doc);
void arkts_heap_doc_set_line (ArktsHeapDoc *doc,
                              gint64 line);
gboolean arkts_heap_doc_feed (ArktsHeapDoc *doc,
                              const char *data,
                              gsize len,
                              gsize *consumed,
                              TraceBatch *out,
                              GError **error);
gboolean arkts_heap_doc_is_started (ArktsHeapDoc *doc);
gboolean arkts_heap_doc_is_complete (ArktsHeapDoc *doc);
gboolean arkts_heap_doc_is_timeline (ArktsHeapDoc *doc);
guint64 arkts_heap_doc_get_offset (ArktsHeapDoc *doc);
char *arkts_heap_doc_describe_cut (ArktsHeapDoc *doc);
void arkts_heap_doc_emit (ArktsHeapDoc *doc,
                          TraceBatch *out);

/* CPU profiles and sampling heap profiles (arkts-cpu-profile.c, arkts-heap-profile.c) */

typedef struct _ArktsCpuProfile ArktsCpuProfile;

typedef struct _ArktsJsonSkel ArktsJsonSkel;

ArktsCpuProfile *arkts_cpu_profile_load (ArktsEnv *env,
                                         JsonObject *profile,
                                         ArktsJsonSkel *skel,
                                         gint64 line);
gboolean arkts_cpu_profile_emit (ArktsCpuProfile *cp,
                                 TraceBatch *out,
                                 guint max_events);
void arkts_cpu_profile_free (ArktsCpuProfile *cp);

gboolean arkts_heap_profile_convert (ArktsEnv *env,
                                     JsonObject *profile,
                                     ArktsJsonSkel *skel,
                                     gint64 ts,
                                     TraceBatch *out);

/* JSON documents whose number arrays are kept apart (arkts-json-skel.c) */

/* The most numbers a CPU or heap profile (or a message) may keep in its
 * arrays: a profile of 16 M samples with their timeDeltas (4.6 hours at
 * V8's default 1 ms interval). 4 bytes each, 8 for large values. */
#define ARKTS_MAX_PROFILE_NUMBERS ((guint64) 32 * 1024 * 1024)

/**
 * ArktsNumbers:
 *
 * The numbers of an array, kept by an #ArktsJsonSkel or still in a
 * json-glib array; read with arkts_numbers_get().
 */
typedef struct
{
  JsonArray *array; /* or: */
  ArktsJsonSkel *skel;
  guint first;
  gboolean wide;
  guint len;
} ArktsNumbers;

ArktsJsonSkel *arkts_json_skel_new (guint64 max_tree,
                                    guint64 max_numbers);
void arkts_json_skel_free (ArktsJsonSkel *s);
gboolean arkts_json_skel_feed (ArktsJsonSkel *s,
                               const char *data,
                               gsize len,
                               GError **error);
void arkts_json_skel_reset (ArktsJsonSkel *s);
void arkts_json_skel_finish (ArktsJsonSkel *s);
gboolean arkts_json_skel_is_profile (ArktsJsonSkel *s);
const char *arkts_json_skel_get_text (ArktsJsonSkel *s,
                                      gsize *len);
gboolean arkts_numbers_lookup (ArktsJsonSkel *s,
                               JsonObject *obj,
                               const char *member,
                               ArktsNumbers *out);
gint64 arkts_numbers_get (const ArktsNumbers *n,
                          guint i,
                          gboolean *ok);

/* Small helpers */

static inline TraceEvent *
arkts_append (TraceBatch *out,
              TraceEventKind kind,
              gint64 ts,
              gint64 pid,
              gint64 tid,
              guint32 name)
{
  TraceEvent *ev = trace_batch_append (out, kind, ts);

  ev->pid = pid;
  ev->tid = tid;
  ev->name = name;
  return ev;
}

gint64 arkts_json_get_int (JsonObject *obj,
                           const char *member,
                           gint64 fallback);
double arkts_json_get_double (JsonObject *obj,
                              const char *member,
                              double fallback);
const char *arkts_json_get_string (JsonObject *obj,
                                   const char *member);
gint64 arkts_json_array_get_int (JsonArray *array,
                                 guint i,
                                 gboolean *ok);
gint64 arkts_us_to_ns (double us);
gboolean arkts_double_to_int (double d,
                              gint64 *out);

/* The DevTools message stream (arkts-messages.c) */

typedef struct _ArktsMessages ArktsMessages;

ArktsMessages *arkts_messages_new (ArktsEnv *env,
                                   const ArktsReaderOptions *opts);
void arkts_messages_free (ArktsMessages *m);
gboolean arkts_messages_feed (ArktsMessages *m,
                              const char *data,
                              gsize len,
                              gsize *consumed,
                              TraceBatch *out,
                              ArktsCpuProfile **cpu,
                              GError **error);
void arkts_messages_finish (ArktsMessages *m,
                            TraceBatch *out);

G_END_DECLS
