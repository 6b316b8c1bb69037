/* tracepipe - json plugin: streaming reader of the Chrome Trace Event Format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The input is read in large blocks.  A small state machine walks the
 * top level (array form, or object form with its keys in any order) and
 * finds each element of "traceEvents", which json-event.c parses in place.
 * Nothing but the current element (and what is still unread of the
 * block) is held in memory: unknown top-level values are skipped as they
 * stream by, and the systemTraceEvents text goes to a ChromeSpill.
 */
#include "config.h"

#include <string.h>

#include "json-reader-private.h"

typedef enum
{
  STEP_OK,
  STEP_NEED_MORE,
  STEP_ERROR,
} StepResult;

/**
 * chrome_reader_new:
 * @in: the input, JSON text (a gzip file is undone before: #TraceFileSrc
 *   does it for every format)
 * @location: the file name used in messages
 * @pool: the string pool of the events
 *
 * Returns: (transfer full): a reader
 */
ChromeReader *
chrome_reader_new (GInputStream *in,
                   const char *location,
                   TraceStringPool *pool)
{
  ChromeReader *r;

  g_return_val_if_fail (G_IS_INPUT_STREAM (in), NULL);

  r = g_new0 (ChromeReader, 1);
  r->in = g_buffered_input_stream_new_sized (in, 64 * 1024);
  /* the caller's stream stays the caller's to close */
  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (r->in), FALSE);
  r->location = g_strdup (location ? location : "<stream>");
  r->pool = trace_string_pool_ref (pool ? pool : trace_string_pool_get_default ());
  r->cap = CHROME_READER_FIRST_BLOCK_SIZE;
  r->buf = g_malloc (r->cap);
  r->state = FRAME_START;
  r->top_first = TRUE;
  r->scratch = g_string_sized_new (256);
  r->key_buf = g_string_sized_new (256);
  r->metadata = json_object_new ();
  r->string_ids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  r->tmp_nodes = g_array_new (FALSE, FALSE, sizeof (ChunkNode));
  r->tmp_samples = g_array_new (FALSE, FALSE, sizeof (gint64));
  r->tmp_deltas = g_array_new (FALSE, FALSE, sizeof (gint64));
  r->tmp_index = g_hash_table_new (g_direct_hash, g_direct_equal);
  r->n_threads = 1;
  return r;
}

void
chrome_reader_free (ChromeReader *r)
{
  if (r == NULL)
    return;
  g_debug ("%s: reader closed: %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT " event objects, %" G_GUINT64_FORMAT
           " events",
           r->location, r->stats.bytes, r->stats.objects, r->stats.events);
  chrome_reader_chunks_free (r);
  g_clear_object (&r->in);
  g_free (r->location);
  trace_string_pool_unref (r->pool);
  g_free (r->buf);
  chrome_spill_free (r->system_trace);
  g_free (r->display_time_unit);
  g_free (r->clock_domain_name);
  json_object_unref (r->metadata);
  g_clear_pointer (&r->batch, trace_batch_unref);
  g_string_free (r->scratch, TRUE);
  g_string_free (r->key_buf, TRUE);
  g_hash_table_unref (r->string_ids);
  chrome_reader_profiles_free (r);
  g_array_unref (r->tmp_nodes);
  g_array_unref (r->tmp_samples);
  g_array_unref (r->tmp_deltas);
  g_hash_table_unref (r->tmp_index);
  g_free (r);
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */

static guint64
offset_of (ChromeReader *r,
           const char *p)
{
  return r->base + (p - r->buf);
}

static StepResult G_GNUC_PRINTF (5, 6)
    fail (ChromeReader *r,
          GError **error,
          gint code,
          guint64 offset,
          const char *format,
          ...)
{
  g_autofree char *msg = NULL;
  va_list ap;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, TRACE_STREAM_ERROR, code, "%s: byte %" G_GUINT64_FORMAT ": %s",
               r->location, offset, msg);
  r->state = FRAME_DONE;
  /* bytes-read: what was read before the failing step, not how far
   * reads went ahead (which the workers' chunks change) */
  r->stats.bytes = r->base + r->pos;
  return STEP_ERROR;
}

