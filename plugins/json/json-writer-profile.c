/* tracepipe - json plugin: CPU samples as V8 Profile/ProfileChunk events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Samples are written the way Chrome writes them today, which DevTools
 * and perfetto read: per thread a "Profile" event with the start time,
 * then "ProfileChunk" events with the call-tree nodes first needed by
 * their samples and the time deltas between samples.  STACK_NODE events
 * are remembered (bounded) so that each thread's chunks can define the
 * nodes its samples use, root first, with small per-profile ids.
 */
#include "config.h"

#include <string.h>

#include "json-writer-private.h"

typedef struct
{
  guint64 id;
  guint64 parent;
  guint32 name;
  guint32 url;
  gint64 line, column;
  gboolean has_line, has_column;
} WriterNode;

typedef struct
{
  ChromeThreadKey key;
  guint32 profile_id;
  gint64 last_ts;
  GHashTable *emitted; /* model node id → per-profile id */
  guint32 next_id;
  GArray *nodes;   /* guint64: model ids to define in the next chunk */
  GArray *samples; /* guint32: per-profile ids */
  GArray *deltas;  /* gint64: ns since the previous sample */
} WriterSession;

static guint
key_hash (gconstpointer p)
{
  const ChromeThreadKey *k = p;

  return (guint) (k->pid * 1000003 + k->tid);
}

static gboolean
key_equal (gconstpointer a,
           gconstpointer b)
{
  const ChromeThreadKey *x = a, *y = b;

  return x->pid == y->pid && x->tid == y->tid;
}

static void
session_free (gpointer p)
{
  WriterSession *s = p;

  g_hash_table_unref (s->emitted);
  g_array_unref (s->nodes);
  g_array_unref (s->samples);
  g_array_unref (s->deltas);
  g_free (s);
}

static void
read_node_args (ChromeWriter *w,
                TraceBatch *batch,
                const TraceEvent *ev,
                WriterNode *node)
{
  const TraceArg *args = ev->n_args ? trace_batch_get_args (batch, ev) : NULL;

  for (guint i = 0; i < ev->n_args; i++)
    {
      gsize len;
      const char *key = chrome_writer_str (w, args[i].key, &len);

      if (strcmp (key, "url") == 0 && (args[i].type == TRACE_ARG_STRING || args[i].type == TRACE_ARG_TEXT))
        node->url = trace_batch_intern_arg (batch, &args[i]); /* kept past the batch */
      else if (strcmp (key, "line") == 0 && args[i].type == TRACE_ARG_INT)
        node->line = args[i].v.i, node->has_line = TRUE;
      else if (strcmp (key, "column") == 0 && args[i].type == TRACE_ARG_INT)
        node->column = args[i].v.i, node->has_column = TRUE;
    }
}

void
chrome_writer_stack_node (ChromeWriter *w,
                          TraceBatch *batch,
                          const TraceEvent *ev)
{
  WriterNode *node;

  if (w->nodes == NULL)
    w->nodes = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  node = g_hash_table_lookup (w->nodes, &ev->u.stack_node.id);
  if (node == NULL)
    {
      if (g_hash_table_size (w->nodes) >= CHROME_WRITER_MAX_NODES)
        {
          chrome_writer_count_drop (w, &w->stats.dropped_other, "stack node dropped: the node table is full");
          return;
        }
      node = g_new0 (WriterNode, 1);
      node->id = ev->u.stack_node.id;
      g_hash_table_insert (w->nodes, &node->id, node);
    }
  node->parent = ev->u.stack_node.parent_id;
  node->name = ev->name;
  read_node_args (w, batch, ev, node);
}

static WriterSession *
session_for (ChromeWriter *w,
             const TraceEvent *ev)
{
  ChromeThreadKey key = { ev->pid, ev->tid };
  WriterSession *s;

  if (w->sessions == NULL)
    w->sessions = g_hash_table_new_full (key_hash, key_equal, NULL, session_free);
  s = g_hash_table_lookup (w->sessions, &key);
  if (s != NULL || g_hash_table_size (w->sessions) >= w->opts.max_threads)
    return s;
  s = g_new0 (WriterSession, 1);
  s->key = key;
  s->profile_id = ++w->n_sessions;
  s->last_ts = ev->ts;
  s->emitted = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  s->nodes = g_array_new (FALSE, FALSE, sizeof (guint64));
  s->samples = g_array_new (FALSE, FALSE, sizeof (guint32));
  s->deltas = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_hash_table_insert (w->sessions, &s->key, s);
  chrome_writer_event_open_text (w, "P", "Profile", 7, 0, ev->ts, ev->pid, ev->tid);
  g_string_append (w->buf, ",\"id\":");
  chrome_fmt_hex_id (w->buf, s->profile_id);
  g_string_append (w->buf, ",\"args\":{\"data\":{\"startTime\":");
  chrome_fmt_us (w->buf, ev->ts);
  g_string_append (w->buf, "}}}");
  return s;
}

static guint32
emitted_id (WriterSession *s,
            guint64 id)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (s->emitted, &id));
}

/* The per-profile id of a node; the node and its ancestors not defined
 * in this profile yet are queued, root first. */
