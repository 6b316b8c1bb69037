/* tracepipe - json plugin: Android frame timelines of a Perfetto stream as
 * async slices
 *
 * Each expected and actual frame start of a frame_timeline_event is a `b`
 * on the frame's process named by its token, category "Expected
 * Timeline" or "Actual Timeline", id the frame's cookie, its class as
 * args (json-writer-frame-class.c); its FrameEnd the `e` of that cookie.
 * trace_processor links an app's actual surface frame to the actual
 * display frame of its display token: the surface's `b` begins a v2 flow
 * (bind_id from the display token), the display's `b` ends it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "json-common.h"
#include "json-writer-graphics.h"

/* Frame flows in a v2 id space of their own: trace_processor keys v2
 * flows by the bare id, which other flows of the trace may use. */
#define FRAME_FLOW_ID_TAG G_GUINT64_CONSTANT (0x4652000000000000)

typedef struct
{
  gint64 token;
  gint32 pid;
  const char *category;
  gboolean skipped; /* its start was not written: nor is its end */
} OpenFrame;

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

/* A frame start of any of the four kinds: what json-sink writes of it. */
typedef struct
{
  gboolean valid; /* it has what trace_processor needs */
  gboolean surface;
  gint64 cookie, token, display_token;
  gint32 pid;
  const char *layer_name;
  const ChromeFrameClass *cls; /* an actual frame's, else %NULL */
} FrameStart;

/* The flow from an app's actual surface frames to the actual display frame
 * of their token begins at the first surface frame only: a v2 id begins
 * once (trace_processor links them all). */
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

static void
display_frame_link (ChromeWriter *w,
                    gint64 token)
{
  put_frame_id (w, "bind_id", FRAME_FLOW_ID_TAG | (guint64) token);
  g_string_append (w->buf, ",\"flow_in\":true");
  /* trace_processor links no later surface frame to it */
  g_hash_table_remove (w->graphics->linked_displays, &token);
}

/* trace_processor makes one expected surface frame of a token per process. */
static gboolean
expected_surface_seen (ChromeGraphics *g,
                       const FrameStart *s)
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
frame_args (ChromeWriter *w,
            const FrameStart *s)
{
  if (s->surface)
    g_string_append_printf (w->buf, ",\"args\":{\"Surface frame token\":%" G_GINT64_FORMAT ",", s->token);
  else
    g_string_append (w->buf, ",\"args\":{");
  g_string_append_printf (w->buf, "\"Display frame token\":%" G_GINT64_FORMAT, s->display_token);
  if (s->surface)
    {
      g_string_append (w->buf, ",\"Layer name\":");
      chrome_fmt_string (w->buf, s->layer_name ? s->layer_name : "", s->layer_name ? strlen (s->layer_name) : 0);
    }
  if (s->cls != NULL)
    chrome_writer_frame_class_args (w->buf, s->cls);
  g_string_append (w->buf, "}}");
}

static void
frame_start (ChromeWriter *w,
             const FrameStart *s,
             gint64 ts)
{
  OpenFrame *f;

  if (!s->valid)
    {
      chrome_writer_count_drop (w, &w->stats.dropped_frames, "frame timeline event trace_processor rejects dropped");
      return;
    }
  f = frame_begin (w->graphics, s->cookie, s->token, s->pid, s->cls != NULL);
  if (s->surface && s->cls == NULL && expected_surface_seen (w->graphics, s))
    {
      f->skipped = TRUE;
      return;
    }
  frame_open (w, "b", f, s->cookie, ts);
  if (s->cls != NULL && s->surface)
    surface_frame_link (w, s->display_token);
  else if (s->cls != NULL)
    display_frame_link (w, s->token);
  frame_args (w, s);
}

/* The class of a display or surface frame start (the same members in
 * both messages). */
#define FRAME_CLASS_OF(e)                                                                       \
  {                                                                                             \
    (e)->has_present_type, (e)->on_time_finish, (e)->gpu_composition, (e)->has_prediction_type, \
        (e)->present_type, (e)->jank_type, (e)->prediction_type                                 \
  }

static void
display_start (ChromeWriter *w,
               const Tracepipe__Json__DisplayFrameStart *e,
               gboolean actual,
               gint64 ts)
{
  ChromeFrameClass c = FRAME_CLASS_OF (e);
  FrameStart s = { e->has_cookie && e->has_token && e->has_pid, FALSE, e->cookie, e->token, e->token, e->pid };

  s.cls = actual ? &c : NULL;
  frame_start (w, &s, ts);
}

static void
surface_start (ChromeWriter *w,
               const Tracepipe__Json__SurfaceFrameStart *e,
               gboolean actual,
               gint64 ts)
{
  ChromeFrameClass c = FRAME_CLASS_OF (e);
  FrameStart s = { e->has_cookie && e->has_token && e->has_display_frame_token && e->has_pid,
                   TRUE,
                   e->cookie,
                   e->token,
                   e->display_frame_token,
                   e->pid,
                   e->layer_name };

  s.cls = actual ? &c : NULL;
  frame_start (w, &s, ts);
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

/* Writes the frame start or end @e at @ts, or counts it. */
void
chrome_graphics_frame_timeline_event (ChromeWriter *w,
                                      const Tracepipe__Json__FrameTimelineEvent *e,
                                      gint64 ts)
{
  /* trace_processor's bound for a time that is likely a mistake */
  if (ts < 0 || ts >= G_MAXINT64 - G_GINT64_CONSTANT (10000000000))
    e = NULL;
  switch (e != NULL ? e->event_case : TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT__NOT_SET)
    {
    case TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT_EXPECTED_DISPLAY_FRAME_START:
      display_start (w, e->expected_display_frame_start, FALSE, ts);
      break;
    case TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT_ACTUAL_DISPLAY_FRAME_START:
      display_start (w, e->actual_display_frame_start, TRUE, ts);
      break;
    case TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT_EXPECTED_SURFACE_FRAME_START:
      surface_start (w, e->expected_surface_frame_start, FALSE, ts);
      break;
    case TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT_ACTUAL_SURFACE_FRAME_START:
      surface_start (w, e->actual_surface_frame_start, TRUE, ts);
      break;
    case TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT_FRAME_END:
      frame_end (w, e->frame_end, ts);
      break;
    default:
      chrome_writer_count_drop (w, &w->stats.dropped_frames, "frame timeline event trace_processor rejects dropped");
    }
}