static const char *
describe_byte (char c,
               char buf[16])
{
  if (g_ascii_isprint (c))
    g_snprintf (buf, 16, "'%c'", c);
  else
    g_snprintf (buf, 16, "byte 0x%02x", (guchar) c);
  return buf;
}

static const char *
value_type_name (const ChromeValue *v)
{
  switch (v->type)
    {
    case CHROME_VALUE_STRING:
      return "a string";
    case CHROME_VALUE_NUMBER:
      return "a number";
    case CHROME_VALUE_ARRAY:
      return "an array";
    case CHROME_VALUE_NULL:
      return "null";
    default:
      return "a boolean";
    }
}

/* ------------------------------------------------------------------ */
/* Input                                                               */

gboolean
chrome_reader_read_error (ChromeReader *r,
                          GError *io_error,
                          GError **error)
{
  if (io_error->domain == G_IO_ERROR && io_error->code == G_IO_ERROR_INVALID_DATA)
    g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_DECODE,
                 "%s: byte %" G_GUINT64_FORMAT ": cannot decompress: %s",
                 r->location, r->base + r->len, io_error->message);
  else
    g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_READ,
                 "%s: cannot read: %s", r->location, io_error->message);
  g_error_free (io_error);
  r->state = FRAME_DONE;
  return FALSE;
}

/* Moves the unread bytes to the front; grows the buffer when one element
 * fills it.  Returns the room behind the unread bytes, 0 on error. */
gsize
chrome_reader_make_room (ChromeReader *r,
                         GError **error)
{
  if (r->pos > 0)
    {
      memmove (r->buf, r->buf + r->pos, r->len - r->pos);
      r->base += r->pos;
      r->len -= r->pos;
      r->pos = 0;
    }
  if (r->cap < CHROME_READER_BLOCK_SIZE && r->stats.bytes > 0)
    {
      /* more than the first read: the file is not small */
      r->cap = CHROME_READER_BLOCK_SIZE;
      r->buf = g_realloc (r->buf, r->cap);
    }
  else if (r->len == r->cap)
    {
      if (r->cap >= CHROME_MAX_ELEMENT_SIZE)
        {
          fail (r, error, TRACE_STREAM_ERROR_TOO_LARGE, r->base, "a single value larger than %u MiB",
                CHROME_MAX_ELEMENT_SIZE >> 20);
          return 0;
        }
      r->cap *= 2;
      r->buf = g_realloc (r->buf, r->cap);
    }
  return r->cap - r->len;
}

/* Reads more behind the unread bytes: from the input, or from the chunks
 * once they are read by them (json-reader-chunks.c). */
