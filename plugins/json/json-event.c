/* tracepipe - json plugin: one Chrome trace event object → TraceEvents
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * An event is parsed in two steps.  chrome_event_scan_fields()
 * (json-scan.c) finds the members the reader needs without any side
 * effect, so a block that ends inside the event can simply be scanned
 * again once more data is read. chrome_reader_convert_event() then turns
 * the fields into events, parsing the args object in place.  The mappings follow perfetto's JSON importer
 * (the reference for what a file means) except where docs/json.md says.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "json-reader-private.h"

/* ------------------------------------------------------------------ */
/* Value helpers                                                       */

/**
 * chrome_reader_intern:
 *
 * Interns through a small direct-mapped cache: trace names repeat, and a
 * hit costs a hash and a memcmp instead of the pool's lock and table.
 */
static inline gboolean
cache_hit (const InternSlot *slot,
           const char *p,
           gsize len)
{
  return slot->str != NULL && slot->len == len && chrome_text_equal (slot->str, p, len);
}

static guint32
intern_into (ChromeReader *r,
             InternSlot *slot,
             const char *p,
             gsize len)
{
  guint32 id = trace_string_pool_intern_len (r->pool, p, len);

  slot->str = trace_string_pool_get (r->pool, id);
  slot->len = len;
  slot->id = id;
  return id;
}

guint32
chrome_reader_intern (ChromeReader *r,
                      const char *p,
                      gsize len)
{
  InternSlot *slot;

  if (len == 0)
    return 0;
  slot = &r->intern_cache[trace_string_pool_hash (p, len) & (CHROME_READER_INTERN_CACHE - 1)];
  if (cache_hit (slot, p, len))
    return slot->id;
  return intern_into (r, slot, p, len);
}

/**
 * chrome_reader_add_string_arg:
 *
 * Adds a string arg. A value the reader has not seen before is kept in
 * the batch (%TRACE_ARG_TEXT), not interned: most values seen once are
 * never seen again (frame and request ids, urls with a query), and each
 * interned one would stay in the pool to the end, so memory grew with
 * the input (18 MiB more from 50 to 200 MB of a Chrome-shaped trace).
 * A value seen before (its hash is in a table of the last ones seen
 * once) is interned, so a repeated value costs an id, not its bytes, in
 * every batch and in a sink that interns. A collision in that table only
 * interns a value early. The decision depends on the values before it in
 * the file alone, so the output is the same with any number of threads.
 */
void
chrome_reader_add_string_arg (ChromeReader *r,
                              TraceEvent *ev,
                              guint32 key,
                              const char *p,
                              gsize len)
{
  guint32 hash, mark, *seen;
  InternSlot *slot;
  guint32 id;

  if (len == 0)
    {
      trace_batch_add_arg (r->batch, ev, key, TRACE_ARG_STRING)->v.s = 0;
      return;
    }
  hash = trace_string_pool_hash (p, len);
  slot = &r->intern_cache[hash & (CHROME_READER_INTERN_CACHE - 1)];
  seen = &r->seen_values[(hash >> 12) & (CHROME_READER_SEEN_VALUES - 1)];
  mark = hash | 1; /* 0 is an empty entry */
  if (cache_hit (slot, p, len))
    id = slot->id;
  else if (*seen == mark)
    id = intern_into (r, slot, p, len);
  else
    {
      *seen = mark;
      trace_batch_add_arg_text (r->batch, ev, key, p, len);
      return;
    }
  trace_batch_add_arg (r->batch, ev, key, TRACE_ARG_STRING)->v.s = id;
}

/**
 * chrome_reader_intern_value:
 *
 * Interns a string's decoded text, or a number's or literal's text.
 * Containers and missing values give 0, the empty string.
 */
