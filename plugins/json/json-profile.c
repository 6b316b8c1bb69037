/* tracepipe - json plugin: CPU samples and stack frames in Chrome JSON
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Three shapes carry samples:
 *  - V8's `P` events: "Profile" (args.data.startTime, µs) then
 *    "ProfileChunk"s (args.data.cpuProfile.nodes/samples and
 *    args.data.timeDeltas), keyed by (pid, id).  Chunks come from the
 *    sampler thread; the samples belong to the thread of the Profile
 *    event, as in DevTools.  A Profile may come after its chunks (Chrome 70
 *    writes it last): their samples wait until it arrives.
 *  - catapult's `P` events with an "sf" stack frame reference;
 *  - the top-level "samples" array with "stackFrames" (catapult, perf).
 */
#include "config.h"

#include <string.h>

#include "json-reader-private.h"

typedef struct
{
  gint64 pid;
  guint64 id;
} ProfileKey;

typedef struct
{
  guint64 node;
  gint64 elapsed_ns;
} PendingSample;

typedef struct
{
  ProfileKey key;
  guint32 index; /* a session number from 1: the high half of node ids */
  gint64 tid;    /* the profiled thread, once the Profile event is read */
  gboolean have_start;
  gint64 start_ns;
  gint64 elapsed_ns; /* sum of the time deltas so far */
  guint64 offset;    /* of the first chunk, for the statistics */
  GArray *pending;   /* PendingSample, while the start is unknown */
} ProfileSession;

static guint
profile_key_hash (gconstpointer p)
{
  const ProfileKey *k = p;

  return (guint) (k->pid * 31 + k->id * 1000003);
}

static gboolean
profile_key_equal (gconstpointer a,
                   gconstpointer b)
{
  const ProfileKey *x = a, *y = b;

  return x->pid == y->pid && x->id == y->id;
}

static void
profile_session_free (gpointer p)
{
  ProfileSession *session = p;

  if (session->pending)
    g_array_unref (session->pending);
  g_free (session);
}

static ProfileSession *
session_get (ChromeReader *r,
             gint64 pid,
             guint64 id,
             guint64 offset)
{
  ProfileKey key = { pid, id };
  ProfileSession *session;

  if (r->profiles == NULL)
    r->profiles = g_hash_table_new_full (profile_key_hash, profile_key_equal,
                                         NULL, profile_session_free);
  session = g_hash_table_lookup (r->profiles, &key);
  if (session != NULL)
    return session;
  session = g_new0 (ProfileSession, 1);
  session->key = key;
  session->index = ++r->n_sessions;
  session->tid = TRACE_ID_UNKNOWN;
  session->offset = offset;
  g_hash_table_insert (r->profiles, &session->key, session);
  return session;
}

static guint64
node_id (const ProfileSession *session,
         guint64 id)
{
  return ((guint64) session->index << 32) | (id & G_MAXUINT32);
}

gboolean
chrome_reader_for_each_element (ChromeReader *r,
                                const ChromeValue *array,
                                gboolean (*func) (ChromeReader *r,
                                                  const ChromeValue *element,
                                                  gpointer data),
                                gpointer data)
{
  ChromeScanner s;
  ChromeValue v;
  gboolean first = TRUE;
  ChromeScanResult res;

  if (array->type != CHROME_VALUE_ARRAY)
    return FALSE;
  chrome_scanner_init (&s, array->start, array->end);
  if (chrome_scan_enter (&s, '[') != CHROME_SCAN_OK)
    return FALSE;
  while ((res = chrome_scan_element (&s, &first)) == CHROME_SCAN_OK)
    {
      if (chrome_scan_value (&s, &v, 1) != CHROME_SCAN_OK || !func (r, &v, data))
        return FALSE;
    }
  return res == CHROME_SCAN_END;
}

static void
emit_sample (ChromeReader *r,
             const ProfileSession *session,
             guint64 node,
             gint64 elapsed_ns)
{
  TraceEvent *ev = chrome_reader_append (r, TRACE_EVENT_SAMPLE,
                                         session->start_ns + elapsed_ns,
                                         session->key.pid, session->tid);

  ev->u.sample.node_id = node;
  ev->u.sample.weight = 1;
}

