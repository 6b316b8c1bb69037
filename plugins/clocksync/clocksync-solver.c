/* tracepipe - the logic of the `clock-sync` element
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Inputs and the shared clocks (boottime, monotonic, monotonic-raw,
 * realtime) are the nodes of a graph; every piece of evidence is an edge
 * saying "the same instant reads t on one node and t + d on the other".
 * Edges are taken most trusted first, Kruskal-style, into a spanning
 * forest (a union-find that keeps each node's offset to its root): an
 * edge joining two trees is used, an edge inside one tree is only checked
 * and, if it disagrees beyond the precisions involved, kept as a conflict.
 * Taking the most trusted first is what makes "the more trusted one wins"
 * hold for every pair of inputs, not only neighbours: in a maximum
 * spanning forest the path between two nodes is the one whose weakest
 * link is the strongest possible.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clocksync-private.h"

/* ---- small helpers ---- */

const TraceClockDomain clocksync_shared_domains[N_SHARED] = {
  TRACE_CLOCK_BOOTTIME,
  TRACE_CLOCK_MONOTONIC,
  TRACE_CLOCK_MONOTONIC_RAW,
  TRACE_CLOCK_REALTIME,
};

const char *
clocksync_source_to_string (ClocksyncSource source)
{
  static const char *const names[] = {
    [CLOCKSYNC_SOURCE_NONE] = "none",
    [CLOCKSYNC_SOURCE_GUESS] = "guess",
    [CLOCKSYNC_SOURCE_OFFSET_PROPERTY] = "offset-property",
    [CLOCKSYNC_SOURCE_DOMAIN_PROPERTY] = "domain-property",
    [CLOCKSYNC_SOURCE_REALTIME_TS] = "realtime_ts",
    [CLOCKSYNC_SOURCE_PARENT_TS] = "parent_ts",
    [CLOCKSYNC_SOURCE_PAIR] = "clock-pair",
    [CLOCKSYNC_SOURCE_SYNC_ID] = "sync-id",
    [CLOCKSYNC_SOURCE_STREAM_START] = "stream-start",
  };

  return source < G_N_ELEMENTS (names) ? names[source] : "?";
}

/* The order of trust of docs/clocks.md. Explicit pairs share one level:
 * among them the more precise wins. */
guint
clocksync_source_trust (ClocksyncSource source)
{
  switch (source)
    {
    case CLOCKSYNC_SOURCE_STREAM_START:
      return 5;
    case CLOCKSYNC_SOURCE_SYNC_ID:
      return 4;
    case CLOCKSYNC_SOURCE_PAIR:
    case CLOCKSYNC_SOURCE_PARENT_TS:
    case CLOCKSYNC_SOURCE_REALTIME_TS:
      return 3;
    case CLOCKSYNC_SOURCE_OFFSET_PROPERTY:
    case CLOCKSYNC_SOURCE_DOMAIN_PROPERTY:
      return 2;
    case CLOCKSYNC_SOURCE_GUESS:
      return 1;
    default:
      return 0;
    }
}

int
clocksync_shared_slot (TraceClockDomain domain)
{
  for (int i = 0; i < N_SHARED; i++)
    if (clocksync_shared_domains[i] == domain)
      return i;
  return -1;
}

/* Clocks that mean the same thing in every input. ftrace's local clock,
 * raw counters and process clocks do not: two inputs "in" them are not
 * on one timeline. */
gboolean
clocksync_domain_is_shared (TraceClockDomain domain)
{
  return clocksync_shared_slot (domain) >= 0;
}

/* atrace prints parent_ts from a float: at 20 000 s of uptime the value
 * only moves in steps of 1.95 ms. A value that survives a round trip
 * through float32 is taken to be such a value; the step is its
 * precision. Others were printed from a double with µs digits. */
