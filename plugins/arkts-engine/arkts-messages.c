/* tracepipe - arkts: the DevTools message stream
 *
 * Messages come one per line, concatenated, or as elements of a JSON
 * array. A small splitter finds each top-level object (tracking strings
 * and nesting, never parsing numbers), then the message is dispatched:
 * heap snapshot chunks go straight into the incremental document parser,
 * the rest is read with json-glib.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "arkts-engine.h"

/* One message may not be larger: a CPU profile of a long capture is tens
 * of MB, a chunk 100 KiB. */
#define MAX_MESSAGE_SIZE (512 * 1024 * 1024)
#define MAX_FRAGMENTS (16 * 1024 * 1024)

static const char chunk_prefix[] = "{\"method\":\"HeapProfiler.addHeapSnapshotChunk\",\"params\":{\"chunk\":\"";
static const char chunk_suffix[] = "\"}}";

typedef struct
{
  gint64 count;
  gint64 size;
} Fragment;

struct _ArktsMessages
{
  ArktsEnv *env;
  ArktsReaderOptions opts;
  JsonParser *parser;
  ArktsJsonSkel *skel; /* the message being handled, without its number arrays */

  /* splitter */
  gint64 line;
  gboolean collecting, in_string, escape, skip_line;
  gboolean line_mode;
  gboolean in_array;
  guint depth;
  GString *msg;
  gint64 msg_line;
  GString *decoded;

  /* heap documents */
  ArktsHeapDoc *doc;
  guint n_docs;
  gboolean drop_chunks; /* after a broken document, until a marker */
  gint64 last_chunk_line;
  gboolean saw_timeline_messages;

  /* timeline stats */
  GArray *fragments; /* Fragment per heapStatsUpdate index */
  gint64 tracked_count, tracked_size;
  gboolean stats_dirty;
  gboolean have_epoch;
  double epoch_ms;
  gint64 last_stats_ts;
  gboolean have_timeline_first;
  gint64 timeline_first_ts;
};

ArktsMessages *
arkts_messages_new (ArktsEnv *env,
                    const ArktsReaderOptions *opts)
{
  ArktsMessages *m;

  g_return_val_if_fail (env != NULL, NULL);
  g_return_val_if_fail (opts != NULL, NULL);

  m = g_new0 (ArktsMessages, 1);
  m->env = env;
  m->opts = *opts;
  m->parser = json_parser_new_immutable ();
  m->skel = arkts_json_skel_new (MAX_MESSAGE_SIZE, ARKTS_MAX_PROFILE_NUMBERS);
  m->line = 1;
  m->msg = g_string_new (NULL);
  m->decoded = g_string_new (NULL);
  m->fragments = g_array_new (FALSE, TRUE, sizeof (Fragment));
  m->last_stats_ts = opts->start_time;
  return m;
}

void
arkts_messages_free (ArktsMessages *m)
{
  if (m == NULL)
    return;
  g_object_unref (m->parser);
  arkts_json_skel_free (m->skel);
  g_string_free (m->msg, TRUE);
  g_string_free (m->decoded, TRUE);
  arkts_heap_doc_free (m->doc);
  g_array_unref (m->fragments);
  g_free (m);
}

static void
skip (ArktsMessages *m,
      ArktsSkipReason reason,
      const char *detail)
{
  arkts_env_skip (m->env, reason, m->msg_line, ARKTS_NO_POS, "%s", detail);
}

/* ---- heap documents ---- */

static gboolean
is_timeline (ArktsMessages *m)
{
  return m->opts.mode == ARKTS_MODE_TIMELINE || (m->opts.mode == ARKTS_MODE_AUTO && m->saw_timeline_messages);
}

/* Snapshots of snapshot mode are one interval apart from the start time;
 * a timeline starts where its first stats message was. */
static gint64
doc_start (ArktsMessages *m)
{
  gint64 offset;

  if (is_timeline (m))
    return m->have_timeline_first ? m->timeline_first_ts : m->opts.start_time;
  /* both are the user's, as large as gint64 allows */
  if (__builtin_mul_overflow ((gint64) m->n_docs, m->opts.snapshot_interval, &offset))
    offset = G_MAXINT64;
  return trace_time_add_saturated (m->opts.start_time, offset);
}