guint32
chrome_reader_intern_value (ChromeReader *r,
                            const ChromeValue *v)
{
  const char *p;
  gsize len;

  switch (v->type)
    {
    case CHROME_VALUE_STRING:
      p = chrome_string_decode (v, r->scratch, &len);
      return chrome_reader_intern (r, p, len);
    case CHROME_VALUE_NUMBER:
    case CHROME_VALUE_TRUE:
    case CHROME_VALUE_FALSE:
      return chrome_reader_intern (r, v->start, v->end - v->start);
    default:
      return 0;
    }
}

/**
 * chrome_reader_value_to_ns:
 *
 * A timestamp or duration in µs (number or numeric string) in ns, as
 * trace_processor reads it (chrome_time_to_ns()).
 */
gboolean
chrome_reader_value_to_ns (const ChromeValue *v,
                           gint64 *ns)
{
  if (v->type == CHROME_VALUE_NUMBER ||
      (v->type == CHROME_VALUE_STRING && !v->escaped))
    return chrome_time_to_ns (v->start, v->end, ns);
  return FALSE;
}

gboolean
chrome_reader_value_to_int (const ChromeValue *v,
                            gint64 *out)
{
  if (v->type == CHROME_VALUE_NUMBER ||
      (v->type == CHROME_VALUE_STRING && !v->escaped))
    return chrome_decimal_to_int64 (v->start, v->end, out);
  return FALSE;
}

/**
 * chrome_reader_value_to_id:
 *
 * An async, flow or profile id: a number, a hex string ("0x2a", "2a")
 * parsed as hex like perfetto does for flows, or any other string hashed.
 * The empty string is no id.
 */
gboolean
chrome_reader_value_to_id (ChromeReader *r,
                           const ChromeValue *v,
                           guint64 *id)
{
  const char *p;
  gsize len;

  if (v->type == CHROME_VALUE_NUMBER)
    {
      if (!chrome_decimal_to_uint64 (v->start, v->end, id))
        *id = chrome_hash64 (v->start, v->end - v->start);
      return TRUE;
    }
  if (v->type != CHROME_VALUE_STRING)
    return FALSE;
  p = chrome_string_decode (v, r->scratch, &len);
  if (len == 0)
    return FALSE;
  if (!chrome_hex_to_uint64 (p, p + len, id))
    *id = chrome_hash64 (p, len);
  return TRUE;
}

/**
 * chrome_reader_find_member:
 *
 * Looks @key up in an object value (no escapes in keys).
 */
gboolean
chrome_reader_find_member (const ChromeValue *object,
                           const char *key,
                           ChromeValue *out)
{
  ChromeScanner s;
  ChromeValue k, v;
  gboolean first = TRUE;

  if (object->type != CHROME_VALUE_OBJECT)
    return FALSE;
  chrome_scanner_init (&s, object->start, object->end);
  if (chrome_scan_enter (&s, '{') != CHROME_SCAN_OK)
    return FALSE;
  while (chrome_scan_member (&s, &first, &k) == CHROME_SCAN_OK)
    {
      if (chrome_scan_value (&s, &v, 1) != CHROME_SCAN_OK)
        return FALSE;
      if (chrome_value_is (&k, key))
        {
          *out = v;
          return TRUE;
        }
    }
  return FALSE;
}

TraceEvent *
chrome_reader_append (ChromeReader *r,
                      TraceEventKind kind,
                      gint64 ts,
                      gint64 pid,
                      gint64 tid)
{
  TraceEvent *ev = trace_batch_append (r->batch, kind, ts);

  ev->pid = pid;
  ev->tid = tid;
  return ev;
}

/* ------------------------------------------------------------------ */
/* Phases                                                              */

typedef struct
{
  gint64 ts, pid, tid;
  guint64 offset;
  int depth;
  ChromeStringId *sids[2]; /* of a string pid, tid */
} EventContext;

static TraceEvent *
append_named (ChromeReader *r,
              const ChromeEventFields *f,
              const EventContext *c,
              TraceEventKind kind)
{
  guint32 name = chrome_reader_intern_value (r, &f->name);
  guint32 cat = chrome_reader_intern_value (r, &f->cat);
  TraceEvent *ev = chrome_reader_append (r, kind, c->ts, c->pid, c->tid);

  ev->name = name;
  ev->category = cat;
  return ev;
}

