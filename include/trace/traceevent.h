/* tracepipe - the event model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <glib-object.h>
#include <trace/trace-export.h>

G_BEGIN_DECLS

/**
 * TRACE_ID_UNKNOWN:
 *
 * The value of a pid, tid or cpu that the input did not tell.
 */
#define TRACE_ID_UNKNOWN (-1)

/**
 * TraceEventKind:
 * @TRACE_EVENT_NONE: not an event (a dropped slot)
 * @TRACE_EVENT_SLICE_BEGIN: a slice begins on a thread
 * @TRACE_EVENT_SLICE_END: the innermost open slice of a thread whose name
 *   and category match the end's ends (a name or category the end does
 *   not give matches any); an end that matches none is ignored
 * @TRACE_EVENT_SLICE_COMPLETE: a slice with a known duration (`u.slice.dur`)
 * @TRACE_EVENT_INSTANT: an instant; `flags` carry the scope
 * @TRACE_EVENT_ASYNC_BEGIN: an async slice begins (`u.async`)
 * @TRACE_EVENT_ASYNC_STEP: a step inside an async slice
 * @TRACE_EVENT_ASYNC_END: an async slice ends
 * @TRACE_EVENT_ASYNC_INSTANT: an instant on an async track
 * @TRACE_EVENT_FLOW_START: a flow starts (`u.async.id`)
 * @TRACE_EVENT_FLOW_STEP: a flow passes through a slice
 * @TRACE_EVENT_FLOW_END: a flow ends
 * @TRACE_EVENT_COUNTER: a named value (`u.counter`)
 * @TRACE_EVENT_PROCESS_NAME: names process `pid` (`name`)
 * @TRACE_EVENT_THREAD_NAME: names thread `tid` of process `pid` (`name`)
 * @TRACE_EVENT_PROCESS_SORT_INDEX: `u.meta.value` orders processes
 * @TRACE_EVENT_THREAD_SORT_INDEX: `u.meta.value` orders threads
 * @TRACE_EVENT_PROCESS_LABEL: a label (`name`) of process `pid`
 * @TRACE_EVENT_SCHED_SWITCH: ftrace `sched_switch` (`u.sched_switch`)
 * @TRACE_EVENT_SCHED_WAKEUP: ftrace `sched_wakeup` (`u.wakeup`)
 * @TRACE_EVENT_SCHED_WAKING: ftrace `sched_waking` (`u.wakeup`)
 * @TRACE_EVENT_SCHED_WAKEUP_NEW: ftrace `sched_wakeup_new` (`u.wakeup`)
 * @TRACE_EVENT_SCHED_PROCESS_EXIT: ftrace `sched_process_exit` (`u.task`)
 * @TRACE_EVENT_SCHED_PROCESS_FREE: ftrace `sched_process_free` (`u.task`)
 * @TRACE_EVENT_TASK_NEWTASK: ftrace `task_newtask` (`u.task`)
 * @TRACE_EVENT_TASK_RENAME: ftrace `task_rename` (`u.task`)
 * @TRACE_EVENT_CPU_FREQUENCY: ftrace `cpu_frequency` (`u.cpu`)
 * @TRACE_EVENT_CPU_IDLE: ftrace `cpu_idle` (`u.cpu`)
 * @TRACE_EVENT_FTRACE: any other kernel event: `name` is the event name,
 *   the args are its fields
 * @TRACE_EVENT_STACK_NODE: defines a call-stack node (`u.stack_node`),
 *   `name` is the function; url, line and column travel as args
 * @TRACE_EVENT_SAMPLE: a CPU-profile sample of thread `tid` whose leaf is
 *   stack node `u.sample.node_id`
 * @TRACE_EVENT_CLOCK_MARKER: ties `ts` (this stream's clock) to a time or
 *   a sync id of another clock (`u.clock`)
 * @TRACE_EVENT_RECORD: a record of the input's format that the model does
 *   not describe, carried so that a sink of the same format can write it
 *   back as it was: `name` says what it is (`perfetto_packet_38`), the
 *   args carry it; `tid` and `pid` are -1. Sinks of other formats write
 *   it as a generic record or count it as dropped.
 * @TRACE_EVENT_THREAD_STATE: thread `tid` of process `pid` is in the
 *   state `name` (`Running`, `S`, `D`, `R` or any text) for
 *   `u.thread_state.dur`, as Perfetto's JSON `T` event says; its args
 *   carry what else the input tells (`cpu`, `io_wait`,
 *   `blocked_function`)
 * @TRACE_EVENT_CHROME_PHASE: an event of Chrome's trace event format
 *   of a phase no other kind describes, carried so that a sink of
 *   Chrome JSON or of TrackEvents writes it back as it came
 *   (`u.chrome_phase`): object snapshots (`O`, `N`, `D`), contexts
 *   (`(`, `)`), memory dumps (`v`, `V`), marks (`z`) and, read from a
 *   TrackEvent, counters (`C`) and metadata (`M`) other than names, which
 *   trace_processor keeps as rows of its raw table and not as counters;
 *   `name`, `category` and the args are the event's, `tid` the thread
 *   that recorded it
 * @TRACE_EVENT_N_KINDS: the number of kinds
 *
 * What an event is. The kind says which member of the union is in use.
 */