static void
drop_doc (ArktsMessages *m,
          ArktsSkipReason reason,
          const char *detail)
{
  arkts_env_skip (m->env, reason, m->msg_line, ARKTS_NO_POS, "snapshot %u: %s", m->n_docs, detail);
  arkts_heap_doc_free (m->doc);
  m->doc = NULL;
  m->n_docs++;
}

static void
finish_doc (ArktsMessages *m,
            TraceBatch *out)
{
  arkts_heap_doc_emit (m->doc, out);
  m->env->stats->snapshots++;
  if (arkts_heap_doc_is_timeline (m->doc))
    m->env->stats->timelines++;
  arkts_heap_doc_free (m->doc);
  m->doc = NULL;
  m->n_docs++;
}

static gboolean
only_whitespace (const char *data,
                 gsize len)
{
  for (gsize i = 0; i < len; i++)
    if (data[i] != ' ' && data[i] != '\n' && data[i] != '\r' && data[i] != '\t')
      return FALSE;
  return TRUE;
}

/* The decoded text of one chunk: the document continues, ends (and maybe
 * a next one begins without a marker in between). */
static void
add_chunk (ArktsMessages *m,
           const char *data,
           gsize len,
           TraceBatch *out)
{
  m->env->stats->chunks++;
  if (m->drop_chunks)
    return;
  m->last_chunk_line = m->msg_line;
  while (len > 0 && !(m->doc == NULL && only_whitespace (data, len)))
    {
      g_autoptr (GError) error = NULL;
      gsize used = 0;
      if (m->doc == NULL)
        m->doc = arkts_heap_doc_new (m->env, m->n_docs, doc_start (m));
      arkts_heap_doc_set_line (m->doc, m->msg_line);
      if (!arkts_heap_doc_feed (m->doc, data, len, &used, out, &error))
        {
          drop_doc (m, ARKTS_SKIP_MALFORMED_SNAPSHOT, error->message);
          m->drop_chunks = TRUE;
          return;
        }
      if (!arkts_heap_doc_is_complete (m->doc))
        return;
      finish_doc (m, out);
      data += used;
      len -= used;
    }
}

/* A marker (id 1 or 2) while a document is unfinished cuts it off. */
static void
cut_doc (ArktsMessages *m,
         const char *why)
{
  g_autofree char *cut = NULL;
  g_autofree char *detail = NULL;

  if (m->doc == NULL)
    return;
  if (!arkts_heap_doc_is_started (m->doc))
    {
      arkts_heap_doc_free (m->doc);
      m->doc = NULL;
      return;
    }
  cut = arkts_heap_doc_describe_cut (m->doc);
  detail = g_strdup_printf ("%s (%s)", cut, why);
  drop_doc (m, ARKTS_SKIP_TRUNCATED_SNAPSHOT, detail);
}

/* ---- timeline stats ---- */

static void
emit_stats_counter (ArktsMessages *m,
                    TraceBatch *out,
                    gint64 ts,
                    const char *name,
                    gint64 value,
                    const char *unit)
{
  TraceEvent *ev = arkts_append (out, TRACE_EVENT_COUNTER, ts, m->env->pid, TRACE_ID_UNKNOWN,
                                 trace_string_pool_intern (m->env->pool, name));

  ev->flags = TRACE_EVENT_FLAG_COUNTER_INT;
  ev->u.counter.value = (double) value;
  ev->u.counter.unit = unit ? trace_string_pool_intern (m->env->pool, unit) : 0;
}

static void
flush_stats (ArktsMessages *m,
             TraceBatch *out)
{
  if (!m->stats_dirty)
    return;
  emit_stats_counter (m, out, m->last_stats_ts, "JS heap tracked objects", m->tracked_count, NULL);
  emit_stats_counter (m, out, m->last_stats_ts, "JS heap tracked size", m->tracked_size, "bytes");
  m->stats_dirty = FALSE;
}

/* statsUpdate: [fragment index, object count, size, …]: the new totals of
 * each time fragment of the tracking; the sum over fragments is what the
 * tracked heap holds now. */