/* Chrome's thread time (`tts`, and `tdur` of an `X`), in µs like `ts`:
 * kept when it reads as a time, as trace_processor keeps it. */
static void
add_thread_time (const ChromeEventFields *f,
                 TraceEvent *ev)
{
  gint64 tts = -1, tdur = -1;

  if (f->tts.type != CHROME_VALUE_NONE && !chrome_fields_time (f, CHROME_NUMBER_TTS, &f->tts, &tts))
    tts = -1;
  if (ev->kind == TRACE_EVENT_SLICE_COMPLETE && f->tdur.type != CHROME_VALUE_NONE &&
      !chrome_fields_time (f, CHROME_NUMBER_TDUR, &f->tdur, &tdur))
    tdur = -1;
  if (tts < 0 && tdur < 0)
    return;
  ev->flags |= TRACE_EVENT_FLAG_THREAD_TIME;
  ev->u.slice.thread_ts = tts;
  ev->u.slice.thread_dur = tdur;
}

static int
convert_slice (ChromeReader *r,
               const ChromeEventFields *f,
               const EventContext *c,
               TraceEventKind kind)
{
  gint64 dur = 0;
  guint64 bind_id = 0;
  gboolean has_bind = f->bind_id.type != CHROME_VALUE_NONE &&
                      chrome_reader_value_to_id (r, &f->bind_id, &bind_id);
  TraceEvent *ev;

  if (kind == TRACE_EVENT_SLICE_COMPLETE && !chrome_fields_time (f, CHROME_NUMBER_DUR, &f->dur, &dur))
    return CHROME_SKIP_BAD_DURATION;
  ev = append_named (r, f, c, kind);
  ev->u.slice.dur = dur;
  add_thread_time (f, ev);
  if (has_bind && kind != TRACE_EVENT_SLICE_END)
    {
      /* flow v2: the flow ids travel on the slice itself */
      if (f->flow_out)
        ev->u.slice.flow_out = bind_id;
      if (f->flow_in)
        ev->u.slice.flow_in = bind_id;
    }
  return chrome_reader_add_args (r, ev, f, c->depth, c->offset);
}

static int
convert_instant (ChromeReader *r,
                 const ChromeEventFields *f,
                 const EventContext *c)
{
  guint16 flags = TRACE_EVENT_FLAG_SCOPE_THREAD;
  TraceEvent *ev;

  if (f->s.type != CHROME_VALUE_NONE)
    {
      if (chrome_value_is (&f->s, "p"))
        flags = TRACE_EVENT_FLAG_SCOPE_PROCESS;
      else if (chrome_value_is (&f->s, "g"))
        flags = TRACE_EVENT_FLAG_SCOPE_GLOBAL;
      else if (!chrome_value_is (&f->s, "t"))
        return CHROME_SKIP_BAD_SCOPE;
    }
  ev = append_named (r, f, c, TRACE_EVENT_INSTANT);
  ev->flags = flags;
  if (flags == TRACE_EVENT_FLAG_SCOPE_THREAD)
    add_thread_time (f, ev);
  return chrome_reader_add_args (r, ev, f, c->depth, c->offset);
}

/* Whether @p is an optional sign and digits only. */
static gboolean
text_is_integer (const char *p,
                 gsize len)
{
  gsize i = len > 0 && (p[0] == '+' || p[0] == '-');

  if (i == len)
    return FALSE;
  for (; i < len; i++)
    if (!g_ascii_isdigit (p[i]))
      return FALSE;
  return TRUE;
}

/* A counter value written as a string: trace_processor takes whatever C's
 * strtod reads up to the end of the string (".75", "+10.5", "1e3", " 12",
 * "0x1A", "inf", "nan"; not ""), so do we. */
static gboolean
counter_string_value (const char *p,
                      gsize len,
                      double *value,
                      gboolean *is_int)
{
  gsize used;

  *value = chrome_strtod_len (p, len, &used);
  if (used == 0 || used != len)
    return FALSE;
  *is_int = isfinite (*value) && text_is_integer (p, len);
  return TRUE;
}