gint64
clocksync_parent_ts_precision (gint64 parent_ts)
{
  double secs = parent_ts / 1e9;
  float f = (float) secs;

  if (parent_ts != 0 && llround ((double) f * 1e6) == llround (secs * 1e6))
    {
      double step = (double) nextafterf (f, INFINITY) - (double) f;

      return MAX (llround (step * 1e9), 1000);
    }
  return 1000;
}

/* "+94.99985 s", "1.953125 ms", "250 ns": exact, in the largest unit
 * that keeps an integer part. */
char *
clocksync_format_duration (gint64 ns,
                           gboolean sign)
{
  guint64 mag = ns < 0 ? (guint64) 0 - (guint64) ns : (guint64) ns;
  static const struct
  {
    guint64 scale;
    guint digits;
    const char *unit;
  } units[] = {
    { 1000000000, 9, "s" },
    { 1000000, 6, "ms" },
    { 1000, 3, "us" },
    { 1, 0, "ns" },
  };
  GString *s = g_string_new (ns < 0 ? "-" : (sign ? "+" : ""));
  guint u = 0;

  while (u + 1 < G_N_ELEMENTS (units) && mag < units[u].scale)
    u++;
  g_string_append_printf (s, "%" G_GUINT64_FORMAT, mag / units[u].scale);
  if (mag % units[u].scale != 0)
    {
      char frac[16];

      g_snprintf (frac, sizeof frac, "%0*" G_GUINT64_FORMAT, (int) units[u].digits, mag % units[u].scale);
      for (int i = (int) strlen (frac) - 1; i > 0 && frac[i] == '0'; i--)
        frac[i] = '\0';
      g_string_append_printf (s, ".%s", frac);
    }
  g_string_append_printf (s, " %s", units[u].unit);
  return g_string_free (s, FALSE);
}

char *
clocksync_format_ts (gint64 ts)
{
  guint64 mag = ts < 0 ? (guint64) 0 - (guint64) ts : (guint64) ts;

  return g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT " s", ts < 0 ? "-" : "",
                          mag / 1000000000, mag % 1000000000);
}

/* ---- building ---- */

/**
 * clocksync_solver_new_with_options:
 * @pool: the pipeline's string pool
 * @opts: the element's options (target and guess window are used)
 *
 * Returns: (transfer full): a solver, or %NULL when the target is not a
 *   shared clock
 */
ClocksyncSolver *
clocksync_solver_new_with_options (TraceStringPool *pool,
                                   const ClocksyncOptions *opts)
{
  g_return_val_if_fail (opts != NULL, NULL);

  return clocksync_solver_new (pool, opts->target, opts->guess_window);
}

ClocksyncSolver *
clocksync_solver_new (TraceStringPool *pool,
                      TraceClockDomain target,
                      gint64 guess_window)
{
  ClocksyncSolver *s;

  g_return_val_if_fail (clocksync_domain_is_shared (target), NULL);
  s = g_new0 (ClocksyncSolver, 1);
  s->pool = trace_string_pool_ref (pool);
  s->target = target;
  s->guess_window = guess_window;
  s->inputs = g_array_new (FALSE, TRUE, sizeof (Input));
  s->edges = g_array_new (FALSE, TRUE, sizeof (Edge));
  s->syncs = g_array_new (FALSE, TRUE, sizeof (SyncMark));
  s->tree = g_array_new (FALSE, FALSE, sizeof (guint));
  s->pending = g_array_new (FALSE, FALSE, sizeof (RawConflict));
  s->decisions = g_array_new (FALSE, TRUE, sizeof (ClocksyncDecision));
  s->conflicts = g_ptr_array_new ();
  return s;
}

static void
free_conflict (ClocksyncConflict *c)
{
  g_free (c->text);
  g_free (c);
}

