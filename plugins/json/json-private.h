/* tracepipe - json plugin: the private header of the Chrome Trace Event
 * Format engine (scanner, reader, writer) and of the json-src and
 * json-sink elements
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every private name has the `Chrome`/`chrome_` prefix: `Json…`/`json_…`
 * belong to json-glib, which this plugin uses.
 */
#pragma once

#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <trace/trace.h>

#include "ftrace-text.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* The scanner: an in-place pull scanner over a JSON buffer           */

/*
 * The scanner never allocates: values are slices of the caller's buffer.
 * Every function reports CHROME_SCAN_INCOMPLETE when the buffer ends inside
 * what it scans, so a streaming caller can read more and scan again from
 * the same start.  It is lenient where real traces are: trailing commas
 * before '}' or ']' are accepted (perfetto accepts them too).
 */

/* How deep objects and arrays may nest, counting the top-level container
 * as 1.  Deeper input is refused: it is never a real trace and recursion
 * on it would cost stack. */
#define CHROME_SCAN_MAX_DEPTH 64

typedef enum
{
  CHROME_SCAN_OK,
  CHROME_SCAN_END,        /* the container being iterated is closed */
  CHROME_SCAN_INCOMPLETE, /* the buffer ended inside the value */
  CHROME_SCAN_ERROR,      /* malformed: see error_at and error_msg */
  CHROME_SCAN_TOO_DEEP,   /* nesting deeper than CHROME_SCAN_MAX_DEPTH */
} ChromeScanResult;

typedef enum
{
  CHROME_VALUE_NONE = 0,
  CHROME_VALUE_STRING,
  CHROME_VALUE_NUMBER,
  CHROME_VALUE_TRUE,
  CHROME_VALUE_FALSE,
  CHROME_VALUE_NULL,
  CHROME_VALUE_OBJECT,
  CHROME_VALUE_ARRAY,
} ChromeValueType;

/* A value found in the buffer.  Strings: [start, end) is the raw text
 * between the quotes.  Numbers and literals: their text.  Containers:
 * from the opening bracket to just after the closing one. */
typedef struct
{
  const char *start;
  const char *end;
  guint8 type;
  guint8 escaped; /* a string with backslash escapes */
  guint8 clean;   /* a string of ASCII without NUL or escapes: its raw
                   * text is its value (0 when not known) */
} ChromeValue;

typedef struct
{
  const char *p;
  const char *end;
  const char *error_at;
  const char *error_msg; /* a static string */
} ChromeScanner;

static inline void
chrome_scanner_init (ChromeScanner *s,
                     const char *start,
                     const char *end)
{
  s->p = start;
  s->end = end;
  s->error_at = NULL;
  s->error_msg = NULL;
}

static inline const char *
chrome_skip_ws (const char *p,
                const char *end)
{
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;
  return p;
}

static inline guint64
chrome_load64 (const char *p)
{
  guint64 w;

  memcpy (&w, p, 8);
  return w;
}

/* Whether @len bytes at @a and @b are equal, inline: short names are
 * compared on every intern-cache hit, where a memcmp call costs more
 * than the comparison. Up to 32 bytes, four words that cover them all
 * (overlapping where the text is shorter) are compared at once: a loop
 * whose number of turns follows the length was mispredicted about once
 * a comparison. */
static inline gboolean
chrome_text_equal (const char *a,
                   const char *b,
                   gsize len)
{
  guint32 u, v;

  if (len >= 8)
    {
      gsize last = len - 8;

      if (len <= 32)
        return ((chrome_load64 (a) ^ chrome_load64 (b)) | (chrome_load64 (a + MIN (8, last)) ^ chrome_load64 (b + MIN (8, last))) |
                (chrome_load64 (a + MIN (16, last)) ^ chrome_load64 (b + MIN (16, last))) |
                (chrome_load64 (a + last) ^ chrome_load64 (b + last))) == 0;
      for (gsize i = 0; i < last; i += 8)
        if (chrome_load64 (a + i) != chrome_load64 (b + i))
          return FALSE;
      return chrome_load64 (a + last) == chrome_load64 (b + last);
    }
  if (len >= 4)
    {
      memcpy (&u, a, 4);
      memcpy (&v, b, 4);
      if (u != v)
        return FALSE;
      memcpy (&u, a + len - 4, 4);
      memcpy (&v, b + len - 4, 4);
      return u == v;
    }
  for (gsize i = 0; i < len; i++)
    if (a[i] != b[i])
      return FALSE;
  return TRUE;
}

ChromeScanResult chrome_scan_string (ChromeScanner *s, ChromeValue *v);
ChromeScanResult chrome_scan_value (ChromeScanner *s, ChromeValue *v, int depth);
ChromeScanResult chrome_scan_enter (ChromeScanner *s, char open);
/* json-skip.c: a container skipped whole, from its opening bracket @p */
ChromeScanResult chrome_scan_skip_container (ChromeScanner *s, const char *p, int depth);
ChromeScanResult chrome_scan_skip_container_bytes (ChromeScanner *s, const char *p, int depth);
ChromeScanResult chrome_scan_member (ChromeScanner *s, gboolean *first, ChromeValue *key);
ChromeScanResult chrome_scan_element (ChromeScanner *s, gboolean *first);