/* "Profile": the start time of a session, and its thread. */
static int
profile_start (ChromeReader *r,
               const ChromeEventFields *f,
               gint64 pid,
               gint64 tid,
               guint64 offset)
{
  ChromeValue data, start;
  ProfileSession *session;
  guint64 id;

  if (!chrome_reader_value_to_id (r, &f->id, &id))
    return CHROME_SKIP_BAD_ID;
  if (!chrome_reader_find_member (&f->args, "data", &data) ||
      !chrome_reader_find_member (&data, "startTime", &start))
    return CHROME_SKIP_BAD_VALUE;
  session = session_get (r, pid, id, offset);
  if (!chrome_reader_value_to_ns (&start, &session->start_ns))
    return CHROME_SKIP_BAD_VALUE;
  session->have_start = TRUE;
  session->tid = tid;
  if (session->pending != NULL)
    {
      for (guint i = 0; i < session->pending->len; i++)
        {
          PendingSample *p = &g_array_index (session->pending, PendingSample, i);

          emit_sample (r, session, p->node, p->elapsed_ns);
        }
      r->n_pending_samples -= session->pending->len;
      g_clear_pointer (&session->pending, g_array_unref);
    }
  return CONV_OK;
}

static void
read_call_frame (ChromeReader *r,
                 const ChromeValue *frame,
                 ChunkNode *node)
{
  ChromeValue v;

  if (chrome_reader_find_member (frame, "functionName", &v))
    node->function_name = v;
  if (chrome_reader_find_member (frame, "url", &v))
    node->url = v;
  if (chrome_reader_find_member (frame, "lineNumber", &v))
    node->has_line = chrome_reader_value_to_int (&v, &node->line);
  if (chrome_reader_find_member (frame, "columnNumber", &v))
    node->has_column = chrome_reader_value_to_int (&v, &node->column);
}

static gboolean
read_chunk_node (ChromeReader *r,
                 const ChromeValue *element,
                 gpointer data)
{
  ChunkNode node = { 0 };
  ChromeValue v;
  gint64 n;

  if (!chrome_reader_find_member (element, "id", &v) || !chrome_reader_value_to_int (&v, &n))
    return FALSE;
  node.id = n;
  if (chrome_reader_find_member (element, "parent", &v) && chrome_reader_value_to_int (&v, &n))
    {
      node.parent = n;
      node.has_parent = TRUE;
    }
  if (chrome_reader_find_member (element, "callFrame", &v))
    read_call_frame (r, &v, &node);
  chrome_reader_find_member (element, "children", &node.children);
  g_array_append_val (r->tmp_nodes, node);
  return TRUE;
}

static gboolean
adopt_child (ChromeReader *r,
             const ChromeValue *element,
             gpointer data)
{
  guint64 *parent = data;
  gint64 child;
  gpointer index;

  if (!chrome_reader_value_to_int (element, &child))
    return FALSE;
  if (g_hash_table_lookup_extended (r->tmp_index, GSIZE_TO_POINTER ((gsize) child), NULL, &index))
    {
      ChunkNode *node = &g_array_index (r->tmp_nodes, ChunkNode, GPOINTER_TO_UINT (index));

      node->parent = *parent;
      node->has_parent = TRUE;
    }
  return TRUE;
}

/* Older profiles give "children" lists instead of "parent" links. */
static void
resolve_children (ChromeReader *r)
{
  gboolean any = FALSE;

  for (guint i = 0; i < r->tmp_nodes->len && !any; i++)
    any = g_array_index (r->tmp_nodes, ChunkNode, i).children.type == CHROME_VALUE_ARRAY;
  if (!any)
    return;
  g_hash_table_remove_all (r->tmp_index);
  for (guint i = 0; i < r->tmp_nodes->len; i++)
    g_hash_table_insert (r->tmp_index,
                         GSIZE_TO_POINTER ((gsize) g_array_index (r->tmp_nodes, ChunkNode, i).id),
                         GUINT_TO_POINTER (i));
  for (guint i = 0; i < r->tmp_nodes->len; i++)
    {
      ChunkNode *node = &g_array_index (r->tmp_nodes, ChunkNode, i);
      guint64 parent = node->id;

      chrome_reader_for_each_element (r, &node->children, adopt_child, &parent);
    }
}

