/* tracepipe - arkts: the reader
 *
 * Tells from the input's first bytes what it is (the input comes
 * decompressed: TraceFileSrc undoes gzip, every member, for all sources),
 * and drives the part that reads it: the message stream, the incremental
 * heap snapshot parser, or json-glib for a small document (CPU profile,
 * sampling heap profile). Events are collected into batches of about
 * TRACE_BATCH_DEFAULT_SIZE.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "arkts-engine.h"

/* Bytes per read of the input, unless the options say otherwise (tests). */
#define ARKTS_READ_SIZE (256 * 1024)
/* Bytes looked at to tell what the input is. */
#define MAX_SNIFF_SIZE (1024 * 1024)
/* A document that is neither messages nor a heap snapshot goes through
 * the skeleton scanner (arkts-json-skel.c): its number arrays are kept as
 * integers, the rest (a profile's node table) read with json-glib. Its
 * text is also kept, up to this size, until it is known not to be a heap
 * snapshot in an unusual key order (which is then read from the text). */
#define MAX_DOCUMENT_SIZE ((gsize) 1024 * 1024 * 1024)

struct _ArktsReader
{
  GInputStream *in;
  char *location;
  ArktsReaderOptions opts;
  ArktsReaderStats stats;
  ArktsEnv env;
  ArktsInputKind kind;
  gboolean detected, finished, whole_document;

  char *buf;
  gsize buf_size;
  GByteArray *head;  /* bytes read before the kind was known */
  const char *block; /* what is left of the current read */
  gsize block_len;
  guint64 offset; /* input offset of block */

  TraceBatch *pending;
  ArktsHeapDoc *doc;
  gboolean trailing_reported;
  gboolean ended;    /* the end was logged */
  char *first_key;   /* what told the kind, for the debug log */
  GByteArray *whole; /* the text, while it may be a heap snapshot */
  ArktsJsonSkel *skel;
  ArktsMessages *messages;
  ArktsCpuProfile *cpu;
};

static const char *skip_reason_names[ARKTS_SKIP_N_REASONS] = {
  "malformed message",
  "unknown method",
  "unknown result",
  "bad chunk",
  "truncated snapshot",
  "malformed snapshot",
  "bad heap node",
  "bad heap edge",
  "count mismatch",
  "bad profile",
  "bad profile node",
  "bad sample",
  "bad heap stats",
  "trailing data",
};

const char *
arkts_skip_reason_to_string (ArktsSkipReason reason)
{
  g_return_val_if_fail (reason < ARKTS_SKIP_N_REASONS, NULL);
  return skip_reason_names[reason];
}

/* The stream's format: an id, as the other sources' `ftrace` and
 * `chrome-json` (trace-info says what each one is in words). */
const char *
arkts_input_kind_to_string (ArktsInputKind kind)
{
  static const char *names[] = { "unknown", "devtools-messages", "heap-snapshot", "cpu-profile", "heap-profile" };

  g_return_val_if_fail (kind <= ARKTS_INPUT_HEAP_PROFILE, NULL);
  return names[kind];
}

/**
 * arkts_reader_options_init:
 * @opts: the options to set
 *
 * Sets every option to its default: the DEFAULT_ of each property, the
 * clock domain from the content, %ARKTS_READ_SIZE bytes per read.
 */
void
arkts_reader_options_init (ArktsReaderOptions *opts)
{
  g_return_if_fail (opts != NULL);

  memset (opts, 0, sizeof *opts);
  opts->pid = DEFAULT_PID;
  opts->tid = DEFAULT_TID;
  opts->mode = DEFAULT_MODE;
  opts->start_time = DEFAULT_START_TIME;
  opts->snapshot_interval = DEFAULT_SNAPSHOT_INTERVAL;
  opts->cpu_profiler_interval = DEFAULT_CPU_PROFILER_INTERVAL;
  opts->clock_domain = TRACE_CLOCK_UNKNOWN;
  opts->top_n = DEFAULT_TOP;
}