/* Strings */
gboolean chrome_value_is (const ChromeValue *v, const char *literal);
const char *chrome_string_decode_copy (const ChromeValue *v, GString *scratch, gsize *len);

/**
 * chrome_string_decode:
 * @v: a string value
 * @scratch: where a decoded copy goes when one is needed
 * @len: (out): the length of the result
 *
 * Returns: the string's text, unescaped and valid UTF-8: either a pointer
 *   into the buffer (no copy when nothing needs changing) or @scratch->str
 */
static inline const char *
chrome_string_decode (const ChromeValue *v,
                      GString *scratch,
                      gsize *len)
{
  /* inline for the usual plain ASCII (every key of every arg): the call
   * cost more than the test */
  if (G_LIKELY (v->clean))
    {
      *len = v->end - v->start;
      return v->start;
    }
  return chrome_string_decode_copy (v, scratch, len);
}
const char *chrome_decode_escape (const char *p, const char *end, GString *out);
void chrome_utf8_repair_append (GString *out, const char *p, gsize len);

/* Numbers: exact decimal arithmetic, no locale, no doubles where an
 * integer result is wanted. */
gboolean chrome_decimal_to_scaled (const char *p, const char *end, int scale, gint64 *out);
gboolean chrome_decimal_to_int64 (const char *p, const char *end, gint64 *out);
gboolean chrome_decimal_to_uint64 (const char *p, const char *end, guint64 *out);
double chrome_strtod_len (const char *p,
                          gsize len,
                          gsize *used);
gboolean chrome_decimal_to_double (const char *p, const char *end, double *out);
gboolean chrome_decimal_is_integer (const char *p, const char *end);
gboolean chrome_hex_to_uint64 (const char *p, const char *end, guint64 *out);
guint64 chrome_hash64 (const char *p, gsize len);

/* ------------------------------------------------------------------ */
/* The spill: bytes that move to a temporary file past a limit       */

/*
 * Used for text that must be written (or handed on) only at the end of a
 * stream: the systemTraceEvents text, in both directions.  Memory stays
 * bounded by the limit; the rest lives in an unlinked temporary file that
 * disappears with the process.
 */

typedef struct _ChromeSpill ChromeSpill;

ChromeSpill *chrome_spill_new (gsize memory_limit);
void chrome_spill_free (ChromeSpill *spill);
gboolean chrome_spill_write (ChromeSpill *spill, const void *data, gsize len, GError **error);
guint64 chrome_spill_get_size (ChromeSpill *spill);
gboolean chrome_spill_is_on_disk (ChromeSpill *spill);
GInputStream *chrome_spill_read (ChromeSpill *spill, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChromeSpill, chrome_spill_free)

/* ------------------------------------------------------------------ */
/* Formatting: exact numbers and string escaping                      */

void chrome_fmt_string (GString *out, const char *s, gsize len);
void chrome_fmt_string_body (GString *out, const char *s, gsize len);
void chrome_fmt_int (GString *out, gint64 v);
void chrome_fmt_uint (GString *out, guint64 v);
void chrome_fmt_us (GString *out, gint64 ns);
void chrome_fmt_double (GString *out, double v);
void chrome_fmt_hex_id (GString *out, guint64 id);

/* ------------------------------------------------------------------ */
/* The reader: streaming, the Chrome Trace Event Format in            */

/*
 * Reads the array form and the object form, in bounded
 * memory: the file is read in large blocks and each event object is
 * parsed in place, never as a whole-document tree.  Events come out in
 * file order.  See docs/json.md for every mapping decision.
 */

/* The largest single value held in memory at once (one event, one
 * metadata member, one stack frame).  Larger ones are refused. */
#define CHROME_MAX_ELEMENT_SIZE (256u * 1024 * 1024)

/* Args kept per event; the rest are dropped and counted. */
#define CHROME_MAX_ARGS 1024

/* Offsets remembered per skip reason. */
#define CHROME_MAX_OFFSETS 4

/**
 * ChromeSkipReason:
 *
 * Why something of the input did not become events.  The reasons before
 * %CHROME_SKIP_N_DAMAGE mean the input is damaged or data was lost
 * (worth a WARNING); the ones after are valid input the event model has
 * no place for (an INFO).
 */
typedef enum
{
  CHROME_SKIP_MALFORMED,
  CHROME_SKIP_TRUNCATED,
  CHROME_SKIP_NOT_AN_OBJECT,
  CHROME_SKIP_NO_PHASE,
  CHROME_SKIP_UNKNOWN_PHASE,
  CHROME_SKIP_BAD_TIMESTAMP,
  CHROME_SKIP_BAD_DURATION,
  CHROME_SKIP_BAD_ID,
  CHROME_SKIP_BAD_VALUE,
  CHROME_SKIP_BAD_SCOPE,
  CHROME_SKIP_TRAILING_DATA,
  /* not damage, but data lost (an array cut at 1024 elements): warned */
  CHROME_SKIP_ARGS_DROPPED,
  CHROME_SKIP_N_DAMAGE,
  CHROME_SKIP_UNSUPPORTED_PHASE = CHROME_SKIP_N_DAMAGE,
  CHROME_SKIP_THREAD_STATE,
  CHROME_SKIP_OTHER_METADATA,
  CHROME_SKIP_ORPHAN_SAMPLES,
  CHROME_SKIP_EMPTY_OBJECT,
  CHROME_SKIP_NAME_OVERRIDDEN,
  CHROME_SKIP_N_REASONS
} ChromeSkipReason;