static void
add_node_args (ChromeReader *r,
               TraceEvent *ev,
               const ChunkNode *node)
{
  if (node->url.type == CHROME_VALUE_STRING && node->url.start != node->url.end)
    trace_batch_add_arg (r->batch, ev, chrome_reader_intern (r, "url", 3), TRACE_ARG_STRING)->v.s =
        chrome_reader_intern_value (r, &node->url);
  if (node->has_line)
    trace_batch_add_arg (r->batch, ev, chrome_reader_intern (r, "line", 4), TRACE_ARG_INT)->v.i = node->line;
  if (node->has_column)
    trace_batch_add_arg (r->batch, ev, chrome_reader_intern (r, "column", 6), TRACE_ARG_INT)->v.i = node->column;
}

static void
emit_chunk_nodes (ChromeReader *r,
                  const ProfileSession *session,
                  gint64 ts,
                  gint64 tid)
{
  for (guint i = 0; i < r->tmp_nodes->len; i++)
    {
      const ChunkNode *node = &g_array_index (r->tmp_nodes, ChunkNode, i);
      guint32 name = chrome_reader_intern_value (r, &node->function_name);
      TraceEvent *ev = chrome_reader_append (r, TRACE_EVENT_STACK_NODE, ts,
                                             session->key.pid, tid);

      ev->name = name;
      ev->u.stack_node.id = node_id (session, node->id);
      ev->u.stack_node.parent_id = node->has_parent ? node_id (session, node->parent) : 0;
      add_node_args (r, ev, node);
    }
}

static gboolean
read_sample (ChromeReader *r,
             const ChromeValue *element,
             gpointer data)
{
  gint64 node;

  if (!chrome_reader_value_to_int (element, &node))
    return FALSE;
  g_array_append_val (r->tmp_samples, node);
  return TRUE;
}

static gboolean
read_delta (ChromeReader *r,
            const ChromeValue *element,
            gpointer data)
{
  gint64 ns;

  if (!chrome_reader_value_to_ns (element, &ns))
    return FALSE;
  g_array_append_val (r->tmp_deltas, ns);
  return TRUE;
}

static void
add_chunk_samples (ChromeReader *r,
                   ProfileSession *session,
                   guint64 offset)
{
  guint n = MIN (r->tmp_samples->len, r->tmp_deltas->len);

  if (r->tmp_samples->len != r->tmp_deltas->len)
    chrome_reader_skip (r, CHROME_SKIP_BAD_VALUE, offset);
  for (guint i = 0; i < n; i++)
    {
      guint64 node = node_id (session, g_array_index (r->tmp_samples, gint64, i));
      PendingSample p;

      session->elapsed_ns += g_array_index (r->tmp_deltas, gint64, i);
      if (session->have_start)
        {
          emit_sample (r, session, node, session->elapsed_ns);
          continue;
        }
      if (r->n_pending_samples >= CHROME_READER_MAX_PENDING_SAMPLES)
        {
          chrome_reader_skip (r, CHROME_SKIP_ORPHAN_SAMPLES, offset);
          continue;
        }
      if (session->pending == NULL)
        session->pending = g_array_new (FALSE, FALSE, sizeof (PendingSample));
      p.node = node;
      p.elapsed_ns = session->elapsed_ns;
      g_array_append_val (session->pending, p);
      r->n_pending_samples++;
    }
}

