/* tracepipe - clock-sync: decisions, conflicts and late markers in words
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "clocksync-private.h"

static const char *
domain_name (TraceClockDomain domain)
{
  return trace_clock_domain_to_string (domain);
}

static guint
tree_root (ClocksyncSolver *s,
           guint node)
{
  while (s->node_edge[node] >= 0)
    node = s->node_up[node];
  return node;
}

static const char *
node_name (ClocksyncSolver *s,
           guint node)
{
  if (node < s->inputs->len)
    return get_input (s, node)->name;
  return domain_name (clocksync_shared_domains[node - s->inputs->len]);
}

static char *
describe_marker_edge (ClocksyncSolver *s,
                      const Edge *e,
                      const char *what)
{
  g_autofree char *ts = clocksync_format_ts (e->ts);
  g_autofree char *other = clocksync_format_ts (e->other_ts);

  return g_strdup_printf ("the %s marker of %s at %s (%s %s)", what, get_input (s, e->input)->name, ts,
                          node_name (s, e->v), other);
}

static char *
describe_edge (ClocksyncSolver *s,
               const Edge *e)
{
  const Input *in = get_input (s, e->input);
  g_autofree char *d = clocksync_format_duration (e->d, TRUE);
  g_autofree char *ts = clocksync_format_ts (e->ts);
  g_autofree char *other = clocksync_format_ts (e->other_ts);

  switch (e->source)
    {
    case CLOCKSYNC_SOURCE_STREAM_START:
      return g_strdup_printf ("the stream-start of %s (%s)", in->name, domain_name (in->declared));
    case CLOCKSYNC_SOURCE_DOMAIN_PROPERTY:
      if (e->d == 0)
        return g_strdup_printf ("the domain property of %s (%s)", in->name, node_name (s, e->v));
      return g_strdup_printf ("the domain and offset properties of %s (%s, %s)", in->name, node_name (s, e->v), d);
    case CLOCKSYNC_SOURCE_OFFSET_PROPERTY:
      return g_strdup_printf ("the offset property of %s (%s)", in->name, d);
    case CLOCKSYNC_SOURCE_PARENT_TS:
      return describe_marker_edge (s, e, "parent_ts");
    case CLOCKSYNC_SOURCE_REALTIME_TS:
      return describe_marker_edge (s, e, "realtime_ts");
    case CLOCKSYNC_SOURCE_PAIR:
      return describe_marker_edge (s, e, "clock pair");
    case CLOCKSYNC_SOURCE_SYNC_ID:
      return g_strdup_printf ("sync id \"%s\" (%s at %s, %s at %s)", trace_string_pool_get (s->pool, e->sync_id),
                              in->name, ts, node_name (s, e->other_input), other);
    case CLOCKSYNC_SOURCE_GUESS:
      {
        g_autofree char *dist = clocksync_format_duration (e->precision, FALSE);

        return g_strdup_printf ("a guess that %s runs on the clock of %s (first timestamps %s apart)",
                                in->name, node_name (s, e->v), dist);
      }
    default:
      return g_strdup ("?");
    }
}

/* Follows the forest from @input to its root: the chain in words, and
 * its least trusted link (the nearest the input among equals). */
static void
describe_chain (ClocksyncSolver *s,
                guint input,
                guint root,
                ClocksyncDecision *d)
{
  GString *via = g_string_new (NULL);
  guint weakest = G_MAXUINT;

  for (guint x = input; s->node_edge[x] >= 0; x = s->node_up[x])
    {
      const Edge *e = get_edge (s, (guint) s->node_edge[x]);
      g_autofree char *text = describe_edge (s, e);
      guint trust = clocksync_source_trust (e->source);

      if (trust < weakest)
        weakest = trust, d->source = e->source;
      d->guess |= e->source == CLOCKSYNC_SOURCE_GUESS;
      g_string_append_printf (via, "%s%s", via->len ? ", then " : "", text);
    }
  if (!d->on_target)
    {
      g_autofree char *tied = g_string_free (via, FALSE);

      d->source = CLOCKSYNC_SOURCE_NONE;
      d->via = *tied ? g_strdup_printf ("nothing ties it to the %s clock; it is tied to %s by %s",
                                        domain_name (s->target), node_name (s, root), tied)
                     : g_strdup_printf ("nothing ties it to the %s clock", domain_name (s->target));
      return;
    }
  d->via = g_string_free (via, FALSE);
}

