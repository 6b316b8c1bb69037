/* tracepipe - json plugin: GPU counters and frame timelines as Chrome events
 *
 * perfetto-src carries the Perfetto packets it does not read as records
 * (their payload as it was, base64).  Two kinds hold what a Chrome JSON
 * trace can carry, and json-sink writes them the way trace_processor
 * reads them from the original instead of as opaque records:
 *
 * - gpu_counter_event: a descriptor names each counter id (the first spec
 *   of an id wins, as in trace_processor); each value becomes a `C` event
 *   without pid, whose "<name> <key>" is the counter's name (split at its
 *   last space, "<name> value" for a name without one; a GPU other than 0
 *   prefixes "GPU <id> ").  trace_processor reads a value as the one of the
 *   interval that ends at it (unless the spec says forwards looking): it
 *   shows each sample's value at the sample before, and 0 at the last.
 *   The values are written that way, the last when the trace ends.
 * - frame_timeline_event: each expected and actual frame start is a `b`
 *   on the frame's process named by its token, category "Expected
 *   Timeline" or "Actual Timeline", id the frame's cookie; its FrameEnd the
 *   `e` of that cookie.  trace_processor links an app's actual surface
 *   frame to the actual display frame of its display token: the surface's
 *   `b` begins a v2 flow (bind_id from the display token), the display's
 *   `b` ends it.
 *
 * What has no such form is counted (json-writer.h): values of counter ids
 * no descriptor named, descriptors sent as interned data, frame events
 * trace_processor rejects, and the links of second surface frames to one
 * display frame (a v2 flow id begins once).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "graphics_packets.pb-c.h"
#include "json-common.h"
#include "json-writer-private.h"

#define GPU_COUNTER_EVENT_FIELD 52
#define FRAME_TIMELINE_EVENT_FIELD 76
/* Frame flows in a v2 id space of their own: trace_processor keys v2
 * flows by the bare id, which other flows of the trace may use. */
#define FRAME_FLOW_ID_TAG G_GUINT64_CONSTANT (0x4652000000000000)
#define FORWARDS_LOOKING 2

typedef struct
{
  char *name; /* the C event's name, then NUL, then its key */
  gsize name_len;
  gboolean forwards;
  gboolean pending; /* a sample waiting for the next one's value */
  gint64 pending_ts;
} GpuCounter;

typedef struct
{
  gint64 token;
  gint32 pid;
  const char *category;
  gboolean skipped; /* its start was not written: nor is its end */
} OpenFrame;

struct _ChromeGraphics
{
  guint32 k_field, k_bytes;
  GHashTable *counters;          /* counter id → GpuCounter */
  GHashTable *frames;            /* cookie (gint64*) → OpenFrame */
  GHashTable *expected_surfaces; /* "pid token" of expected surface frames */
  GHashTable *linked_displays;   /* display tokens (gint64*) a flow begins for */
};

static void
gpu_counter_free (gpointer p)
{
  GpuCounter *c = p;

  g_free (c->name);
  g_free (c);
}

static ChromeGraphics *
graphics_get (ChromeWriter *w)
{
  if (w->graphics == NULL)
    {
      ChromeGraphics *g = g_new0 (ChromeGraphics, 1);

      g->counters = g_hash_table_new_full (NULL, NULL, NULL, gpu_counter_free);
      g->frames = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
      g->expected_surfaces = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g->linked_displays = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      w->graphics = g;
    }
  return w->graphics;
}

/* ------------------------------------------------------------------ */
/* GPU counters                                                        */

/* The C event's name and key of a counter: "<name>\0<key>". */
static GpuCounter *
gpu_counter_new (const char *spec_name,
                 gint32 gpu_id,
                 gboolean forwards)
{
  GpuCounter *c = g_new0 (GpuCounter, 1);
  g_autofree char *full = gpu_id != 0 ? g_strdup_printf ("GPU %d %s", gpu_id, spec_name) : g_strdup (spec_name);
  const char *space = strrchr (full, ' ');

  if (space != NULL)
    c->name = g_strdup_printf ("%.*s%c%s", (int) (space - full), full, 0, space + 1);
  else
    c->name = g_strdup_printf ("%s%c%s", full, 0, "value");
  c->name_len = space != NULL ? (gsize) (space - full) : strlen (full);
  c->forwards = forwards;
  return c;
}

static void
gpu_counter_write (ChromeWriter *w,
                   const GpuCounter *c,
                   gint64 ts,
                   double v)
{
  const char *key = c->name + c->name_len + 1;

  chrome_writer_counter_text (w, c->name, c->name_len, 0, key, strlen (key), ts, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN, v,
                              TRUE);
}