typedef enum
{
  TRACE_EVENT_NONE = 0,
  TRACE_EVENT_SLICE_BEGIN,
  TRACE_EVENT_SLICE_END,
  TRACE_EVENT_SLICE_COMPLETE,
  TRACE_EVENT_INSTANT,
  TRACE_EVENT_ASYNC_BEGIN,
  TRACE_EVENT_ASYNC_STEP,
  TRACE_EVENT_ASYNC_END,
  TRACE_EVENT_ASYNC_INSTANT,
  TRACE_EVENT_FLOW_START,
  TRACE_EVENT_FLOW_STEP,
  TRACE_EVENT_FLOW_END,
  TRACE_EVENT_COUNTER,
  TRACE_EVENT_PROCESS_NAME,
  TRACE_EVENT_THREAD_NAME,
  TRACE_EVENT_PROCESS_SORT_INDEX,
  TRACE_EVENT_THREAD_SORT_INDEX,
  TRACE_EVENT_PROCESS_LABEL,
  TRACE_EVENT_SCHED_SWITCH,
  TRACE_EVENT_SCHED_WAKEUP,
  TRACE_EVENT_SCHED_WAKING,
  TRACE_EVENT_SCHED_WAKEUP_NEW,
  TRACE_EVENT_SCHED_PROCESS_EXIT,
  TRACE_EVENT_SCHED_PROCESS_FREE,
  TRACE_EVENT_TASK_NEWTASK,
  TRACE_EVENT_TASK_RENAME,
  TRACE_EVENT_CPU_FREQUENCY,
  TRACE_EVENT_CPU_IDLE,
  TRACE_EVENT_FTRACE,
  TRACE_EVENT_STACK_NODE,
  TRACE_EVENT_SAMPLE,
  TRACE_EVENT_CLOCK_MARKER,
  TRACE_EVENT_RECORD,
  TRACE_EVENT_THREAD_STATE,
  TRACE_EVENT_CHROME_PHASE,
  TRACE_EVENT_N_KINDS
} TraceEventKind;

/**
 * TraceEventGroup:
 * @TRACE_EVENT_GROUP_SLICES: thread slices and instants
 * @TRACE_EVENT_GROUP_ASYNC: async slices
 * @TRACE_EVENT_GROUP_FLOWS: flows
 * @TRACE_EVENT_GROUP_COUNTERS: counters
 * @TRACE_EVENT_GROUP_METADATA: process and thread names, sort indexes, labels
 * @TRACE_EVENT_GROUP_SCHED: scheduling records (switch, wakeup, task
 *   life, thread states)
 * @TRACE_EVENT_GROUP_CPU: cpu frequency and idle
 * @TRACE_EVENT_GROUP_FTRACE: other kernel events
 * @TRACE_EVENT_GROUP_SAMPLES: CPU-profile samples and their stack nodes
 * @TRACE_EVENT_GROUP_CLOCK: clock markers
 * @TRACE_EVENT_GROUP_RECORDS: records of the input's format carried as
 *   they were (%TRACE_EVENT_RECORD, %TRACE_EVENT_CHROME_PHASE)
 *
 * Groups of kinds, as flags: what a user filters on (`filter kind=slices+counters`).
 */
