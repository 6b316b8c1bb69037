/* tracepipe - the ftrace text engine: what its users call
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A static library shared by the ftrace plugin (ftrace-src), the json
 * plugin (json-src reads `systemTraceEvents` with it, json-sink writes
 * kernel records as ftrace lines with it) and the htrace and perfetto
 * plugins (their kernel events and atrace markers); it builds no module.
 *
 * FtraceParser turns one text line at a time into TraceEvents appended to
 * a caller's TraceBatch. It keeps the state that spans lines (tid -> pid
 * and thread name, which dump table is being read, RheaTrace pid) and the
 * statistics of what it could not use. It knows nothing of files or HTML.
 * Binary formats give it their kernel events as typed records instead of
 * lines (ftrace_parser_add_kernel() and the rest below): one mapping of
 * kernel events into TraceEvents for every source.
 *
 * FtraceReader reads ftrace text (raw `trace` dumps, atrace output,
 * OpenHarmony dumps, trace-cmd reports), systrace HTML (modern, legacy,
 * trace2html), `atrace -z` captures, UTF-16 text and RheaTrace/btrace raw
 * captures, detected from the content, and feeds the parser. Its input is
 * already decompressed (gzip is undone by TraceFileSrc). Streams: memory
 * does not grow with the input.
 *
 *   g_autoptr (FtraceReader) r = ftrace_reader_new (in, "trace.html", pool, NULL);
 *   TraceBatch *batch;
 *   while (ftrace_reader_read_batch (r, &batch, &error) && batch != NULL)
 *     push (batch);
 *   summary = ftrace_reader_get_summary (r);    (a WARNING when not NULL)
 */
#pragma once

#include <gio/gio.h>
#include <trace/trace.h>

G_BEGIN_DECLS

/* A line longer than this is skipped (counted as
 * FTRACE_PROBLEM_LINE_TOO_LONG): the kernel caps a trace_marker write at
 * 4 KiB, so anything near this size is not an ftrace line. */
#define FTRACE_MAX_LINE_LENGTH (64 * 1024)

/* Names, thread names and string args longer than this are cut (at a
 * UTF-8 character boundary) and counted as FTRACE_PROBLEM_NAME_TRUNCATED;
 * atrace markers are already cut by the kernel near 1 KiB. */
#define FTRACE_MAX_NAME_LENGTH 1024

/* How many line numbers are remembered per problem. */
#define FTRACE_STATS_FIRST_LINES 5

/**
 * FtraceProblem:
 * @FTRACE_PROBLEM_UNPARSABLE_LINE: a line that is no event, header,
 *   comment or dump row (e.g. the continuation of a multi-line print)
 * @FTRACE_PROBLEM_LINE_TOO_LONG: a line over FTRACE_MAX_LINE_LENGTH
 * @FTRACE_PROBLEM_UNKNOWN_MARKER: tracing_mark_write text that is no atrace
 *   payload (`B|`, `E`, `C|`, `S|`, `F|`, `I|`, `N|`, `G|`, `H|`, clock sync)
 * @FTRACE_PROBLEM_MALFORMED_MARKER: an atrace payload with a missing or
 *   non-numeric pid, value or cookie
 * @FTRACE_PROBLEM_INCOMPLETE_EVENT: a scheduler event missing its required
 *   fields; kept as a raw TRACE_EVENT_FTRACE record
 * @FTRACE_PROBLEM_NAME_TRUNCATED: a name cut to FTRACE_MAX_NAME_LENGTH
 * @FTRACE_PROBLEM_INVALID_UTF8: a name whose invalid UTF-8 bytes were
 *   replaced by U+FFFD
 * @FTRACE_PROBLEM_LOST_EVENTS: a `CPU:n [LOST m EVENTS]` line
 * @FTRACE_PROBLEM_BUFFER_WRAPPED: a `##### CPU n buffer started ####` line:
 *   that CPU's ring buffer overwrote older events
 * @FTRACE_PROBLEM_SKIPPED_BLOCK: a JSON block of a systrace HTML file that
 *   no one reads (the reader has no #FtraceJsonBlockFuncs)
 * @FTRACE_PROBLEM_RHEA_CUT_OFF: a RheaTrace capture with TRACE_START but
 *   no TRACE_END (ring buffer too small or app killed)
 * @FTRACE_PROBLEM_TOO_MANY_THREADS: a tid not remembered because the
 *   thread table is full (more distinct tids than the kernel's pid_max)
 *
 * What the parser could not use, counted with the first line numbers.
 */
