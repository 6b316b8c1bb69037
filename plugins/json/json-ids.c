/* tracepipe - json plugin: pids and tids
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A pid or tid is a number, or a string, which trace_processor (the
 * reference for what a file means) takes as a name, "1" as much as
 * "Main": the process or thread gets a made-up id and is named by the
 * string at every event that carries it.  The rules are in docs/json.md,
 * "pid, tid"; why, in docs/fidelity.md, "String pids and tids".
 */
#include "config.h"

#include "json-reader-private.h"

/* The made-up id of a string pid/tid (see CHROME_READER_STRING_ID_BASE):
 * the same string always gets the same id, as a pid and as a tid. */
static ChromeStringId *
string_id (ChromeReader *r,
           const char *p,
           gsize len,
           gint64 *out)
{
  guint64 h = chrome_hash64 (p, len);
  guint32 name = chrome_reader_intern (r, p, len);
  gint64 id = CHROME_READER_STRING_ID_BASE | (gint64) ((h ^ (h >> 30) ^ (h >> 60)) & CHROME_READER_STRING_ID_MASK);
  ChromeStringId *sid;

  while ((sid = g_hash_table_lookup (r->string_ids, &id)) != NULL && sid->name != name)
    id = CHROME_READER_STRING_ID_BASE | ((id + 1) & CHROME_READER_STRING_ID_MASK);
  if (sid == NULL)
    {
      sid = g_new0 (ChromeStringId, 1);
      sid->name = name;
      sid->max_ts[0] = sid->max_ts[1] = G_MININT64;
      g_hash_table_insert (r->string_ids, g_memdup2 (&id, sizeof id), sid);
    }
  *out = id;
  return sid;
}

/* A pid or tid: a number (a fraction is cut), or a string, which (any
 * string, "1" and "" too, as trace_processor reads it) becomes a name and
 * a made-up id. */
static gboolean
resolve_id (ChromeReader *r,
            const ChromeEventFields *f,
            ChromeFieldNumber which,
            const ChromeValue *v,
            gint64 *out,
            ChromeStringId **sid)
{
  const char *p;
  gsize len;

  *sid = NULL;
  if (chrome_fields_number (f, which, out))
    return TRUE;
  if (v->type == CHROME_VALUE_NUMBER)
    return chrome_decimal_to_int64 (v->start, v->end, out);
  if (v->type != CHROME_VALUE_STRING)
    return FALSE;
  p = chrome_string_decode (v, r->scratch, &len);
  *sid = string_id (r, p, len, out);
  return TRUE;
}

/* Names the process (@which 0) or thread (1) of a string id by its string
 * the first time it is seen.  An event of it (@names: not a sample, which
 * trace_processor does not read) at or after the time of a held-back
 * metadata name overrides that name, as trace_processor renames it then. */
static void
name_string_id (ChromeReader *r,
                ChromeStringId *sid,
                int which,
                gint64 pid,
                gint64 tid,
                gint64 ts,
                gboolean names)
{
  TraceEvent *ev;

  if (names)
    {
      if (sid->meta_name[which] != 0 && ts >= sid->meta_ts[which])
        {
          chrome_reader_skip (r, CHROME_SKIP_NAME_OVERRIDDEN, sid->meta_offset[which]);
          sid->meta_name[which] = 0;
        }
      sid->max_ts[which] = MAX (sid->max_ts[which], ts);
    }
  if (sid->named[which])
    return;
  sid->named[which] = TRUE;
  if (sid->name == 0)
    return; /* "": no name to give */
  ev = chrome_reader_append (r, which ? TRACE_EVENT_THREAD_NAME : TRACE_EVENT_PROCESS_NAME, ts, pid, tid);
  ev->name = sid->name;
}

typedef struct
{
  guint64 offset;
  ChromeStringId *sid;
  int which;
} HeldName;