/* A counter value: a number, or a string holding one (perfetto accepts
 * both).  Integer literals keep TRACE_EVENT_FLAG_COUNTER_INT. */
static gboolean
counter_value (ChromeReader *r,
               const ChromeValue *v,
               double *value,
               gboolean *is_int)
{
  const char *p;
  gsize len;

  if (v->type == CHROME_VALUE_NUMBER)
    {
      *is_int = chrome_decimal_is_integer (v->start, v->end);
      return chrome_decimal_to_double (v->start, v->end, value);
    }
  if (v->type != CHROME_VALUE_STRING)
    return FALSE;
  p = chrome_string_decode (v, r->scratch, &len);
  return counter_string_value (p, len, value, is_int);
}

/* Counter names follow perfetto: "<name>[ id: <id>] <key>", one counter
 * per key of args. */
static void
counter_name_prefix (ChromeReader *r,
                     const ChromeEventFields *f)
{
  const char *p;
  gsize len;

  g_string_truncate (r->key_buf, 0);
  if (f->name.type == CHROME_VALUE_STRING)
    {
      p = chrome_string_decode (&f->name, r->scratch, &len);
      g_string_append_len (r->key_buf, p, len);
    }
  if (f->id.type == CHROME_VALUE_STRING || f->id.type == CHROME_VALUE_NUMBER)
    {
      g_string_append (r->key_buf, " id: ");
      if (f->id.type == CHROME_VALUE_STRING)
        p = chrome_string_decode (&f->id, r->scratch, &len);
      else
        p = f->id.start, len = f->id.end - f->id.start;
      g_string_append_len (r->key_buf, p, len);
    }
  g_string_append_c (r->key_buf, ' ');
}

static int
convert_counter (ChromeReader *r,
                 const ChromeEventFields *f,
                 const EventContext *c)
{
  guint32 cat = chrome_reader_intern_value (r, &f->cat);
  guint64 id = 0;
  gsize prefix;
  ChromeScanner s;
  ChromeValue key, v;
  gboolean first = TRUE;

  if (f->args.type != CHROME_VALUE_OBJECT)
    return CHROME_SKIP_BAD_VALUE;
  if (f->id.type != CHROME_VALUE_NONE)
    chrome_reader_value_to_id (r, &f->id, &id);
  counter_name_prefix (r, f);
  prefix = r->key_buf->len;
  chrome_scanner_init (&s, f->args.start, f->args.end);
  chrome_scan_enter (&s, '{');
  while (chrome_scan_member (&s, &first, &key) == CHROME_SCAN_OK)
    {
      double value;
      gboolean is_int = FALSE;
      gsize len;
      const char *k;
      TraceEvent *ev;

      if (chrome_scan_value (&s, &v, c->depth + 1) != CHROME_SCAN_OK)
        return CHROME_SKIP_MALFORMED;
      if (!counter_value (r, &v, &value, &is_int))
        {
          chrome_reader_skip (r, CHROME_SKIP_BAD_VALUE, c->offset);
          continue;
        }
      k = chrome_string_decode (&key, r->scratch, &len);
      g_string_truncate (r->key_buf, prefix);
      g_string_append_len (r->key_buf, k, len);
      ev = chrome_reader_append (r, TRACE_EVENT_COUNTER, c->ts, c->pid, c->tid);
      ev->name = chrome_reader_intern (r, r->key_buf->str, r->key_buf->len);
      ev->category = cat;
      ev->u.counter.value = value;
      ev->u.counter.id = id;
      if (is_int)
        ev->flags |= TRACE_EVENT_FLAG_COUNTER_INT;
    }
  return CONV_OK;
}

/* An id as chrome_reader_value_to_id() reads it; with @empty_is_id, the
 * empty string too, which trace_processor takes as an id of its own for
 * async events (not for flows, whose ids it reads as hex). */
