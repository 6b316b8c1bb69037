/* tracepipe - in-band control events: stream-start and EOS
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <trace/traceevent.h>

G_BEGIN_DECLS

/**
 * TraceStreamEventType:
 * @TRACE_STREAM_EVENT_STREAM_START: sticky; what the stream is. It may be
 *   sent again when a source learns more (a clock domain found late)
 * @TRACE_STREAM_EVENT_EOS: no more data on this pad
 *
 * The control events that travel in order with the batches.
 */
typedef enum
{
  TRACE_STREAM_EVENT_STREAM_START,
  TRACE_STREAM_EVENT_EOS,
} TraceStreamEventType;

/**
 * TraceStreamFlags:
 * @TRACE_STREAM_FLAG_NONE: no flag
 * @TRACE_STREAM_FLAG_MAIN_THREADS_NAMED: a process's main thread is the
 *   thread its name marks as one (Chrome's `CrBrowserMain`,
 *   `CrRendererMain`, `CrGpuMain`…), not the thread whose tid is the pid,
 *   and the names may come anywhere in the stream (Chrome JSON's
 *   metadata events, Perfetto's descriptors)
 * @TRACE_STREAM_FLAG_JSON_ORDER: the events are a Chrome JSON trace's, in
 *   the order of its file and in the forms it gave them (B/E pairs, flow
 *   ids on slices): trace_processor reads a JSON trace in an order of its
 *   own, which a writer follows to nest slices as it did
 * @TRACE_STREAM_FLAG_SEQUENCE_ORDER: the events come in the order of a
 *   Perfetto trace's file, each producer's chunks in turn, not in time
 *   order (trace_processor sorts them by time)
 * @TRACE_STREAM_FLAG_TYPED_KERNEL_EVENTS: the kernel events were decoded
 *   from typed protobuf messages (Perfetto's ftrace events), not parsed
 *   from text: those trace_processor reads only typed (interrupt entries
 *   and exits) may be written typed again
 * @TRACE_STREAM_FLAG_NATIVE_THREAD_TIME: the slices' thread time came from
 *   thread-time counter tracks (Perfetto's), which trace_processor shows;
 *   a Chrome JSON trace's `tts` makes no such track
 *
 * Facts about a stream that elements downstream act on. The sources that
 * know them set them; a merge of streams (clock-sync) keeps
 * %TRACE_STREAM_FLAG_MAIN_THREADS_NAMED when any input has it, and the
 * flags of %TRACE_STREAM_FLAGS_OF_ORIGIN only when every input has them.
 */
typedef enum /*< flags >*/
{
  TRACE_STREAM_FLAG_NONE = 0,
  TRACE_STREAM_FLAG_MAIN_THREADS_NAMED = 1 << 0,
  TRACE_STREAM_FLAG_JSON_ORDER = 1 << 1,
  TRACE_STREAM_FLAG_SEQUENCE_ORDER = 1 << 2,
  TRACE_STREAM_FLAG_TYPED_KERNEL_EVENTS = 1 << 3,
  TRACE_STREAM_FLAG_NATIVE_THREAD_TIME = 1 << 4,
} TraceStreamFlags;

/**
 * TRACE_STREAM_FLAGS_OF_ORIGIN:
 *
 * The flags that say how a stream was recorded and read (its order, its
 * kernel events, its thread time): they hold of a merged stream only
 * when they hold of each input.
 */
#define TRACE_STREAM_FLAGS_OF_ORIGIN                                                                         \
  (TRACE_STREAM_FLAG_JSON_ORDER | TRACE_STREAM_FLAG_SEQUENCE_ORDER | TRACE_STREAM_FLAG_TYPED_KERNEL_EVENTS | \
   TRACE_STREAM_FLAG_NATIVE_THREAD_TIME)

#define TRACE_TYPE_STREAM_FLAGS (trace_stream_flags_get_type ())
TRACE_AVAILABLE_IN_ALL
GType trace_stream_flags_get_type (void) G_GNUC_CONST;

/**
 * TraceStreamInfo:
 * @format: the input format (`ftrace`, `systrace-html`, `chrome-json`, …)
 * @location: (nullable): where the stream comes from, as the user gave it
 * @clock_domain: the clock of the stream's timestamps
 * @clock_source: (nullable): how the domain was learnt (`default`,
 *   `# clock_type=`, `metadata.clock-domain`, …)
 * @metadata: (nullable): what the input says of the whole trace, as the
 *   text of a JSON object (Chrome JSON's top-level `"metadata"`); sinks
 *   with a place for it write it back
 * @flags: facts about the stream
 *
 * What a stream is, carried by its stream-start event.
 */
typedef struct
{
  char *format;
  char *location;
  TraceClockDomain clock_domain;
  char *clock_source;
  char *metadata;
  TraceStreamFlags flags;
} TraceStreamInfo;

/**
 * TraceStreamEvent:
 * @type: a #TraceStreamEventType
 * @info: (nullable): for stream-start, the stream's description
 *
 * A ref-counted control event. Stream-start is sticky: both pads of a
 * link keep the last one (trace_pad_get_sticky_stream_start()), and tee
 * sends it to a branch requested while the stream runs.
 */
typedef struct
{
  TraceStreamEventType type;
  TraceStreamInfo info;

  /*< private >*/
  gint ref_count;
} TraceStreamEvent;

#define TRACE_TYPE_STREAM_EVENT (trace_stream_event_get_type ())
TRACE_AVAILABLE_IN_ALL
GType trace_stream_event_get_type (void) G_GNUC_CONST;

TRACE_AVAILABLE_IN_ALL
TraceStreamEvent *trace_stream_event_new_stream_start (const char *format,
                                                       const char *location,
                                                       TraceClockDomain domain,
                                                       const char *clock_source);
TRACE_AVAILABLE_IN_ALL
TraceStreamEvent *trace_stream_event_new_eos (void);
TRACE_AVAILABLE_IN_ALL
TraceStreamEvent *trace_stream_event_ref (TraceStreamEvent *event);
TRACE_AVAILABLE_IN_ALL
void trace_stream_event_unref (TraceStreamEvent *event);
TRACE_AVAILABLE_IN_ALL
const char *trace_stream_event_type_to_string (TraceStreamEventType type);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TraceStreamEvent, trace_stream_event_unref)

G_END_DECLS