static void
free_results (ClocksyncSolver *s)
{
  for (guint i = 0; i < s->decisions->len; i++)
    g_free (g_array_index (s->decisions, ClocksyncDecision, i).via);
  g_array_set_size (s->decisions, 0);
  g_ptr_array_foreach (s->conflicts, (GFunc) free_conflict, NULL);
  g_ptr_array_set_size (s->conflicts, 0);
  for (guint i = 0; s->adj && i < s->n_nodes; i++)
    g_ptr_array_unref (s->adj[i]);
  g_clear_pointer (&s->adj, g_free);
  g_clear_pointer (&s->uf_parent, g_free);
  g_clear_pointer (&s->uf_delta, g_free);
  g_clear_pointer (&s->uf_prec, g_free);
  g_clear_pointer (&s->node_offset, g_free);
  g_clear_pointer (&s->node_prec, g_free);
  g_clear_pointer (&s->node_edge, g_free);
  g_clear_pointer (&s->node_up, g_free);
  g_clear_pointer (&s->on_target, g_free);
  g_clear_pointer (&s->visited, g_free);
}

void
clocksync_solver_free (ClocksyncSolver *s)
{
  if (s == NULL)
    return;
  free_results (s);
  for (guint i = 0; i < s->inputs->len; i++)
    g_free (get_input (s, i)->name);
  g_array_unref (s->inputs);
  g_array_unref (s->edges);
  g_array_unref (s->syncs);
  g_array_unref (s->tree);
  g_array_unref (s->pending);
  g_array_unref (s->decisions);
  g_ptr_array_unref (s->conflicts);
  trace_string_pool_unref (s->pool);
  g_free (s);
}

guint
clocksync_solver_add_input (ClocksyncSolver *s,
                            const char *name,
                            TraceClockDomain declared)
{
  Input in = { 0 };

  g_return_val_if_fail (!s->solved, 0);
  in.name = g_strdup (name);
  in.declared = declared;
  g_array_append_val (s->inputs, in);
  return s->inputs->len - 1;
}

/* A stream-start may come again with more knowledge before the decision. */
void
clocksync_solver_set_declared_domain (ClocksyncSolver *s,
                                      guint input,
                                      TraceClockDomain declared)
{
  get_input (s, input)->declared = declared;
}

void
clocksync_solver_set_domain_property (ClocksyncSolver *s,
                                      guint input,
                                      TraceClockDomain domain)
{
  get_input (s, input)->domain_prop = domain;
  get_input (s, input)->has_domain_prop = TRUE;
}

void
clocksync_solver_set_offset_property (ClocksyncSolver *s,
                                      guint input,
                                      gint64 offset)
{
  get_input (s, input)->offset_prop = offset;
  get_input (s, input)->has_offset_prop = TRUE;
}

/* The heuristic compares the earliest timestamp of each input. */
void
clocksync_solver_note_ts (ClocksyncSolver *s,
                          guint input,
                          gint64 ts)
{
  Input *in = get_input (s, input);

  if (!in->has_first_ts || ts < in->first_ts)
    in->first_ts = ts;
  in->has_first_ts = TRUE;
}

static Edge *
append_edge (ClocksyncSolver *s,
             guint u,
             guint v,
             gint64 d,
             gint64 precision,
             ClocksyncSource source)
{
  Edge e = { 0 };

  e.u = u;
  e.v = v;
  e.d = d;
  e.precision = precision;
  e.source = source;
  e.order = s->edges->len;
  e.input = u;
  g_array_append_val (s->edges, e);
  return get_edge (s, s->edges->len - 1);
}

ClocksyncSource
clocksync_marker_source (guint marker)
{
  switch (marker)
    {
    case TRACE_CLOCK_MARKER_PARENT_TS:
      return CLOCKSYNC_SOURCE_PARENT_TS;
    case TRACE_CLOCK_MARKER_REALTIME_TS:
      return CLOCKSYNC_SOURCE_REALTIME_TS;
    case TRACE_CLOCK_MARKER_PAIR:
      return CLOCKSYNC_SOURCE_PAIR;
    default:
      return CLOCKSYNC_SOURCE_SYNC_ID;
    }
}