static gboolean
value_to_id (ChromeReader *r,
             const ChromeValue *v,
             gboolean empty_is_id,
             guint64 *id)
{
  if (empty_is_id && v->type == CHROME_VALUE_STRING && v->start == v->end)
    {
      *id = chrome_hash64 (v->start, 0);
      return TRUE;
    }
  return chrome_reader_value_to_id (r, v, id);
}

/* The identity of an async slice or flow: "id" (global, as perfetto and
 * catapult treat it), or id2.global, or id2.local (scoped to the
 * process). */
static gboolean
async_id (ChromeReader *r,
          const ChromeEventFields *f,
          gboolean empty_is_id,
          guint64 *id,
          gboolean *global)
{
  *global = TRUE;
  if (value_to_id (r, &f->id, empty_is_id, id) || value_to_id (r, &f->id2_global, empty_is_id, id))
    return TRUE;
  *global = FALSE;
  return value_to_id (r, &f->id2_local, empty_is_id, id);
}

/* trace_processor binds a flow v2 (bind_id with flow_in/flow_out) of a
 * `b` or `n` event to its async slice, as it binds one of a thread
 * slice; an async event keeps it in its args, where
 * trace_batch_add_slice_flow() puts every flow of an async event. */
static void
bind_async_flow (ChromeReader *r,
                 const ChromeEventFields *f,
                 TraceEvent *ev)
{
  guint64 id;

  if ((!f->flow_in && !f->flow_out) || !chrome_reader_value_to_id (r, &f->bind_id, &id))
    return;
  trace_batch_add_slice_flow (r->batch, ev, f->flow_in ? id : 0, f->flow_out ? id : 0);
}

static int
convert_async (ChromeReader *r,
               const ChromeEventFields *f,
               const EventContext *c,
               TraceEventKind kind,
               guint16 flags)
{
  guint64 id;
  gboolean global;
  guint32 scope, step = 0;
  ChromeValue v;
  TraceEvent *ev;
  int res;

  if (!async_id (r, f, TRUE, &id, &global))
    return CHROME_SKIP_BAD_ID;
  scope = chrome_reader_intern_value (r, &f->scope);
  if (kind == TRACE_EVENT_ASYNC_STEP && chrome_reader_find_member (&f->args, "step", &v))
    step = chrome_reader_intern_value (r, &v);
  ev = append_named (r, f, c, kind);
  ev->flags = flags | (global ? TRACE_EVENT_FLAG_ID_GLOBAL : 0);
  ev->u.async.id = id;
  ev->u.async.scope = scope;
  ev->u.async.step = step;
  res = chrome_reader_add_args (r, ev, f, c->depth, c->offset);
  /* b and n only: trace_processor ignores the unnestable S/T/p/F whole */
  if (res == CONV_OK && f->bind_id.type != CHROME_VALUE_NONE && !(flags & TRACE_EVENT_FLAG_ASYNC_LEGACY) &&
      (kind == TRACE_EVENT_ASYNC_BEGIN || kind == TRACE_EVENT_ASYNC_INSTANT))
    bind_async_flow (r, f, ev);
  return res;
}

static int
convert_flow (ChromeReader *r,
              const ChromeEventFields *f,
              const EventContext *c,
              TraceEventKind kind)
{
  guint64 id;
  gboolean global;
  TraceEvent *ev;

  if (!async_id (r, f, FALSE, &id, &global))
    return CHROME_SKIP_BAD_ID;
  ev = append_named (r, f, c, kind);
  ev->u.async.id = id;
  ev->flags = global ? TRACE_EVENT_FLAG_ID_GLOBAL : 0;
  /* Only a flow end chooses: bp "e" binds it to the enclosing slice,
   * otherwise to the next slice that begins on the thread. */
  if (kind == TRACE_EVENT_FLOW_END && !chrome_value_is (&f->bp, "e"))
    ev->flags |= TRACE_EVENT_FLAG_FLOW_NEXT_SLICE;
  return chrome_reader_add_args (r, ev, f, c->depth, c->offset);
}