static gint
compare_held_names (gconstpointer a,
                    gconstpointer b)
{
  const HeldName *x = a, *y = b;

  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/**
 * chrome_reader_flush_names:
 *
 * At the end of the input: the metadata names of string ids that no
 * later event overrode, in file order.
 */
void
chrome_reader_flush_names (ChromeReader *r)
{
  g_autoptr (GArray) held = g_array_new (FALSE, FALSE, sizeof (HeldName));
  GHashTableIter iter;
  ChromeStringId *sid;

  g_hash_table_iter_init (&iter, r->string_ids);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &sid))
    for (int which = 0; which < 2; which++)
      if (sid->meta_name[which] != 0)
        {
          HeldName h = { sid->meta_offset[which], sid, which };

          g_array_append_val (held, h);
        }
  g_array_sort (held, compare_held_names);
  for (guint i = 0; i < held->len; i++)
    {
      const HeldName *h = &g_array_index (held, HeldName, i);
      int which = h->which;
      TraceEvent *ev;

      sid = h->sid;
      ev = chrome_reader_append (r, which ? TRACE_EVENT_THREAD_NAME : TRACE_EVENT_PROCESS_NAME, sid->meta_ts[which],
                                 sid->meta_pid[which], sid->meta_tid[which]);
      ev->name = sid->meta_name[which];
      sid->meta_name[which] = 0;
    }
}

/**
 * chrome_reader_resolve_ids:
 * @sids: (out): the string ids of the pid and the tid, or %NULL
 *
 * chrome_reader_resolve_thread(), telling which ids were strings.
 */
gboolean
chrome_reader_resolve_ids (ChromeReader *r,
                           const ChromeEventFields *f,
                           gint64 ts,
                           gboolean names,
                           gint64 *pid,
                           gint64 *tid,
                           ChromeStringId *sids[2])
{
  gboolean has_pid = resolve_id (r, f, CHROME_NUMBER_PID, &f->pid, pid, &sids[0]);
  gboolean has_tid = resolve_id (r, f, CHROME_NUMBER_TID, &f->tid, tid, &sids[1]);

  if (!has_pid)
    *pid = TRACE_ID_UNKNOWN;
  if (!has_tid || (*tid == 0 && has_pid && *pid != 0))
    *tid = *pid;
  for (int which = 0; which < 2; which++)
    if (sids[which] != NULL)
      name_string_id (r, sids[which], which, *pid, *tid, ts, names);
  return has_pid;
}

/**
 * chrome_reader_resolve_thread:
 * @names: %FALSE for what trace_processor does not read (samples)
 *
 * The event's pid and tid.  A missing pid is %TRACE_ID_UNKNOWN; a missing
 * or 0 tid is the pid (perfetto's rule).  String ids get made-up ids and
 * are named by their string with PROCESS_NAME or THREAD_NAME events where
 * trace_processor names them (docs/json.md, "pid, tid").
 */
gboolean
chrome_reader_resolve_thread (ChromeReader *r,
                              const ChromeEventFields *f,
                              gint64 ts,
                              gboolean names,
                              gint64 *pid,
                              gint64 *tid)
{
  ChromeStringId *sids[2];

  return chrome_reader_resolve_ids (r, f, ts, names, pid, tid, sids);
}

/**
 * chrome_reader_hold_name:
 * @which: 0 for a process_name, 1 for a thread_name
 * @name: the metadata event's name
 *
 * A process_name/thread_name event of a string id: its name is held back
 * until the end (see #ChromeStringId), or overridden at once by an event
 * read before with a later time.
 *
 * Returns: %CONV_OK, or the skip reason
 */
int
chrome_reader_hold_name (ChromeReader *r,
                         ChromeStringId *sid,
                         int which,
                         gint64 ts,
                         gint64 pid,
                         gint64 tid,
                         guint64 offset,
                         guint32 name)
{
  if (sid->max_ts[which] > ts)
    return CHROME_SKIP_NAME_OVERRIDDEN;
  /* one held before has been overridden by this event's string */
  g_assert (sid->meta_name[which] == 0);
  sid->meta_name[which] = name;
  sid->meta_ts[which] = ts;
  sid->meta_pid[which] = pid;
  sid->meta_tid[which] = tid;
  sid->meta_offset[which] = offset;
  return CONV_OK;
}
