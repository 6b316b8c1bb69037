/* bench-core: the framework's own cost.
 *
 * Runs fakesrc ! identity ! identity ! identity ! fakesink on a GMainLoop
 * and prints events per second, next to fakesrc ! fakesink (the cost of
 * generating the events) in the same run, so the overhead of three
 * elements can be read off as a difference that does not drift with the
 * machine.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>

#include <trace/trace.h>

static double
run_once (const char *description)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceElement) pipeline = NULL;
  gint64 start;

  pipeline = trace_parse_launch (description, &error);
  if (pipeline == NULL)
    {
      g_printerr ("bench-core: %s\n", error->message);
      exit (2);
    }

  start = g_get_monotonic_time ();
  if (!trace_pipeline_run (TRACE_PIPELINE (pipeline), &error))
    {
      g_printerr ("bench-core: %s\n", error->message);
      exit (1);
    }
  return (g_get_monotonic_time () - start) / 1e6;
}

static double
best_of (const char *description,
         int runs)
{
  double best = G_MAXDOUBLE;

  for (int i = 0; i < runs; i++)
    best = MIN (best, run_once (description));
  return best;
}

int
main (int argc,
      char **argv)
{
  gint64 events = argc > 1 ? g_ascii_strtoll (argv[1], NULL, 10) : 50000000;
  int runs = argc > 2 ? atoi (argv[2]) : 3;
  const char *modes[] = { "true", "false" };

  trace_init (&argc, &argv);
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      g_autofree char *base = g_strdup_printf ("fakesrc num-events=%" G_GINT64_FORMAT " ! fakesink", events);
      g_autofree char *chain = g_strdup_printf ("fakesrc num-events=%" G_GINT64_FORMAT
                                                " ! identity passthrough=%s ! identity passthrough=%s"
                                                " ! identity passthrough=%s ! fakesink",
                                                events, modes[m], modes[m], modes[m]);
      double t_base = best_of (base, runs);
      double t_chain = best_of (chain, runs);
      double overhead_ns = (t_chain - t_base) * 1e9 / events / 3;

      printf ("%-16s events=%" G_GINT64_FORMAT " source-only=%.1f Mev/s  with-3-transforms=%.1f Mev/s"
              "  per-transform-overhead=%.2f ns/event\n",
              m == 0 ? "passthrough" : "in-place", events, events / t_base / 1e6, events / t_chain / 1e6,
              MAX (overhead_ns, 0.0));
    }
  return 0;
}