void
arkts_env_skip (ArktsEnv *env,
                ArktsSkipReason reason,
                gint64 line,
                gint64 offset,
                const char *detail_format,
                ...)
{
  ArktsSkipStat *stat = &env->stats->skipped[reason];
  va_list args;

  /* only the first of a reason is described: skips can be many */
  if (stat->count++ > 0)
    return;
  if (line != ARKTS_NO_POS && offset != ARKTS_NO_POS)
    stat->first_where = g_strdup_printf ("line %" G_GINT64_FORMAT ", snapshot offset %" G_GINT64_FORMAT, line, offset);
  else if (line != ARKTS_NO_POS)
    stat->first_where = g_strdup_printf ("line %" G_GINT64_FORMAT, line);
  else if (offset != ARKTS_NO_POS)
    stat->first_where = g_strdup_printf ("byte offset %" G_GINT64_FORMAT, offset);
  va_start (args, detail_format);
  stat->first_detail = g_strdup_vprintf (detail_format, args);
  va_end (args);
  g_debug ("%s: first %s at %s: %s", env->location, skip_reason_names[reason],
           stat->first_where ? stat->first_where : "an unknown position", stat->first_detail);
}

/**
 * arkts_reader_new:
 * @in: the input, already decompressed (the element's comes from
 *   TraceFileSrc, which undoes gzip)
 * @location: (nullable): the file name errors name
 * @pool: the pipeline's string pool
 * @opts: (nullable): what the input does not say; %NULL for defaults
 *
 * Returns: (transfer full): a reader; nothing is read before
 *   arkts_reader_read_batch()
 */
ArktsReader *
arkts_reader_new (GInputStream *in,
                  const char *location,
                  TraceStringPool *pool,
                  const ArktsReaderOptions *opts)
{
  ArktsReader *r;

  g_return_val_if_fail (G_IS_INPUT_STREAM (in), NULL);

  r = g_new0 (ArktsReader, 1);
  if (opts)
    r->opts = *opts;
  else
    arkts_reader_options_init (&r->opts);
  if (r->opts.top_n == 0)
    r->opts.top_n = DEFAULT_TOP;
  r->in = g_object_ref (in);
  r->location = g_strdup (location ? location : "<stream>");
  r->env.pool = trace_string_pool_ref (pool ? pool : trace_string_pool_get_default ());
  r->env.stats = &r->stats;
  r->env.location = r->location;
  r->env.pid = r->opts.pid;
  r->env.tid = r->opts.tid;
  r->env.top_n = r->opts.top_n;
  r->env.cpu_profiler_interval = r->opts.cpu_profiler_interval;
  r->buf_size = r->opts.read_size ? r->opts.read_size : ARKTS_READ_SIZE;
  r->buf = g_malloc (r->buf_size);
  r->head = g_byte_array_new ();
  g_debug ("%s: reader opened (reads of %" G_GSIZE_FORMAT " bytes)", r->location, r->buf_size);
  return r;
}

void
arkts_reader_free (ArktsReader *r)
{
  if (r == NULL)
    return;
  g_debug ("%s: reader closed after %" G_GUINT64_FORMAT " bytes", r->location, r->stats.bytes);
  g_object_unref (r->in);
  g_free (r->first_key);
  g_free (r->location);
  for (guint i = 0; i < ARKTS_SKIP_N_REASONS; i++)
    {
      g_free (r->stats.skipped[i].first_where);
      g_free (r->stats.skipped[i].first_detail);
    }
  trace_string_pool_unref (r->env.pool);
  g_free (r->buf);
  g_byte_array_unref (r->head);
  if (r->pending)
    trace_batch_unref (r->pending);
  arkts_heap_doc_free (r->doc);
  if (r->whole)
    g_byte_array_unref (r->whole);
  arkts_json_skel_free (r->skel);
  arkts_messages_free (r->messages);
  arkts_cpu_profile_free (r->cpu);
  g_free (r);
}

/* ---- input ---- */

/* A decompressing stream under the reader (TraceFileSrc's) says the
 * compressed data is corrupt with INVALID_DATA or PARTIAL_INPUT. */