/* "ProfileChunk": new call-tree nodes, and samples with time deltas. */
static int
profile_chunk (ChromeReader *r,
               const ChromeEventFields *f,
               gint64 ts,
               gint64 pid,
               gint64 tid,
               guint64 offset)
{
  ChromeValue data, profile, v;
  ProfileSession *session;
  guint64 id;

  if (!chrome_reader_value_to_id (r, &f->id, &id))
    return CHROME_SKIP_BAD_ID;
  if (!chrome_reader_find_member (&f->args, "data", &data))
    return CONV_OK; /* Chrome writes empty chunks when a profile stops */
  session = session_get (r, pid, id, offset);
  g_array_set_size (r->tmp_nodes, 0);
  g_array_set_size (r->tmp_samples, 0);
  g_array_set_size (r->tmp_deltas, 0);
  if (chrome_reader_find_member (&data, "cpuProfile", &profile))
    {
      if (chrome_reader_find_member (&profile, "nodes", &v) &&
          !chrome_reader_for_each_element (r, &v, read_chunk_node, NULL))
        return CHROME_SKIP_BAD_VALUE;
      if (chrome_reader_find_member (&profile, "samples", &v) &&
          !chrome_reader_for_each_element (r, &v, read_sample, NULL))
        return CHROME_SKIP_BAD_VALUE;
    }
  if (chrome_reader_find_member (&data, "timeDeltas", &v) &&
      !chrome_reader_for_each_element (r, &v, read_delta, NULL))
    return CHROME_SKIP_BAD_VALUE;
  resolve_children (r);
  emit_chunk_nodes (r, session, ts, session->tid != TRACE_ID_UNKNOWN ? session->tid : tid);
  add_chunk_samples (r, session, offset);
  return CONV_OK;
}

/**
 * chrome_reader_frame_id:
 *
 * The stack node id of a "stackFrames" key or an "sf" reference: the
 * decimal value when the key is a number, else a hash; the top bit keeps
 * them apart from V8 profile nodes.
 */
guint64
chrome_reader_frame_id (ChromeReader *r,
                        const ChromeValue *v)
{
  const char *p;
  gsize len;
  gint64 n;

  if (v->type == CHROME_VALUE_NUMBER)
    p = v->start, len = v->end - v->start;
  else if (v->type == CHROME_VALUE_STRING)
    p = chrome_string_decode (v, r->scratch, &len);
  else
    return 0;
  if (chrome_decimal_to_int64 (p, p + len, &n) && n >= 0 && n < (G_GINT64_CONSTANT (1) << 62))
    return CHROME_READER_FRAME_ID_BIT | (guint64) n;
  return CHROME_READER_FRAME_ID_BIT | (G_GUINT64_CONSTANT (1) << 62) |
         (chrome_hash64 (p, len) >> 2);
}

/* A catapult `P` event: one sample of the frame "sf" refers to. */
static int
catapult_sample (ChromeReader *r,
                 const ChromeEventFields *f,
                 gint64 ts,
                 gint64 pid,
                 gint64 tid)
{
  guint64 node = chrome_reader_frame_id (r, &f->sf);
  guint32 name = chrome_reader_intern_value (r, &f->name);
  TraceEvent *ev = chrome_reader_append_frame_sample (r, ts, pid, tid);

  ev->name = name;
  ev->u.sample.node_id = node;
  ev->u.sample.weight = 1;
  return CONV_OK;
}

/**
 * chrome_reader_convert_profile:
 *
 * Converts a `P` event.
 *
 * Returns: %CONV_OK or a skip reason
 */
int
chrome_reader_convert_profile (ChromeReader *r,
                               const ChromeEventFields *f,
                               gint64 ts,
                               gint64 pid,
                               gint64 tid,
                               guint64 offset)
{
  if (chrome_value_is (&f->name, "Profile"))
    return profile_start (r, f, pid, tid, offset);
  if (chrome_value_is (&f->name, "ProfileChunk"))
    return profile_chunk (r, f, ts, pid, tid, offset);
  return catapult_sample (r, f, ts, pid, tid);
}

/**
 * chrome_reader_convert_top_sample:
 *
 * One element of the top-level "samples" array.
 */
void
chrome_reader_convert_top_sample (ChromeReader *r,
                                  const ChromeEventFields *f,
                                  guint64 offset)
{
  gint64 ts, pid, tid, weight = 1, cpu;
  guint64 node;
  guint32 name;
  TraceEvent *ev;

  if (!chrome_fields_time (f, CHROME_NUMBER_TS, &f->ts, &ts))
    {
      chrome_reader_skip (r, CHROME_SKIP_BAD_TIMESTAMP, offset);
      return;
    }
  chrome_reader_resolve_thread (r, f, ts, FALSE, &pid, &tid);
  node = chrome_reader_frame_id (r, &f->sf);
  name = chrome_reader_intern_value (r, &f->name);
  if (f->weight.type != CHROME_VALUE_NONE)
    chrome_reader_value_to_int (&f->weight, &weight);
  ev = chrome_reader_append_frame_sample (r, ts, pid, tid);
  ev->name = name;
  ev->u.sample.node_id = node;
  ev->u.sample.weight = weight;
  if (chrome_reader_value_to_int (&f->cpu, &cpu) && cpu >= 0 && cpu <= G_MAXINT32)
    ev->cpu = cpu;
  r->last_ts = ts;
}