typedef enum
{
  FTRACE_PROBLEM_UNPARSABLE_LINE,
  FTRACE_PROBLEM_LINE_TOO_LONG,
  FTRACE_PROBLEM_UNKNOWN_MARKER,
  FTRACE_PROBLEM_MALFORMED_MARKER,
  FTRACE_PROBLEM_INCOMPLETE_EVENT,
  FTRACE_PROBLEM_NAME_TRUNCATED,
  FTRACE_PROBLEM_INVALID_UTF8,
  FTRACE_PROBLEM_LOST_EVENTS,
  FTRACE_PROBLEM_BUFFER_WRAPPED,
  FTRACE_PROBLEM_SKIPPED_BLOCK,
  FTRACE_PROBLEM_RHEA_CUT_OFF,
  FTRACE_PROBLEM_TOO_MANY_THREADS,
  FTRACE_PROBLEM_N
} FtraceProblem;

/**
 * FtraceStats:
 * @lines: lines given to the parser
 * @events: events appended (all kinds, metadata included)
 * @trace_lines: lines that were recognised as ftrace or RheaTrace events
 * @metadata_lines: lines of headers, comments, dumps and preambles
 * @lost_events: the sum of `m` over all `[LOST m EVENTS]` lines
 * @problems: how many times each #FtraceProblem happened
 * @first_lines: the first line numbers (1-based, 0 = unused) of each
 *
 * Counters of one parser; plain data, copy it freely.
 */
typedef struct
{
  guint64 lines;
  guint64 events;
  guint64 trace_lines;
  guint64 metadata_lines;
  guint64 lost_events;
  guint64 problems[FTRACE_PROBLEM_N];
  guint64 first_lines[FTRACE_PROBLEM_N][FTRACE_STATS_FIRST_LINES];
} FtraceStats;

/**
 * FtraceSeen:
 * @FTRACE_SEEN_FTRACE_EVENT: an ftrace event line
 * @FTRACE_SEEN_RHEA_EVENT: a RheaTrace/btrace raw line
 * @FTRACE_SEEN_HEADER: a `# tracer:` header, atrace/trace-cmd preamble
 * @FTRACE_SEEN_DUMP: a process dump table, /proc listing or CGROUP DUMP
 *
 * What kinds of content the parser recognised so far.
 */
typedef enum
{
  FTRACE_SEEN_FTRACE_EVENT = 1 << 0,
  FTRACE_SEEN_RHEA_EVENT = 1 << 1,
  FTRACE_SEEN_HEADER = 1 << 2,
  FTRACE_SEEN_DUMP = 1 << 3,
} FtraceSeen;

typedef struct _FtraceParser FtraceParser;

FtraceParser *ftrace_parser_new (TraceStringPool *pool);
void ftrace_parser_free (FtraceParser *parser);

void ftrace_parser_set_rhea_process (FtraceParser *parser,
                                     gint64 pid,
                                     const char *process_name);
void ftrace_parser_set_line_number (FtraceParser *parser,
                                    guint64 line_number);
void ftrace_parser_begin_block (FtraceParser *parser);

void ftrace_parser_parse_line (FtraceParser *parser,
                               const char *line,
                               gsize len,
                               TraceBatch *batch);
void ftrace_parser_parse_text (FtraceParser *parser,
                               const char *text,
                               gsize len,
                               TraceBatch *batch);
void ftrace_parser_skip_line (FtraceParser *parser,
                              FtraceProblem problem);