static gboolean
read_error (ArktsReader *r,
            GError *io_error,
            GError **error)
{
  if (g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA) || g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
    g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_DECODE,
                 "%s: gzip data is corrupt after %" G_GUINT64_FORMAT " bytes: %s", r->location, r->stats.bytes, io_error->message);
  else
    g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_READ,
                 "%s: read failed after %" G_GUINT64_FORMAT " bytes: %s", r->location, r->stats.bytes, io_error->message);
  g_error_free (io_error);
  return FALSE;
}

/* Reads the next block into r->buf; *len 0 at the end. */
static gboolean
read_block (ArktsReader *r,
            gsize *len,
            GError **error)
{
  GError *io_error = NULL;
  gssize n = g_input_stream_read (r->in, r->buf, r->buf_size, NULL, &io_error);

  if (n < 0)
    return read_error (r, io_error, error);
  *len = (gsize) n;
  r->stats.bytes += (guint64) n;
  return TRUE;
}

/* ---- what the input is ---- */

typedef enum
{
  SNIFF_MORE,
  SNIFF_MESSAGES,
  SNIFF_HEAP,
  SNIFF_WHOLE,
  SNIFF_FAILED,
} Sniff;

static const char *
skip_ws (const char *p,
         const char *end)
{
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;
  return p;
}

/* The object key starting at @p (a quote), raw; NULL until complete. */
static char *
read_key (const char *p,
          const char *end,
          const char **after)
{
  const char *q = p + 1;

  while (q < end && *q != '"')
    q += *q == '\\' ? 2 : 1;
  if (q >= end)
    return NULL;
  *after = q + 1;
  return g_strndup (p + 1, MIN ((gsize) (q - p - 1), 200));
}

static gboolean
is_message_key (const char *key)
{
  static const char *keys[] = { "method", "id", "result", "params", "error", "sessionId" };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (strcmp (key, keys[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
wrong_type (ArktsReader *r,
            GError **error,
            const char *format,
            ...) G_GNUC_PRINTF (3, 4);

static gboolean
wrong_type (ArktsReader *r,
            GError **error,
            const char *format,
            ...)
{
  va_list args;
  g_autofree char *found = NULL;

  va_start (args, format);
  found = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_WRONG_TYPE,
               "%s: not ArkTS/V8 profiler data: found %s", r->location, found);
  return FALSE;
}

static Sniff
sniff_failed (ArktsReader *r,
              const char *p,
              const char *end,
              GError **error)
{
  gsize n = MIN ((gsize) (end - p), 64);
  const char *eol = memchr (p, '\n', n);
  GString *hex;

  if (memchr (p, '\0', n) == NULL && g_utf8_validate (p, eol ? eol - p : (gssize) MIN (n, 40), NULL))
    {
      g_autofree char *text = g_strndup (p, MIN (eol ? (gsize) (eol - p) : n, 40));
      g_strchomp (text);
      wrong_type (r, error, "text \"%s\"", text);
      return SNIFF_FAILED;
    }
  hex = g_string_new (NULL);
  for (gsize i = 0; i < MIN (n, 8); i++)
    g_string_append_printf (hex, "%s%02x", i ? " " : "", (guchar) p[i]);
  wrong_type (r, error, "binary data (starting %s)", hex->str);
  g_string_free (hex, TRUE);
  return SNIFF_FAILED;
}

/* "nodes" first: numbers make it a heap snapshot, objects a CPU profile. */
static Sniff
sniff_nodes (const char *p,
             const char *end)
{
  p = skip_ws (p, end);
  if (p < end && *p == ':')
    p = skip_ws (p + 1, end);
  if (p < end && *p == '[')
    p = skip_ws (p + 1, end);
  if (p >= end)
    return SNIFF_MORE;
  return *p == '-' || g_ascii_isdigit (*p) ? SNIFF_HEAP : SNIFF_WHOLE;
}

static Sniff
sniff_object (ArktsReader *r,
              const char *p,
              const char *end,
              gboolean in_array,
              GError **error)
{
  const char *after;
  g_autofree char *key = NULL;

  p = skip_ws (p + 1, end);
  if (p >= end)
    return SNIFF_MORE;
  if (*p != '"')
    {
      wrong_type (r, error, in_array ? "a JSON array whose first object has no key" : "a JSON object without keys");
      return SNIFF_FAILED;
    }
  key = read_key (p, end, &after);
  if (key == NULL)
    return SNIFF_MORE;
  g_free (r->first_key);
  r->first_key = g_strdup (key);
  if (is_message_key (key))
    return SNIFF_MESSAGES;
  if (in_array)
    {
      wrong_type (r, error, "a JSON array of objects with key \"%s\" (not DevTools messages)", key);
      return SNIFF_FAILED;
    }
  if (strcmp (key, "snapshot") == 0)
    return SNIFF_HEAP;
  if (strcmp (key, "nodes") == 0)
    return sniff_nodes (after, end);
  return SNIFF_WHOLE;
}

static Sniff
sniff (ArktsReader *r,
       const char *p,
       const char *end,
       gboolean at_eof,
       GError **error)
{
  if (p >= end)
    {
      if (!at_eof)
        return SNIFF_MORE;
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_EMPTY, "%s: the input is empty", r->location);
      return SNIFF_FAILED;
    }
  if (*p == '{')
    return sniff_object (r, p, end, FALSE, error);
  if (*p != '[')
    return sniff_failed (r, p, end, error);
  p = skip_ws (p + 1, end);
  if (p >= end)
    return SNIFF_MORE;
  if (*p == ']')
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_EMPTY, "%s: the input is an empty JSON array", r->location);
      return SNIFF_FAILED;
    }
  if (*p == '{')
    return sniff_object (r, p, end, TRUE, error);
  wrong_type (r, error, "a JSON array of values that are not objects");
  return SNIFF_FAILED;
}