static void
heap_stats_update (ArktsMessages *m,
                   JsonObject *params)
{
  ArktsNumbers update;
  gboolean have_update = arkts_numbers_lookup (m->skel, params, "statsUpdate", &update);
  guint n = have_update ? update.len : 0;

  m->env->stats->stats_updates++;
  m->saw_timeline_messages = TRUE;
  if (!have_update || n % 3 != 0)
    {
      skip (m, ARKTS_SKIP_BAD_STATS, "heapStatsUpdate without a statsUpdate array of triplets");
      return;
    }
  for (guint i = 0; i < n; i += 3)
    {
      gboolean ok1, ok2, ok3;
      gint64 index = arkts_numbers_get (&update, i, &ok1);
      gint64 count = arkts_numbers_get (&update, i + 1, &ok2);
      gint64 size = arkts_numbers_get (&update, i + 2, &ok3);
      Fragment *f;
      if (!ok1 || !ok2 || !ok3 || index < 0 || index >= MAX_FRAGMENTS)
        {
          skip (m, ARKTS_SKIP_BAD_STATS, "heapStatsUpdate with a fragment that is not [index, count, size]");
          continue;
        }
      if ((guint64) index >= m->fragments->len)
        g_array_set_size (m->fragments, index + 1);
      f = &g_array_index (m->fragments, Fragment, index);
      m->tracked_count += count - f->count;
      m->tracked_size += size - f->size;
      f->count = count;
      f->size = size;
    }
  m->stats_dirty = TRUE;
}

/* lastSeenObjectId carries a wall-clock ms timestamp; the first one of the
 * stream sits at the start time, the others at their distance from it. */
static void
last_seen_object_id (ArktsMessages *m,
                     JsonObject *params,
                     TraceBatch *out)
{
  double ms = arkts_json_get_double (params, "timestamp", -1.0);
  gint64 id = arkts_json_get_int (params, "lastSeenObjectId", -1);
  TraceEvent *ev;

  m->saw_timeline_messages = TRUE;
  if (ms < 0 || id < 0)
    {
      skip (m, ARKTS_SKIP_BAD_STATS, "lastSeenObjectId without lastSeenObjectId or timestamp");
      return;
    }
  if (!m->have_epoch)
    {
      m->have_epoch = TRUE;
      m->epoch_ms = ms;
    }
  m->last_stats_ts = trace_time_add_saturated (m->opts.start_time, arkts_us_to_ns ((ms - m->epoch_ms) * 1000.0));
  if (!m->have_timeline_first)
    {
      m->have_timeline_first = TRUE;
      m->timeline_first_ts = m->last_stats_ts;
    }
  flush_stats (m, out);
  emit_stats_counter (m, out, m->last_stats_ts, "JS heap last seen object id", id, NULL);
  ev = &out->events[out->n_events - 1];
  trace_batch_add_arg_double (out, ev, "timestamp_ms", ms);
}

static void
marker (ArktsMessages *m,
        gint64 id,
        TraceBatch *out)
{
  if (id == 3)
    return; /* the CPU profiler started; its profile comes as id 3 too */
  if (id != 1 && id != 2)
    {
      g_autofree char *detail = g_strdup_printf ("marker id %" G_GINT64_FORMAT " means nothing here", id);
      skip (m, ARKTS_SKIP_UNKNOWN_RESULT, detail);
      return;
    }
  cut_doc (m, id == 1 ? "end of snapshot marker came first" : "end of timeline marker came first");
  m->drop_chunks = FALSE;
  flush_stats (m, out);
  /* a timeline starts (id 1 of timeline mode) or ends (id 2): its stats
   * begin afresh; harmless in snapshot mode, which has no stats */
  g_array_set_size (m->fragments, 0);
  m->tracked_count = m->tracked_size = 0;
  m->have_timeline_first = FALSE;
  if (id == 2 && m->opts.mode == ARKTS_MODE_AUTO)
    m->saw_timeline_messages = TRUE;
}

/* ---- dispatch ---- */

