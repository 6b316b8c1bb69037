/* tracepipe - tracefs-src: the cpus' pages merged in time order
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each cpu's records are in time order in its pages. The merge takes the
 * oldest record of all cpus, but only when no cpu can still bring an
 * older one: every cpu without a record in hand has a watermark (the
 * readers') past it. What is past the bound waits in its page for the
 * next call; so the stream is in time order, held back about one reader
 * interval.
 */
#include "config.h"

#include "tracefs-private.h"

typedef struct
{
  GQueue pages; /* CapturePage, oldest first */
  CapturePage *current;
  struct kbuffer *kbuf;
  void *data; /* the record the cursor is on, NULL: load the next page */
  unsigned long long ts;
  guint64 watermark;
} MergeCpu;

struct _CaptureMerge
{
  struct tep_handle *tep;
  MergeCpu *cpus;
  guint n_cpus;
};

CaptureMerge *
capture_merge_new (struct tep_handle *tep,
                   guint n_cpus)
{
  CaptureMerge *merge = g_new0 (CaptureMerge, 1);

  merge->tep = tep;
  merge->n_cpus = n_cpus;
  merge->cpus = g_new0 (MergeCpu, n_cpus);
  for (guint i = 0; i < n_cpus; i++)
    merge->cpus[i].kbuf = tep_kbuffer (tep);
  return merge;
}

/**
 * capture_merge_add_pages:
 * @merge: the merge
 * @cpu: whose pages
 * @pages: (element-type CapturePage): taken from the readers, emptied
 * @watermark: the cpu's watermark, from the readers
 */
void
capture_merge_add_pages (CaptureMerge *merge,
                         guint cpu,
                         GQueue *pages,
                         guint64 watermark)
{
  MergeCpu *c = &merge->cpus[cpu];

  while (pages->length > 0)
    g_queue_push_tail (&c->pages, g_queue_pop_head (pages));
  c->watermark = MAX (c->watermark, watermark);
}

/* Puts the cursor on the cpu's next record; FALSE when it has none. */
static gboolean
cursor_load (CaptureMerge *merge,
             MergeCpu *c)
{
  while (c->data == NULL)
    {
      g_clear_pointer (&c->current, g_free);
      c->current = g_queue_pop_head (&c->pages);
      if (c->current == NULL || c->kbuf == NULL)
        return FALSE;
      if (kbuffer_load_subbuffer (c->kbuf, c->current->data) < 0)
        continue; /* not a page: skip it */
      c->data = kbuffer_read_event (c->kbuf, &c->ts);
    }
  return TRUE;
}

/* The cpu whose next record is the oldest, -1 when none has one; @limit
 * is the oldest watermark of the cpus that have no record: none of them
 * can bring a record older than it. A cpu that has one is no limit: what
 * it brings later is newer than what it has. */
static int
oldest_cpu (CaptureMerge *merge,
            guint64 *limit)
{
  int best = -1;

  *limit = G_MAXUINT64;
  for (guint i = 0; i < merge->n_cpus; i++)
    {
      MergeCpu *c = &merge->cpus[i];

      if (c->data == NULL && !cursor_load (merge, c))
        *limit = MIN (*limit, c->watermark);
      else if (best < 0 || c->ts < merge->cpus[best].ts)
        best = (int) i;
    }
  return best;
}

/**
 * capture_merge_run:
 * @merge: the merge
 * @to_the_end: give every record held, whatever the watermarks say (the
 *   readers have ended)
 * @max_records: at most this many
 * @func: called with each record, oldest first
 * @user_data: for @func
 *
 * Gives the records no cpu can still bring an older record than.
 *
 * Returns: how many records @func was given
 */
guint
capture_merge_run (CaptureMerge *merge,
                   gboolean to_the_end,
                   guint max_records,
                   CaptureRecordFunc func,
                   gpointer user_data)
{
  guint64 limit;
  guint n = 0;
  int cpu;

  while (n < max_records && (cpu = oldest_cpu (merge, &limit)) >= 0 && (to_the_end || merge->cpus[cpu].ts <= limit))
    {
      MergeCpu *c = &merge->cpus[cpu];
      struct tep_record record = {
        .ts = c->ts,
        .data = c->data,
        .size = kbuffer_event_size (c->kbuf),
        .record_size = kbuffer_curr_size (c->kbuf),
        .cpu = (int) cpu,
        .ref_count = 1,
        .locked = 1,
      };

      func (&record, user_data);
      n++;
      c->data = kbuffer_next_event (c->kbuf, &c->ts);
    }
  return n;
}

/**
 * capture_merge_get_n_pending:
 * @merge: the merge
 * @cpu: which cpu
 *
 * Returns: the pages of @cpu the merge holds besides the one it reads
 */
guint
capture_merge_get_n_pending (CaptureMerge *merge,
                             guint cpu)
{
  return merge->cpus[cpu].pages.length;
}

void
capture_merge_free (CaptureMerge *merge)
{
  if (merge == NULL)
    return;
  for (guint i = 0; i < merge->n_cpus; i++)
    {
      g_queue_clear_full (&merge->cpus[i].pages, g_free);
      g_free (merge->cpus[i].current);
      if (merge->cpus[i].kbuf)
        kbuffer_free (merge->cpus[i].kbuf);
    }
  g_free (merge->cpus);
  g_free (merge);
}