typedef struct
{
  guint64 count;
  guint64 offsets[CHROME_MAX_OFFSETS]; /* byte offsets of the first ones */
} ChromeSkipCount;

/**
 * ChromeReaderStats:
 * @bytes: bytes of (decompressed) JSON read
 * @objects: event objects found in the traceEvents array
 * @events: #TraceEvent produced
 * @empty_objects: `{}` placeholders (also counted as skipped: empty object)
 * @skipped: per #ChromeSkipReason
 */
typedef struct
{
  guint64 bytes;
  guint64 objects;
  guint64 events;
  guint64 empty_objects;
  ChromeSkipCount skipped[CHROME_SKIP_N_REASONS];
} ChromeReaderStats;

typedef struct _ChromeReader ChromeReader;

ChromeReader *chrome_reader_new (GInputStream *in,
                                 const char *location,
                                 TraceStringPool *pool);
void chrome_reader_free (ChromeReader *reader);

gboolean chrome_reader_read_batch (ChromeReader *reader,
                                   TraceBatch **out,
                                   GError **error);

TraceClockDomain chrome_reader_get_clock_domain (ChromeReader *reader);
const char *chrome_reader_get_clock_domain_name (ChromeReader *reader);
const char *chrome_reader_get_display_time_unit (ChromeReader *reader);
JsonObject *chrome_reader_get_metadata (ChromeReader *reader);

gboolean chrome_reader_has_system_trace (ChromeReader *reader);
guint64 chrome_reader_get_system_trace_size (ChromeReader *reader);
GInputStream *chrome_reader_open_system_trace (ChromeReader *reader,
                                               GError **error);

guint64 chrome_reader_get_bytes_read (ChromeReader *reader);
const ChromeReaderStats *chrome_reader_get_stats (ChromeReader *reader);
gboolean chrome_reader_has_damage (ChromeReader *reader);
char *chrome_reader_get_summary (ChromeReader *reader,
                                 gboolean include_unsupported);
char *chrome_reader_get_unsupported_summary (ChromeReader *reader);
char *chrome_reader_get_failure (ChromeReader *reader);
const char *chrome_skip_reason_to_string (ChromeSkipReason reason);

/* The counters json-src reports, in ChromeReaderStats: bytes-read,
 * json-events, then skipped-<reason> for each reason in order. */
#define CHROME_READER_N_STATS (2 + CHROME_SKIP_N_REASONS)
extern const TraceFileSrcStat chrome_reader_stats[CHROME_READER_N_STATS];

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChromeReader, chrome_reader_free)

/* ------------------------------------------------------------------ */
/* Reader internals shared by its source files                        */

#define CHROME_READER_BLOCK_SIZE (1024 * 1024)
/* The first read: a small file never costs the full block (nor, in
 * the fuzz targets, a mapping of 1 MiB per input). */
#define CHROME_READER_FIRST_BLOCK_SIZE (64 * 1024)
#define CHROME_READER_INTERN_CACHE 4096
/* Hashes of the string arg values seen once (a direct-mapped table):
 * a value is interned from its second sighting on. */
#define CHROME_READER_SEEN_VALUES 16384
#define CHROME_READER_SYSTEM_TRACE_MEMORY (8 * 1024 * 1024)

/* Samples of V8 profiles whose Profile event (with the start time) has
 * not been read yet are held back, up to this many in all. */
#define CHROME_READER_MAX_PENDING_SAMPLES (1u << 20)

/* pid/tid given as a string (any string, "1" too: trace_processor's
 * rule): the string names the process or thread and the id is made up,
 * CHROME_READER_STRING_ID_BASE | 30 bits of the string's FNV-1a hash
 * (the next free one on a collision): positive in int32 and uint32, as
 * Perfetto's protos and trace_processor's JSON importer need, and above
 * any Linux pid (at most 2^22). */
#define CHROME_READER_STRING_ID_BASE (G_GINT64_CONSTANT (1) << 30)
#define CHROME_READER_STRING_ID_MASK ((G_GINT64_CONSTANT (1) << 30) - 1)

/* What the reader knows of one string pid/tid; [0] for the process of
 * that id, [1] for the thread.  trace_processor names the process or
 * thread by the string at every event that carries it, so a
 * process_name/thread_name metadata event only wins when no event of the
 * id comes at the same or a later time: such a name is held back
 * (@meta_name, with the time, ids and offset of its event) until an event
 * overrides it or the input ends.  @named: the string's name event is out;
 * @max_ts: the latest time of an event with the string. */
typedef struct
{
  guint32 name;
  gboolean named[2];
  gint64 max_ts[2];
  guint32 meta_name[2];
  gint64 meta_ts[2], meta_pid[2], meta_tid[2];
  guint64 meta_offset[2];
} ChromeStringId;

/* Stack node ids of top-level "stackFrames" have this bit set; those of
 * V8 ProfileChunk nodes are `session << 32 | node id`. */