/* What an explicit pair says: t(other clock) = t(input) + d. */
gint64
clocksync_pair_delta (const TraceEvent *ev)
{
  /* `parent_ts=0` is how old captures say the clocks are the same. */
  if (ev->u.clock.marker == TRACE_CLOCK_MARKER_PARENT_TS && ev->u.clock.other_ts == 0)
    return 0;
  return ev->u.clock.other_ts - ev->ts;
}

gint64
clocksync_pair_precision (const TraceEvent *ev)
{
  switch (ev->u.clock.marker)
    {
    case TRACE_CLOCK_MARKER_PARENT_TS:
      return clocksync_parent_ts_precision (ev->u.clock.other_ts);
    case TRACE_CLOCK_MARKER_REALTIME_TS:
      return 1000000; /* whole milliseconds */
    default:
      return ev->u.clock.other_ts % 1000 == 0 && ev->ts % 1000 == 0 ? 1000 : 1;
    }
}

void
clocksync_mark_from_event (SyncMark *m,
                           guint input,
                           const TraceEvent *ev,
                           gboolean late)
{
  gint64 issue = ev->u.clock.issue_ts;

  m->input = input;
  m->sync_id = ev->u.clock.sync_id;
  m->ts = ev->ts;
  /* The sync was written somewhere between issue_ts and ts. */
  m->mid = issue != 0 ? issue + (ev->ts - issue) / 2 : ev->ts;
  m->width = issue != 0 ? MAX (ABS (ev->ts - issue), 1000) : 1000;
  m->late = late;
}

gboolean
clocksync_solver_has_sync_mark (ClocksyncSolver *s,
                                guint input,
                                guint32 sync_id)
{
  for (guint i = 0; i < s->syncs->len; i++)
    {
      const SyncMark *m = &g_array_index (s->syncs, SyncMark, i);

      if (m->input == input && m->sync_id == sync_id)
        return TRUE;
    }
  return FALSE;
}

/**
 * clocksync_solver_add_marker:
 * @marker: a %TRACE_EVENT_CLOCK_MARKER of @input, in @input's own clock
 *
 * Takes a marker seen inside the look-ahead as evidence.
 */
ClocksyncMarkerResult
clocksync_solver_add_marker (ClocksyncSolver *s,
                             guint input,
                             const TraceEvent *ev)
{
  Input *in = get_input (s, input);

  g_return_val_if_fail (!s->solved, CLOCKSYNC_MARKER_UNUSABLE);
  if (ev->u.clock.marker == TRACE_CLOCK_MARKER_SYNC_ID)
    {
      SyncMark m;

      if (ev->u.clock.sync_id == 0)
        return CLOCKSYNC_MARKER_UNUSABLE;
      if (clocksync_solver_has_sync_mark (s, input, ev->u.clock.sync_id))
        return CLOCKSYNC_MARKER_DUPLICATE;
      if (in->n_markers >= CLOCKSYNC_MAX_MARKERS)
        return CLOCKSYNC_MARKER_TOO_MANY;
      clocksync_mark_from_event (&m, input, ev, FALSE);
      g_array_append_val (s->syncs, m);
    }
  else
    {
      int slot = clocksync_shared_slot (ev->u.clock.domain);
      Edge *e;

      if (slot < 0 || ev->u.clock.marker > TRACE_CLOCK_MARKER_PAIR)
        return CLOCKSYNC_MARKER_UNUSABLE;
      if (in->n_markers >= CLOCKSYNC_MAX_MARKERS)
        return CLOCKSYNC_MARKER_TOO_MANY;
      e = append_edge (s, input, DOMAIN_NODE_BIT | (guint) slot, clocksync_pair_delta (ev),
                       clocksync_pair_precision (ev), clocksync_marker_source (ev->u.clock.marker));
      e->ts = ev->ts;
      e->other_ts = ev->u.clock.other_ts;
      /* A reading of that clock: what the heuristic compares with. */
      if (!s->has_domain_ref[slot] &&
          !(ev->u.clock.marker == TRACE_CLOCK_MARKER_PARENT_TS && ev->u.clock.other_ts == 0))
        {
          s->domain_ref[slot] = ev->u.clock.other_ts;
          s->has_domain_ref[slot] = TRUE;
        }
    }
  in->n_markers++;
  return CLOCKSYNC_MARKER_USED;
}

