/* tracepipe - the ftrace text engine's internals, shared by its files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <string.h>
#include <zlib.h>

#include "ftrace-text.h"

G_BEGIN_DECLS

/* One thread the parser has seen: the pid (tgid) it belongs to and its
 * name, with the name's bytes so a line's comm is compared without
 * interning it. */
typedef struct
{
  gint64 tid;
  gint64 pid;
  const char *name_str; /* the pool's copy, stable */
  guint32 name_len;
  guint32 name;
} FtraceThread;

/* Open-addressed tid -> FtraceThread table; tids are never removed. */
typedef struct
{
  FtraceThread *slots;
  guint8 *used;
  guint mask;
  guint n_used;
} FtraceThreadTable;

/* A small cache of byte string -> pool id, so the same names are not
 * hashed, locked and looked up in the shared pool on every line. */
typedef struct
{
  guint64 hash;
  const char *str; /* the pool's copy */
  guint32 len;
  guint32 id;
} FtraceInternSlot;

#define FTRACE_INTERN_CACHE_SIZE 4096

/* The fields of an ftrace event line's prefix, pointing into the line. */
typedef struct
{
  const char *task;
  gsize task_len;
  gint64 tid;
  gint64 tgid; /* TRACE_ID_UNKNOWN when absent or `(-----)` */
  gint32 cpu;
  gint64 ts;
  const char *event;
  gsize event_len;
  const char *payload;
  gsize payload_len;
  gint64 pid;             /* filled from the thread table */
  gboolean ts_is_counter; /* no decimal point: a raw counter clock */
} FtraceLine;

/* A line as ftrace_line_prepare() leaves it. */
typedef enum
{
  FTRACE_PREPARED_BLANK,
  FTRACE_PREPARED_COMMENT,
  FTRACE_PREPARED_EVENT, /* @event holds the prefix */
  FTRACE_PREPARED_OTHER, /* a dump row, RheaTrace, metadata or garbage */
} FtracePreparedKind;

typedef struct
{
  FtracePreparedKind kind;
  const char *text; /* the line without indentation and line end */
  gsize len;
  FtraceLine event;
} FtracePreparedLine;

void ftrace_line_prepare (const char *line,
                          gsize len,
                          FtracePreparedLine *out);
void ftrace_parser_parse_prepared (FtraceParser *p,
                                   FtracePreparedLine *prep,
                                   TraceBatch *batch);

typedef enum
{
  FTRACE_SECTION_TEXT,   /* ftrace/atrace lines */
  FTRACE_SECTION_PS,     /* after a `USER ... PID ...` header */
  FTRACE_SECTION_CGROUP, /* after `CGROUP DUMP` */
} FtraceSection;

/* Column layout of the ps table being read. */
typedef struct
{
  gint pid_col;
  gint tid_col;         /* -1 for a process table */
  gint name_col;        /* in row tokens */
  gboolean name_to_end; /* the name is the rest of the line */
} FtracePsLayout;

struct _FtraceParser
{
  TraceStringPool *pool;
  FtraceThreadTable threads;
  FtraceThreadTable processes; /* pid -> process name (pid field unused) */
  FtraceInternSlot intern[FTRACE_INTERN_CACHE_SIZE];
  FtraceStats stats;
  FtraceSeen seen;
  TraceClockDomain clock;
  gboolean clock_fixed; /* set by `# clock_type=` */
  FtraceSection section;
  FtracePsLayout ps;
  guint64 line_no;
  gboolean line_no_set;
  gint64 last_ts;

  /* RheaTrace */
  gint64 rhea_pid;
  char *rhea_process_name;
  gboolean rhea_started;
  gboolean rhea_ended;
  gboolean rhea_process_named;

  const char *location; /* for debug messages; the reader's, or NULL */

  /* the first unparsable line, for an error that says what was found */
  char first_unparsable[48];

  /* interned keys used on the hot path */
  guint32 key_name;
  guint32 key_function;
  guint32 key_work;
};

/* ftrace-parser.c */
void ftrace_parser_set_location (FtraceParser *p,
                                 const char *location);
guint32 ftrace_intern (FtraceParser *p,
                       const char *s,
                       gsize len);
TraceEvent *ftrace_emit (FtraceParser *p,
                         TraceBatch *batch,
                         TraceEventKind kind,
                         const FtraceLine *line);
FtraceThread *ftrace_thread_get (FtraceParser *p,
                                 gint64 tid);
void ftrace_learn_thread (FtraceParser *p,
                          TraceBatch *batch,
                          gint64 ts,
                          gint64 tid,
                          gint64 pid,
                          const char *name,
                          gsize name_len,
                          gboolean overwrite_name);