#define CHROME_READER_FRAME_ID_BIT (G_GUINT64_CONSTANT (1) << 63)

typedef enum
{
  ROLE_EVENTS,
  ROLE_SAMPLES,
  ROLE_STACK_FRAMES,
  ROLE_METADATA,
} ContainerRole;

typedef enum
{
  FRAME_START,     /* before the top-level value */
  FRAME_MEMBER,    /* in the top-level object, before a key or '}' */
  FRAME_CONTAINER, /* in traceEvents, samples, stackFrames or metadata */
  FRAME_SKIP,      /* skipping a top-level value, across blocks */
  FRAME_STRING,    /* collecting the systemTraceEvents string */
  FRAME_RESYNC,    /* after garbage in traceEvents: looking for '{' */
  FRAME_AFTER_TOP, /* after the top-level value */
  FRAME_DONE,
} FrameState;

typedef struct
{
  const char *str;
  guint32 len;
  guint32 id;
} InternSlot;

/* A node of a V8 ProfileChunk, while the chunk is read (json-profile.c). */
typedef struct
{
  guint64 id;
  guint64 parent;
  gboolean has_parent;
  ChromeValue function_name, url, children;
  gint64 line, column;
  gboolean has_line, has_column;
} ChunkNode;

/* The numbers every event has, which the field scan reads as it meets
 * them when they are plain (chrome_event_scan_fields()). */
typedef enum
{
  CHROME_NUMBER_TS,  /* ns */
  CHROME_NUMBER_DUR, /* ns */
  CHROME_NUMBER_PID,
  CHROME_NUMBER_TID,
  CHROME_NUMBER_TTS,  /* ns */
  CHROME_NUMBER_TDUR, /* ns */
  CHROME_N_NUMBERS,
} ChromeFieldNumber;

/* The members of one event object that the reader looks at. */
typedef struct
{
  ChromeValue ph, name, cat, ts, dur, pid, tid, id, id2_local, id2_global;
  ChromeValue scope, s, bp, bind_id, args, sf, weight, cpu, tts, tdur;
  gboolean flow_in, flow_out;
  guint n_members;
  /* numbers[n] is the value of its member when bit n of numbers_read is
   * set: what chrome_decimal_to_scaled() (ts, dur, tts, tdur; scale 3)
   * or chrome_decimal_to_int64() (pid, tid) give for its text */
  guint numbers_read;
  gint64 numbers[CHROME_N_NUMBERS];
} ChromeEventFields;

/* A number the field scan already read: TRUE and its value, or FALSE
 * when the caller reads the member's text itself (not plain, a string,
 * absent). */