/* ---- solving ---- */

static guint
node_index (ClocksyncSolver *s,
            guint encoded)
{
  return (encoded & DOMAIN_NODE_BIT) ? s->inputs->len + (encoded & ~DOMAIN_NODE_BIT) : encoded;
}

static guint
target_node (ClocksyncSolver *s)
{
  return s->inputs->len + (guint) clocksync_shared_slot (s->target);
}

/* What each input says about its own clock, or what its pad properties
 * say instead (they replace the stream-start's word). */
static void
add_identity_edges (ClocksyncSolver *s)
{
  for (guint i = 0; i < s->inputs->len; i++)
    {
      const Input *in = get_input (s, i);
      int slot;

      if (in->has_domain_prop && (slot = clocksync_shared_slot (in->domain_prop)) >= 0)
        append_edge (s, i, DOMAIN_NODE_BIT | (guint) slot, in->has_offset_prop ? in->offset_prop : 0, 0,
                     CLOCKSYNC_SOURCE_DOMAIN_PROPERTY);
      else if (in->has_offset_prop)
        append_edge (s, i, DOMAIN_NODE_BIT | (guint) clocksync_shared_slot (s->target), in->offset_prop, 0,
                     CLOCKSYNC_SOURCE_OFFSET_PROPERTY);
      else if (!in->has_domain_prop && (slot = clocksync_shared_slot (in->declared)) >= 0)
        append_edge (s, i, DOMAIN_NODE_BIT | (guint) slot, 0, 0, CLOCKSYNC_SOURCE_STREAM_START);
    }
}

/* Every two inputs that marked the same sync id. */
static void
add_sync_edges (ClocksyncSolver *s)
{
  for (guint a = 0; a < s->syncs->len; a++)
    for (guint b = a + 1; b < s->syncs->len; b++)
      {
        SyncMark ma = g_array_index (s->syncs, SyncMark, a);
        SyncMark mb = g_array_index (s->syncs, SyncMark, b);
        Edge *e;

        if (ma.late || mb.late || ma.sync_id != mb.sync_id || ma.input == mb.input)
          continue;
        e = append_edge (s, ma.input, mb.input, mb.mid - ma.mid, ma.width + mb.width,
                         CLOCKSYNC_SOURCE_SYNC_ID);
        e->other_input = mb.input;
        e->ts = ma.ts;
        e->other_ts = mb.ts;
        e->sync_id = ma.sync_id;
      }
}

static guint
uf_find (ClocksyncSolver *s,
         guint x)
{
  guint p = s->uf_parent[x], r;

  if (p == x)
    return x;
  r = uf_find (s, p);
  s->uf_delta[x] += s->uf_delta[p];
  s->uf_prec[x] += s->uf_prec[p];
  s->uf_parent[x] = r;
  return r;
}