static gboolean
refill (ChromeReader *r,
        GError **error)
{
  GError *io_error = NULL;
  gsize n = 0, want;

  want = chrome_reader_make_room (r, error);
  if (want == 0)
    return FALSE;
  if (r->chunks != NULL || chrome_reader_maybe_start_chunks (r))
    return chrome_reader_refill_chunks (r, want, error);
  if (!g_input_stream_read_all (r->in, r->buf + r->len, want, &n, NULL, &io_error))
    {
      /* A cut gzip file (the stream may be a decompressor's): keep what
       * was decompressed, the JSON framing counts the truncation. */
      if (!g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
        return chrome_reader_read_error (r, io_error, error);
      g_error_free (io_error);
      n = MIN (n, want);
      r->eof = TRUE;
    }
  if (n < want)
    r->eof = TRUE;
  r->len += n;
  r->stats.bytes += n;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The top level                                                       */

static void
enter_container (ChromeReader *r,
                 ContainerRole role,
                 gsize pos)
{
  r->state = FRAME_CONTAINER;
  r->role = role;
  r->first = TRUE;
  r->pos = pos;
}

static void
leave_container (ChromeReader *r,
                 const char *after)
{
  r->pos = after - r->buf;
  r->state = r->top_is_object ? FRAME_MEMBER : FRAME_AFTER_TOP;
}

/* The depth of the elements of the current container. */
static int
element_depth (ChromeReader *r)
{
  return r->top_is_object ? 3 : 2;
}

static StepResult
finish_input (ChromeReader *r,
              GError **error)
{
  chrome_reader_flush_deferred (r);
  chrome_reader_profiles_finish (r);
  chrome_reader_flush_names (r);
  r->state = FRAME_DONE;
  if (!r->top_is_object && !r->saw_phase && r->stats.objects > r->stats.empty_objects)
    return fail (r, error, TRACE_STREAM_ERROR_WRONG_TYPE, r->top_start,
                 "JSON is not a Chrome trace: no element of the top-level array has a \"ph\" key");
  return STEP_OK;
}

static StepResult
step_start (ChromeReader *r,
            GError **error)
{
  const char *p = r->buf + r->pos, *end = r->buf + r->len;
  char b[16];

  if (r->base + r->pos == 0 && end - p >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p += 3; /* a UTF-8 byte order mark */
  p = chrome_skip_ws (p, end);
  r->pos = p - r->buf;
  if (p == end)
    return STEP_NEED_MORE;
  r->top_start = offset_of (r, p);
  if (*p == '[')
    {
      r->top_is_object = FALSE;
      g_debug ("%s: Chrome JSON, array form (starts with '[' at byte %" G_GUINT64_FORMAT ")", r->location,
               r->top_start);
      enter_container (r, ROLE_EVENTS, r->pos + 1);
      r->seen_trace_events = TRUE;
      return STEP_OK;
    }
  if (*p == '{')
    {
      r->top_is_object = TRUE;
      g_debug ("%s: Chrome JSON, object form (starts with '{' at byte %" G_GUINT64_FORMAT ")", r->location,
               r->top_start);
      r->state = FRAME_MEMBER;
      r->pos++;
      return STEP_OK;
    }
  /* a systrace HTML file: its JSON blocks are read beside its text */
  if (*p == '<')
    return fail (r, error, TRACE_STREAM_ERROR_WRONG_TYPE, r->top_start,
                 "not a JSON trace: it starts with '<' (a systrace HTML file? ftrace-src reads those, "
                 "their JSON blocks included)");
  return fail (r, error, TRACE_STREAM_ERROR_WRONG_TYPE, r->top_start,
               "not a JSON trace: it starts with %s, not '[' or '{'", describe_byte (*p, b));
}

static void
start_skip (ChromeReader *r,
            gsize pos)
{
  char c = r->buf[pos];

  r->state = FRAME_SKIP;
  r->pos = pos;
  r->skip_start = offset_of (r, r->buf + pos);
  r->skip_scalar = !(c == '"' || c == '{' || c == '[');
  r->skip_depth = 0;
  r->skip_in_string = FALSE;
  r->skip_escape = FALSE;
}

/* Top-level keys that mean another kind of JSON file. */
static gboolean
key_means_profile (const ChromeValue *key)
{
  static const char *const keys[] = { "nodes", "snapshot", "head", "timeDeltas", "strings" };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (chrome_value_is (key, keys[i]))
      return TRUE;
  return FALSE;
}

static StepResult
read_display_time_unit (ChromeReader *r,
                        ChromeScanner *s)
{
  ChromeValue v;
  const char *p;
  gsize len;

  if (chrome_scan_string (s, &v) != CHROME_SCAN_OK)
    return STEP_NEED_MORE; /* a string start is there: only more data helps */
  p = chrome_string_decode (&v, r->scratch, &len);
  g_free (r->display_time_unit);
  r->display_time_unit = g_strndup (p, len);
  r->pos = s->p - r->buf;
  return STEP_OK;
}

static StepResult
dispatch_member (ChromeReader *r,
                 ChromeScanner *s,
                 const ChromeValue *key,
                 GError **error)
{
  gsize pos = s->p - r->buf;
  char c = *s->p;

  if (chrome_value_is (key, "traceEvents"))
    {
      if (c != '[')
        return fail (r, error, TRACE_STREAM_ERROR_FORMAT, offset_of (r, s->p),
                     "\"traceEvents\" is not an array");
      r->seen_trace_events = TRUE;
      enter_container (r, ROLE_EVENTS, pos + 1);
    }
  else if (chrome_value_is (key, "samples") && c == '[')
    enter_container (r, ROLE_SAMPLES, pos + 1);
  else if (chrome_value_is (key, "stackFrames") && c == '{')
    enter_container (r, ROLE_STACK_FRAMES, pos + 1);
  else if (chrome_value_is (key, "metadata") && c == '{')
    enter_container (r, ROLE_METADATA, pos + 1);
  else if (chrome_value_is (key, "systemTraceEvents") && c == '"')
    {
      if (r->system_trace == NULL)
        r->system_trace = chrome_spill_new (CHROME_READER_SYSTEM_TRACE_MEMORY);
      r->state = FRAME_STRING;
      r->pos = pos + 1;
    }
  else if (chrome_value_is (key, "displayTimeUnit") && c == '"')
    {
      if (read_display_time_unit (r, s) != STEP_OK)
        return STEP_NEED_MORE;
    }
  else if (!r->seen_trace_events && key_means_profile (key))
    return fail (r, error, TRACE_STREAM_ERROR_WRONG_TYPE, r->top_start,
                 "JSON is not a Chrome trace: its top-level object has a \"%.*s\" key"
                 " (a V8 CPU profile or heap snapshot?)",
                 (int) (key->end - key->start), key->start);
  else
    start_skip (r, pos);
  r->top_first = FALSE;
  return STEP_OK;
}

static StepResult
step_member (ChromeReader *r,
             GError **error)
{
  ChromeScanner s;
  ChromeValue key;
  gboolean first = r->top_first;
  ChromeScanResult res;

  chrome_scanner_init (&s, r->buf + r->pos, r->buf + r->len);
  res = chrome_scan_member (&s, &first, &key);
  switch (res)
    {
    case CHROME_SCAN_OK:
      return dispatch_member (r, &s, &key, error);
    case CHROME_SCAN_END:
      leave_container (r, s.p);
      r->state = FRAME_AFTER_TOP;
      if (!r->seen_trace_events)
        return fail (r, error, TRACE_STREAM_ERROR_WRONG_TYPE, r->top_start,
                     "JSON is not a Chrome trace: the top-level object has no \"traceEvents\" array");
      return STEP_OK;
    case CHROME_SCAN_ERROR:
      if (r->top_first)
        return fail (r, error, TRACE_STREAM_ERROR_WRONG_TYPE, offset_of (r, s.error_at),
                     "not JSON: %s", s.error_msg);
      return fail (r, error, TRACE_STREAM_ERROR_FORMAT, offset_of (r, s.error_at),
                   "the top-level object is broken: %s", s.error_msg);
    default:
      return STEP_NEED_MORE;
    }
}

/* Skips a top-level value of any size as it streams by. */
static StepResult
step_skip (ChromeReader *r,
           GError **error)
{
  const char *p = r->buf + r->pos, *end = r->buf + r->len;

  if (r->skip_scalar)
    {
      while (p < end && strchr (",}] \t\r\n", *p) == NULL)
        p++;
      r->pos = p - r->buf;
      if (p == end)
        return STEP_NEED_MORE;
      r->state = FRAME_MEMBER;
      return STEP_OK;
    }
  for (; p < end; p++)
    {
      char c = *p;

      if (r->skip_in_string)
        {
          if (r->skip_escape)
            r->skip_escape = FALSE;
          else if (c == '\\')
            r->skip_escape = TRUE;
          else if (c == '"')
            {
              r->skip_in_string = FALSE;
              if (r->skip_depth == 0)
                break;
            }
          continue;
        }
      if (c == '"')
        r->skip_in_string = TRUE;
      else if (c == '{' || c == '[')
        {
          if (++r->skip_depth + 1 > CHROME_SCAN_MAX_DEPTH)
            {
              StepResult res = fail (r, error, TRACE_STREAM_ERROR_TOO_LARGE, offset_of (r, p),
                                     "nesting deeper than %d levels", CHROME_SCAN_MAX_DEPTH);

              /* The skip spans many steps, which begin where the reads
               * happened to end (with workers, where their chunks did):
               * bytes-read is where the value began, the same with any
               * threads. */
              r->stats.bytes = r->skip_start;
              return res;
            }
        }
      else if ((c == '}' || c == ']') && --r->skip_depth == 0)
        break;
    }
  if (p == end)
    {
      r->pos = r->len;
      return STEP_NEED_MORE;
    }
  r->pos = p + 1 - r->buf;
  r->state = FRAME_MEMBER;
  return STEP_OK;
}

/* Whether the whole escape at @q is in the buffer. */
static gboolean
escape_complete (const char *q,
                 const char *end)
{
  int hi = 0;

  if (end - q < 2)
    return FALSE;
  if (q[1] != 'u')
    return TRUE;
  if (end - q < 6)
    return FALSE;
  for (int i = 2; i < 6; i++)
    hi = hi * 16 + (g_ascii_isxdigit (q[i]) ? g_ascii_xdigit_value (q[i]) : 0);
  /* a high surrogate pairs with the escape after it */
  return !(hi >= 0xD800 && hi <= 0xDBFF) || end - q >= 12;
}

/* Collects the systemTraceEvents string, unescaped, into the spill. */
static StepResult
step_string (ChromeReader *r,
             GError **error)
{
  const char *p = r->buf + r->pos, *end = r->buf + r->len;

  while (p < end)
    {
      const char *q = p;

      while (q < end && *q != '"' && *q != '\\')
        q++;
      if (q > p && !chrome_spill_write (r->system_trace, p, q - p, error))
        return STEP_ERROR;
      p = q;
      if (q == end)
        break;
      if (*q == '"')
        {
          r->pos = q + 1 - r->buf;
          r->state = FRAME_MEMBER;
          return STEP_OK;
        }
      if (!escape_complete (q, end) && !r->eof)
        break;
      g_string_truncate (r->scratch, 0);
      p = chrome_decode_escape (q, end, r->scratch);
      if (!chrome_spill_write (r->system_trace, r->scratch->str, r->scratch->len, error))
        return STEP_ERROR;
    }
  r->pos = p - r->buf;
  return STEP_NEED_MORE;
}

static StepResult
step_resync (ChromeReader *r)
{
  const char *p = r->buf + r->pos, *end = r->buf + r->len;

  for (; p < end; p++)
    {
      if (*p == '{')
        {
          enter_container (r, r->role, p - r->buf);
          return STEP_OK;
        }
      if (*p == ']')
        {
          leave_container (r, p + 1);
          return STEP_OK;
        }
    }
  r->pos = r->len;
  return STEP_NEED_MORE;
}

static StepResult
step_after_top (ChromeReader *r,
                GError **error)
{
  const char *p = chrome_skip_ws (r->buf + r->pos, r->buf + r->len);

  r->pos = p - r->buf;
  if (p == r->buf + r->len)
    return STEP_NEED_MORE;
  chrome_reader_skip (r, CHROME_SKIP_TRAILING_DATA, offset_of (r, p));
  /* Reading stops here: bytes-read is where the trailing data starts,
   * not how far reads went ahead (which the workers' chunks change).
   * The rest is not read: it may be an endless pipe. */
  r->stats.bytes = offset_of (r, p);
  return finish_input (r, error);
}

/* ------------------------------------------------------------------ */
/* Containers: traceEvents, samples, stackFrames, metadata             */

/* Broken JSON between events: count it, then look for the next '{'. */
static StepResult
resync_after (ChromeReader *r,
              const char *at)
{
  chrome_reader_skip (r, CHROME_SKIP_MALFORMED, offset_of (r, at));
  if (*at == '{')
    {
      /* a missing comma: take the object as the next element */
      enter_container (r, r->role, at - r->buf);
      return STEP_OK;
    }
  r->pos = at + 1 - r->buf;
  r->state = FRAME_RESYNC;
  return STEP_OK;
}

static StepResult
read_object_item (ChromeReader *r,
                  ChromeScanner *s,
                  GError **error)
{
  const char *elem = s->p;
  guint64 offset = offset_of (r, elem);
  int depth = element_depth (r);
  ChromeEventFields f;
  ChromeScanResult res = chrome_event_scan_fields (s, depth, &f);

  if (res == CHROME_SCAN_ERROR)
    {
      guint64 broken_at = offset_of (r, s->error_at);

      /* Find where the broken object ends, to go on after it. */
      chrome_scanner_init (s, elem, r->buf + r->len);
      res = chrome_scan_value (s, &f.args, depth - 1);
      if (res == CHROME_SCAN_OK)
        {
          /* the offset of the damage itself: the event's start tells
           * less in a long event */
          chrome_reader_skip (r, CHROME_SKIP_MALFORMED, broken_at);
          r->pos = s->p - r->buf;
          r->first = FALSE;
          return STEP_OK;
        }
      if (res == CHROME_SCAN_ERROR)
        return resync_after (r, s->error_at);
      /* If the input ends before the object does, the garbage, not the
       * end, is what is wrong with it: at_end_of_input() says so. */
      r->broken_element = offset;
      r->broken_at = broken_at;
    }
  if (res == CHROME_SCAN_INCOMPLETE)
    return STEP_NEED_MORE;
  if (res == CHROME_SCAN_TOO_DEEP)
    return fail (r, error, TRACE_STREAM_ERROR_TOO_LARGE, offset_of (r, s->error_at),
                 "nesting deeper than %d levels", CHROME_SCAN_MAX_DEPTH);
  r->pos = s->p - r->buf;
  r->first = FALSE;
  if (r->role == ROLE_SAMPLES)
    {
      chrome_reader_convert_top_sample (r, &f, offset);
      return STEP_OK;
    }
  r->stats.objects++;
  chrome_reader_convert_event (r, &f, offset, depth);
  return STEP_OK;
}

static StepResult
read_other_item (ChromeReader *r,
                 ChromeScanner *s,
                 gboolean was_first,
                 GError **error)
{
  const char *elem = s->p;
  ChromeValue v;
  ChromeScanResult res = chrome_scan_value (s, &v, element_depth (r) - 1);

  if (res == CHROME_SCAN_INCOMPLETE)
    return STEP_NEED_MORE;
  if (res == CHROME_SCAN_TOO_DEEP)
    return fail (r, error, TRACE_STREAM_ERROR_TOO_LARGE, offset_of (r, s->error_at),
                 "nesting deeper than %d levels", CHROME_SCAN_MAX_DEPTH);
  if (res == CHROME_SCAN_ERROR)
    return resync_after (r, s->error_at);
  if (was_first && !r->top_is_object && r->stats.objects == 0)
    return fail (r, error, TRACE_STREAM_ERROR_WRONG_TYPE, offset_of (r, elem),
                 "JSON is not a Chrome trace: the top-level array holds %s, not event objects",
                 value_type_name (&v));
  chrome_reader_skip (r, CHROME_SKIP_NOT_AN_OBJECT, offset_of (r, elem));
  r->pos = s->p - r->buf;
  r->first = FALSE;
  return STEP_OK;
}

static StepResult
step_array_item (ChromeReader *r,
                 GError **error)
{
  ChromeScanner s;
  gboolean first = r->first;
  ChromeScanResult res;

  chrome_scanner_init (&s, r->buf + r->pos, r->buf + r->len);
  res = chrome_scan_element (&s, &first);
  if (res == CHROME_SCAN_INCOMPLETE)
    return STEP_NEED_MORE;
  if (res == CHROME_SCAN_END)
    {
      leave_container (r, s.p);
      return STEP_OK;
    }
  if (res == CHROME_SCAN_ERROR)
    return resync_after (r, s.error_at);
  if (*s.p == '{')
    return read_object_item (r, &s, error);
  return read_other_item (r, &s, r->first, error);
}

/* metadata "tracepipe-clock-markers", written by json-sink for the clock
 * markers that have no event form: back to CLOCK_MARKER events. */
static void
read_clock_markers (ChromeReader *r,
                    JsonNode *node)
{
  static const char *const kinds[] = { "parent_ts", "realtime_ts", "sync_id", "pair" };
  JsonArray *array;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return;
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonObject *o;
      const char *kind;
      TraceEvent *ev;
      guint k;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;
      o = json_node_get_object (element);
      kind = json_object_get_string_member_with_default (o, "marker", "");
      for (k = 0; k < G_N_ELEMENTS (kinds) && strcmp (kinds[k], kind) != 0; k++)
        ;
      if (k == G_N_ELEMENTS (kinds))
        continue;
      ev = chrome_reader_append (r, TRACE_EVENT_CLOCK_MARKER,
                                 json_object_get_int_member_with_default (o, "ts_ns", 0),
                                 json_object_get_int_member_with_default (o, "pid", TRACE_ID_UNKNOWN),
                                 TRACE_ID_UNKNOWN);
      ev->u.clock.marker = k;
      ev->u.clock.other_ts = json_object_get_int_member_with_default (o, "other_ts_ns", 0);
      ev->u.clock.domain = trace_clock_domain_from_string (
          json_object_get_string_member_with_default (o, "domain", NULL));
    }
}

/* A member of the top-level "metadata" object.  clock-domain is
 * interpreted; small members are kept for chrome_reader_get_metadata(). */
static void
read_metadata_member (ChromeReader *r,
                      const ChromeValue *key,
                      const ChromeValue *v,
                      guint64 offset)
{
  g_autoptr (JsonParser) parser = NULL;
  g_autofree char *name = NULL;
  const char *p, *start, *end;
  gboolean markers;
  gsize len;

  p = chrome_string_decode (key, r->scratch, &len);
  name = g_strndup (p, len);
  if (strcmp (name, "clock-domain") == 0 && v->type == CHROME_VALUE_STRING)
    {
      p = chrome_string_decode (v, r->scratch, &len);
      g_free (r->clock_domain_name);
      r->clock_domain_name = g_strndup (p, len);
      r->clock_domain = trace_clock_domain_from_string (r->clock_domain_name);
      g_debug ("%s: clock domain %s (metadata \"clock-domain\": \"%s\")", r->location,
               trace_clock_domain_to_string (r->clock_domain), r->clock_domain_name);
    }
  markers = strcmp (name, "tracepipe-clock-markers") == 0;
  start = v->type == CHROME_VALUE_STRING ? v->start - 1 : v->start;
  end = v->type == CHROME_VALUE_STRING ? v->end + 1 : v->end;
  /* documented: very large metadata is not kept */
  if (end - start > (markers ? 1024 * 1024 : 64 * 1024) ||
      (!markers && json_object_get_size (r->metadata) >= 256))
    return;
  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, start, end - start, NULL))
    {
      chrome_reader_skip (r, CHROME_SKIP_MALFORMED, offset);
      return;
    }
  if (markers)
    read_clock_markers (r, json_parser_get_root (parser));
  else
    json_object_set_member (r->metadata, name, json_node_copy (json_parser_get_root (parser)));
}