void ftrace_parser_finish (FtraceParser *parser,
                           TraceBatch *batch);

void ftrace_parser_add_problem (FtraceParser *parser,
                                FtraceProblem problem);

const FtraceStats *ftrace_parser_get_stats (FtraceParser *parser);
FtraceSeen ftrace_parser_get_seen (FtraceParser *parser);
TraceClockDomain ftrace_parser_get_clock_domain (FtraceParser *parser);
gint64 ftrace_parser_get_rhea_pid (FtraceParser *parser);
const char *ftrace_parser_get_first_unparsable (FtraceParser *parser);

typedef void (*FtraceThreadFunc) (gint64 tid,
                                  gint64 pid,
                                  guint32 name,
                                  gpointer user_data);
void ftrace_parser_foreach_thread (FtraceParser *parser,
                                   FtraceThreadFunc func,
                                   gpointer user_data);
gboolean ftrace_parser_lookup_thread (FtraceParser *parser,
                                      gint64 tid,
                                      gint64 *pid,
                                      guint32 *name);

const char *ftrace_problem_to_string (FtraceProblem problem);
const char *ftrace_problem_get_key (FtraceProblem problem);
char *ftrace_stats_to_summary (const FtraceStats *stats);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FtraceParser, ftrace_parser_free)

/* ------------------------------------------- kernel events, typed fields */

/**
 * FtraceThreads:
 * @FTRACE_THREADS_LEARN: the record is one of the parser's lines: its pid
 *   comes from its tgid, its comm and the parser's thread table, and the
 *   comms the event names teach that table (ftrace text, htrace)
 * @FTRACE_THREADS_GIVEN: the caller knows the threads: the record's tgid
 *   is its pid and the event teaches the parser nothing (Perfetto). Only
 *   atrace markers use the parser's thread table, as from text: one of a
 *   record without tgid is of the process the thread's earlier markers
 *   named, or the one it names
 *
 * Who knows the threads of a typed record (ftrace-kernel-events.c).
 */
typedef enum
{
  FTRACE_THREADS_LEARN,
  FTRACE_THREADS_GIVEN,
} FtraceThreads;

/**
 * FtraceRecord:
 * @ts: the event's time (ns, on the stream's clock)
 * @cpu: the cpu that recorded it
 * @tid: the thread it was recorded for
 * @tgid: that thread's process, %TRACE_ID_UNKNOWN when not recorded
 * @comm: (nullable): the thread's name as recorded (not NUL-terminated)
 * @comm_len: its length
 * @name: the event's name for the event model (0: none, as from text)
 * @threads: who knows the threads
 *
 * What ftrace text's line prefix says of a kernel event, typed.
 */
typedef struct
{
  gint64 ts;
  gint32 cpu;
  gint64 tid;
  gint64 tgid;
  const char *comm;
  gsize comm_len;
  guint32 name;
  FtraceThreads threads;
} FtraceRecord;

/**
 * FtraceName:
 * @str: (nullable): the name's bytes, which the parser interns (cut and
 *   made valid UTF-8 as text names are); %NULL: the field is absent or
 *   given as @id
 * @len: their length
 * @id: the name interned by the caller, when @str is %NULL (0: none)
 */
typedef struct
{
  const char *str;
  gsize len;
  guint32 id;
} FtraceName;

/* sched_switch's fields; a prio or state not known is -1 (text) or
 * what the format reads for a missing field. */
typedef struct
{
  FtraceName prev_comm;
  gint64 prev_tid;
  gint32 prev_prio;
  gint64 prev_state; /* #TraceTaskState bits, -1: not a state */
  FtraceName next_comm;
  gint64 next_tid;
  gint32 next_prio;
} FtraceSwitch;

/* sched_wakeup's, sched_waking's and sched_wakeup_new's fields. */
typedef struct
{
  FtraceName comm;
  gint64 tid;
  gint32 prio;
  gint32 target_cpu;
  gint32 success;
} FtraceWakeup;