static void
gpu_counter_sample (ChromeWriter *w,
                    GpuCounter *c,
                    gint64 ts,
                    double v)
{
  if (c->forwards)
    {
      gpu_counter_write (w, c, ts, v);
      return;
    }
  if (c->pending)
    gpu_counter_write (w, c, c->pending_ts, v);
  c->pending = TRUE;
  c->pending_ts = ts;
}

static void
gpu_counter_descriptor (ChromeGraphics *g,
                        const Tracepipe__Json__GpuCounterDescriptor *d,
                        gint32 gpu_id)
{
  for (gsize i = 0; i < d->n_specs; i++)
    {
      const Tracepipe__Json__GpuCounterSpec *spec = d->specs[i];
      gpointer key = GUINT_TO_POINTER (spec->counter_id);

      if (!spec->has_counter_id || spec->name == NULL || g_hash_table_contains (g->counters, key))
        continue;
      g_hash_table_insert (g->counters, key,
                           gpu_counter_new (spec->name, gpu_id, spec->value_direction == FORWARDS_LOOKING));
    }
}

static void
gpu_counter_event (ChromeWriter *w,
                   const Tracepipe__Json__GpuCounterEvent *e,
                   gint64 ts)
{
  ChromeGraphics *g = w->graphics;

  if (e->counter_descriptor != NULL)
    gpu_counter_descriptor (g, e->counter_descriptor, e->gpu_id);
  for (gsize i = 0; i < e->n_counters; i++)
    {
      const Tracepipe__Json__GpuCounterValue *v = e->counters[i];
      GpuCounter *c = g_hash_table_lookup (g->counters, GUINT_TO_POINTER (v->counter_id));
      gboolean is_int = v->value_case == TRACEPIPE__JSON__GPU_COUNTER_VALUE__VALUE_INT_VALUE;

      if (v->value_case == TRACEPIPE__JSON__GPU_COUNTER_VALUE__VALUE__NOT_SET)
        continue;
      if (c == NULL || e->has_counter_descriptor_iid)
        {
          chrome_writer_count_drop (w, &w->stats.dropped_gpu_counters,
                                    "GPU counter value of no descriptor in the trace dropped");
          continue;
        }
      gpu_counter_sample (w, c, ts, is_int ? (double) v->int_value : v->double_value);
    }
}

/* ------------------------------------------------------------------ */
/* Frame timelines                                                     */

static gint64 *
int64_key (gint64 v)
{
  return g_memdup2 (&v, sizeof v);
}

static void
put_frame_id (ChromeWriter *w,
              const char *key,
              guint64 id)
{
  g_string_append_printf (w->buf, ",\"%s\":", key);
  chrome_fmt_hex_id (w->buf, id);
}

static void
frame_open (ChromeWriter *w,
            const char *ph,
            const OpenFrame *f,
            gint64 cookie,
            gint64 ts)
{
  char name[24];
  gsize len = g_snprintf (name, sizeof name, "%" G_GINT64_FORMAT, f->token);

  chrome_writer_event_open_text (w, ph, name, len, 0, ts, f->pid, f->pid);
  g_string_append (w->buf, ",\"cat\":");
  chrome_fmt_string (w->buf, f->category, strlen (f->category));
  put_frame_id (w, "id", (guint64) cookie);
}

/* Remembers the frame of @cookie for its end. */
static OpenFrame *
frame_begin (ChromeGraphics *g,
             gint64 cookie,
             gint64 token,
             gint32 pid,
             gboolean actual)
{
  OpenFrame *f = g_new0 (OpenFrame, 1);

  f->token = token;
  f->pid = pid;
  f->category = actual ? "Actual Timeline" : "Expected Timeline";
  g_hash_table_replace (g->frames, int64_key (cookie), f);
  return f;
}

static void
display_frame_start (ChromeWriter *w,
                     const Tracepipe__Json__DisplayFrameStart *s,
                     gboolean actual,
                     gint64 ts)
{
  OpenFrame *f;

  if (!s->has_cookie || !s->has_token || !s->has_pid)
    {
      chrome_writer_count_drop (w, &w->stats.dropped_frames, "frame timeline event trace_processor rejects dropped");
      return;
    }
  f = frame_begin (w->graphics, s->cookie, s->token, s->pid, actual);
  frame_open (w, "b", f, s->cookie, ts);
  if (actual)
    {
      put_frame_id (w, "bind_id", FRAME_FLOW_ID_TAG | (guint64) s->token);
      g_string_append (w->buf, ",\"flow_in\":true");
      /* trace_processor links no later surface frame to it */
      g_hash_table_remove (w->graphics->linked_displays, &s->token);
    }
  g_string_append_printf (w->buf, ",\"args\":{\"Display frame token\":%" G_GINT64_FORMAT "}}", s->token);
}