typedef enum
{
  TRACE_EVENT_GROUP_SLICES = 1 << 0,
  TRACE_EVENT_GROUP_ASYNC = 1 << 1,
  TRACE_EVENT_GROUP_FLOWS = 1 << 2,
  TRACE_EVENT_GROUP_COUNTERS = 1 << 3,
  TRACE_EVENT_GROUP_METADATA = 1 << 4,
  TRACE_EVENT_GROUP_SCHED = 1 << 5,
  TRACE_EVENT_GROUP_CPU = 1 << 6,
  TRACE_EVENT_GROUP_FTRACE = 1 << 7,
  TRACE_EVENT_GROUP_SAMPLES = 1 << 8,
  TRACE_EVENT_GROUP_CLOCK = 1 << 9,
  TRACE_EVENT_GROUP_RECORDS = 1 << 10,
} TraceEventGroup;

/**
 * TraceTaskState:
 * @TRACE_TASK_STATE_RUNNING: running or runnable (`R`): no bit set
 * @TRACE_TASK_STATE_INTERRUPTIBLE: sleeping (`S`)
 * @TRACE_TASK_STATE_UNINTERRUPTIBLE: in uninterruptible sleep, usually
 *   waiting for I/O (`D`)
 * @TRACE_TASK_STATE_STOPPED: stopped by a signal (`T`)
 * @TRACE_TASK_STATE_TRACED: stopped by a tracer (`t`)
 * @TRACE_TASK_STATE_EXIT_DEAD: exiting, about to be reaped (`X`)
 * @TRACE_TASK_STATE_EXIT_ZOMBIE: exited, not yet reaped (`Z`)
 * @TRACE_TASK_STATE_DEAD: dead (`x`)
 * @TRACE_TASK_STATE_WAKEKILL: woken by fatal signals only (`K`)
 * @TRACE_TASK_STATE_WAKING: being woken (`W`)
 * @TRACE_TASK_STATE_PARKED: a parked kernel thread (`P`)
 * @TRACE_TASK_STATE_NOLOAD: does not count towards the load average (`N`)
 * @TRACE_TASK_STATE_IDLE: an idle kernel thread (`I`):
 *   %TRACE_TASK_STATE_UNINTERRUPTIBLE | %TRACE_TASK_STATE_NOLOAD
 * @TRACE_TASK_STATE_PREEMPTED: preempted while runnable (`R+`): the
 *   thread left the cpu without sleeping
 *
 * The bits of `u.sched_switch.prev_state`: the state the thread leaving
 * the cpu is in, as the Linux kernel's task-state bits in the 4.4 layout
 * (the one Perfetto assumes for a trace that does not name its kernel
 * version). The letters are those of ftrace's text output
 * (`prev_state=D|K`, `S`, `R+`). A value of -1 means the input did not
 * tell.
 */
typedef enum
{
  TRACE_TASK_STATE_RUNNING = 0,
  TRACE_TASK_STATE_INTERRUPTIBLE = 0x1,
  TRACE_TASK_STATE_UNINTERRUPTIBLE = 0x2,
  TRACE_TASK_STATE_STOPPED = 0x4,
  TRACE_TASK_STATE_TRACED = 0x8,
  TRACE_TASK_STATE_EXIT_DEAD = 0x10,
  TRACE_TASK_STATE_EXIT_ZOMBIE = 0x20,
  TRACE_TASK_STATE_DEAD = 0x40,
  TRACE_TASK_STATE_WAKEKILL = 0x80,
  TRACE_TASK_STATE_WAKING = 0x100,
  TRACE_TASK_STATE_PARKED = 0x200,
  TRACE_TASK_STATE_NOLOAD = 0x400,
  TRACE_TASK_STATE_IDLE = 0x2 | 0x400,
  TRACE_TASK_STATE_PREEMPTED = 0x800,
} TraceTaskState;