void ftrace_resolve_line (FtraceParser *p,
                          TraceBatch *batch,
                          FtraceLine *line,
                          gint64 hint_pid);
void ftrace_learn_process (FtraceParser *p,
                           TraceBatch *batch,
                           gint64 pid,
                           const char *name,
                           gsize name_len);

/* ftrace-bytes.c: small helpers on non-terminated byte ranges */
static inline gboolean
ftrace_is_space (char c)
{
  return c == ' ' || c == '\t';
}

static inline gboolean
ftrace_is_digit (char c)
{
  return (guchar) (c - '0') < 10;
}

static inline gboolean
ftrace_has_prefix (const char *s,
                   gsize len,
                   const char *prefix,
                   gsize prefix_len)
{
  return len >= prefix_len && memcmp (s, prefix, prefix_len) == 0;
}

#define FTRACE_HAS_PREFIX(s, len, lit) ftrace_has_prefix ((s), (len), lit, sizeof (lit) - 1)

static inline gboolean
ftrace_equal (const char *s,
              gsize len,
              const char *lit,
              gsize lit_len)
{
  return len == lit_len && memcmp (s, lit, len) == 0;
}

#define FTRACE_EQUAL(s, len, lit) ftrace_equal ((s), (len), lit, sizeof (lit) - 1)

/* Drops leading and trailing blanks, and the trailing NUL an atrace
 * writer may include. */
static inline void
ftrace_trim (const char **s,
             gsize *len)
{
  const char *p = *s;
  gsize n = *len;

  while (n > 0 && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
    p++, n--;
  while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r' || p[n - 1] == '\n' || p[n - 1] == '\0'))
    n--;
  *s = p;
  *len = n;
}

gboolean ftrace_parse_int (const char *s,
                           gsize len,
                           gint64 *out);
gboolean ftrace_parse_int_prefix (const char *s,
                                  gsize len,
                                  gint64 *out);
gboolean ftrace_parse_hex (const char *s,
                           gsize len,
                           guint64 *out);
gboolean ftrace_parse_seconds (const char *s,
                               gsize len,
                               gint64 *ns);
guint64 ftrace_hash_bytes (const char *s,
                           gsize len);

/* Key=value fields of a kernel event payload. */
typedef struct
{
  const char *key;
  gsize key_len;
  const char *value;
  gsize value_len;
} FtraceField;

#define FTRACE_MAX_FIELDS 48

guint ftrace_split_fields (const char *s,
                           gsize len,
                           FtraceField *fields,
                           guint max_fields,
                           const char **positional,
                           gsize *positional_len);
void ftrace_skip_caller (const char **s,
                         gsize *len);
void ftrace_strip_unit (const char **value,
                        gsize *len);

/* ftrace-marker.c */
void ftrace_parse_marker (FtraceParser *p,
                          TraceBatch *batch,
                          FtraceLine *line,
                          const char *payload,
                          gsize len,
                          gboolean rhea);
gboolean ftrace_parse_print_marker (FtraceParser *p,
                                    TraceBatch *batch,
                                    FtraceLine *line,
                                    const char *buf,
                                    gsize len);

/* ftrace-kernel.c */

/* A task-state letter and the kernel's task-state bits in the 4.4 layout
 * perfetto assumes for traces without a kernel version: the parser reads
 * letters into bits with it, the writer writes bits as letters. */
typedef struct
{
  char letter;
  gint64 bit; /* 0 for the letters that are no single bit ('I', '+') */
} FtraceTaskState;

/* 'I' (idle) is D|N; '+' (preempted) follows the other letters */
#define FTRACE_N_TASK_STATES 13

extern const FtraceTaskState ftrace_task_states[FTRACE_N_TASK_STATES];

void ftrace_parse_kernel_event (FtraceParser *p,
                                TraceBatch *batch,
                                FtraceLine *line);
void ftrace_add_value_arg (FtraceParser *p,
                           TraceBatch *batch,
                           TraceEvent *ev,
                           guint32 key,
                           const char *value,
                           gsize value_len);
void ftrace_add_fields_as_args (FtraceParser *p,
                                TraceBatch *batch,
                                TraceEvent *ev,
                                const FtraceField *fields,
                                guint n_fields,
                                guint64 consumed_mask);

/* ftrace-kernel-events.c: the mapping of typed fields into events */
TraceEvent *ftrace_kernel_event (FtraceParser *p,
                                 TraceBatch *batch,
                                 const FtraceLine *line,
                                 gboolean learn,
                                 const FtraceKernelEvent *e);
TraceEvent *ftrace_kernel_generic (FtraceParser *p,
                                   TraceBatch *batch,
                                   const FtraceLine *line,
                                   const FtraceName *event);

/* ftrace-dump.c */
gboolean ftrace_parse_metadata_line (FtraceParser *p,
                                     TraceBatch *batch,
                                     const char *s,
                                     gsize len);
gboolean ftrace_parse_ps_row (FtraceParser *p,
                              TraceBatch *batch,
                              const char *s,
                              gsize len);

/* ftrace-rhea.c */
gboolean ftrace_parse_rhea_line (FtraceParser *p,
                                 TraceBatch *batch,
                                 const char *s,
                                 gsize len);
void ftrace_rhea_finish (FtraceParser *p,
                         TraceBatch *batch);

/* ---------------------------------------------- ftrace-input.c: byte stages
 *
 * A chain of stages, each reading from the one below: the stream, then
 * maybe UTF-16 -> UTF-8, then maybe the zlib stream of an `atrace -z`
 * capture. A prefix stage serves bytes already read while sniffing
 * before reading on. */

typedef struct _FtraceInput FtraceInput;

FtraceInput *ftrace_input_new_stream (GInputStream *stream);
FtraceInput *ftrace_input_new_prefixed (FtraceInput *upstream,
                                        const guint8 *data,
                                        gsize len);
FtraceInput *ftrace_input_new_inflate (FtraceInput *upstream,
                                       guint64 base_offset);
FtraceInput *ftrace_input_new_utf16 (FtraceInput *upstream,
                                     gboolean big_endian);

gssize ftrace_input_read (FtraceInput *input,
                          guint8 *buf,
                          gsize size,
                          GError **error);
gssize ftrace_input_read_full (FtraceInput *input,
                               guint8 *buf,
                               gsize size,
                               GError **error);
guint64 ftrace_input_get_raw_bytes (FtraceInput *input);
gboolean ftrace_input_get_cut (FtraceInput *input,
                               guint64 *offset);
void ftrace_input_free (FtraceInput *input);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FtraceInput, ftrace_input_free)