/* The flow to the display frame begins at its first actual surface
 * frame only: a v2 id begins once (trace_processor links them all). */
static void
surface_frame_link (ChromeWriter *w,
                    gint64 display_token)
{
  ChromeGraphics *g = w->graphics;

  if (g_hash_table_contains (g->linked_displays, &display_token))
    {
      chrome_writer_count_drop (w, &w->stats.dropped_frame_links,
                                "link of a second surface frame to one display frame dropped");
      return;
    }
  g_hash_table_add (g->linked_displays, int64_key (display_token));
  put_frame_id (w, "bind_id", FRAME_FLOW_ID_TAG | (guint64) display_token);
  g_string_append (w->buf, ",\"flow_out\":true");
}

/* trace_processor makes one expected surface frame of a token per process. */
static gboolean
expected_surface_seen (ChromeGraphics *g,
                       const Tracepipe__Json__FrameStart *s)
{
  char *key = g_strdup_printf ("%d %" G_GINT64_FORMAT, s->pid, s->token);

  if (g_hash_table_contains (g->expected_surfaces, key))
    {
      g_free (key);
      return TRUE;
    }
  g_hash_table_add (g->expected_surfaces, key);
  return FALSE;
}

static void
surface_frame_start (ChromeWriter *w,
                     const Tracepipe__Json__FrameStart *s,
                     gboolean actual,
                     gint64 ts)
{
  OpenFrame *f;

  if (!s->has_cookie || !s->has_token || !s->has_display_frame_token || !s->has_pid)
    {
      chrome_writer_count_drop (w, &w->stats.dropped_frames, "frame timeline event trace_processor rejects dropped");
      return;
    }
  f = frame_begin (w->graphics, s->cookie, s->token, s->pid, actual);
  if (!actual && expected_surface_seen (w->graphics, s))
    {
      f->skipped = TRUE;
      return;
    }
  frame_open (w, "b", f, s->cookie, ts);
  if (actual)
    surface_frame_link (w, s->display_frame_token);
  g_string_append_printf (w->buf,
                          ",\"args\":{\"Surface frame token\":%" G_GINT64_FORMAT
                          ",\"Display frame token\":%" G_GINT64_FORMAT ",\"Layer name\":",
                          s->token, s->display_frame_token);
  chrome_fmt_string (w->buf, s->layer_name ? s->layer_name : "", s->layer_name ? strlen (s->layer_name) : 0);
  g_string_append (w->buf, "}}");
}

static void
frame_end (ChromeWriter *w,
           const Tracepipe__Json__FrameEnd *e,
           gint64 ts)
{
  ChromeGraphics *g = w->graphics;
  OpenFrame *f = e->has_cookie ? g_hash_table_lookup (g->frames, &e->cookie) : NULL;

  if (f == NULL)
    {
      chrome_writer_count_drop (w, &w->stats.dropped_frames, "frame end of no frame start dropped");
      return;
    }
  if (!f->skipped)
    {
      frame_open (w, "e", f, e->cookie, ts);
      g_string_append_c (w->buf, '}');
    }
  g_hash_table_remove (g->frames, &e->cookie);
}

static void
frame_timeline_event (ChromeWriter *w,
                      const Tracepipe__Json__FrameTimelineEvent *e,
                      gint64 ts)
{
  if (ts < 0)
    e = NULL;
  switch (e != NULL ? e->event_case : TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT__NOT_SET)
    {
    case TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT_EXPECTED_DISPLAY_FRAME_START:
      display_frame_start (w, e->expected_display_frame_start, FALSE, ts);
      break;
    case TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT_ACTUAL_DISPLAY_FRAME_START:
      display_frame_start (w, e->actual_display_frame_start, TRUE, ts);
      break;
    case TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT_EXPECTED_SURFACE_FRAME_START:
      surface_frame_start (w, e->expected_surface_frame_start, FALSE, ts);
      break;
    case TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT_ACTUAL_SURFACE_FRAME_START:
      surface_frame_start (w, e->actual_surface_frame_start, TRUE, ts);
      break;
    case TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT_FRAME_END:
      frame_end (w, e->frame_end, ts);
      break;
    default:
      chrome_writer_count_drop (w, &w->stats.dropped_frames, "frame timeline event trace_processor rejects dropped");
    }
}