static void
method_message (ArktsMessages *m,
                JsonObject *msg,
                const char *method,
                TraceBatch *out)
{
  JsonNode *params_node = json_object_get_member (msg, "params");
  JsonObject *params = params_node && JSON_NODE_HOLDS_OBJECT (params_node) ? json_node_get_object (params_node) : NULL;

  if (strcmp (method, "HeapProfiler.addHeapSnapshotChunk") == 0)
    {
      const char *chunk = arkts_json_get_string (params, "chunk");
      if (chunk == NULL)
        {
          m->env->stats->chunks++;
          skip (m, ARKTS_SKIP_BAD_CHUNK, "addHeapSnapshotChunk without a chunk string");
          return;
        }
      add_chunk (m, chunk, strlen (chunk), out);
    }
  else if (strcmp (method, "HeapProfiler.reportHeapSnapshotProgress") == 0)
    m->env->stats->progress_messages++;
  else if (strcmp (method, "HeapProfiler.heapStatsUpdate") == 0)
    heap_stats_update (m, params);
  else if (strcmp (method, "HeapProfiler.lastSeenObjectId") == 0)
    last_seen_object_id (m, params, out);
  else
    {
      g_autofree char *detail = g_strdup_printf ("unknown method \"%s\"", method);
      skip (m, ARKTS_SKIP_UNKNOWN_METHOD, detail);
    }
}

static void
result_message (ArktsMessages *m,
                JsonObject *msg,
                TraceBatch *out,
                ArktsCpuProfile **cpu)
{
  gint64 id = arkts_json_get_int (msg, "id", -1);
  JsonNode *result = json_object_get_member (msg, "result");
  JsonObject *obj = result && JSON_NODE_HOLDS_OBJECT (result) ? json_node_get_object (result) : NULL;
  JsonNode *profile = obj ? json_object_get_member (obj, "profile") : NULL;
  g_autofree char *detail = NULL;

  if (obj && json_object_get_size (obj) == 0)
    {
      marker (m, id, out);
      return;
    }
  if (profile && JSON_NODE_HOLDS_OBJECT (profile))
    {
      *cpu = arkts_cpu_profile_load (m->env, json_node_get_object (profile), m->skel, m->msg_line);
      return;
    }
  if (obj)
    {
      g_autoptr (GList) members = json_object_get_members (obj);
      detail = g_strdup_printf ("result of id %" G_GINT64_FORMAT " has no profile (it has \"%s\")", id, (char *) members->data);
    }
  else
    detail = g_strdup_printf ("response id %" G_GINT64_FORMAT " has no result object", id);
  skip (m, ARKTS_SKIP_UNKNOWN_RESULT, detail);
}

static void
json_message (ArktsMessages *m,
              const char *text,
              gsize len,
              TraceBatch *out,
              ArktsCpuProfile **cpu)
{
  g_autoptr (GError) error = NULL;
  JsonNode *root;
  JsonObject *msg;
  const char *method;
  const char *skeleton;
  gsize skeleton_len;

  /* json-glib reads the message without its number arrays (a profile's
   * samples, a statsUpdate), which stay as integers in m->skel */
  arkts_json_skel_reset (m->skel);
  if (!arkts_json_skel_feed (m->skel, text, len, &error))
    {
      g_autofree char *detail = g_strdup_printf ("%s: %s", error->code == TRACE_STREAM_ERROR_FORMAT ? "not JSON" : "too large", error->message);
      skip (m, ARKTS_SKIP_MALFORMED_MESSAGE, detail);
      return;
    }
  arkts_json_skel_finish (m->skel);
  skeleton = arkts_json_skel_get_text (m->skel, &skeleton_len);
  if (!json_parser_load_from_data (m->parser, skeleton, (gssize) skeleton_len, &error))
    {
      g_autofree char *detail = g_strdup_printf ("not JSON: %s", error->message);
      skip (m, ARKTS_SKIP_MALFORMED_MESSAGE, detail);
      return;
    }
  root = json_parser_get_root (m->parser);
  msg = JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  method = arkts_json_get_string (msg, "method");
  if (method)
    method_message (m, msg, method, out);
  else if (msg && json_object_has_member (msg, "id"))
    result_message (m, msg, out, cpu);
  else
    skip (m, ARKTS_SKIP_MALFORMED_MESSAGE, "a message with neither \"method\" nor \"id\"");
}

