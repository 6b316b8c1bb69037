/* tracepipe - the kernel record engine: libtraceevent records as events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A static library shared by the sources that read the kernel's binary
 * ring-buffer records through libtraceevent: tracecmd-src (trace-cmd's
 * trace.dat, through libtracecmd) and tracefs-src (live, through
 * libtracefs). It builds no module.
 *
 * KernelEngine maps one record (a struct tep_record of a struct
 * tep_handle's event formats) into TraceEvents through the ftrace text
 * engine's typed entry points (ftrace-text.h), as LEARN records: the
 * events are exactly those ftrace-src makes of the kernel's text of the
 * same buffer. The scheduler, task and cpu events the event model has
 * kinds for are typed, ftrace/print is read as an atrace marker, every
 * other event is a generic kernel event with its fields as args. What
 * each event id needs (its kind, its fields, its prev_state letters) is
 * looked up once per id and kept.
 *
 *   g_autoptr (KernelEngine) ke = kernel_engine_new (tep, parser);
 *   kernel_engine_add_record (ke, record, cpu, batch);    (per record)
 *   summary = kernel_engine_stats_to_summary (kernel_engine_get_stats (ke));
 */
#pragma once

#include <event-parse.h>

#include "ftrace-text.h"

G_BEGIN_DECLS

/**
 * KernelEngineStats:
 * @records: records given to the engine
 * @unknown_events: records of an event id the formats do not describe
 *   (dropped: nothing says what they hold)
 * @incomplete_events: records of a typed event (sched_switch, ...) whose
 *   format lacks a field the kind needs; kept as generic events
 * @unread_fields: fields of generic events not kept as args: arrays
 *   other than strings, and fields that lie past the record's end
 * @cut_strings: string fields that run to the record's end without NUL
 *   (kept up to the end)
 *
 * What the engine could not use; plain data, copy it freely.
 */
typedef struct
{
  guint64 records;
  guint64 unknown_events;
  guint64 incomplete_events;
  guint64 unread_fields;
  guint64 cut_strings;
} KernelEngineStats;

typedef struct _KernelEngine KernelEngine;

KernelEngine *kernel_engine_new (struct tep_handle *tep,
                                 FtraceParser *parser);
void kernel_engine_free (KernelEngine *ke);

void kernel_engine_add_record (KernelEngine *ke,
                               struct tep_record *record,
                               gint32 cpu,
                               TraceBatch *batch);

struct tep_handle *kernel_engine_get_tep (KernelEngine *ke);
FtraceParser *kernel_engine_get_parser (KernelEngine *ke);
const KernelEngineStats *kernel_engine_get_stats (KernelEngine *ke);
char *kernel_engine_stats_to_summary (const KernelEngineStats *stats);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KernelEngine, kernel_engine_free)

G_END_DECLS