/**
 * TRACE_CLONE_THREAD:
 *
 * The Linux clone flag `CLONE_THREAD` in `u.task.clone_flags` of a
 * %TRACE_EVENT_TASK_NEWTASK: the new task is a thread of the creating
 * process, not a process of its own.
 */
#define TRACE_CLONE_THREAD 0x00010000

/**
 * TraceEventFlags:
 * @TRACE_EVENT_FLAG_NONE: no flag
 * @TRACE_EVENT_FLAG_SCOPE_THREAD: an instant of the thread (the default)
 * @TRACE_EVENT_FLAG_SCOPE_PROCESS: an instant of the process
 * @TRACE_EVENT_FLAG_SCOPE_GLOBAL: an instant of the whole trace
 * @TRACE_EVENT_FLAG_COUNTER_INT: the counter value is an integer
 * @TRACE_EVENT_FLAG_ASYNC_LEGACY: an async event from an unnestable
 *   family (atrace `S`/`F`, Chrome `S`/`T`/`F`)
 * @TRACE_EVENT_FLAG_FLOW_NEXT_SLICE: a flow event binds to the next slice
 *   that begins on the thread (Chrome `bp:"e"` unset), not the enclosing one
 * @TRACE_EVENT_FLAG_ID_GLOBAL: the async or flow id is global, not local
 *   to the process
 * @TRACE_EVENT_FLAG_REPAIRED: an element changed or synthesized this event
 *   to repair the stream (see the event's args for what)
 * @TRACE_EVENT_FLAG_THREAD_TIME: the event carries the CPU time of the
 *   thread `tid` that recorded it: a slice event `u.slice.thread_ts`
 *   (Chrome `tts`) and, for a complete slice, `u.slice.thread_dur`
 *   (Chrome `tdur`), -1 for the one not given; an async or flow event
 *   `u.async.thread_ts`; a %TRACE_EVENT_CHROME_PHASE
 *   `u.chrome_phase.thread_ts`. Read it with trace_event_get_thread_ts().
 * @TRACE_EVENT_FLAG_FLOW_V2: a slice's flow ids are Chrome's flow v2
 *   (`bind_id` with `flow_in`/`flow_out`): an id received does not end
 *   its flow, so one sender may reach several receivers, and an id sent
 *   again keeps its first sender. Without it an incoming id ends the flow.
 *   Sources of Chrome JSON imply it for all their slices (their stream
 *   says `chrome-json`); perfetto-src sets it on the slices of TrackEvents
 *   whose legacy event binds a flow.
 * @TRACE_EVENT_FLAG_STEP_PAST: an unnestable async step that ends the
 *   step before it (Chrome `p`), not one that begins a step (`T`)
 * @TRACE_EVENT_FLAG_MORE_FLOWS: a slice event binds more flow ids than
 *   `u.slice.flow_out`/`flow_in` hold, or an async event binds flow ids
 *   (`u.async` has no room for them): they are args
 *   (trace_batch_add_slice_flow(), trace_batch_next_slice_flow()). Sinks
 *   look for them only when it is set.
 * @TRACE_EVENT_FLAG_LEGACY_PHASE: an async event read from a TrackEvent
 *   with a legacy phase (Chrome `b`, `e`, `n`, `S`, `T`, `p`, `F`):
 *   trace_processor places those on tracks of its own (by id, scope and
 *   name, nested by its track compressor), so perfetto-sink writes it
 *   back as one, on its recording thread (`tid`)
 * @TRACE_EVENT_FLAG_PHASE_S: with %TRACE_EVENT_FLAG_LEGACY_PHASE, the
 *   phase was `S`, `T`, `p` or `F`, not `b`, `e` or `n`
 * @TRACE_EVENT_FLAG_APP_NAME: a process name the traced app gave its
 *   own track descriptor: a name the system gives (a process_tree, the
 *   kernel's comm of the main thread) overrides it in trace_processor
 * @TRACE_EVENT_FLAG_GENERIC_RECORD: a %TRACE_EVENT_FTRACE event its
 *   source read from a generic record (Perfetto's GenericFtraceEvent: a
 *   name and fields) though its kind has a typed record that an importer
 *   reads differently (trace_processor makes IRQ slices of a typed
 *   irq_handler_entry only): a sink writes it generic again. perfetto-src
 *   sets it on the kinds perfetto-sink writes typed from a Perfetto trace
 *   only (interrupts, funcgraph, suspend_resume, wakeup sources,
 *   gpu_frequency, vendor trace marks).
 *
 * Flags of a #TraceEvent.
 */