static StepResult
step_member_item (ChromeReader *r,
                  GError **error)
{
  const char *what = r->role == ROLE_METADATA ? "metadata" : "stackFrames";
  ChromeScanner s;
  ChromeValue key, v;
  gboolean first = r->first;
  ChromeScanResult res;

  chrome_scanner_init (&s, r->buf + r->pos, r->buf + r->len);
  res = chrome_scan_member (&s, &first, &key);
  if (res == CHROME_SCAN_OK)
    res = chrome_scan_value (&s, &v, 2);
  switch (res)
    {
    case CHROME_SCAN_OK:
      break;
    case CHROME_SCAN_END:
      leave_container (r, s.p);
      if (r->role == ROLE_STACK_FRAMES)
        {
          r->frames_read = TRUE;
          chrome_reader_flush_deferred (r);
        }
      return STEP_OK;
    case CHROME_SCAN_INCOMPLETE:
      return STEP_NEED_MORE;
    case CHROME_SCAN_TOO_DEEP:
      return fail (r, error, TRACE_STREAM_ERROR_TOO_LARGE, offset_of (r, s.error_at),
                   "nesting deeper than %d levels", CHROME_SCAN_MAX_DEPTH);
    default:
      return fail (r, error, TRACE_STREAM_ERROR_FORMAT, offset_of (r, s.error_at),
                   "the \"%s\" object is broken: %s", what, s.error_msg);
    }
  if (r->role == ROLE_METADATA)
    read_metadata_member (r, &key, &v, offset_of (r, key.start - 1));
  else
    chrome_reader_convert_stack_frame (r, &key, &v, offset_of (r, key.start - 1));
  r->pos = s.p - r->buf;
  r->first = FALSE;
  return STEP_OK;
}

