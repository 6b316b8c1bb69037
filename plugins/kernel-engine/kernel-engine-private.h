/* tracepipe - the kernel record engine's internals, shared by its files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "kernel-engine.h"

G_BEGIN_DECLS

/* What an event id is read as. */
typedef enum
{
  KERNEL_KIND_GENERIC,
  KERNEL_KIND_SWITCH,
  KERNEL_KIND_WAKEUP,  /* sched_wakeup, sched_waking, sched_wakeup_new */
  KERNEL_KIND_PROCESS, /* sched_process_exit, sched_process_free */
  KERNEL_KIND_NEWTASK,
  KERNEL_KIND_RENAME,
  KERNEL_KIND_CPU,   /* cpu_frequency, cpu_idle */
  KERNEL_KIND_PRINT, /* ftrace/print, tracing_mark_write */
} KernelKind;

/* The most fields a typed kind reads (sched_switch's seven). */
#define KERNEL_MAX_FIELDS 8

/* prev_state's letters as the format prints them: each bit of the raw
 * value and the #TraceTaskState bits its letter reads as. */
#define KERNEL_MAX_STATE_BITS 32

typedef struct
{
  guint n;
  guint64 raw[KERNEL_MAX_STATE_BITS];
  gint64 state[KERNEL_MAX_STATE_BITS];
  guint64 preempted; /* the bit printed as `+` (0: none) */
  guint64 known;     /* every bit above, or'ed */
} KernelStateMap;

/* A field an event's text prints as `key=%d` or `key=%s`. */
typedef struct
{
  char *key;
  struct tep_format_field *field;
  gboolean is_string;
} KernelPrinted;

/* What one event id needs, looked up at its first record. */
typedef struct
{
  struct tep_event *event;
  KernelKind kind;
  TraceEventKind event_kind; /* the model's kind of a typed one */
  struct tep_format_field *f[KERNEL_MAX_FIELDS];
  KernelStateMap *states; /* sched_switch's prev_state letters */
  gboolean incomplete;    /* a typed event read as generic: a field missing */
  KernelPrinted *printed; /* a generic event's printed fields, NULL: print it */
  guint n_printed;
} KernelEventInfo;

/* A record's bytes: fields are read within them only. */
typedef struct
{
  struct tep_handle *tep;
  const guint8 *data;
  gsize size;
} KernelData;

/* kernel-engine-info.c */
KernelEventInfo *kernel_event_info_new (struct tep_event *event);
void kernel_event_info_free (KernelEventInfo *info);

/* kernel-engine-state.c */
KernelStateMap *kernel_state_map_new (struct tep_event *event);
gint64 kernel_state_map_read (const KernelStateMap *map,
                              guint64 raw);

/* kernel-engine-printed.c */
KernelPrinted *kernel_printed_new (struct tep_event *event,
                                   guint *n);
void kernel_printed_clear (KernelPrinted *p);
void kernel_printed_add (KernelEngineStats *stats,
                         FtraceParser *parser,
                         TraceBatch *batch,
                         TraceEvent *ev,
                         const KernelData *d,
                         const KernelPrinted *printed,
                         guint n);

/* kernel-engine-fields.c */
gboolean kernel_field_int (const KernelData *d,
                           const struct tep_format_field *f,
                           gint64 *out);
gint64 kernel_field_int_or (const KernelData *d,
                            const struct tep_format_field *f,
                            gint64 fallback);
gboolean kernel_field_string (const KernelData *d,
                              const struct tep_format_field *f,
                              FtraceName *out,
                              gboolean *cut);
gboolean kernel_record_is_sound (const KernelData *d,
                                 struct tep_event *event);
void kernel_add_fields (KernelEngineStats *stats,
                        FtraceParser *parser,
                        TraceBatch *batch,
                        TraceEvent *ev,
                        const KernelData *d,
                        struct tep_event *event);

G_END_DECLS