/* ------------------------------------------------------------------ */
/* Records                                                             */

/* The payload of a record of packet kind @field (base64, its length
 * prefix included): %NULL when @ev is not a record of that form. */
static guint8 *
record_payload (ChromeGraphics *g,
                TraceBatch *batch,
                const TraceEvent *ev,
                guint64 *field,
                gsize *len)
{
  const TraceArg *f = trace_batch_find_arg (batch, ev, g->k_field);
  const TraceArg *b = trace_batch_find_arg (batch, ev, g->k_bytes);
  const char *text = b != NULL ? trace_batch_get_arg_string (batch, b) : NULL;

  if (f == NULL || text == NULL || (f->type != TRACE_ARG_UINT && f->type != TRACE_ARG_INT))
    return NULL;
  *field = f->v.u;
  if (*field != GPU_COUNTER_EVENT_FIELD && *field != FRAME_TIMELINE_EVENT_FIELD)
    return NULL;
  return g_base64_decode (text, len);
}

/* The message after the payload's length prefix, or %NULL. */
static ProtobufCMessage *
unpack_payload (const ProtobufCMessageDescriptor *desc,
                const guint8 *data,
                gsize len)
{
  guint64 size = 0;
  guint shift = 0;
  gsize i = 0;

  for (; i < len && i < 10; i++, shift += 7)
    {
      size |= (guint64) (data[i] & 0x7f) << shift;
      if (!(data[i] & 0x80))
        break;
    }
  if (i >= len || size != len - i - 1)
    return NULL;
  return protobuf_c_message_unpack (desc, NULL, size, data + i + 1);
}

/**
 * chrome_writer_graphics_record:
 * @w: a writer
 * @batch: the batch of @ev
 * @ev: a %TRACE_EVENT_RECORD
 *
 * Writes a carried gpu_counter_event or frame_timeline_event packet as
 * the Chrome events trace_processor reads the same from.
 *
 * Returns: %TRUE when @ev was such a packet (written or counted), %FALSE
 *   when it is to be written as a record
 */
gboolean
chrome_writer_graphics_record (ChromeWriter *w,
                               TraceBatch *batch,
                               const TraceEvent *ev)
{
  ChromeGraphics *g = graphics_get (w);
  g_autofree guint8 *data = NULL;
  ProtobufCMessage *msg;
  guint64 field = 0;
  gsize len = 0;

  if (g->k_field == 0 || g->k_bytes == 0)
    {
      g->k_field = trace_string_pool_lookup (w->pool, "perfetto.field", strlen ("perfetto.field"));
      g->k_bytes = trace_string_pool_lookup (w->pool, "perfetto.bytes", strlen ("perfetto.bytes"));
    }
  if (g->k_field == 0 || (data = record_payload (g, batch, ev, &field, &len)) == NULL)
    return FALSE;
  msg = unpack_payload (field == GPU_COUNTER_EVENT_FIELD ? &tracepipe__json__gpu_counter_event__descriptor
                                                         : &tracepipe__json__frame_timeline_event__descriptor,
                        data, len);
  if (msg == NULL)
    return FALSE;
  if (field == GPU_COUNTER_EVENT_FIELD)
    gpu_counter_event (w, (const Tracepipe__Json__GpuCounterEvent *) msg, ev->ts);
  else
    frame_timeline_event (w, (const Tracepipe__Json__FrameTimelineEvent *) msg, ev->ts);
  protobuf_c_message_free_unpacked (msg, NULL);
  return TRUE;
}

/**
 * chrome_writer_graphics_finish:
 *
 * Writes the last sample of each backwards-looking GPU counter, whose
 * value trace_processor reads as 0 (no sample ends its interval).
 */
void
chrome_writer_graphics_finish (ChromeWriter *w)
{
  GHashTableIter iter;
  GpuCounter *c;

  if (w->graphics == NULL)
    return;
  g_hash_table_iter_init (&iter, w->graphics->counters);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &c))
    if (c->pending)
      {
        gpu_counter_write (w, c, c->pending_ts, 0);
        c->pending = FALSE;
      }
}

void
chrome_writer_graphics_free (ChromeWriter *w)
{
  ChromeGraphics *g = w->graphics;

  if (g == NULL)
    return;
  g_hash_table_destroy (g->counters);
  g_hash_table_destroy (g->frames);
  g_hash_table_destroy (g->expected_surfaces);
  g_hash_table_destroy (g->linked_displays);
  g_free (g);
  w->graphics = NULL;
}
