/* tracepipe - json plugin: the reader's internals, shared by its source files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "json-reader.h"

G_BEGIN_DECLS

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
gboolean chrome_reader_maybe_start_chunks (ChromeReader *r);
gboolean chrome_reader_refill_chunks (ChromeReader *r, gsize want, GError **error);
gboolean chrome_reader_take_scanned (ChromeReader *r);
void chrome_reader_chunks_free (ChromeReader *r);

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

G_END_DECLS