static void
start_kind (ArktsReader *r,
            Sniff sniffed)
{
  switch (sniffed)
    {
    case SNIFF_MESSAGES:
      g_debug ("%s: DevTools messages: the first key, \"%s\", is a message's", r->location, r->first_key);
      r->kind = ARKTS_INPUT_MESSAGES;
      r->messages = arkts_messages_new (&r->env, &r->opts);
      break;
    case SNIFF_HEAP:
      g_debug ("%s: a heap snapshot, streamed: the first key is \"%s\"%s", r->location, r->first_key,
               strcmp (r->first_key, "nodes") == 0 ? ", an array of numbers" : "");
      r->kind = ARKTS_INPUT_HEAP_SNAPSHOT;
      r->doc = arkts_heap_doc_new (&r->env, 0, r->opts.start_time);
      break;
    default:
      g_debug ("%s: a document read whole, told apart by its members at the end: %s%s%s", r->location,
               r->first_key ? "the first key is \"" : "no first key in the first bytes",
               r->first_key ? r->first_key : "", r->first_key ? "\"" : "");
      r->whole_document = TRUE;
      r->whole = g_byte_array_new ();
      r->skel = arkts_json_skel_new (MAX_DOCUMENT_SIZE, ARKTS_MAX_PROFILE_NUMBERS);
      break;
    }
}

/* Reads until the first bytes tell what the input is; they then become
 * the first block. */
static gboolean
detect (ArktsReader *r,
        GError **error)
{
  Sniff sniffed = SNIFF_MORE;
  gsize skip_bom = 0;
  gboolean at_eof = FALSE;

  while (sniffed == SNIFF_MORE)
    {
      gsize n;
      const char *start;
      if (!read_block (r, &n, error))
        return FALSE;
      at_eof = n == 0;
      g_byte_array_append (r->head, (const guint8 *) r->buf, n);
      skip_bom = r->head->len >= 3 && memcmp (r->head->data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
      start = skip_ws ((const char *) r->head->data + skip_bom, (const char *) r->head->data + r->head->len);
      sniffed = sniff (r, start, (const char *) r->head->data + r->head->len, at_eof, error);
      if (sniffed == SNIFF_MORE && (at_eof || r->head->len >= MAX_SNIFF_SIZE))
        sniffed = SNIFF_WHOLE; /* an object cut short: json-glib says what is wrong */
    }
  if (sniffed == SNIFF_FAILED)
    return FALSE;
  start_kind (r, sniffed);
  r->detected = TRUE;
  r->block = (const char *) r->head->data + skip_bom;
  r->block_len = r->head->len - skip_bom;
  r->offset = skip_bom;
  r->finished = FALSE;
  return TRUE;
}

/* ---- reading ---- */

static gboolean
feed_plain_doc (ArktsReader *r,
                const char *data,
                gsize len,
                GError **error)
{
  g_autoptr (GError) local = NULL;
  gsize used = 0;

  if (!arkts_heap_doc_is_complete (r->doc))
    {
      if (!arkts_heap_doc_feed (r->doc, data, len, &used, r->pending, &local))
        {
          g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT, "%s: %s", r->location, local->message);
          return FALSE;
        }
      if (arkts_heap_doc_is_complete (r->doc))
        {
          arkts_heap_doc_emit (r->doc, r->pending);
          r->stats.snapshots++;
          r->stats.timelines += arkts_heap_doc_is_timeline (r->doc);
        }
    }
  for (; used < len && !r->trailing_reported; used++)
    if (data[used] != ' ' && data[used] != '\n' && data[used] != '\r' && data[used] != '\t')
      {
        arkts_env_skip (&r->env, ARKTS_SKIP_TRAILING_DATA, ARKTS_NO_POS, (gint64) (r->offset + used),
                        "data after the end of the snapshot");
        r->trailing_reported = TRUE;
      }
  return TRUE;
}

