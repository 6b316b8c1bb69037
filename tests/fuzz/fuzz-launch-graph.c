/* tracepipe fuzzing - graphs of core elements, cycles included
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include <trace/trace.h>

#include "fuzz-targets.h"

#define GRAPH_MAX_ELEMENTS 8
#define GRAPH_MAX_LINKS 16
/* A graph of at most 8 elements and 8 events runs in milliseconds; one
 * still running after this hangs (libFuzzer's -timeout is 10 s, the
 * regression test has none). */
#define GRAPH_RUN_SECONDS 5

static const char *const kinds[] = { "fakesrc num-events=8 batch-size=3", "tee", "funnel", "queue", "identity",
                                     "fakesink" };

static gboolean
watchdog (gpointer data)
{
  abort ();
  return G_SOURCE_REMOVE;
}

/* The description: element i is `KIND name=eI`, a link is `eA. ! eB.`.
 * Element 0 is always a source. */
static GString *
describe (const guint8 *data,
          gsize size)
{
  GString *d = g_string_new (NULL);
  guint n = 2 + (size > 0 ? data[0] % (GRAPH_MAX_ELEMENTS - 1) : 0);
  guint kind[GRAPH_MAX_ELEMENTS];
  gsize at = 1;

  for (guint i = 0; i < n; i++)
    {
      kind[i] = i == 0 ? 0 : (at < size ? data[at++] : 5) % G_N_ELEMENTS (kinds);
      g_string_append_printf (d, "%s name=e%u  ", kinds[kind[i]], i);
    }
  for (guint l = 0; l < GRAPH_MAX_LINKS && at + 1 < size; l++, at += 2)
    {
      guint a = data[at] % n, b = data[at + 1] % n;

      g_string_append_printf (d, "e%u. ! e%u.  ", a, b);
    }
  return d;
}

/* N elements of tee/funnel/queue/identity/fakesrc/fakesink and links
 * between them, cycles included, from the input's bytes: the parser (and
 * trace_pad_link() under it) refuses a cycle with TRACE_CORE_ERROR_CYCLE,
 * and a pipeline it builds runs to EOS or to an ERROR, in bounded time. */
void
fuzz_launch_graph (const guint8 *data,
                   gsize size)
{
  static gsize initialised = 0;
  g_autoptr (GString) description = describe (data, size);
  g_autoptr (GError) error = NULL, run_error = NULL;
  g_autoptr (GSource) timeout = NULL;
  TraceElement *pipeline;

  if (g_once_init_enter (&initialised))
    {
      trace_init (NULL, NULL);
      g_once_init_leave (&initialised, 1);
    }
  pipeline = trace_parse_launch (description->str, &error);
  if ((pipeline == NULL) == (error == NULL))
    abort ();
  if (g_error_matches (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_CYCLE) && !strstr (error->message, "cycle"))
    abort ();
  if (pipeline == NULL)
    return;
  timeout = g_timeout_source_new_seconds (GRAPH_RUN_SECONDS);
  g_source_set_callback (timeout, watchdog, NULL, NULL);
  g_source_attach (timeout, trace_pipeline_get_context (TRACE_PIPELINE (pipeline)));
  (void) trace_pipeline_run (TRACE_PIPELINE (pipeline), &run_error);
  g_source_destroy (timeout);
  g_object_unref (pipeline);
}