static inline gboolean
chrome_fields_number (const ChromeEventFields *f,
                      ChromeFieldNumber n,
                      gint64 *out)
{
  if (!(f->numbers_read & (1u << n)))
    return FALSE;
  *out = f->numbers[n];
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* json-reader-chunks.c: events scanned on worker threads             */

/* The bytes of a chunk; a test setting (TRACEPIPE_JSON_CHUNK_SIZE)
 * makes them smaller so that small files are split. */
#define CHROME_CHUNK_SIZE (256 * 1024)
/* Worker threads at most (`threads` above this + 1 acts as this + 1). */
#define CHROME_MAX_WORKERS 7

/* An event a worker scanned: its fields point into the chunk's data,
 * @start is the offset of its '{' there. */
typedef struct
{
  ChromeEventFields f;
  gsize start;
} ChromeScannedEvent;

typedef struct
{
  /* filled by the reader's thread */
  const char *data; /* buffer, or the input's mapping */
  char *buffer;     /* what the input is read into when not mapped */
  gsize len;
  guint64 offset; /* of data[0] in the input */
  GError *error;  /* reading failed after data */
  gboolean last;  /* the input ends after data */
  /* filled by a worker */
  gsize anchor;      /* just after the '}' of the first `} , {`, or G_MAXSIZE */
  gsize scanned_end; /* just after the last event scanned */
  ChromeScannedEvent *events;
  guint n_events, events_cap;
} ChromeChunk;

/* The ring of ChromeChunk and what its workers need besides a chunk. */
typedef struct
{
  TraceChunkRing *ring;
  gsize chunk_size;
  int depth; /* of the events */
} ChromeChunks;

typedef enum
{
  CHUNK_PENDING,  /* its events may be taken at its anchor */
  CHUNK_TAKING,   /* the reader reached the anchor: taking its events */
  CHUNK_RESOLVED, /* taken, or the reader went past the anchor */
} ChromeChunkState;

struct _ChromeReader
{
  GInputStream *in;
  char *location;
  TraceStringPool *pool;

  /* the block buffer: [pos, len) is unread; buf[0] is at byte `base` */
  char *buf;
  gsize cap, len, pos;
  guint64 base;
  gboolean eof;

  FrameState state;
  ContainerRole role;
  gboolean top_is_object;
  gboolean top_first; /* no member of the top-level object yet */
  gboolean first;     /* no item of the current container yet */
  gboolean seen_trace_events;
  gboolean saw_phase;
  guint64 top_start;
  int skip_depth;
  gboolean skip_scalar, skip_in_string, skip_escape;
  guint64 skip_start; /* the byte where the value being skipped starts */

  ChromeSpill *system_trace;
  char *display_time_unit;
  char *clock_domain_name;
  TraceClockDomain clock_domain;
  JsonObject *metadata;

  TraceBatch *batch;
  GString *scratch;
  GString *key_buf;
  InternSlot intern_cache[CHROME_READER_INTERN_CACHE];
  guint32 seen_values[CHROME_READER_SEEN_VALUES];
  guint last_n_args; /* what the last batch took, reserved in the next */
  gsize last_text_len;
  GHashTable *string_ids; /* made-up id → ChromeStringId */
  gint64 last_ts;
  gboolean args_dropped;
  /* an element broken inside that had not ended yet: where it starts,
   * where its garbage is (0: none) */
  guint64 broken_element;
  guint64 broken_at;

  /* json-profile.c */
  GHashTable *profiles;
  guint n_sessions;
  guint64 n_pending_samples;
  GArray *tmp_nodes;
  GArray *tmp_samples;
  GArray *tmp_deltas;
  GHashTable *tmp_index;
  TraceBatch *deferred; /* samples waiting for "stackFrames" */
  gboolean frames_read;

  ChromeReaderStats stats;

  /* json-reader-chunks.c */
  guint n_threads;
  gsize chunk_size;
  ChromeChunks *chunks;
  gboolean chunks_read_done; /* the input is read into chunks to its end */
  guint64 chunks_offset;     /* of the next chunk read */
  ChromeChunk *head;         /* the oldest chunk in use, once a worker is done with it */
  gsize head_pos;            /* bytes of the oldest chunk copied to buf */
  ChromeChunkState head_state;
  guint next_event; /* of the oldest chunk, while taking */
  guint64 chunks_taken, chunks_missed, chunks_stolen;
  gboolean chunks_patient;  /* see chrome_reader_set_patient() */
  TraceInputMap *input_map; /* the input in place; unowned, may be NULL */
  const char *map;          /* the input in place, while chunks read it */
  gsize map_size;
};

/* json-reader.c */
gsize chrome_reader_make_room (ChromeReader *r, GError **error);
gboolean chrome_reader_read_error (ChromeReader *r, GError *io_error, GError **error);

/* json-reader-chunks.c */
void chrome_reader_set_threads (ChromeReader *r, guint threads);
gboolean chrome_reader_maybe_start_chunks (ChromeReader *r);
gboolean chrome_reader_refill_chunks (ChromeReader *r, gsize want, GError **error);
gboolean chrome_reader_take_scanned (ChromeReader *r);
void chrome_reader_chunks_free (ChromeReader *r);
void chrome_reader_set_patient (ChromeReader *r, gboolean patient);
void chrome_reader_set_input_map (ChromeReader *r, TraceInputMap *map);
void chrome_reader_get_chunk_counts (ChromeReader *r, guint64 *taken, guint64 *missed, guint64 *stolen);

void chrome_reader_skip (ChromeReader *r, ChromeSkipReason reason, guint64 offset);
void chrome_reader_skip_n (ChromeReader *r, ChromeSkipReason reason, guint64 offset, guint64 n);

/* json-event.c */
ChromeScanResult chrome_event_scan_fields (ChromeScanner *s, int depth, ChromeEventFields *f);
void chrome_reader_convert_event (ChromeReader *r, const ChromeEventFields *f, guint64 offset, int depth);
guint32 chrome_reader_intern (ChromeReader *r, const char *p, gsize len);
guint32 chrome_reader_intern_value (ChromeReader *r, const ChromeValue *v);
void chrome_reader_add_string_arg (ChromeReader *r, TraceEvent *ev, guint32 key, const char *p, gsize len);
gboolean chrome_reader_value_to_ns (const ChromeValue *v, gint64 *ns);
gboolean chrome_reader_value_to_int (const ChromeValue *v, gint64 *out);
gboolean chrome_reader_value_to_id (ChromeReader *r, const ChromeValue *v, guint64 *id);
gboolean chrome_reader_find_member (const ChromeValue *object, const char *key, ChromeValue *out);

/* A time member of an event (ts, dur, tts, tdur: @n and its value @v) in
 * ns: as the field scan read it, else converted from its text. */
static inline gboolean
chrome_fields_time (const ChromeEventFields *f,
                    ChromeFieldNumber n,
                    const ChromeValue *v,
                    gint64 *ns)
{
  return chrome_fields_number (f, n, ns) || chrome_reader_value_to_ns (v, ns);
}

/* json-ids.c */
gboolean chrome_reader_resolve_thread (ChromeReader *r, const ChromeEventFields *f, gint64 ts, gboolean names, gint64 *pid, gint64 *tid);
gboolean chrome_reader_resolve_ids (ChromeReader *r, const ChromeEventFields *f, gint64 ts, gboolean names, gint64 *pid, gint64 *tid, ChromeStringId *sids[2]);
int chrome_reader_hold_name (ChromeReader *r, ChromeStringId *sid, int which, gint64 ts, gint64 pid, gint64 tid, guint64 offset, guint32 name);
void chrome_reader_flush_names (ChromeReader *r);
TraceEvent *chrome_reader_append (ChromeReader *r, TraceEventKind kind, gint64 ts, gint64 pid, gint64 tid);

/* json-args.c */
int chrome_reader_add_args (ChromeReader *r, TraceEvent *ev, const ChromeEventFields *f, int depth, guint64 offset);

/* json-profile.c */
int chrome_reader_convert_profile (ChromeReader *r, const ChromeEventFields *f, gint64 ts, gint64 pid, gint64 tid, guint64 offset);
void chrome_reader_convert_top_sample (ChromeReader *r, const ChromeEventFields *f, guint64 offset);
void chrome_reader_convert_stack_frame (ChromeReader *r, const ChromeValue *key, const ChromeValue *value, guint64 offset);
guint64 chrome_reader_frame_id (ChromeReader *r, const ChromeValue *v);
gboolean chrome_reader_for_each_element (ChromeReader *r, const ChromeValue *array, gboolean (*func) (ChromeReader *r, const ChromeValue *element, gpointer data), gpointer data);
TraceEvent *chrome_reader_append_frame_sample (ChromeReader *r, gint64 ts, gint64 pid, gint64 tid);
void chrome_reader_flush_deferred (ChromeReader *r);
void chrome_reader_profiles_finish (ChromeReader *r);
void chrome_reader_profiles_free (ChromeReader *r);

/* The result of converting one event: CONV_OK or a ChromeSkipReason. */
#define CONV_OK (-1)

/* ------------------------------------------------------------------ */
/* The writer: streaming, the Chrome Trace Event Format out           */

/*
 * Events are written as they arrive; no document is built in memory.
 * Memory is bounded by the slices still open (complete-slice style), the
 * kernel text (spilled to a temporary file past a limit) and the stack
 * nodes of CPU samples.  See docs/json.md for every mapping decision.
 */

/* The defaults of ChromeWriterOptions, each said once: the writer takes
 * them for a 0 (NULL) member, json-sink's properties start from them. */
#define CHROME_WRITER_DEFAULT_DISPLAY_TIME_UNIT "ns"
#define CHROME_WRITER_DEFAULT_MAX_OPEN 65536
#define CHROME_WRITER_DEFAULT_KERNEL_MEMORY (8 * 1024 * 1024)
/* Threads held for X slices: a few hundred bytes each, tens of MB at the
 * cap, which real traces (tens of thousands of threads) never reach. */
#define CHROME_WRITER_DEFAULT_MAX_THREADS (1u << 18)
/* The pseudo process of the per-cpu interrupt threads: above any Linux
 * pid (at most 2^22), within the 32 bits trace_processor reads. */
#define CHROME_IRQ_PID G_GINT64_CONSTANT (0xFFFF0000)
/* The pseudo process of the idle task's function_graph calls, a thread
 * per cpu (tid pid + 1 + cpu). */
#define CHROME_FUNCGRAPH_IDLE_PID G_GINT64_CONSTANT (0xFFFE0000)
/* Vendor trace points written as atrace lines (json-writer-kernel.c). */
#define CHROME_KERNEL_ATRACE_FORMS 6

typedef enum
{
  CHROME_FORM_OBJECT = 0, /* {"traceEvents":[…],"displayTimeUnit":…,"metadata":{…}} */
  CHROME_FORM_ARRAY,      /* […]: no metadata, no systemTraceEvents */
} ChromeForm;

typedef enum
{
  CHROME_SLICES_COMPLETE = 0, /* X events: a begin waits for its end */
  CHROME_SLICES_BEGIN_END,    /* B and E events as they come */
  CHROME_SLICES_AUTO,         /* B/E for a Chrome JSON stream
                               * (chrome_json), X otherwise */
} ChromeSliceStyle;

typedef enum
{
  CHROME_FLOWS_V1 = 0, /* s/t/f events ("bp":"e") */
  CHROME_FLOWS_V2,     /* bind_id/flow_in/flow_out on the slices */
  CHROME_FLOWS_AUTO,   /* v2 for a Chrome JSON stream (chrome_json),
                        * v1 otherwise */
} ChromeFlowStyle;

/**
 * ChromeWriterOptions:
 * @form: object (default) or array form
 * @slices: X (default) or B/E
 * @flows: flow v1 events (default) or v2 ids on slices
 * @flat_args: write dotted arg keys as they are; by default "a.b" and
 *   "a[0]" become nested objects and arrays again
 * @nestable_legacy_async: write legacy async events (S/T/F) as b/n/e,
 *   which perfetto reads; by default they stay S/T/F
 * @display_time_unit: "ns" when %NULL; "" to leave the key out
 * @clock_domain: written as metadata "clock-domain"
 * @metadata: (nullable): more members for "metadata"
 * @max_open_slices: slices held back for X before the oldest are written
 *   as B; 0 for the default (65536)
 * @system_trace_memory: bytes of kernel text kept in memory before a
 *   temporary file is used; 0 for the default (8 MiB)
 * @max_threads: threads whose slices are held for X (and CPU-profile
 *   sessions); a further thread's slices are written as B/E, its samples
 *   dropped; 0 for the default (262 144)
 * @chrome_json: the events come from a Chrome JSON trace (the stream's
 *   format is `chrome-json`): what %CHROME_SLICES_AUTO and
 *   %CHROME_FLOWS_AUTO become
 * @perfetto_kernel_events: the kernel events come from a Perfetto trace
 *   (the stream's format is `perfetto`), typed: its interrupts go as
 *   slices (chrome_writer_kernel_as_event())
 *
 * A zeroed struct means the defaults.
 */
typedef struct
{
  ChromeForm form;
  ChromeSliceStyle slices;
  ChromeFlowStyle flows;
  gboolean flat_args;
  gboolean nestable_legacy_async;
  const char *display_time_unit;
  TraceClockDomain clock_domain;
  JsonObject *metadata;
  guint max_open_slices;
  gsize system_trace_memory;
  guint max_threads;
  gboolean chrome_json;
  gboolean perfetto_kernel_events;
} ChromeWriterOptions;

/**
 * ChromeWriterStats:
 * @events: JSON event objects written
 * @kernel_lines: systemTraceEvents lines written
 * @open_slices: slices still open at the end, written as B
 * @unmatched_ends: slice ends without a begin, written as E
 * @dropped_kernel: kernel records dropped (array form has no place for them)
 * @dropped_markers: atrace marker records not written again as text
 * @dropped_flows: slice flow ids v2 could not carry (two different ids)
 * @dropped_other: other events without a JSON form (clock markers in array
 *   form, stack nodes beyond the limit)
 * @dropped_repeated_legacy_begins: atrace `S|` begins of a family (process,
 *   cookie, name) already open, which atrace ignores; written as nestable
 *   `b` they would open a second slice
 * @dropped_unmatched_legacy_ends: atrace `F|` ends of no open family
 * @slices_past_thread_table: slice begins and ends of threads past
 *   @max_threads, written as B and E
 * @dropped_samples_past_thread_table: CPU samples of threads past
 *   @max_threads
 * @thread_names_in_kernel_text: names of threads of unknown process,
 *   written only in the task column of their kernel lines (an `M` event
 *   has a pid: trace_processor would put them in process 0)
 * @dropped_switches_without_prev: sched switches whose previous task is
 *   unknown (a cpu's first compact switch in a Perfetto trace):
 *   trace_processor skips them in the original; a text line must name one
 * @records: records of another format carried through (Perfetto packets
 *   perfetto-src did not read), written as metadata events of their name
 */
typedef struct
{
  guint64 events;
  guint64 kernel_lines;
  guint64 open_slices;
  guint64 unmatched_ends;
  guint64 dropped_kernel;
  guint64 dropped_markers;
  guint64 dropped_flows;
  guint64 dropped_other;
  guint64 thread_names_in_kernel_text;
  guint64 slices_past_thread_table;
  guint64 dropped_samples_past_thread_table;
  guint64 dropped_repeated_legacy_begins;
  guint64 dropped_unmatched_legacy_ends;
  guint64 records;
  guint64 dropped_switches_without_prev;
} ChromeWriterStats;

typedef struct _ChromeWriter ChromeWriter;

ChromeWriter *chrome_writer_new (GOutputStream *out,
                                 const ChromeWriterOptions *opts);
void chrome_writer_free (ChromeWriter *writer);

void chrome_writer_set_metadata (ChromeWriter *writer,
                                 JsonObject *metadata);
gboolean chrome_writer_write_batch (ChromeWriter *writer,
                                    TraceBatch *batch,
                                    GError **error);
gboolean chrome_writer_write_suffix (ChromeWriter *writer,
                                     GError **error);
gboolean chrome_writer_finish (ChromeWriter *writer,
                               GError **error);

guint64 chrome_writer_get_bytes_written (ChromeWriter *writer);
const ChromeWriterStats *chrome_writer_get_stats (ChromeWriter *writer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChromeWriter, chrome_writer_free)

/* ------------------------------------------------------------------ */
/* Writer internals shared by its source files                        */

/* Output is gathered in memory and written in pieces of about this size. */
#define CHROME_WRITER_FLUSH_SIZE (256 * 1024)
/* Clock markers kept for "metadata" (only sync ids have an event form). */
#define CHROME_WRITER_MAX_CLOCK_MARKERS 1024
/* Stack nodes remembered for CPU samples. */
#define CHROME_WRITER_MAX_NODES (1u << 22)
/* Samples per ProfileChunk event. */
#define CHROME_WRITER_CHUNK_SAMPLES 100

typedef struct
{
  gint64 pid;
  gint64 tid;
} ChromeThreadKey;

/* A slice begin waiting for its end, to be written as X. */
typedef struct
{
  TraceEvent ev;
  guint arg_start; /* its args, in the thread's args array */
  gboolean ended;  /* written (as X, ev.u.slice.dur set), kept while
                    * slices above it are open, as trace_processor does */
} HeldSlice;

typedef struct
{
  ChromeThreadKey key;
  GArray *stack;         /* HeldSlice: the open slices not written yet */
  GArray *args;          /* TraceArg of the held slices */
  guint64 written_below; /* open slices already written as B, under the stack */
  guint n_ended;         /* slices of the stack ended under open ones */
} WriterThread;

struct _ChromeWriter
{
  GOutputStream *out;
  ChromeWriterOptions opts;
  gboolean flows_auto; /* opts.flows was auto: flow v2 slices stay v2 */
  char *display_time_unit;
  JsonObject *metadata;
  GString *buf;
  guint64 bytes_written;
  gboolean started;
  gboolean suffix_written;
  gboolean failed;
  TraceStringPool *pool;
  guint32 str_flow, str_step, str_name, str_clock_sync; /* interned once */
  struct
  {
    guint32 k_irq_entry, k_irq_exit, k_softirq_entry, k_softirq_exit, k_vec, category;
    guint32 k_atrace[CHROME_KERNEL_ATRACE_FORMS]; /* vendor atrace trace points */
    guint32 k_gpu_frequency, k_wake_activate, k_wake_deactivate, k_wakesource;
    guint32 k_suspend_resume, k_action, k_suspend;
    guint32 k_funcgraph_entry, k_funcgraph_exit, k_func;
    guint suspend_state;   /* 0, in suspend_enter (1), in freeze_processes (2) */
    guint32 suspend_enter; /* the open suspend_enter slice's name */
    TraceEvent pending;    /* a second event to write, or kind NONE */
  } irq;                   /* interned at the first kernel event (of a Perfetto stream) */

  GHashTable *threads; /* ChromeThreadKey* → WriterThread* */
  WriterThread *last_thread;
  guint64 n_held;
  GArray *merged_args;
  /* the text of the batch being written: its text args' bytes (the args
   * a begin keeps until its end are interned, so every arg written
   * reads its text from here) */
  const char *batch_text;

  ChromeSpill *kernel;
  FtraceTextWriter *text; /* formats the lines, knows the comms */
  GString *line;
  GString *payload; /* a vendor trace point's atrace payload */

  GArray *clock_markers;         /* TraceEvent */
  GHashTable *open_legacy_async; /* ChromeLegacyAsyncKey* of atrace S| families open */
  GHashTable *wakelocks;         /* wakeup source name → activations held */
  GHashTable *ended_flows;       /* guint64 v1 flow id → flows of it ended */
  GHashTable *open_async;        /* ChromeLegacyAsyncKey* (no name) → GArray of the
                                  * (name, category) of its open begins */

  GHashTable *nodes;    /* stack node id → WriterNode */
  GHashTable *sessions; /* ChromeThreadKey* → WriterSession */
  guint n_sessions;
  guint32 next_node_id;

  ChromeWriterStats stats;
};

/* json-writer.c */
const char *chrome_writer_str (ChromeWriter *w, guint32 id, gsize *len);
void chrome_writer_put_string (ChromeWriter *w, guint32 id);
void chrome_writer_event_open (ChromeWriter *w, const char *ph, guint32 name, guint32 category, gint64 ts, gint64 pid, gint64 tid);
void chrome_writer_event_open_text (ChromeWriter *w, const char *ph, const char *name, gsize name_len, guint32 category, gint64 ts, gint64 pid, gint64 tid);
gboolean chrome_writer_flush (ChromeWriter *w, GError **error);
void chrome_writer_count_drop (ChromeWriter *w, guint64 *counter, const char *what);

/* json-writer-metadata.c */
void chrome_writer_clock_marker (ChromeWriter *w, const TraceEvent *ev);
void chrome_writer_put_metadata (ChromeWriter *w);

/* json-writer-args.c */
void chrome_writer_put_args (ChromeWriter *w, const TraceArg *args, guint n_args);
void chrome_writer_put_arg_value (ChromeWriter *w, const TraceArg *arg);

/* json-writer-kernel.c */
gboolean chrome_writer_kernel_event (ChromeWriter *w, TraceBatch *batch, const TraceEvent *ev, GError **error);
gboolean chrome_writer_kernel_counter (ChromeWriter *w, const TraceEvent *ev, gboolean *written, GError **error);
gboolean chrome_writer_kernel_as_event (ChromeWriter *w, TraceBatch *batch, const TraceEvent *ev, TraceEvent *slice);
void chrome_writer_note_thread_name (ChromeWriter *w, gint64 tid, guint32 name);
gboolean chrome_writer_kernel_suffix (ChromeWriter *w, GError **error);
void chrome_writer_kernel_free (ChromeWriter *w);

/* json-writer-profile.c */
void chrome_writer_stack_node (ChromeWriter *w, TraceBatch *batch, const TraceEvent *ev);
void chrome_writer_sample (ChromeWriter *w, const TraceEvent *ev);
void chrome_writer_profiles_finish (ChromeWriter *w);
void chrome_writer_profiles_free (ChromeWriter *w);

/* ------------------------------------------------------------------ */
/* The elements                                                       */

#define TRACE_TYPE_JSON_SRC (trace_json_src_get_type ())
G_DECLARE_FINAL_TYPE (TraceJsonSrc, trace_json_src, TRACE, JSON_SRC, TraceFileSrc)

#define TRACE_TYPE_JSON_SINK (trace_json_sink_get_type ())
G_DECLARE_FINAL_TYPE (TraceJsonSink, trace_json_sink, TRACE, JSON_SINK, TraceFileSink)

TRACE_ELEMENT_REGISTER_DECLARE (json_src)
TRACE_ELEMENT_REGISTER_DECLARE (json_sink)

G_END_DECLS