/* The fields of sched_process_exit/free and task_newtask/rename; @comm
 * is a rename's new name. */
typedef struct
{
  FtraceName comm;
  FtraceName old_comm;
  gint64 tid;
  gint32 prio;
  guint64 clone_flags;
  gboolean has_oom_score_adj;
  gint32 oom_score_adj;
} FtraceTask;

/* cpu_frequency's and cpu_idle's fields. */
typedef struct
{
  gint64 state;
  gint32 cpu_id;
} FtraceCpu;

/**
 * FtraceKernelEvent:
 * @kind: one of the scheduler, task and cpu kinds of #TraceEventKind
 * @u: the fields of @kind: @sched_switch; @wakeup for the three wakeups;
 *   @task for sched_process_exit/free and task_newtask/rename; @cpu for
 *   cpu_frequency and cpu_idle
 *
 * A kernel event of a kind the event model has, typed.
 */
typedef struct
{
  TraceEventKind kind;
  union
  {
    FtraceSwitch sched_switch;
    FtraceWakeup wakeup;
    FtraceTask task;
    FtraceCpu cpu;
  } u;
} FtraceKernelEvent;

TraceEvent *ftrace_parser_add_kernel (FtraceParser *parser,
                                      TraceBatch *batch,
                                      const FtraceRecord *rec,
                                      const FtraceKernelEvent *e);
gboolean ftrace_parser_add_print (FtraceParser *parser,
                                  TraceBatch *batch,
                                  const FtraceRecord *rec,
                                  const char *buf,
                                  gsize len);
TraceEvent *ftrace_parser_add_generic (FtraceParser *parser,
                                       TraceBatch *batch,
                                       const FtraceRecord *rec,
                                       const FtraceName *event);
void ftrace_parser_add_kernel_text (FtraceParser *parser,
                                    TraceBatch *batch,
                                    const FtraceRecord *rec,
                                    const char *event,
                                    gsize event_len,
                                    const char *payload,
                                    gsize len);
void ftrace_parser_add_field (FtraceParser *parser,
                              TraceBatch *batch,
                              TraceEvent *ev,
                              const char *key,
                              gsize key_len,
                              const char *value,
                              gsize value_len);
TraceClockDomain ftrace_clock_from_name (const char *name,
                                         gsize len);
gint64 ftrace_task_state_parse (const char *s,
                                gsize len);
guint32 ftrace_parser_intern (FtraceParser *parser,
                              const char *s,
                              gsize len);

/* ------------------------------------------------------------ reader */

/**
 * FtraceReaderOptions:
 * @pid: the app's pid for a RheaTrace main-thread capture without its
 *   TRACE_START line; 0 when not given
 * @process_name: (nullable): the app's process name (a PROCESS_NAME event
 *   for RheaTrace captures)
 * @format: (nullable): %NULL or "auto" to detect, else one of
 *   ftrace_reader_get_formats()
 * @threads: threads that parse plain text (0 or 1: the caller's only)
 *
 * ftrace-src keeps its properties here; the reader copies what it keeps,
 * the strings stay the caller's.
 */
typedef struct
{
  gint64 pid;
  char *process_name;
  char *format;
  guint threads;
} FtraceReaderOptions;

typedef struct _FtraceReader FtraceReader;

/**
 * FtraceReaderStats:
 * @bytes_read: bytes read from the input (compressed bytes of `atrace -z`)
 * @nul_bytes: NUL bytes skipped as damage
 * @parser: the parser's counters
 *
 * A reader's counters, one struct (the element reports its fields as
 * they are); plain data, copy it freely.
 */
typedef struct
{
  guint64 bytes_read;
  guint64 nul_bytes;
  FtraceStats parser;
} FtraceReaderStats;

FtraceReader *ftrace_reader_new (GInputStream *in,
                                 const char *location,
                                 TraceStringPool *pool,
                                 const FtraceReaderOptions *opts);
void ftrace_reader_free (FtraceReader *reader);