typedef enum
{
  TRACE_EVENT_FLAG_NONE = 0,
  TRACE_EVENT_FLAG_SCOPE_THREAD = 0,
  TRACE_EVENT_FLAG_SCOPE_PROCESS = 1 << 0,
  TRACE_EVENT_FLAG_SCOPE_GLOBAL = 1 << 1,
  TRACE_EVENT_FLAG_COUNTER_INT = 1 << 2,
  TRACE_EVENT_FLAG_ASYNC_LEGACY = 1 << 3,
  TRACE_EVENT_FLAG_FLOW_NEXT_SLICE = 1 << 4,
  TRACE_EVENT_FLAG_ID_GLOBAL = 1 << 5,
  TRACE_EVENT_FLAG_REPAIRED = 1 << 6,
  TRACE_EVENT_FLAG_THREAD_TIME = 1 << 7,
  TRACE_EVENT_FLAG_FLOW_V2 = 1 << 8,
  TRACE_EVENT_FLAG_STEP_PAST = 1 << 9,
  TRACE_EVENT_FLAG_MORE_FLOWS = 1 << 10,
  TRACE_EVENT_FLAG_LEGACY_PHASE = 1 << 11,
  TRACE_EVENT_FLAG_PHASE_S = 1 << 12,
  TRACE_EVENT_FLAG_APP_NAME = 1 << 13,
  TRACE_EVENT_FLAG_GENERIC_RECORD = 1 << 14,
} TraceEventFlags;

/**
 * TraceClockDomain:
 * @TRACE_CLOCK_UNKNOWN: not known
 * @TRACE_CLOCK_BOOTTIME: CLOCK_BOOTTIME (Android ftrace, `boot`)
 * @TRACE_CLOCK_MONOTONIC: CLOCK_MONOTONIC (JS profilers, Chrome on Linux)
 * @TRACE_CLOCK_MONOTONIC_RAW: CLOCK_MONOTONIC_RAW
 * @TRACE_CLOCK_REALTIME: CLOCK_REALTIME, wall clock
 * @TRACE_CLOCK_FTRACE_LOCAL: ftrace's `local`/`global` clock
 * @TRACE_CLOCK_COUNTER: a raw counter (ftrace `counter`, `x86-tsc`)
 * @TRACE_CLOCK_PROCESS: a clock private to the producing process
 *
 * The clock a stream's timestamps are in.
 */
typedef enum
{
  TRACE_CLOCK_UNKNOWN = 0,
  TRACE_CLOCK_BOOTTIME,
  TRACE_CLOCK_MONOTONIC,
  TRACE_CLOCK_MONOTONIC_RAW,
  TRACE_CLOCK_REALTIME,
  TRACE_CLOCK_FTRACE_LOCAL,
  TRACE_CLOCK_COUNTER,
  TRACE_CLOCK_PROCESS,
} TraceClockDomain;

/**
 * TraceClockMarkerKind:
 * @TRACE_CLOCK_MARKER_PARENT_TS: `u.clock.other_ts` is the same instant on
 *   `u.clock.domain` (atrace `parent_ts`, float32-quantised)
 * @TRACE_CLOCK_MARKER_REALTIME_TS: `other_ts` is the realtime clock
 * @TRACE_CLOCK_MARKER_SYNC_ID: `u.clock.sync_id` names a sync point that
 *   another stream marks too (atrace `name=`, Chrome `c`); `issue_ts`, when
 *   not 0, is when the sync was issued
 * @TRACE_CLOCK_MARKER_PAIR: an exact pair of two clocks read together
 *   (RheaTrace `monotonic_time:`)
 *
 * What a #TRACE_EVENT_CLOCK_MARKER says.
 */
typedef enum
{
  TRACE_CLOCK_MARKER_PARENT_TS,
  TRACE_CLOCK_MARKER_REALTIME_TS,
  TRACE_CLOCK_MARKER_SYNC_ID,
  TRACE_CLOCK_MARKER_PAIR,
} TraceClockMarkerKind;