static gboolean
feed_whole (ArktsReader *r,
            const char *data,
            gsize len,
            GError **error)
{
  g_autoptr (GError) local = NULL;

  if (!arkts_json_skel_feed (r->skel, data, len, &local))
    {
      if (local->code == TRACE_STREAM_ERROR_FORMAT)
        g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT, "%s: not valid JSON: %s", r->location, local->message);
      else
        g_set_error (error, local->domain, local->code, "%s: %s", r->location, local->message);
      return FALSE;
    }
  if (r->whole && arkts_json_skel_is_profile (r->skel))
    g_clear_pointer (&r->whole, g_byte_array_unref);
  if (r->whole == NULL)
    return TRUE;
  if (r->whole->len + len > MAX_DOCUMENT_SIZE)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_TOO_LARGE,
                   "%s: a JSON document larger than 1 GiB that is not a heap snapshot", r->location);
      return FALSE;
    }
  g_byte_array_append (r->whole, (const guint8 *) data, len);
  return TRUE;
}

static gboolean
process (ArktsReader *r,
         const char *data,
         gsize len,
         gsize *used,
         GError **error)
{
  *used = len;
  if (r->messages)
    {
      g_autoptr (GError) local = NULL;
      if (arkts_messages_feed (r->messages, data, len, used, r->pending, &r->cpu, &local))
        return TRUE;
      g_set_error (error, local->domain, local->code, "%s: %s", r->location, local->message);
      return FALSE;
    }
  if (r->doc)
    return feed_plain_doc (r, data, len, error);
  return feed_whole (r, data, len, error);
}

static char *
describe_keys (JsonObject *obj)
{
  g_autoptr (GList) members = json_object_get_members (obj);
  GString *keys = g_string_new (NULL);
  guint n = 0;

  for (GList *l = members; l && n < 4; l = l->next, n++)
    g_string_append_printf (keys, "%s\"%s\"", n ? ", " : "", (const char *) l->data);
  if (g_list_length (members) > n)
    g_string_append (keys, ", ...");
  return g_string_free (keys, FALSE);
}

static gboolean
is_cpu_profile_nodes (JsonObject *doc)
{
  JsonNode *nodes = json_object_get_member (doc, "nodes");
  JsonArray *array = nodes && JSON_NODE_HOLDS_ARRAY (nodes) ? json_node_get_array (nodes) : NULL;

  return array && json_array_get_length (array) > 0 && JSON_NODE_HOLDS_OBJECT (json_array_get_element (array, 0));
}