gboolean ftrace_reader_read_batch (FtraceReader *reader,
                                   TraceBatch **out,
                                   GError **error);

TraceClockDomain ftrace_reader_get_clock_domain (FtraceReader *reader);
const char *ftrace_reader_get_format (FtraceReader *reader);
const char *ftrace_reader_get_compression (FtraceReader *reader);
guint64 ftrace_reader_get_bytes_read (FtraceReader *reader);
guint64 ftrace_reader_get_nul_bytes (FtraceReader *reader);
const FtraceStats *ftrace_reader_get_stats (FtraceReader *reader);
void ftrace_reader_copy_stats (FtraceReader *reader,
                               FtraceReaderStats *out);
char *ftrace_reader_get_summary (FtraceReader *reader);
FtraceParser *ftrace_reader_get_parser (FtraceReader *reader);

const char *const *ftrace_reader_get_formats (void);
gboolean ftrace_is_bare_zlib (const guint8 *d,
                              gsize n);
gboolean ftrace_is_html (const guint8 *d,
                         gsize n);
gboolean ftrace_html_has_data_block (const guint8 *data,
                                     gsize size);
gboolean ftrace_reader_is_format (const char *format);

/**
 * FtraceJsonBlockFuncs:
 * @begin: a JSON block starts on line @line_no of the file (of the
 *   viewer-data part for trace2html); %FALSE: skip it (it is counted as
 *   %FTRACE_PROBLEM_SKIPPED_BLOCK)
 * @data: the next bytes of the block's JSON, in order (lines joined with
 *   `\n`); returning %FALSE with @error set stops the reader with it
 * @end: the block ended (at `</script>`, or at the end of the input)
 *
 * Who reads the JSON blocks of a systrace HTML file (a Chrome trace
 * beside the ftrace text). Without them, a JSON block is skipped and
 * counted as %FTRACE_PROBLEM_SKIPPED_BLOCK.
 */
typedef struct
{
  gboolean (*begin) (gpointer user_data,
                     guint64 line_no);
  gboolean (*data) (gpointer user_data,
                    const char *data,
                    gsize len,
                    GError **error);
  void (*end) (gpointer user_data);
} FtraceJsonBlockFuncs;

void ftrace_reader_set_json_block_funcs (FtraceReader *reader,
                                         const FtraceJsonBlockFuncs *funcs,
                                         gpointer user_data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FtraceReader, ftrace_reader_free)

/* ------------------------------------------------------------ writer */

/* Kernel records (scheduling, task, cpu, raw ftrace) written back as
 * ftrace text lines: json-sink's systemTraceEvents. */
typedef struct _FtraceTextWriter FtraceTextWriter;

FtraceTextWriter *ftrace_text_writer_new (TraceStringPool *pool);
void ftrace_text_writer_free (FtraceTextWriter *writer);
void ftrace_text_writer_note_thread_name (FtraceTextWriter *writer,
                                          gint64 tid,
                                          guint32 name);
guint32 ftrace_text_writer_get_thread_name (FtraceTextWriter *writer,
                                            gint64 tid);
void ftrace_text_writer_learn_comms (FtraceTextWriter *writer,
                                     const TraceEvent *ev);
const char *ftrace_text_record_name (FtraceTextWriter *writer,
                                     const TraceEvent *ev);
gboolean ftrace_text_is_marker (const char *name);
void ftrace_text_write_record (FtraceTextWriter *writer,
                               GString *line,
                               TraceBatch *batch,
                               const TraceEvent *ev);
void ftrace_text_write_marker (FtraceTextWriter *writer,
                               GString *line,
                               const TraceEvent *ev,
                               const char *payload,
                               gsize len);
gboolean ftrace_text_can_write_counter (FtraceTextWriter *writer,
                                        const TraceEvent *ev);
void ftrace_text_write_counter (FtraceTextWriter *writer,
                                GString *line,
                                const TraceEvent *ev);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FtraceTextWriter, ftrace_text_writer_free)

G_END_DECLS
