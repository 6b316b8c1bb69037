/* tracepipe - a regular file mapped into memory, safe when it shrinks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Reading a large file through read(2) copies every byte from the page
 * cache into the reader's buffer; when the reader hands its chunks to
 * worker threads on other cores, that copy was a seventh of the reading
 * thread's time (docs/performance.md). A mapping gives the page cache's
 * bytes in place. Its known danger (why GStreamer's filesrc dropped
 * mmap): a file truncated while mapped makes the next access past its
 * new end raise SIGBUS, and the process dies.
 *
 * So the first mapping installs a SIGBUS handler that knows the live
 * mappings. A fault inside one of them replaces the rest of that mapping
 * with zero pages (the access is retried and reads a zero) and marks the
 * mapping lost; _trace_file_map_check() then says the file shrank, and
 * the source stops with that error instead of converting zeros. A fault
 * anywhere else goes to the handler that was there before, or to the
 * default action (the process dies as it would have).
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace-private.h"

/* Live mappings at once: one per source reading through a mapping. A
 * source that finds no free slot reads as before. */
#define MAX_MAPS 64

typedef struct
{
  gint used; /* claimed with a compare-and-swap */
  /* set last, cleared first: the handler reads start and end without a
   * lock (it may run on any thread, inside any code) */
  gsize start;
  gsize end;
  gint lost;
} MapSlot;

static MapSlot slots[MAX_MAPS];
static struct sigaction previous_action;
static gsize page_size;

struct _TraceFileMap
{
  int fd;
  guint8 *data;
  gsize size;
  gsize released; /* the pages before are no longer resident */
  MapSlot *slot;
};

/* Pages given back at a time: a syscall per MiB read. */
#define RELEASE_STEP (1024 * 1024)

/* Async-signal-safe: atomics, mmap(2) and sigaction(2) only. */
static void
on_sigbus (int sig,
           siginfo_t *info,
           void *context)
{
  gsize addr = (gsize) info->si_addr;
  int saved_errno = errno; /* mmap(2) may set it under the faulting code */

  for (guint i = 0; i < MAX_MAPS; i++)
    {
      gsize start = g_atomic_pointer_get (&slots[i].start);
      gsize end = g_atomic_pointer_get (&slots[i].end);
      gsize page = addr & ~(page_size - 1);

      if (start == 0 || addr < start || addr >= end)
        continue;
      /* everything after the new end is gone: zeros from here on, in
       * one step (not a fault per page) */
      if (mmap ((void *) page, end - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
        break;
      g_atomic_int_set (&slots[i].lost, 1);
      errno = saved_errno;
      return;
    }
  if ((previous_action.sa_flags & SA_SIGINFO) && previous_action.sa_sigaction != NULL)
    previous_action.sa_sigaction (sig, info, context);
  else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN)
    previous_action.sa_handler (sig);
  else
    {
      /* not ours: the default action, when the access faults again */
      struct sigaction dfl = { 0 };

      dfl.sa_handler = SIG_DFL;
      sigaction (SIGBUS, &dfl, NULL);
    }
  errno = saved_errno;
}

static gboolean
install_handler (void)
{
  static gsize installed = 0;

  if (g_once_init_enter (&installed))
    {
      struct sigaction action = { 0 };
      long ps = sysconf (_SC_PAGESIZE);

      page_size = ps > 0 ? (gsize) ps : 4096;
      action.sa_sigaction = on_sigbus;
      action.sa_flags = SA_SIGINFO | SA_NODEFER;
      sigemptyset (&action.sa_mask);
      g_once_init_leave (&installed, sigaction (SIGBUS, &action, &previous_action) == 0 ? 1 : 2);
    }
  return installed == 1;
}

static MapSlot *
claim_slot (guint8 *data,
            gsize size)
{
  for (guint i = 0; i < MAX_MAPS; i++)
    {
      if (!g_atomic_int_compare_and_exchange (&slots[i].used, 0, 1))
        continue;
      /* the handler only looks at a slot whose start is set */
      g_atomic_pointer_set (&slots[i].end, (gsize) data + size);
      g_atomic_int_set (&slots[i].lost, 0);
      g_atomic_pointer_set (&slots[i].start, (gsize) data);
      return &slots[i];
    }
  return NULL;
}

/**
 * _trace_file_map_new:
 * @fd: a file descriptor, kept open by the caller while the map lives
 *
 * Maps the whole file when @fd is a regular, non-empty file and the
 * system lets it (a 32-bit process may not have the room).
 *
 * Returns: (nullable): the map, or %NULL: read the file as before
 */
TraceFileMap *
_trace_file_map_new (int fd)
{
  TraceFileMap *map;
  struct stat st;
  void *data;
  MapSlot *slot;

  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size <= 0 || (guint64) st.st_size > G_MAXSIZE)
    return NULL;
  if (!install_handler ())
    return NULL;
  data = mmap (NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED)
    return NULL;
  slot = claim_slot (data, st.st_size);
  if (slot == NULL)
    {
      munmap (data, st.st_size);
      return NULL;
    }
  map = g_new0 (TraceFileMap, 1);
  map->fd = fd;
  map->data = data;
  map->size = st.st_size;
  map->slot = slot;
  return map;
}

const guint8 *
_trace_file_map_get_data (TraceFileMap *map,
                          gsize *size)
{
  *size = map->size;
  return map->data;
}

/**
 * _trace_file_map_release:
 * @done: the reader needs no byte before this one any more
 *
 * Takes the pages before @done out of the process's resident memory
 * (they stay in the page cache): a mapped page the reader touched
 * counts in its RSS until it is unmapped, so reading a 200 MB file in
 * place showed a peak RSS of 230 MiB. Were a byte needed again, reading
 * it would fault the page back in, unchanged.
 */
void
_trace_file_map_release (TraceFileMap *map,
                         guint64 done)
{
  gsize end = MIN (done, map->size) & ~(page_size - 1);

  if (end < map->released + RELEASE_STEP && end < (map->size & ~(page_size - 1)))
    return;
  if (end > map->released)
    madvise (map->data + map->released, end - map->released, MADV_DONTNEED);
  map->released = MAX (map->released, end);
}

/**
 * _trace_file_map_check:
 *
 * Returns: %FALSE when the file is now shorter than it was mapped: a
 *   byte past its new end was touched (and read as zero), or will be
 */
gboolean
_trace_file_map_check (TraceFileMap *map)
{
  struct stat st;

  if (g_atomic_int_get (&map->slot->lost))
    return FALSE;
  /* the tail of the last page past the new end reads as zeros without
   * a fault */
  return fstat (map->fd, &st) != 0 || (guint64) st.st_size >= map->size;
}

void
_trace_file_map_free (TraceFileMap *map)
{
  if (map == NULL)
    return;
  /* no thread reads the mapping any more: the slot can go */
  g_atomic_pointer_set (&map->slot->start, (gsize) 0);
  munmap (map->data, map->size);
  g_atomic_int_set (&map->slot->used, 0);
  g_free (map);
}