/**
 * TraceChromeIdKind:
 * @TRACE_CHROME_ID_NONE: the event has no id
 * @TRACE_CHROME_ID_UNSCOPED: JSON `id`, a TrackEvent's `unscoped_id`:
 *   global or the process's as the phase makes it
 * @TRACE_CHROME_ID_GLOBAL: JSON `id2.global`, a TrackEvent's `global_id`
 * @TRACE_CHROME_ID_LOCAL: JSON `id2.local`, a TrackEvent's `local_id`:
 *   the process's
 *
 * How a %TRACE_EVENT_CHROME_PHASE gave its id (`u.chrome_phase.id_kind`),
 * kept so that it is written back the same way.
 */
typedef enum
{
  TRACE_CHROME_ID_NONE,
  TRACE_CHROME_ID_UNSCOPED,
  TRACE_CHROME_ID_GLOBAL,
  TRACE_CHROME_ID_LOCAL,
} TraceChromeIdKind;

/**
 * TraceArgType:
 * @TRACE_ARG_INT: a signed 64-bit integer (`v.i`)
 * @TRACE_ARG_UINT: an unsigned 64-bit integer (`v.u`)
 * @TRACE_ARG_DOUBLE: a double (`v.d`)
 * @TRACE_ARG_STRING: an interned string (`v.s`)
 * @TRACE_ARG_BOOL: a boolean (`v.b`)
 * @TRACE_ARG_POINTER: an address, shown in hex (`v.u`)
 * @TRACE_ARG_NULL: a JSON `null` (no value)
 * @TRACE_ARG_EMPTY_ARRAY: an empty array `[]` (no value)
 * @TRACE_ARG_EMPTY_OBJECT: an empty object `{}` (no value)
 * @TRACE_ARG_TEXT: a string stored in the arg's batch, not interned
 *   (`v.text`): read it with trace_batch_get_arg_string()
 *
 * The type of a #TraceArg value.  %TRACE_ARG_NULL, %TRACE_ARG_EMPTY_ARRAY
 * and %TRACE_ARG_EMPTY_OBJECT hold no value: they keep a JSON args
 * object's shape (array indices after them, `"w":null`) for the sinks
 * that can write it back; the others skip them, as trace_processor shows
 * no row for them.
 *
 * %TRACE_ARG_TEXT is for values a source sees once (request ids, frame
 * ids, urls with a query): interned, each would stay in the pipeline's
 * pool to the end, so memory would grow with the input. Its bytes live in
 * the batch (copied with the event by trace_batch_append_event()); a sink
 * sees it only when its class asks for it
 * (trace_base_sink_class_set_reads_arg_text()), the others get the value
 * interned, as %TRACE_ARG_STRING.
 */
typedef enum
{
  TRACE_ARG_INT,
  TRACE_ARG_UINT,
  TRACE_ARG_DOUBLE,
  TRACE_ARG_STRING,
  TRACE_ARG_BOOL,
  TRACE_ARG_POINTER,
  TRACE_ARG_NULL,
  TRACE_ARG_EMPTY_ARRAY,
  TRACE_ARG_EMPTY_OBJECT,
  TRACE_ARG_TEXT,
} TraceArgType;

/**
 * TraceArg:
 * @key: interned key; nested values use dotted keys (`a.b`, `a[0]`)
 * @type: a #TraceArgType
 *
 * One argument of an event, stored in its batch.
 */
typedef struct
{
  guint32 key;
  guint32 type;
  union
  {
    gint64 i;
    guint64 u;
    double d;
    guint32 s;
    gboolean b;
    struct
    {
      guint32 offset; /* in the batch's text, where a NUL follows */
      guint32 len;
    } text;
  } v;
} TraceArg;

/**
 * trace_arg_is_shape:
 * @arg: a #TraceArg
 *
 * Returns: whether @arg holds no value: %TRACE_ARG_NULL,
 *   %TRACE_ARG_EMPTY_ARRAY or %TRACE_ARG_EMPTY_OBJECT, which keep a JSON
 *   args object's shape (trace_base_sink_class_set_keeps_arg_shape())
 */