/* A Perfetto packet json-sink wrote as a metadata event of its name
 * (json-writer.c, write_record()): read back as the record it was, so
 * that perfetto-sink can write the packet again. */
static gboolean
is_carried_record (const ChromeValue *name)
{
  static const char prefix[] = "perfetto_packet_";

  return name->type == CHROME_VALUE_STRING && (gsize) (name->end - name->start) > sizeof prefix - 1 &&
         memcmp (name->start, prefix, sizeof prefix - 1) == 0;
}

static int
convert_metadata (ChromeReader *r,
                  const ChromeEventFields *f,
                  const EventContext *c)
{
  static const struct
  {
    const char *name;
    const char *arg;
    TraceEventKind kind;
  } known[] = {
    { "process_name", "name", TRACE_EVENT_PROCESS_NAME },
    { "thread_name", "name", TRACE_EVENT_THREAD_NAME },
    { "process_labels", "labels", TRACE_EVENT_PROCESS_LABEL },
    { "process_sort_index", "sort_index", TRACE_EVENT_PROCESS_SORT_INDEX },
    { "thread_sort_index", "sort_index", TRACE_EVENT_THREAD_SORT_INDEX },
  };

  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      ChromeValue v;
      TraceEvent *ev;
      gint64 index = 0;
      gboolean is_index = known[i].kind == TRACE_EVENT_PROCESS_SORT_INDEX ||
                          known[i].kind == TRACE_EVENT_THREAD_SORT_INDEX;

      if (!chrome_value_is (&f->name, known[i].name))
        continue;
      if (!chrome_reader_find_member (&f->args, known[i].arg, &v) ||
          (is_index ? !chrome_reader_value_to_int (&v, &index)
                    : v.type != CHROME_VALUE_STRING || v.start == v.end))
        return CHROME_SKIP_BAD_VALUE;
      /* known[0], [1]: process_name and thread_name, of sids[0], [1] */
      if (i < 2 && c->sids[i] != NULL)
        return chrome_reader_hold_name (r, c->sids[i], i, c->ts, c->pid, c->tid, c->offset,
                                        chrome_reader_intern_value (r, &v));
      ev = chrome_reader_append (r, known[i].kind, c->ts, c->pid, c->tid);
      if (is_index)
        ev->u.meta.value = index;
      else
        ev->name = chrome_reader_intern_value (r, &v);
      return CONV_OK;
    }
  if (is_carried_record (&f->name))
    {
      TraceEvent *ev = chrome_reader_append (r, TRACE_EVENT_RECORD, c->ts, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN);

      ev->name = chrome_reader_intern_value (r, &f->name);
      return chrome_reader_add_args (r, ev, f, c->depth, c->offset);
    }
  return CHROME_SKIP_OTHER_METADATA;
}

/* 'c': Chrome's clock sync event, args.sync_id and optional issue_ts. */
static int
convert_clock_sync (ChromeReader *r,
                    const ChromeEventFields *f,
                    const EventContext *c)
{
  ChromeValue v;
  gint64 issue_ts = 0;
  guint32 sync_id;
  TraceEvent *ev;

  if (!chrome_reader_find_member (&f->args, "sync_id", &v) ||
      (v.type != CHROME_VALUE_STRING && v.type != CHROME_VALUE_NUMBER))
    return CHROME_SKIP_BAD_VALUE;
  sync_id = chrome_reader_intern_value (r, &v);
  if (chrome_reader_find_member (&f->args, "issue_ts", &v))
    chrome_reader_value_to_ns (&v, &issue_ts);
  ev = append_named (r, f, c, TRACE_EVENT_CLOCK_MARKER);
  ev->u.clock.marker = TRACE_CLOCK_MARKER_SYNC_ID;
  ev->u.clock.domain = r->clock_domain;
  ev->u.clock.sync_id = sync_id;
  ev->u.clock.issue_ts = issue_ts;
  return CONV_OK;
}