void
clocksync_solver_decide (ClocksyncSolver *s,
                         guint input)
{
  ClocksyncDecision d = { 0 };

  d.domain = effective_domain (get_input (s, input));
  d.offset = s->node_offset[input];
  d.precision = s->node_prec[input];
  d.on_target = s->on_target[input];
  describe_chain (s, input, tree_root (s, input), &d);
  g_array_append_val (s->decisions, d);
}

/* The forest's path between two nodes of one tree, as edge indexes. */
static GArray *
tree_path (ClocksyncSolver *s,
           guint from,
           guint to)
{
  GArray *path = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *up_from = g_array_new (FALSE, FALSE, sizeof (guint));

  /* Both ends walk up towards the root they share; the path is from's
   * walk up to the first node of to's walk, then to's walk backwards. */
  for (guint x = from;; x = s->node_up[x])
    {
      g_array_append_val (up_from, x);
      if (s->node_edge[x] < 0)
        break;
    }
  for (guint x = to;; x = s->node_up[x])
    {
      for (guint i = 0; i < up_from->len; i++)
        if (g_array_index (up_from, guint, i) == x)
          {
            for (guint k = 0; k < i; k++)
              g_array_append_val (path, s->node_edge[g_array_index (up_from, guint, k)]);
            g_array_unref (up_from);
            return path;
          }
      g_array_append_val (path, s->node_edge[x]);
      if (s->node_edge[x] < 0)
        break;
    }
  g_array_unref (up_from);
  return path;
}

static const Edge *
weakest_on_path (ClocksyncSolver *s,
                 GArray *path)
{
  const Edge *weakest = NULL;

  for (guint i = 0; i < path->len; i++)
    {
      const Edge *e = get_edge (s, g_array_index (path, guint, i));

      if (weakest == NULL || clocksync_source_trust (e->source) < clocksync_source_trust (weakest->source))
        weakest = e;
    }
  return weakest;
}

void
clocksync_solver_describe_conflicts (ClocksyncSolver *s)
{
  for (guint i = 0; i < s->pending->len; i++)
    {
      const RawConflict *raw = &g_array_index (s->pending, RawConflict, i);
      const Edge *e = get_edge (s, raw->edge);
      g_autoptr (GArray) path = tree_path (s, e->u, e->v);
      const Edge *winner = weakest_on_path (s, path);
      ClocksyncConflict *c = g_new0 (ClocksyncConflict, 1);
      g_autofree char *ignored = describe_edge (s, e);
      g_autofree char *kept = winner ? describe_edge (s, winner) : g_strdup ("?");
      g_autofree char *by = clocksync_format_duration (ABS (raw->residual), FALSE);

      c->input = e->input;
      c->source = e->source;
      c->winner = winner ? winner->source : CLOCKSYNC_SOURCE_NONE;
      c->disagreement = raw->residual;
      c->text = g_strdup_printf ("%s disagrees by %s with %s, %s: ignored", ignored, by, kept,
                                 clocksync_source_trust (c->winner) > clocksync_source_trust (c->source)
                                     ? "which is trusted more"
                                     : "which is as trusted and was more precise or came first");
      g_ptr_array_add (s->conflicts, c);
    }
}

/* ---- markers that came after the decision ---- */

/* @subject would have been shifted by @implied had @e come in time. */
static char *
judge_late (ClocksyncSolver *s,
            guint subject,
            const Edge *e,
            gint64 implied,
            gint64 tolerance)
{
  const ClocksyncDecision *d = clocksync_solver_get_decision (s, subject);
  const char *name = get_input (s, subject)->name;
  g_autofree char *what = describe_edge (s, e);
  g_autofree char *imp = clocksync_format_duration (implied, TRUE);
  g_autofree char *applied = clocksync_format_duration (d->offset, TRUE);
  g_autofree char *diff = clocksync_format_duration (implied - d->offset, TRUE);

  if (!d->on_target)
    return g_strdup_printf ("%s came after the look-ahead: it would shift %s by %s onto the %s clock, "
                            "but markers are not applied backwards",
                            what, name, imp, domain_name (s->target));
  if (ABS (implied - d->offset) > tolerance)
    return g_strdup_printf ("%s came after the look-ahead: it would shift %s by %s, %s from the %s applied "
                            "(from %s); not applied backwards",
                            what, name, imp, diff, applied, clocksync_source_to_string (d->source));
  if (clocksync_source_trust (e->source) > clocksync_source_trust (d->source))
    return g_strdup_printf ("%s came after the look-ahead: it is trusted more than the %s that shifted %s by %s "
                            "(it agrees within %s); not applied backwards",
                            what, clocksync_source_to_string (d->source), name, applied, diff);
  return NULL;
}