/* ------------------------------------- reader internals: lines and HTML */

/* A piece of a line longer than FTRACE_MAX_LINE_LENGTH: more follows */
#define FTRACE_PIECE_MORE (1 << 0)
/* The piece continues a line delivered before */
#define FTRACE_PIECE_CONTINUED (1 << 1)

typedef void (*FtraceLineFunc) (gpointer user_data,
                                const char *line,
                                gsize len,
                                guint flags,
                                guint64 line_no);

/* Cuts bytes into lines (without the '\n') and hands them to @func; a
 * line is copied only when it straddles two feeds, and lines longer than
 * FTRACE_MAX_LINE_LENGTH come in pieces, so memory stays bounded. */
typedef struct
{
  char *carry;
  gsize carry_len;
  gboolean in_long;
  guint64 line_no;
  FtraceLineFunc func;
  gpointer user_data;
} FtraceSplitter;

void ftrace_splitter_init (FtraceSplitter *s,
                           FtraceLineFunc func,
                           gpointer user_data);
void ftrace_splitter_clear (FtraceSplitter *s);
void ftrace_splitter_feed (FtraceSplitter *s,
                           const char *data,
                           gsize len);
void ftrace_splitter_finish (FtraceSplitter *s);
gboolean ftrace_splitter_break (FtraceSplitter *s);

/* Offsets of NUL runs remembered for the warning. */
#define FTRACE_NUL_OFFSETS 4

/* Runs of NUL bytes skipped as damage (ftrace-reader.c). */
typedef struct
{
  guint64 bytes;
  guint64 runs;
  guint64 cut_lines; /* lines a run began inside of, dropped */
  guint64 offsets[FTRACE_NUL_OFFSETS];
  gboolean in_run; /* the last byte fed was a NUL */
} FtraceNulRuns;

typedef enum
{
  FTRACE_HTML_OUTSIDE,
  FTRACE_HTML_BLOCK_FIRST, /* in a data block, before its first line */
  FTRACE_HTML_BLOCK_TEXT,  /* in a block of ftrace text or dumps */
  FTRACE_HTML_BLOCK_SKIP,  /* in a JSON block no one reads */
  FTRACE_HTML_BLOCK_JSON,  /* in a JSON block, handed to the block funcs */
  FTRACE_HTML_LEGACY,      /* in `var linuxPerfData = "\` */
  FTRACE_HTML_VIEWER,      /* in a trace2html viewer-data block */
} FtraceHtmlState;

typedef struct
{
  FtraceHtmlState state;
  guint n_blocks;
  char tail[16]; /* end of the previous piece, for a split `</script>` */
  gsize tail_len;
  /* trace2html: base64 -> gunzip -> lines */
  gint b64_state;
  guint b64_save;
  z_stream z;
  gboolean z_init;
  gboolean z_end;
  gboolean z_plain; /* the part is not gzip: decoded bytes are the text */
  guint8 gz_magic[2];
  gsize gz_magic_len;
  FtraceSplitter nested;
  FtraceHtmlState nested_state;
  guint64 viewer_line;
  /* who reads the JSON blocks (NULL funcs: they are skipped) */
  const FtraceJsonBlockFuncs *json_funcs;
  gpointer json_user_data;
  guint n_json_read; /* JSON blocks handed to them */
} FtraceHtml;