/* 'T' is a legacy async step in catapult (it always has an id) and a
 * thread state in perfetto (it has a dur and no id): the id decides. A
 * thread state keeps its args, where trace_processor reads `cpu` (a
 * `Running` state with one is also a sched slice), `io_wait` and
 * `blocked_function`. */
static int
convert_step_or_thread_state (ChromeReader *r,
                              const ChromeEventFields *f,
                              const EventContext *c)
{
  gint64 dur = 0;
  TraceEvent *ev;

  if (f->id.type != CHROME_VALUE_NONE || f->id2_local.type != CHROME_VALUE_NONE ||
      f->id2_global.type != CHROME_VALUE_NONE)
    return convert_async (r, f, c, TRACE_EVENT_ASYNC_STEP, TRACE_EVENT_FLAG_ASYNC_LEGACY);
  if (f->dur.type == CHROME_VALUE_NONE)
    return CHROME_SKIP_BAD_ID;
  if (!chrome_fields_time (f, CHROME_NUMBER_DUR, &f->dur, &dur))
    return CHROME_SKIP_BAD_DURATION;
  ev = append_named (r, f, c, TRACE_EVENT_THREAD_STATE);
  ev->u.thread_state.dur = dur;
  return chrome_reader_add_args (r, ev, f, c->depth, c->offset);
}

/* Object snapshots (O, N, D), contexts (parentheses), marks (z): carried
 * as they came, with their id and thread time, for a sink of Chrome's
 * format to write back (trace_processor makes nothing of them). */
static int
convert_chrome_phase (ChromeReader *r,
                      const ChromeEventFields *f,
                      const EventContext *c,
                      char ph)
{
  TraceEvent *ev = append_named (r, f, c, TRACE_EVENT_CHROME_PHASE);
  gint64 tts = -1;

  ev->u.chrome_phase.phase = (guint8) ph;
  if (value_to_id (r, &f->id, FALSE, &ev->u.chrome_phase.id))
    ev->u.chrome_phase.id_kind = TRACE_CHROME_ID_UNSCOPED;
  else if (value_to_id (r, &f->id2_global, FALSE, &ev->u.chrome_phase.id))
    ev->u.chrome_phase.id_kind = TRACE_CHROME_ID_GLOBAL;
  else if (value_to_id (r, &f->id2_local, FALSE, &ev->u.chrome_phase.id))
    ev->u.chrome_phase.id_kind = TRACE_CHROME_ID_LOCAL;
  ev->u.chrome_phase.scope = chrome_reader_intern_value (r, &f->scope);
  if (f->tts.type != CHROME_VALUE_NONE && chrome_fields_time (f, CHROME_NUMBER_TTS, &f->tts, &tts) && tts >= 0)
    {
      ev->flags |= TRACE_EVENT_FLAG_THREAD_TIME;
      ev->u.chrome_phase.thread_ts = tts;
    }
  return chrome_reader_add_args (r, ev, f, c->depth, c->offset);
}