static guint
first_input_in_tree_of (ClocksyncSolver *s,
                        guint node,
                        gboolean *found)
{
  for (guint i = 0; i < s->inputs->len; i++)
    if (tree_root (s, i) == tree_root (s, node))
      {
        *found = TRUE;
        return i;
      }
  *found = FALSE;
  return 0;
}

static char *
check_late_pair (ClocksyncSolver *s,
                 guint input,
                 const TraceEvent *ev)
{
  int slot = clocksync_shared_slot (ev->u.clock.domain);
  Edge e = { 0 };
  guint node, k;
  gboolean found;

  if (slot < 0 || ev->u.clock.marker > TRACE_CLOCK_MARKER_PAIR)
    return NULL;
  node = s->inputs->len + (guint) slot;
  e.u = e.input = input;
  e.v = node;
  e.d = clocksync_pair_delta (ev);
  e.precision = clocksync_pair_precision (ev);
  e.source = clocksync_marker_source (ev->u.clock.marker);
  e.ts = ev->ts;
  e.other_ts = ev->u.clock.other_ts;
  if (s->on_target[node])
    return judge_late (s, input, &e, s->node_offset[node] + e.d,
                       e.precision + s->node_prec[node] + clocksync_solver_get_decision (s, input)->precision +
                           COMPARE_SLACK_NS);
  if (!s->on_target[input])
    return NULL;
  /* The marker's input is on the target; the clock it names is not, and
   * an input on that clock would have been tied by it. */
  k = first_input_in_tree_of (s, node, &found);
  if (!found || s->on_target[k])
    return NULL;
  return judge_late (s, k, &e,
                     s->node_offset[input] - e.d + s->node_offset[k] - s->node_offset[node], 0);
}

static char *
check_late_sync (ClocksyncSolver *s,
                 guint input,
                 const TraceEvent *ev)
{
  SyncMark mine, other = { 0 };
  gboolean paired = FALSE;
  Edge e = { 0 };
  guint subject;
  gint64 implied;

  if (ev->u.clock.sync_id == 0 || clocksync_solver_has_sync_mark (s, input, ev->u.clock.sync_id))
    return NULL;
  clocksync_mark_from_event (&mine, input, ev, TRUE);
  for (guint i = 0; i < s->syncs->len && !paired; i++)
    {
      const SyncMark *m = &g_array_index (s->syncs, SyncMark, i);

      if (m->sync_id == mine.sync_id && m->input != input)
        other = *m, paired = TRUE;
    }
  if (s->syncs->len < MAX_SYNC_MARKS)
    g_array_append_val (s->syncs, mine); /* a later mark may pair with it */
  if (!paired)
    return NULL;
  e.u = e.input = input;
  e.v = e.other_input = other.input;
  e.d = other.mid - mine.mid;
  e.precision = other.width + mine.width;
  e.source = CLOCKSYNC_SOURCE_SYNC_ID;
  e.ts = mine.ts;
  e.other_ts = other.ts;
  e.sync_id = mine.sync_id;
  if (!s->on_target[input] && !s->on_target[other.input])
    return NULL;
  /* The input whose offset the pair would have changed: the one not on
   * the target, else the one decided on weaker evidence. */
  subject = !s->on_target[input] ? input : !s->on_target[other.input]                                                                                                                                ? other.input
                                       : clocksync_source_trust (clocksync_solver_get_decision (s, other.input)->source) < clocksync_source_trust (clocksync_solver_get_decision (s, input)->source) ? other.input
                                                                                                                                                                                                     : input;
  implied = subject == input ? s->node_offset[other.input] + e.d : s->node_offset[input] - e.d;
  return judge_late (s, subject, &e, implied,
                     e.precision + s->node_prec[input] + s->node_prec[other.input] + COMPARE_SLACK_NS);
}

/**
 * clocksync_solver_check_late_marker:
 * @marker: a clock marker of @input seen after clocksync_solver_solve()
 *
 * Late markers are not applied (the events before them already left).
 *
 * Returns: (transfer full) (nullable): a sentence for a WARNING when the
 *   marker disagrees with what was applied, would have tied an input that
 *   nothing tied, or is trusted more than what was used; %NULL otherwise
 */
char *
clocksync_solver_check_late_marker (ClocksyncSolver *s,
                                    guint input,
                                    const TraceEvent *marker)
{
  g_return_val_if_fail (s->solved, NULL);
  if (input >= s->inputs->len)
    return NULL;
  if (marker->u.clock.marker == TRACE_CLOCK_MARKER_SYNC_ID)
    return check_late_sync (s, input, marker);
  return check_late_pair (s, input, marker);
}