/**
 * chrome_reader_convert_stack_frame:
 *
 * One member of the top-level "stackFrames" object:
 * `"id": {"name": …, "category": …, "parent": id}`.
 */
void
chrome_reader_convert_stack_frame (ChromeReader *r,
                                   const ChromeValue *key,
                                   const ChromeValue *value,
                                   guint64 offset)
{
  ChromeValue v;
  guint64 id, parent = 0;
  guint32 name = 0, category = 0;
  TraceEvent *ev;

  if (value->type != CHROME_VALUE_OBJECT)
    {
      chrome_reader_skip (r, CHROME_SKIP_BAD_VALUE, offset);
      return;
    }
  id = chrome_reader_frame_id (r, key);
  if (chrome_reader_find_member (value, "parent", &v))
    parent = chrome_reader_frame_id (r, &v);
  if (chrome_reader_find_member (value, "name", &v))
    name = chrome_reader_intern_value (r, &v);
  if (chrome_reader_find_member (value, "category", &v))
    category = chrome_reader_intern_value (r, &v);
  /* A definition has no time of its own: the latest one read keeps the
   * stream's time range unchanged. */
  ev = chrome_reader_append (r, TRACE_EVENT_STACK_NODE, r->last_ts, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN);
  ev->name = name;
  ev->category = category;
  ev->u.stack_node.id = id;
  ev->u.stack_node.parent_id = parent;
}

/**
 * chrome_reader_append_frame_sample:
 *
 * Appends a sample whose stack is a "stackFrames" node.  In the object
 * form, "stackFrames" often comes after the samples (catapult, perf):
 * the samples are held back (up to CHROME_READER_MAX_PENDING_SAMPLES) so
 * that the stack nodes come first, as sinks need them.
 */
TraceEvent *
chrome_reader_append_frame_sample (ChromeReader *r,
                                   gint64 ts,
                                   gint64 pid,
                                   gint64 tid)
{
  TraceEvent *ev;

  if (!r->top_is_object || r->frames_read ||
      (r->deferred != NULL && r->deferred->n_events >= CHROME_READER_MAX_PENDING_SAMPLES))
    return chrome_reader_append (r, TRACE_EVENT_SAMPLE, ts, pid, tid);
  if (r->deferred == NULL)
    r->deferred = trace_batch_new (r->pool, 0);
  ev = trace_batch_append (r->deferred, TRACE_EVENT_SAMPLE, ts);
  ev->pid = pid;
  ev->tid = tid;
  return ev;
}

/**
 * chrome_reader_flush_deferred:
 *
 * Once "stackFrames" is read (or the input ends): the samples held back
 * follow the stack nodes.
 */
void
chrome_reader_flush_deferred (ChromeReader *r)
{
  if (r->deferred == NULL)
    return;
  for (guint i = 0; i < r->deferred->n_events; i++)
    trace_batch_append_event (r->batch, &r->deferred->events[i], r->deferred);
  g_clear_pointer (&r->deferred, trace_batch_unref);
}

/**
 * chrome_reader_profiles_finish:
 *
 * At the end of the input: samples still waiting for a Profile event that
 * never came are counted as skipped.
 */
void
chrome_reader_profiles_finish (ChromeReader *r)
{
  GHashTableIter iter;
  ProfileSession *session;

  if (r->profiles == NULL)
    return;
  g_hash_table_iter_init (&iter, r->profiles);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &session))
    if (session->pending != NULL && session->pending->len > 0)
      {
        chrome_reader_skip_n (r, CHROME_SKIP_ORPHAN_SAMPLES, session->offset,
                              session->pending->len);
        r->n_pending_samples -= session->pending->len;
        g_clear_pointer (&session->pending, g_array_unref);
      }
}

void
chrome_reader_profiles_free (ChromeReader *r)
{
  g_clear_pointer (&r->profiles, g_hash_table_unref);
  g_clear_pointer (&r->deferred, trace_batch_unref);
}