static gboolean
hex4 (const char *p,
      const char *end,
      guint32 *value)
{
  *value = 0;
  if (end - p < 4)
    return FALSE;
  for (int i = 0; i < 4; i++)
    {
      int digit = g_ascii_xdigit_value (p[i]);
      if (digit < 0)
        return FALSE;
      *value = *value * 16 + (guint32) digit;
    }
  return TRUE;
}

/* *p at the 'u' of \uXXXX; a surrogate pair makes one character, a lone
 * surrogate U+FFFD (as json-glib does). */
static gboolean
decode_unicode_escape (ArktsMessages *m,
                       const char **p,
                       const char *end)
{
  guint32 high, low;

  if (!hex4 (*p + 1, end, &high))
    return FALSE;
  *p += 5;
  if (high >= 0xd800 && high < 0xdc00 && end - *p >= 6 && (*p)[0] == '\\' && (*p)[1] == 'u' && hex4 (*p + 2, end, &low) && low >= 0xdc00 && low < 0xe000)
    {
      *p += 6;
      g_string_append_unichar (m->decoded, 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00));
      return TRUE;
    }
  g_string_append_unichar (m->decoded, high >= 0xd800 && high < 0xe000 ? 0xfffd : high);
  return TRUE;
}

/* Decodes the JSON string body of a compact chunk message into
 * m->decoded; FALSE if it is not one plain string (then json-glib reads
 * the message). Chunks are most of a stream's bytes: this skips building
 * a tree per 100 KiB chunk. */
static gboolean
decode_string_body (ArktsMessages *m,
                    const char *p,
                    const char *end)
{
  g_string_truncate (m->decoded, 0);
  while (p < end)
    {
      const char *run = p;
      while (p < end && *p != '\\' && *p != '"')
        p++;
      g_string_append_len (m->decoded, run, p - run);
      if (p == end)
        break;
      if (*p == '"' || p + 1 >= end)
        return FALSE;
      p++;
      switch (*p)
        {
        case 'n':
          g_string_append_c (m->decoded, '\n');
          break;
        case '"':
          g_string_append_c (m->decoded, '"');
          break;
        case '\\':
          g_string_append_c (m->decoded, '\\');
          break;
        case '/':
          g_string_append_c (m->decoded, '/');
          break;
        case 't':
          g_string_append_c (m->decoded, '\t');
          break;
        case 'r':
          g_string_append_c (m->decoded, '\r');
          break;
        case 'b':
          g_string_append_c (m->decoded, '\b');
          break;
        case 'f':
          g_string_append_c (m->decoded, '\f');
          break;
        case 'u':
          if (!decode_unicode_escape (m, &p, end))
            return FALSE;
          continue;
        default:
          return FALSE;
        }
      p++;
    }
  return TRUE;
}

static void
message (ArktsMessages *m,
         const char *text,
         gsize len,
         TraceBatch *out,
         ArktsCpuProfile **cpu)
{
  gsize pre = sizeof chunk_prefix - 1, suf = sizeof chunk_suffix - 1;

  m->env->stats->messages++;
  if (len >= pre + suf && memcmp (text, chunk_prefix, pre) == 0 && memcmp (text + len - suf, chunk_suffix, suf) == 0 && decode_string_body (m, text + pre, text + len - suf))
    {
      add_chunk (m, m->decoded->str, m->decoded->len, out);
      return;
    }
  json_message (m, text, len, out, cpu);
}

/* ---- splitting the stream into messages ---- */

static void
begin_message (ArktsMessages *m)
{
  m->collecting = TRUE;
  m->in_string = m->escape = FALSE;
  m->depth = 0;
  m->msg_line = m->line;
  g_string_truncate (m->msg, 0);
}

/* Text between messages that is not whitespace, ',', '[' or ']': counted,
 * and the rest of its line skipped. */
static void
garbage (ArktsMessages *m,
         char c)
{
  g_autofree char *detail = g_ascii_isprint (c) ? g_strdup_printf ("text starting with '%c' between messages", c)
                                                : g_strdup_printf ("byte 0x%02x between messages", (guchar) c);

  m->msg_line = m->line;
  skip (m, ARKTS_SKIP_MALFORMED_MESSAGE, detail);
  m->skip_line = TRUE;
}

