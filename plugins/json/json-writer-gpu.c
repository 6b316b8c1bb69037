/* tracepipe - json plugin: GPU counters of a Perfetto stream as C events
 *
 * A gpu_counter_event's inline descriptor names counter ids (the first
 * spec of an id wins, as in trace_processor); each value becomes a `C`
 * event without pid, whose "<name> <key>" is the counter's name (split at
 * its last space, "<name> value" for a name without one; a GPU other than
 * 0 prefixes "GPU <id> "). trace_processor reads a value as the one of the
 * interval that ends at it (unless its spec says forwards looking): it
 * shows each sample's value at the sample before, and 0 at the last. The
 * values are written that way, the last when the trace ends.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "json-common.h"
#include "json-writer-graphics.h"

#define FORWARDS_LOOKING 2

typedef struct
{
  char *name; /* the C event's name, then NUL, then its key */
  gsize name_len;
  gboolean forwards;
  gboolean pending; /* a sample waiting for the next one's value */
  gint64 pending_ts;
} GpuCounter;

void
chrome_graphics_gpu_counter_free (gpointer p)
{
  GpuCounter *c = p;

  g_free (c->name);
  g_free (c);
}

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

/* Takes @e's descriptor; writes (or holds) its values of @ts. */
void
chrome_graphics_gpu_counter_event (ChromeWriter *w,
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