static inline gboolean
trace_arg_is_shape (const TraceArg *arg)
{
  return arg->type == TRACE_ARG_NULL || arg->type == TRACE_ARG_EMPTY_ARRAY || arg->type == TRACE_ARG_EMPTY_OBJECT;
}

/**
 * TraceEvent:
 * @ts: timestamp in nanoseconds, in the stream's clock domain
 * @pid: process id, or %TRACE_ID_UNKNOWN
 * @tid: thread id, or %TRACE_ID_UNKNOWN
 * @name: interned name (slice name, counter name, process or thread name,
 *   ftrace event name, function name)
 * @category: interned category, 0 for none
 * @kind: a #TraceEventKind
 * @flags: #TraceEventFlags
 * @cpu: cpu the event was recorded on, or %TRACE_ID_UNKNOWN
 * @first_arg: index of the first arg in the batch's args
 * @n_args: number of args
 *
 * One trace event, a plain struct stored by value in a #TraceBatch: no
 * allocation and no object per event. Strings are ids in the pipeline's
 * #TraceStringPool; 0 is the empty string.
 */
typedef struct
{
  gint64 ts;
  gint64 pid;
  gint64 tid;
  guint32 name;
  guint32 category;
  guint16 kind;
  guint16 flags;
  gint32 cpu;
  guint32 first_arg;
  guint32 n_args;
  union
  {
    /* SLICE_*, INSTANT: duration, flow ids bound to the slice, a named
     * track (atrace N|, G|, H|), 0 for the thread's own; with
     * TRACE_EVENT_FLAG_THREAD_TIME the thread's CPU time at the event
     * and, for a complete slice, during it */
    struct
    {
      gint64 dur;
      guint64 flow_out;
      guint64 flow_in;
      guint32 track;
      gint64 thread_ts;
      gint64 thread_dur;
    } slice;
    /* ASYNC_*, FLOW_*: id and scope; with TRACE_EVENT_FLAG_THREAD_TIME
     * the recording thread's CPU time at the event (room the union has
     * anyway, for u.slice) */
    struct
    {
      guint64 id;
      guint32 scope;
      guint32 track;
      guint32 step;
      gint64 thread_ts;
    } async;
    /* COUNTER: the value, an instance id (Chrome `C` with `id`), a unit */
    struct
    {
      double value;
      guint64 id;
      guint32 unit;
    } counter;
    /* *_SORT_INDEX */
    struct
    {
      gint64 value;
    } meta;
    /* SCHED_SWITCH: the thread leaving the cpu is `tid` */
    struct
    {
      gint32 prev_tid;
      gint32 next_tid;
      gint32 prev_prio;
      gint32 next_prio;
      gint64 prev_state; /* #TraceTaskState bits, -1 unknown */
      guint32 prev_comm;
      guint32 next_comm;
    } sched_switch;
    /* SCHED_WAKEUP, SCHED_WAKING, SCHED_WAKEUP_NEW */
    struct
    {
      gint32 tid;
      gint32 prio;
      gint32 target_cpu;
      guint32 comm;
      gint32 success;
    } wakeup;
    /* SCHED_PROCESS_*, TASK_*: `comm` is the (new) name */
    struct
    {
      gint32 tid;
      gint32 prio;
      guint32 comm;
      guint32 old_comm;
      guint64 clone_flags; /* TASK_NEWTASK: e.g. TRACE_CLONE_THREAD */
    } task;
    /* CPU_FREQUENCY, CPU_IDLE */
    struct
    {
      gint32 cpu_id;
      guint32 reserved;
      gint64 state;
    } cpu;
    /* STACK_NODE: a node of a call tree; 0 is no parent */
    struct
    {
      guint64 id;
      guint64 parent_id;
    } stack_node;
    /* SAMPLE */
    struct
    {
      guint64 node_id;
      gint64 weight;
    } sample;
    /* THREAD_STATE: how long the thread stays in the state */
    struct
    {
      gint64 dur;
    } thread_state;
    /* CHROME_PHASE: the phase letter; the id (JSON `id`, `id2`; a legacy
     * TrackEvent's unscoped, global or local id) of an #TraceChromeIdKind
     * and its scope (0 for none); with TRACE_EVENT_FLAG_THREAD_TIME the
     * recording thread's CPU time at the event */
    struct
    {
      guint64 id;
      gint64 thread_ts;
      guint32 scope;
      guint8 phase;
      guint8 id_kind;
    } chrome_phase;
    /* CLOCK_MARKER */
    struct
    {
      guint32 marker;
      guint32 domain;
      gint64 other_ts;
      gint64 issue_ts;
      guint32 sync_id;
    } clock;
  } u;
} TraceEvent;