/* Joins two trees, or checks the edge against the tree it lies in. */
static gboolean
accept_edge (ClocksyncSolver *s,
             guint idx)
{
  const Edge *e = get_edge (s, idx);
  guint ru = uf_find (s, e->u), rv = uf_find (s, e->v);
  gint64 residual, tolerance;

  if (ru != rv)
    {
      s->uf_parent[ru] = rv;
      s->uf_delta[ru] = e->d + s->uf_delta[e->v] - s->uf_delta[e->u];
      s->uf_prec[ru] = e->precision + s->uf_prec[e->u] + s->uf_prec[e->v];
      g_array_append_val (s->tree, idx);
      return TRUE;
    }
  residual = e->d - (s->uf_delta[e->u] - s->uf_delta[e->v]);
  tolerance = e->precision + s->uf_prec[e->u] + s->uf_prec[e->v] + COMPARE_SLACK_NS;
  if (ABS (residual) > tolerance)
    {
      RawConflict c = { idx, residual };

      g_array_append_val (s->pending, c);
    }
  return FALSE;
}

static gint
compare_edges (gconstpointer a,
               gconstpointer b,
               gpointer user_data)
{
  ClocksyncSolver *s = user_data;
  const Edge *ea = get_edge (s, *(const guint *) a);
  const Edge *eb = get_edge (s, *(const guint *) b);
  guint ta = clocksync_source_trust (ea->source), tb = clocksync_source_trust (eb->source);

  if (ta != tb)
    return ta > tb ? -1 : 1;
  if (ea->precision != eb->precision)
    return ea->precision < eb->precision ? -1 : 1;
  return ea->order < eb->order ? -1 : (ea->order > eb->order);
}

static gboolean
node_reference (ClocksyncSolver *s,
                guint node,
                gint64 *ref)
{
  if (node < s->inputs->len)
    {
      *ref = get_input (s, node)->first_ts;
      return get_input (s, node)->has_first_ts;
    }
  *ref = s->domain_ref[node - s->inputs->len];
  return s->has_domain_ref[node - s->inputs->len];
}

static guint64
distance (gint64 a,
          gint64 b)
{
  return a > b ? (guint64) a - (guint64) b : (guint64) b - (guint64) a;
}

/* btrace's heuristic, generalised: an input nothing ties to the target
 * is assumed to run on the clock whose known reading is nearest its first
 * timestamp, if one is within the guess window. */
static void
add_guesses (ClocksyncSolver *s)
{
  guint tn = target_node (s);

  for (;;)
    {
      guint best_input = 0, best_node = 0;
      guint64 best = G_MAXUINT64;
      Edge *e;

      for (guint i = 0; i < s->inputs->len; i++)
        {
          const Input *in = get_input (s, i);

          if (!in->has_first_ts || uf_find (s, i) == uf_find (s, tn))
            continue;
          for (guint n = 0; n < s->n_nodes; n++)
            {
              gint64 ref;
              guint64 dist;

              if (uf_find (s, n) != uf_find (s, tn) || !node_reference (s, n, &ref))
                continue;
              dist = distance (in->first_ts, ref);
              if (s->guess_window >= 0 && dist <= (guint64) s->guess_window && dist < best)
                best = dist, best_input = i, best_node = n;
            }
        }
      if (best == G_MAXUINT64)
        return;
      e = append_edge (s, best_input, best_node, 0, (gint64) best, CLOCKSYNC_SOURCE_GUESS);
      e->ts = get_input (s, best_input)->first_ts;
      node_reference (s, best_node, &e->other_ts);
      e->other_input = best_node;
      accept_edge (s, s->edges->len - 1);
    }
}

static void
walk_tree (ClocksyncSolver *s,
           guint root,
           gboolean on_target)
{
  GQueue queue = G_QUEUE_INIT;

  s->visited[root] = TRUE;
  s->node_edge[root] = -1;
  s->node_up[root] = root;
  s->on_target[root] = on_target;
  g_queue_push_tail (&queue, GUINT_TO_POINTER (root));
  while (!g_queue_is_empty (&queue))
    {
      guint x = GPOINTER_TO_UINT (g_queue_pop_head (&queue));

      for (guint k = 0; k < s->adj[x]->len; k++)
        {
          guint idx = GPOINTER_TO_UINT (g_ptr_array_index (s->adj[x], k));
          const Edge *e = get_edge (s, idx);
          guint y = e->u == x ? e->v : e->u;

          if (s->visited[y])
            continue;
          s->visited[y] = TRUE;
          s->node_edge[y] = (gint) idx;
          s->node_up[y] = x;
          /* offset = t(root) - t(node); t(v) = t(u) + d */
          s->node_offset[y] = e->u == x ? s->node_offset[x] - e->d : s->node_offset[x] + e->d;
          s->node_prec[y] = s->node_prec[x] + e->precision;
          s->on_target[y] = on_target;
          g_queue_push_tail (&queue, GUINT_TO_POINTER (y));
        }
    }
}