/* The reader reads its input in blocks this size, and feeds a block to
 * the line splitter in slices this size so that a batch is returned soon
 * after it holds TRACE_BATCH_DEFAULT_SIZE events (a batch ends only
 * between slices, whichever thread prepared its lines). */
#define FTRACE_BLOCK_SIZE (1024 * 1024)
#define FTRACE_SLICE_SIZE (64 * 1024)
/* More workers than this only add chunks in flight (~2.4 MiB each):
 * parsing is bound by the thread that takes the lines back in order long
 * before (docs/performance.md). */
#define FTRACE_MAX_WORKERS 7

/* ------------------------------------ ftrace-chunks.c: lines on workers */

typedef enum
{
  FTRACE_CHUNK_LINES,  /* whole lines, prepared by a worker */
  FTRACE_CHUNK_END,    /* end of input; @data holds a last line without newline */
  FTRACE_CHUNK_ERROR,  /* reading failed with @error */
  FTRACE_CHUNK_SERIAL, /* @data from here on is split on the reader's thread */
} FtraceChunkKind;

typedef struct
{
  FtracePreparedLine prep; /* not set when @raw_len is over FTRACE_MAX_LINE_LENGTH */
  gsize raw_len;
  guint32 slice; /* the slice of the block its newline was read in */
} FtraceChunkLine;

typedef struct
{
  FtraceChunkKind kind;
  char *data; /* the previous block's unfinished line, then a block */
  gsize cap;
  gsize len;          /* LINES: up to and with the last newline */
  gsize block_offset; /* where the block starts in @data */
  gsize block_len;
  guint64 block_seq;
  FtraceChunkLine *lines;
  guint n_lines;
  guint lines_cap;
  GError *error;
} FtraceChunk;

TraceChunkRing *ftrace_chunks_new (guint n_workers,
                                   guint n_lenders);

struct _FtraceReader
{
  char *location;
  TraceStringPool *pool;
  FtraceParser *parser;
  GInputStream *stream;
  FtraceInput *input;
  char *forced_format;
  const char *format;
  const char *compression;
  gboolean started;
  gboolean finished;
  gboolean html;
  guint8 *block;
  gsize block_len;
  gsize block_pos;
  gboolean input_eof;
  FtraceSplitter splitter;
  guint64 fed; /* decoded bytes given to the splitter or skipped */
  FtraceNulRuns nul;
  FtraceHtml h;
  TraceBatch *batch;
  GError *error;   /* set by line callbacks, reported by read_batch */
  GError *pending; /* reported on the call after the batch it ended */

  /* lines prepared on worker threads (ftrace-reader-chunks.c) */
  guint n_threads;
  TraceChunkRing *chunks;            /* of FtraceChunk; NULL: one thread */
  TraceChunkRingUnstarted unstarted; /* what peeking does with a chunk no one started */
  gboolean parallel;                 /* chunks are read; FALSE again after a SERIAL chunk */
  gboolean read_done;                /* the END, ERROR or SERIAL chunk is submitted */
  char *carry;                       /* the unfinished line of the last block read */
  gsize carry_len;
  guint64 read_offset; /* decoded bytes read */
  guint64 block_seq;
  guint64 slice_key; /* the slice whose lines were taken last */
  guint next_line;   /* in the head chunk */
  guint64 lines;     /* line number of the last line taken */
};

/* ftrace-reader.c */
void ftrace_reader_text_line (FtraceReader *r,
                              const char *line,
                              gsize len,
                              guint flags,
                              guint64 line_no);

gboolean ftrace_reader_finish_input (FtraceReader *r,
                                     GError **error);
void ftrace_reader_feed_text (FtraceReader *r,
                              const char *data,
                              gsize len);
gboolean ftrace_reader_fill_batch (FtraceReader *r,
                                   GError **error);

/* ftrace-reader-chunks.c */
void ftrace_reader_start_chunks (FtraceReader *r);
gboolean ftrace_reader_fill_batch_chunks (FtraceReader *r,
                                          GError **error);

/* ftrace-html.c */
void ftrace_html_init (FtraceReader *r);
void ftrace_html_clear (FtraceReader *r);
void ftrace_html_line (gpointer user_data,
                       const char *line,
                       gsize len,
                       guint flags,
                       guint64 line_no);
void ftrace_html_finish (FtraceReader *r);

G_END_DECLS