#define TRACE_TYPE_EVENT_GROUP (trace_event_group_get_type ())
TRACE_AVAILABLE_IN_ALL
GType trace_event_group_get_type (void) G_GNUC_CONST;
#define TRACE_TYPE_CLOCK_DOMAIN (trace_clock_domain_get_type ())
TRACE_AVAILABLE_IN_ALL
GType trace_clock_domain_get_type (void) G_GNUC_CONST;

TRACE_AVAILABLE_IN_ALL
const char *trace_event_kind_to_string (TraceEventKind kind);
TRACE_AVAILABLE_IN_ALL
TraceEventGroup trace_event_kind_get_group (TraceEventKind kind);

/**
 * trace_time_add_saturated:
 * @ts: a time, in nanoseconds
 * @offset: nanoseconds to add, may be negative
 *
 * Adds without overflow: a time read from an input plus an offset a user
 * or another input gives can pass the ends of gint64, which C leaves
 * undefined.
 *
 * Returns: @ts + @offset, or %G_MAXINT64 / %G_MININT64 where the sum
 *   would pass them
 */
static inline gint64
trace_time_add_saturated (gint64 ts,
                          gint64 offset)
{
  if (offset > 0 && ts > G_MAXINT64 - offset)
    return G_MAXINT64;
  if (offset < 0 && ts < G_MININT64 - offset)
    return G_MININT64;
  return ts + offset;
}
TRACE_AVAILABLE_IN_ALL
const char *trace_clock_domain_to_string (TraceClockDomain domain);
TRACE_AVAILABLE_IN_ALL
TraceClockDomain trace_clock_domain_from_string (const char *name);

/**
 * trace_event_is_slice_like:
 * @kind: a #TraceEventKind
 *
 * Returns: whether @kind opens, closes or is a slice on a thread
 */
static inline gboolean
trace_event_is_slice_like (guint kind)
{
  return kind >= TRACE_EVENT_SLICE_BEGIN && kind <= TRACE_EVENT_INSTANT;
}

/**
 * trace_event_binds_flows:
 * @kind: a #TraceEventKind
 *
 * Returns: whether an event of @kind may bind flows: a thread slice
 *   (its first pair in `u.slice.flow_out`/`flow_in`, the others in its
 *   args) or an async event (all in its args), both with
 *   trace_batch_add_slice_flow()
 */
static inline gboolean
trace_event_binds_flows (guint kind)
{
  return kind >= TRACE_EVENT_SLICE_BEGIN && kind <= TRACE_EVENT_ASYNC_INSTANT;
}

/**
 * trace_event_get_thread_ts:
 * @ev: a #TraceEvent
 *
 * Returns: the CPU time (ns) of the thread that recorded @ev, at @ev,
 *   or -1 when @ev carries none (%TRACE_EVENT_FLAG_THREAD_TIME unset, a
 *   kind that has no room for it, or a complete slice that gives only
 *   its thread duration)
 */
static inline gint64
trace_event_get_thread_ts (const TraceEvent *ev)
{
  if (!(ev->flags & TRACE_EVENT_FLAG_THREAD_TIME))
    return -1;
  if (trace_event_is_slice_like (ev->kind))
    return ev->u.slice.thread_ts;
  if (ev->kind >= TRACE_EVENT_ASYNC_BEGIN && ev->kind <= TRACE_EVENT_FLOW_END)
    return ev->u.async.thread_ts;
  if (ev->kind == TRACE_EVENT_CHROME_PHASE)
    return ev->u.chrome_phase.thread_ts;
  return -1;
}

G_END_DECLS