/* A document read whole: told apart by its members (FORMATS.md §10). */
static gboolean
convert_whole (ArktsReader *r,
               JsonObject *doc,
               GError **error)
{
  JsonNode *head = json_object_get_member (doc, "head");

  if (is_cpu_profile_nodes (doc) || (head && JSON_NODE_HOLDS_OBJECT (head) && !json_object_has_member (json_node_get_object (head), "selfSize")))
    {
      g_debug ("%s: a CPU profile: %s", r->location,
               is_cpu_profile_nodes (doc) ? "\"nodes\" are objects" : "a \"head\" node without \"selfSize\"");
      r->kind = ARKTS_INPUT_CPU_PROFILE;
      r->cpu = arkts_cpu_profile_load (&r->env, doc, r->skel, ARKTS_NO_POS);
      return TRUE;
    }
  if (head && JSON_NODE_HOLDS_OBJECT (head))
    {
      g_debug ("%s: a sampling heap profile: a \"head\" node with \"selfSize\"", r->location);
      r->kind = ARKTS_INPUT_HEAP_PROFILE;
      arkts_heap_profile_convert (&r->env, doc, r->skel, r->opts.start_time, r->pending);
      return TRUE;
    }
  /* (r->whole is gone only when a profile key was seen) */
  if (json_object_has_member (doc, "snapshot") && r->whole)
    {
      /* a snapshot whose keys came in an unusual order */
      g_debug ("%s: a heap snapshot: \"snapshot\" is not its first key", r->location);
      r->kind = ARKTS_INPUT_HEAP_SNAPSHOT;
      r->doc = arkts_heap_doc_new (&r->env, 0, r->opts.start_time);
      return feed_plain_doc (r, (const char *) r->whole->data, r->whole->len, error);
    }
  {
    g_autofree char *keys = describe_keys (doc);
    return wrong_type (r, error, "a JSON object with keys %s", keys);
  }
}

static gboolean
finish_whole (ArktsReader *r,
              GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GError) local = NULL;
  JsonNode *root;
  const char *text;
  gsize len;
  gboolean ok;

  arkts_json_skel_finish (r->skel);
  text = arkts_json_skel_get_text (r->skel, &len);
  if (!json_parser_load_from_data (parser, text, len, &local))
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT, "%s: not valid JSON: %s", r->location, local->message);
      return FALSE;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return wrong_type (r, error, "JSON that is not an object");
  ok = convert_whole (r, json_node_get_object (root), error);
  g_clear_pointer (&r->whole, g_byte_array_unref);
  /* the profile has what it needs from the numbers */
  g_clear_pointer (&r->skel, arkts_json_skel_free);
  return ok;
}

static gboolean
finish (ArktsReader *r,
        GError **error)
{
  if (r->messages)
    arkts_messages_finish (r->messages, r->pending);
  else if (r->doc && !arkts_heap_doc_is_complete (r->doc))
    {
      g_autofree char *cut = arkts_heap_doc_describe_cut (r->doc);
      arkts_env_skip (&r->env, ARKTS_SKIP_TRUNCATED_SNAPSHOT, ARKTS_NO_POS, (gint64) (r->offset), "%s (end of input)", cut);
    }
  else if (r->whole_document && r->kind == ARKTS_INPUT_UNKNOWN)
    return finish_whole (r, error);
  return TRUE;
}

static void
log_totals (ArktsReader *r)
{
  guint64 skipped = 0;

  for (guint i = 0; i < ARKTS_SKIP_N_REASONS; i++)
    skipped += r->stats.skipped[i].count;
  r->ended = TRUE;
  g_debug ("%s: end of input (%s): %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT " messages, %" G_GUINT64_FORMAT
           " snapshots (%" G_GUINT64_FORMAT " timelines), %" G_GUINT64_FORMAT " CPU profiles with %" G_GUINT64_FORMAT
           " samples, %" G_GUINT64_FORMAT " heap profiles, %" G_GUINT64_FORMAT " things skipped",
           r->location, arkts_input_kind_to_string (r->kind), r->stats.bytes, r->stats.messages, r->stats.snapshots,
           r->stats.timelines, r->stats.cpu_profiles, r->stats.samples, r->stats.heap_profiles, skipped);
}

/**
 * arkts_reader_read_batch:
 * @r: a reader
 * @out: (out) (transfer full): the next batch, %NULL at the end
 *
 * Reads until about a batch of events is ready. The first call reads
 * enough to know the input's kind and clock domain.
 *
 * Returns: FALSE with @error when the input cannot be read as ArkTS/V8
 *   data
 */