static int
convert_phase (ChromeReader *r,
               const ChromeEventFields *f,
               const EventContext *c,
               char ph)
{
  switch (ph)
    {
    case 'B':
      return convert_slice (r, f, c, TRACE_EVENT_SLICE_BEGIN);
    case 'E':
      return convert_slice (r, f, c, TRACE_EVENT_SLICE_END);
    case 'X':
      return convert_slice (r, f, c, TRACE_EVENT_SLICE_COMPLETE);
    case 'i':
    case 'I':
    case 'R':
      return convert_instant (r, f, c);
    case 'C':
      return convert_counter (r, f, c);
    case 'b':
      return convert_async (r, f, c, TRACE_EVENT_ASYNC_BEGIN, 0);
    case 'e':
      return convert_async (r, f, c, TRACE_EVENT_ASYNC_END, 0);
    case 'n':
      return convert_async (r, f, c, TRACE_EVENT_ASYNC_INSTANT, 0);
    case 'S':
      return convert_async (r, f, c, TRACE_EVENT_ASYNC_BEGIN, TRACE_EVENT_FLAG_ASYNC_LEGACY);
    case 'F':
      return convert_async (r, f, c, TRACE_EVENT_ASYNC_END, TRACE_EVENT_FLAG_ASYNC_LEGACY);
    case 'T':
      return convert_step_or_thread_state (r, f, c);
    case 'p':
      return convert_async (r, f, c, TRACE_EVENT_ASYNC_STEP, TRACE_EVENT_FLAG_ASYNC_LEGACY | TRACE_EVENT_FLAG_STEP_PAST);
    case 's':
      return convert_flow (r, f, c, TRACE_EVENT_FLOW_START);
    case 't':
      return convert_flow (r, f, c, TRACE_EVENT_FLOW_STEP);
    case 'f':
      return convert_flow (r, f, c, TRACE_EVENT_FLOW_END);
    case 'M':
      return convert_metadata (r, f, c);
    case 'c':
      return convert_clock_sync (r, f, c);
    case 'P':
      return chrome_reader_convert_profile (r, f, c->ts, c->pid, c->tid, c->offset);
    case 'O':
    case 'N':
    case 'D':
    case '(':
    case ')':
    case 'z':
      return convert_chrome_phase (r, f, c, ph);
    default:
      return CHROME_SKIP_UNKNOWN_PHASE;
    }
}

/* Memory dumps (v, V): whole process dumps as args, which the bound of
 * CHROME_MAX_ARGS per event would cut. */
static gboolean
phase_is_unsupported (char ph)
{
  return ph == 'v' || ph == 'V';
}

/**
 * chrome_reader_convert_event:
 * @offset: byte offset of the event's '{', for the skip statistics
 * @depth: the depth of the event object
 *
 * Appends the events for one event object to the reader's batch, or
 * counts why it cannot.  Never fails: damage is counted, not fatal.
 */
void
chrome_reader_convert_event (ChromeReader *r,
                             const ChromeEventFields *f,
                             guint64 offset,
                             int depth)
{
  EventContext c = { 0, 0, 0, offset, depth, { NULL, NULL } };
  guint n_events, n_args;
  char ph;
  int res;

  if (f->ph.type == CHROME_VALUE_NONE && f->n_members == 0)
    {
      /* valid JSON (trace writers pad arrays with them) but no event:
       * counted, so that a file of nothing else says so */
      r->stats.empty_objects++;
      chrome_reader_skip (r, CHROME_SKIP_EMPTY_OBJECT, offset);
      return;
    }
  if (f->ph.type != CHROME_VALUE_STRING || f->ph.start == f->ph.end)
    {
      chrome_reader_skip (r, CHROME_SKIP_NO_PHASE, offset);
      return;
    }
  r->saw_phase = TRUE;
  ph = *f->ph.start;
  if (phase_is_unsupported (ph))
    {
      chrome_reader_skip (r, CHROME_SKIP_UNSUPPORTED_PHASE, offset);
      return;
    }
  /* Metadata needs no time (perfetto uses 0); everything else does. */
  if (!chrome_fields_time (f, CHROME_NUMBER_TS, &f->ts, &c.ts) && ph != 'M')
    {
      chrome_reader_skip (r, strchr ("BEXiIRCbenSTpFstfcPOND()z", ph) && ph ? CHROME_SKIP_BAD_TIMESTAMP : CHROME_SKIP_UNKNOWN_PHASE,
                          offset);
      return;
    }
  /* names of string ids stay even if the event is not read: trace_processor
   * names them before it looks at the phase (but never reads P's ids) */
  chrome_reader_resolve_ids (r, f, c.ts, ph != 'P', &c.pid, &c.tid, c.sids);
  n_events = r->batch->n_events;
  n_args = r->batch->n_args;
  res = convert_phase (r, f, &c, ph);
  if (res != CONV_OK)
    {
      r->batch->n_events = n_events;
      r->batch->n_args = n_args;
      chrome_reader_skip (r, res, offset);
      return;
    }
  if (ph != 'M')
    r->last_ts = c.ts;
}
