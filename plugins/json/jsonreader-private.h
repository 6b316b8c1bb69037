/* tracepipe - json plugin: reader internals shared by its source files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "jsonreader.h"
#include "jsonscan.h"
#include "jsonspill.h"

G_BEGIN_DECLS

#define JSON_READER_BLOCK_SIZE (1024 * 1024)
#define JSON_READER_INTERN_CACHE 4096
#define JSON_READER_SYSTEM_TRACE_MEMORY (8 * 1024 * 1024)

/* Samples of V8 profiles whose Profile event (with the start time) has
 * not been read yet are held back, up to this many in all. */
#define JSON_READER_MAX_PENDING_SAMPLES (1u << 20)

/* pid/tid given as a non-numeric string: the string is interned and the
 * id is this base plus its pool id, far above any real pid. */
#define JSON_READER_STRING_ID_BASE (G_GINT64_CONSTANT (1) << 56)

/* Stack node ids of top-level "stackFrames" have this bit set; those of
 * V8 ProfileChunk nodes are `session << 32 | node id`. */
#define JSON_READER_FRAME_ID_BIT (G_GUINT64_CONSTANT (1) << 63)

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

/* A node of a V8 ProfileChunk, while the chunk is read (jsonprofile.c). */
typedef struct
{
  guint64 id;
  guint64 parent;
  gboolean has_parent;
  JsonValue function_name, url, children;
  gint64 line, column;
  gboolean has_line, has_column;
} ChunkNode;

/* The members of one event object that the reader looks at. */
typedef struct
{
  JsonValue ph, name, cat, ts, dur, pid, tid, id, id2_local, id2_global;
  JsonValue scope, s, bp, bind_id, args, sf, weight, cpu, tts, tdur;
  gboolean flow_in, flow_out;
  guint n_members;
} JsonEventFields;

struct _JsonTraceReader
{
  GInputStream *in;
  char *location;
  TraceStringPool *pool;
  gboolean sniffed;

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

  JsonSpill *system_trace;
  char *display_time_unit;
  char *clock_domain_name;
  TraceClockDomain clock_domain;
  JsonObject *metadata;

  TraceBatch *batch;
  GString *scratch;
  GString *key_buf;
  InternSlot intern_cache[JSON_READER_INTERN_CACHE];
  GHashTable *named_ids; /* string pids/tids already named */
  gint64 last_ts;
  gboolean args_dropped;
  /* an element broken inside that had not ended yet: where it starts,
   * where its garbage is (0: none) */
  guint64 broken_element;
  guint64 broken_at;

  /* jsonprofile.c */
  GHashTable *profiles;
  guint n_sessions;
  guint64 n_pending_samples;
  GArray *tmp_nodes;
  GArray *tmp_samples;
  GArray *tmp_deltas;
  GHashTable *tmp_index;
  TraceBatch *deferred; /* samples waiting for "stackFrames" */
  gboolean frames_read;

  JsonTraceReaderStats stats;
};

/* jsonreader.c */
void json_reader_skip (JsonTraceReader *r, JsonTraceSkipReason reason, guint64 offset);
void json_reader_skip_n (JsonTraceReader *r, JsonTraceSkipReason reason, guint64 offset, guint64 n);

/* jsonevent.c */
JsonScanResult json_event_scan_fields (JsonScanner *s, int depth, JsonEventFields *f);
void json_reader_convert_event (JsonTraceReader *r, const JsonEventFields *f, guint64 offset, int depth);
guint32 json_reader_intern (JsonTraceReader *r, const char *p, gsize len);
guint32 json_reader_intern_value (JsonTraceReader *r, const JsonValue *v);
gboolean json_reader_value_to_ns (const JsonValue *v, gint64 *ns);
gboolean json_reader_value_to_int (const JsonValue *v, gint64 *out);
gboolean json_reader_value_to_id (JsonTraceReader *r, const JsonValue *v, guint64 *id);
gboolean json_reader_find_member (const JsonValue *object, const char *key, JsonValue *out);
gboolean json_reader_resolve_thread (JsonTraceReader *r, const JsonEventFields *f, gint64 ts, gint64 *pid, gint64 *tid);
TraceEvent *json_reader_append (JsonTraceReader *r, TraceEventKind kind, gint64 ts, gint64 pid, gint64 tid);

/* jsonargs.c */
int json_reader_add_args (JsonTraceReader *r, TraceEvent *ev, const JsonEventFields *f, int depth, guint64 offset);

/* jsonprofile.c */
int json_reader_convert_profile (JsonTraceReader *r, const JsonEventFields *f, gint64 ts, gint64 pid, gint64 tid, guint64 offset);
void json_reader_convert_top_sample (JsonTraceReader *r, const JsonEventFields *f, guint64 offset);
void json_reader_convert_stack_frame (JsonTraceReader *r, const JsonValue *key, const JsonValue *value, guint64 offset);
guint64 json_reader_frame_id (JsonTraceReader *r, const JsonValue *v);
gboolean json_reader_for_each_element (JsonTraceReader *r, const JsonValue *array, gboolean (*func) (JsonTraceReader *r, const JsonValue *element, gpointer data), gpointer data);
TraceEvent *json_reader_append_frame_sample (JsonTraceReader *r, gint64 ts, gint64 pid, gint64 tid);
void json_reader_flush_deferred (JsonTraceReader *r);
void json_reader_profiles_finish (JsonTraceReader *r);
void json_reader_profiles_free (JsonTraceReader *r);

/* The result of converting one event: CONV_OK or a JsonTraceSkipReason. */
#define CONV_OK (-1)

G_END_DECLS