static StepResult
step (ChromeReader *r,
      GError **error)
{
  switch (r->state)
    {
    case FRAME_START:
      return step_start (r, error);
    case FRAME_MEMBER:
      return step_member (r, error);
    case FRAME_CONTAINER:
      if (r->role == ROLE_EVENTS || r->role == ROLE_SAMPLES)
        return step_array_item (r, error);
      return step_member_item (r, error);
    case FRAME_SKIP:
      return step_skip (r, error);
    case FRAME_STRING:
      return step_string (r, error);
    case FRAME_RESYNC:
      return step_resync (r);
    case FRAME_AFTER_TOP:
      return step_after_top (r, error);
    default:
      return STEP_OK;
    }
}

/* The input ended where more was needed. */
static StepResult
at_end_of_input (ChromeReader *r,
                 GError **error)
{
  const char *end = r->buf + r->len;
  const char *p = chrome_skip_ws (r->buf + r->pos, end);

  /* point at a half-written item rather than at the comma before it */
  if (p < end && *p == ',' && chrome_skip_ws (p + 1, end) < end)
    p = chrome_skip_ws (p + 1, end);
  switch (r->state)
    {
    case FRAME_START:
      return fail (r, error, TRACE_STREAM_ERROR_EMPTY, offset_of (r, p), "the input is empty");
    case FRAME_AFTER_TOP:
    case FRAME_DONE:
      break;
    default:
      if (!r->seen_trace_events)
        return fail (r, error, TRACE_STREAM_ERROR_WRONG_TYPE, r->top_start,
                     "JSON is not a Chrome trace: the input ends before a \"traceEvents\" array");
      if (r->broken_at > 0 && r->broken_element == offset_of (r, p))
        chrome_reader_skip (r, CHROME_SKIP_MALFORMED, r->broken_at);
      else
        chrome_reader_skip (r, CHROME_SKIP_TRUNCATED, offset_of (r, p));
    }
  return finish_input (r, error);
}

