/* tracepipe - the tracefs plugin: live capture from the kernel's tracefs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The plugin's private prefix is `capture_`: libtracefs owns `tracefs_`.
 *
 * A capture has six parts, each in its own file:
 *   tracefs-access.c   is tracefs there, and may this process write it
 *   tracefs-events.c   the events= list: parsed, checked against the buffer
 *   tracefs-formats.c  the events' formats, for libtraceevent
 *   tracefs-state.c    what the capture changes in the buffer, and undoing it
 *   tracefs-cpu.c      a reader thread per cpu: raw pages into a queue
 *   tracefs-merge.c    the cpus' pages merged into one stream in time order
 */
#pragma once

#include <tracefs.h>
#include <kbuffer.h>

#include "trace/trace.h"

G_BEGIN_DECLS

#define TRACE_TYPE_TRACEFS_SRC (trace_tracefs_src_get_type ())
G_DECLARE_FINAL_TYPE (TraceTracefsSrc, trace_tracefs_src, TRACE, TRACEFS_SRC, TraceBaseSrc)
TRACE_ELEMENT_REGISTER_DECLARE (tracefs_src);

/* ------------------------------------------------------------ access */

char *capture_find_tracefs (GError **error);
gboolean capture_check_tracefs (const char *dir,
                                GError **error);

/* ------------------------------------------------------------ events */

/**
 * CaptureEvent:
 * @system: the event's system (`sched`)
 * @event: (nullable): its name, %NULL for every event of @system
 *
 * One item of the events= list, as tracefs names it.
 */
typedef struct
{
  char *system;
  char *event;
} CaptureEvent;

void capture_event_free (CaptureEvent *ev);
GPtrArray *capture_parse_events (const char *text,
                                 GError **error);
gboolean capture_resolve_events (GPtrArray *events,
                                 const char *events_dir,
                                 GError **error);
gboolean capture_events_want (GPtrArray *events,
                              const char *system,
                              const char *event);
char **capture_events_systems (GPtrArray *events);

/* ------------------------------------------------------------ formats */

struct tep_handle *capture_load_formats (const char *tracing_dir,
                                         char **systems,
                                         GError **error);

/* ------------------------------------------------------------ state */

/**
 * CaptureSettings:
 * @instance: (nullable): the buffer's instance, %NULL for the top-level one
 * @clock: (nullable): the trace clock to record with, %NULL: leave it
 * @buffer_size_kb: each cpu's ring buffer size, 0: leave it
 *
 * What the capture sets in the buffer besides its events.
 */
typedef struct
{
  char *instance;
  char *clock;
  guint64 buffer_size_kb;
} CaptureSettings;

typedef struct _CaptureState CaptureState;

CaptureState *capture_state_new (const char *tracing_dir,
                                 const CaptureSettings *settings,
                                 GError **error);
gboolean capture_state_check_idle (CaptureState *state,
                                   GError **error);
gboolean capture_state_apply (CaptureState *state,
                              GPtrArray *events,
                              GError **error);
gboolean capture_state_start (CaptureState *state,
                              GError **error);
void capture_state_stop_recording (CaptureState *state);
gboolean capture_state_restore (CaptureState *state,
                                GError **error);
void capture_state_free (CaptureState *state);
struct tracefs_instance *capture_state_get_instance (CaptureState *state);
const char *capture_state_get_where (CaptureState *state);
const char *capture_state_get_clock (CaptureState *state);
guint64 capture_state_get_buffer_size_kb (CaptureState *state);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CaptureState, capture_state_free)

/* ------------------------------------------------------------ cpu readers */

/**
 * CaptureCpuStats:
 * @overrun: events the ring buffer overwrote before they were read
 * @dropped: events the ring buffer refused, full (no overwrite mode)
 * @commit_overrun: events lost while a nested write filled the page
 * @now: the buffer's clock when the stats were read (ns; a count for
 *   the `counter` clocks)
 *
 * The counters of `per_cpu/cpuN/stats` the capture uses.
 */
typedef struct
{
  guint64 overrun;
  guint64 dropped;
  guint64 commit_overrun;
  guint64 now;
} CaptureCpuStats;

gboolean capture_parse_cpu_stats (const char *text,
                                  CaptureCpuStats *stats);

typedef struct _CaptureReaders CaptureReaders;

/* The page the readers hand over: @size bytes of a ring-buffer sub-buffer. */
typedef struct
{
  gsize size;
  guint8 data[];
} CapturePage;

CaptureReaders *capture_readers_new (struct tracefs_instance *instance,
                                     GMainContext *context,
                                     GError **error);
guint capture_readers_get_n_cpus (CaptureReaders *readers);
gboolean capture_readers_start (CaptureReaders *readers,
                                GError **error);
void capture_readers_stop (CaptureReaders *readers);
gboolean capture_readers_take (CaptureReaders *readers,
                               guint cpu,
                               GQueue *pages,
                               guint64 *watermark);
gboolean capture_readers_has_news (CaptureReaders *readers);
guint64 capture_readers_get_lost (CaptureReaders *readers,
                                  guint cpu);
void capture_readers_free (CaptureReaders *readers);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CaptureReaders, capture_readers_free)

/* ------------------------------------------------------------ merge */

typedef struct _CaptureMerge CaptureMerge;

/* Called for each record, in time order. */
typedef void (*CaptureRecordFunc) (struct tep_record *record,
                                   gpointer user_data);

CaptureMerge *capture_merge_new (struct tep_handle *tep,
                                 guint n_cpus);
void capture_merge_add_pages (CaptureMerge *merge,
                              guint cpu,
                              GQueue *pages,
                              guint64 watermark);
guint capture_merge_run (CaptureMerge *merge,
                         gboolean to_the_end,
                         guint max_records,
                         CaptureRecordFunc func,
                         gpointer user_data);
guint capture_merge_get_n_pending (CaptureMerge *merge,
                                   guint cpu);
void capture_merge_free (CaptureMerge *merge);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CaptureMerge, capture_merge_free)

G_END_DECLS