gboolean
arkts_reader_read_batch (ArktsReader *r,
                         TraceBatch **out,
                         GError **error)
{
  guint64 start;

  g_return_val_if_fail (r != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  *out = NULL;
  if (!r->detected && !detect (r, error))
    return FALSE;
  if (r->pending == NULL)
    r->pending = trace_batch_new (r->env.pool, 0);
  start = r->offset;
  while (r->pending->n_events < TRACE_BATCH_DEFAULT_SIZE)
    {
      gsize used;

      /* bounded by input too: input that yields no event must not keep
       * the caller's main loop from running */
      if (r->offset - start >= TRACE_BATCH_MAX_INPUT_BYTES && r->cpu == NULL)
        break;
      if (r->cpu)
        {
          if (arkts_cpu_profile_emit (r->cpu, r->pending, TRACE_BATCH_DEFAULT_SIZE))
            g_clear_pointer (&r->cpu, arkts_cpu_profile_free);
          continue;
        }
      if (r->finished)
        break;
      if (r->block_len == 0)
        {
          if (!read_block (r, &r->block_len, error))
            return FALSE;
          r->block = r->buf;
          if (r->block_len == 0)
            {
              r->finished = TRUE;
              if (!finish (r, error))
                return FALSE;
              continue;
            }
        }
      if (!process (r, r->block, r->block_len, &used, error))
        return FALSE;
      r->block += used;
      r->block_len -= used;
      r->offset += used;
    }
  if (r->pending->n_events > 0)
    *out = g_steal_pointer (&r->pending);
  else if (!r->finished)
    *out = trace_batch_new (r->env.pool, 0); /* nothing yet: call again */
  else if (!r->ended)
    log_totals (r);
  return TRUE;
}

/**
 * arkts_reader_get_clock_domain:
 *
 * Returns: the option if set; else CLOCK_MONOTONIC for CPU profiles and
 *   message streams (ArkTS profiles its JS thread on CLOCK_MONOTONIC and
 *   heap data is placed on that clock from the start time), unknown for a
 *   plain heap file, which carries no clock. Known after the first read.
 */
TraceClockDomain
arkts_reader_get_clock_domain (ArktsReader *r)
{
  g_return_val_if_fail (r != NULL, TRACE_CLOCK_UNKNOWN);

  if (r->opts.clock_domain != TRACE_CLOCK_UNKNOWN)
    return r->opts.clock_domain;
  if (r->kind == ARKTS_INPUT_MESSAGES || r->kind == ARKTS_INPUT_CPU_PROFILE)
    return TRACE_CLOCK_MONOTONIC;
  return TRACE_CLOCK_UNKNOWN;
}

ArktsInputKind
arkts_reader_get_input_kind (ArktsReader *r)
{
  g_return_val_if_fail (r != NULL, ARKTS_INPUT_UNKNOWN);

  return r->kind;
}

const ArktsReaderStats *
arkts_reader_get_stats (ArktsReader *r)
{
  g_return_val_if_fail (r != NULL, NULL);

  return &r->stats;
}

/**
 * arkts_reader_get_warning_summary:
 *
 * Returns: (transfer full) (nullable): one line saying what was not used,
 *   per reason with its count and the first occurrence; %NULL if nothing
 */
char *
arkts_reader_get_warning_summary (ArktsReader *r)
{
  GString *line = NULL;

  g_return_val_if_fail (r != NULL, NULL);

  for (guint i = 0; i < ARKTS_SKIP_N_REASONS; i++)
    {
      const ArktsSkipStat *stat = &r->stats.skipped[i];
      if (stat->count == 0)
        continue;
      if (line == NULL)
        line = g_string_new (NULL), g_string_append_printf (line, "%s: ", r->location);
      else
        g_string_append (line, "; ");
      if (stat->first_where)
        g_string_append_printf (line, "%" G_GUINT64_FORMAT " %s (first at %s: %s)", stat->count,
                                skip_reason_names[i], stat->first_where, stat->first_detail);
      else
        g_string_append_printf (line, "%" G_GUINT64_FORMAT " %s (first: %s)", stat->count,
                                skip_reason_names[i], stat->first_detail);
    }
  return line ? g_string_free (line, FALSE) : NULL;
}