/**
 * chrome_reader_read_batch:
 * @out: (out) (transfer full) (nullable): the next batch; %NULL at the end
 *
 * Reads events in file order, up to about %TRACE_BATCH_DEFAULT_SIZE.
 * Damage inside a trace is counted (see chrome_reader_get_stats()),
 * not an error.
 *
 * Returns: %FALSE with @error set when the input is not a Chrome JSON
 *   trace, nests deeper than %CHROME_SCAN_MAX_DEPTH, has a single value
 *   larger than %CHROME_MAX_ELEMENT_SIZE, or cannot be read
 */
gboolean
chrome_reader_read_batch (ChromeReader *r,
                          TraceBatch **out,
                          GError **error)
{
  guint64 start;

  g_return_val_if_fail (r != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  *out = NULL;
  if (r->batch == NULL)
    {
      r->batch = trace_batch_new (r->pool, 0);
      /* the next batch takes about what the last one took */
      trace_batch_reserve (r->batch, r->last_n_args, r->last_text_len);
    }
  start = r->stats.bytes;
  while (r->batch->n_events < TRACE_BATCH_DEFAULT_SIZE && r->state != FRAME_DONE)
    {
      StepResult res;

      /* an event a worker scanned, where this thread would scan it */
      if (r->chunks != NULL && chrome_reader_take_scanned (r))
        continue;
      res = step (r, error);

      if (res == STEP_ERROR)
        return FALSE;
      if (res == STEP_OK)
        continue;
      if (r->eof)
        {
          if (at_end_of_input (r, error) == STEP_ERROR)
            return FALSE;
        }
      else if (!refill (r, error))
        return FALSE;
      /* bounded by input too, after a read (so each call gets on):
       * megabytes of whitespace or skipped values yield nothing, and
       * the caller's main loop must run meanwhile */
      else if (r->stats.bytes > start && r->stats.bytes - start >= TRACE_BATCH_MAX_INPUT_BYTES)
        break;
    }
  if (r->batch->n_events == 0 && r->state == FRAME_DONE)
    return TRUE;
  if (r->batch->n_events == 0)
    {
      /* nothing yet: an empty batch says "call again" */
      *out = trace_batch_new (r->pool, 0);
      return TRUE;
    }
  r->stats.events += r->batch->n_events;
  r->last_n_args = r->batch->n_args;
  r->last_text_len = r->batch->text_len;
  *out = g_steal_pointer (&r->batch);
  return TRUE;
}