static void
allocate_nodes (ClocksyncSolver *s)
{
  guint n = s->n_nodes;

  s->uf_parent = g_new (guint, n);
  s->uf_delta = g_new0 (gint64, n);
  s->uf_prec = g_new0 (gint64, n);
  s->adj = g_new (GPtrArray *, n);
  s->node_offset = g_new0 (gint64, n);
  s->node_prec = g_new0 (gint64, n);
  s->node_edge = g_new (gint, n);
  s->node_up = g_new0 (guint, n);
  s->on_target = g_new0 (gboolean, n);
  s->visited = g_new0 (gboolean, n);
  for (guint i = 0; i < n; i++)
    {
      s->uf_parent[i] = i;
      s->adj[i] = g_ptr_array_new ();
      s->node_edge[i] = -1;
    }
}

static void
build_forest (ClocksyncSolver *s)
{
  g_autoptr (GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (guint), s->edges->len);

  for (guint i = 0; i < s->edges->len; i++)
    {
      Edge *e = get_edge (s, i);

      e->u = node_index (s, e->u);
      e->v = node_index (s, e->v);
      g_array_append_val (order, i);
    }
  g_array_sort_with_data (order, compare_edges, s);
  for (guint i = 0; i < order->len; i++)
    accept_edge (s, g_array_index (order, guint, i));
  add_guesses (s);
  for (guint i = 0; i < s->tree->len; i++)
    {
      guint idx = g_array_index (s->tree, guint, i);
      const Edge *e = get_edge (s, idx);

      g_ptr_array_add (s->adj[e->u], GUINT_TO_POINTER (idx));
      g_ptr_array_add (s->adj[e->v], GUINT_TO_POINTER (idx));
    }
}

/**
 * clocksync_solver_solve:
 *
 * Decides every input's offset from the evidence given so far. Call it
 * once; markers seen later go to clocksync_solver_check_late_marker().
 */
void
clocksync_solver_solve (ClocksyncSolver *s)
{
  g_return_if_fail (!s->solved);
  s->solved = TRUE;
  add_identity_edges (s);
  add_sync_edges (s);
  s->n_nodes = s->inputs->len + N_SHARED;
  allocate_nodes (s);
  build_forest (s);
  walk_tree (s, target_node (s), TRUE);
  /* Inputs nothing ties to the target: the first of each group passes
   * through unshifted, the others keep their offsets to it. */
  for (guint i = 0; i < s->inputs->len; i++)
    if (!s->visited[i])
      walk_tree (s, i, FALSE);
  for (guint i = 0; i < s->inputs->len; i++)
    clocksync_solver_decide (s, i);
  clocksync_solver_describe_conflicts (s);
}

const ClocksyncDecision *
clocksync_solver_get_decision (ClocksyncSolver *s,
                               guint input)
{
  g_return_val_if_fail (s->solved && input < s->decisions->len, NULL);
  return &g_array_index (s->decisions, ClocksyncDecision, input);
}

/**
 * clocksync_solver_get_conflicts:
 *
 * Returns: (transfer none) (element-type ClocksyncConflict): evidence that
 *   was ignored because more trusted evidence disagreed with it
 */
GPtrArray *
clocksync_solver_get_conflicts (ClocksyncSolver *s)
{
  return s->conflicts;
}