static guint32
ensure_node (ChromeWriter *w,
             WriterSession *s,
             guint64 id)
{
  guint64 chain[256];
  guint n = 0;
  guint32 known;

  while ((known = emitted_id (s, id)) == 0 && n < G_N_ELEMENTS (chain))
    {
      WriterNode *node = w->nodes ? g_hash_table_lookup (w->nodes, &id) : NULL;

      chain[n++] = id;
      /* a parent never defined ends the stack: it has nothing to show */
      if (node == NULL || node->parent == 0 || g_hash_table_lookup (w->nodes, &node->parent) == NULL)
        break;
      id = node->parent;
    }
  for (guint i = n; i-- > 0;)
    {
      known = ++s->next_id;
      g_hash_table_insert (s->emitted, g_memdup2 (&chain[i], sizeof chain[i]), GUINT_TO_POINTER (known));
      g_array_append_val (s->nodes, chain[i]);
    }
  return n > 0 ? emitted_id (s, chain[0]) : known;
}

static void
put_node (ChromeWriter *w,
          WriterSession *s,
          guint64 id,
          gboolean first)
{
  WriterNode *node = w->nodes ? g_hash_table_lookup (w->nodes, &id) : NULL;
  guint32 parent = 0;

  /* only a parent that is defined: an unknown id may have been written
   * for a sample that referred to it directly */
  if (node && node->parent && g_hash_table_lookup (w->nodes, &node->parent) != NULL)
    parent = emitted_id (s, node->parent);

  g_string_append (w->buf, first ? "{\"id\":" : ",{\"id\":");
  chrome_fmt_uint (w->buf, emitted_id (s, id));
  g_string_append (w->buf, ",\"callFrame\":{\"functionName\":");
  chrome_writer_put_string (w, node ? node->name : 0);
  if (node && node->url)
    {
      g_string_append (w->buf, ",\"url\":");
      chrome_writer_put_string (w, node->url);
    }
  if (node && node->has_line)
    {
      g_string_append (w->buf, ",\"lineNumber\":");
      chrome_fmt_int (w->buf, node->line);
    }
  if (node && node->has_column)
    {
      g_string_append (w->buf, ",\"columnNumber\":");
      chrome_fmt_int (w->buf, node->column);
    }
  g_string_append_c (w->buf, '}');
  if (parent != 0)
    {
      g_string_append (w->buf, ",\"parent\":");
      chrome_fmt_uint (w->buf, parent);
    }
  g_string_append_c (w->buf, '}');
}

static void
write_chunk (ChromeWriter *w,
             WriterSession *s)
{
  if (s->samples->len == 0 && s->nodes->len == 0)
    return;
  chrome_writer_event_open_text (w, "P", "ProfileChunk", 12, 0, s->last_ts, s->key.pid, s->key.tid);
  g_string_append (w->buf, ",\"id\":");
  chrome_fmt_hex_id (w->buf, s->profile_id);
  g_string_append (w->buf, ",\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":[");
  for (guint i = 0; i < s->nodes->len; i++)
    put_node (w, s, g_array_index (s->nodes, guint64, i), i == 0);
  g_string_append (w->buf, "],\"samples\":[");
  for (guint i = 0; i < s->samples->len; i++)
    {
      if (i > 0)
        g_string_append_c (w->buf, ',');
      chrome_fmt_uint (w->buf, g_array_index (s->samples, guint32, i));
    }
  g_string_append (w->buf, "]},\"timeDeltas\":[");
  for (guint i = 0; i < s->deltas->len; i++)
    {
      if (i > 0)
        g_string_append_c (w->buf, ',');
      chrome_fmt_us (w->buf, g_array_index (s->deltas, gint64, i));
    }
  g_string_append (w->buf, "]}}}");
  g_array_set_size (s->nodes, 0);
  g_array_set_size (s->samples, 0);
  g_array_set_size (s->deltas, 0);
}

/* A sample without a stack (catapult's P events without "sf") gets a
 * node named after the sample, so the name is not lost. */
static guint64
named_leaf (ChromeWriter *w,
            const TraceEvent *ev)
{
  guint64 id = G_GUINT64_CONSTANT (0x4000000000000000) | ev->name;
  WriterNode *node;

  if (w->nodes == NULL)
    w->nodes = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  if (g_hash_table_lookup (w->nodes, &id) == NULL)
    {
      node = g_new0 (WriterNode, 1);
      node->id = id;
      node->name = ev->name;
      g_hash_table_insert (w->nodes, &node->id, node);
    }
  return id;
}

void
chrome_writer_sample (ChromeWriter *w,
                      const TraceEvent *ev)
{
  WriterSession *s = session_for (w, ev);
  guint64 id;
  guint32 node;
  gint64 delta;

  if (s == NULL)
    {
      chrome_writer_count_drop (w, &w->stats.dropped_samples_past_thread_table,
                                "CPU sample dropped: thread table full (max-threads)");
      return;
    }
  id = ev->u.sample.node_id == 0 && ev->name != 0 ? named_leaf (w, ev) : ev->u.sample.node_id;
  node = ensure_node (w, s, id);
  delta = ev->ts - s->last_ts;
  g_array_append_val (s->samples, node);
  g_array_append_val (s->deltas, delta);
  s->last_ts = ev->ts;
  if (s->samples->len >= CHROME_WRITER_CHUNK_SAMPLES)
    write_chunk (w, s);
}

void
chrome_writer_profiles_finish (ChromeWriter *w)
{
  GHashTableIter iter;
  WriterSession *s;

  if (w->sessions == NULL)
    return;
  g_hash_table_iter_init (&iter, w->sessions);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &s))
    write_chunk (w, s);
}

void
chrome_writer_profiles_free (ChromeWriter *w)
{
  g_clear_pointer (&w->nodes, g_hash_table_unref);
  g_clear_pointer (&w->sessions, g_hash_table_unref);
}