/* Bytes inside a message up to its end; returns where it stopped. A raw
 * newline inside a string cannot be JSON: the message was cut, and the
 * next line starts afresh (line-per-message streams resynchronise). */
static const char *
message_bytes (ArktsMessages *m,
               const char *p,
               const char *end,
               gboolean *complete)
{
  const char *start = p;

  *complete = FALSE;
  while (p < end)
    {
      char c = *p;
      if (m->in_string)
        {
          if (m->escape)
            m->escape = FALSE;
          else if (c == '\\')
            m->escape = TRUE;
          else if (c == '"')
            m->in_string = FALSE;
          else if (c == '\n')
            break;
          p++;
          /* chunk strings are most of the stream: skip their plain runs */
          while (m->in_string && !m->escape && p < end && *p != '"' && *p != '\\' && *p != '\n')
            p++;
          continue;
        }
      /* once messages came one per line, a newline ends a message even
       * when its braces do not balance (a cut line), so one bad line does
       * not swallow the next ones */
      if (c == '\n' && m->line_mode)
        break;
      p++;
      if (c == '"')
        m->in_string = TRUE;
      else if (c == '{' || c == '[')
        m->depth++;
      else if (c == '}' || c == ']')
        {
          if (--m->depth == 0)
            {
              *complete = TRUE;
              break;
            }
        }
      else if (c == '\n')
        m->line++;
    }
  g_string_append_len (m->msg, start, p - start);
  return p;
}

/**
 * arkts_messages_feed:
 * @m: the message stream
 * @data: the next bytes
 * @len: how many
 * @consumed: (out): how many were used: less than @len after a message
 *   that delivered a CPU profile, so its events go out first
 * @out: the batch to append events to
 * @cpu: (out): a CPU profile to emit, or unchanged
 *
 * Returns: FALSE on a message larger than the limit
 */
gboolean
arkts_messages_feed (ArktsMessages *m,
                     const char *data,
                     gsize len,
                     gsize *consumed,
                     TraceBatch *out,
                     ArktsCpuProfile **cpu,
                     GError **error)
{
  const char *p = data, *end = data + len;

  g_return_val_if_fail (m != NULL, FALSE);
  g_return_val_if_fail (cpu != NULL, FALSE);

  while (p < end && *cpu == NULL)
    {
      gboolean complete;
      if (m->collecting)
        {
          p = message_bytes (m, p, end, &complete);
          if (m->msg->len > MAX_MESSAGE_SIZE)
            {
              g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_TOO_LARGE,
                           "line %" G_GINT64_FORMAT ": a message larger than %d MiB", m->msg_line, MAX_MESSAGE_SIZE / (1024 * 1024));
              return FALSE;
            }
          if (complete)
            {
              m->collecting = FALSE;
              m->line_mode = !m->in_array && m->msg_line == m->line;
              message (m, m->msg->str, m->msg->len, out, cpu);
            }
          else if (p < end && *p == '\n')
            {
              m->collecting = FALSE;
              skip (m, ARKTS_SKIP_MALFORMED_MESSAGE, "message cut off at the end of its line");
            }
          continue;
        }
      if (*p == '\n')
        {
          m->line++;
          m->skip_line = FALSE;
        }
      else if (m->skip_line || *p == ' ' || *p == '\t' || *p == '\r' || *p == ',' || *p == ']')
        ;
      else if (*p == '[')
        m->in_array = TRUE; /* pretty-printed arrays have newlines inside messages */
      else if (*p == '{')
        {
          begin_message (m);
          continue;
        }
      else
        garbage (m, *p);
      p++;
    }
  *consumed = (gsize) (p - data);
  return TRUE;
}

/**
 * arkts_messages_finish:
 *
 * At the end of the input: a message or a document left unfinished is
 * counted and dropped; pending stats go out.
 */
void
arkts_messages_finish (ArktsMessages *m,
                       TraceBatch *out)
{
  if (m->collecting && m->msg->len > 0)
    {
      m->collecting = FALSE;
      skip (m, ARKTS_SKIP_MALFORMED_MESSAGE, "message cut off at the end of the input");
    }
  /* an unfinished document is reported where its last chunk was */
  m->msg_line = m->last_chunk_line;
  cut_doc (m, "end of input");
  flush_stats (m, out);
}
