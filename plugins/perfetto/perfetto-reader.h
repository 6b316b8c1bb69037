/* tracepipe - the Perfetto reader: perfetto-src's engine
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>
#include <trace/trace.h>

G_BEGIN_DECLS

/**
 * PerfettoReaderStats:
 * @bytes: bytes consumed
 * @packets: TracePackets read (including those inside compressed packets)
 * @events: events produced
 * @unknown_packets: packets with no payload the reader understands
 *   (counted and skipped)
 * @unknown_fields: top-level records other than `Trace.packet`
 * @truncated_bytes: bytes of a last record cut short by the end of the
 *   input (a warning: the file was cut while being written)
 * @truncated_offset: where that record began
 * @no_incremental_state: packets that need interned data of a sequence
 *   whose state was never cleared (as trace_processor, skipped)
 * @unknown_track: TrackEvents on a track no descriptor declared
 * @unknown_iid: interned ids not found in their table
 * @unsupported_events: TrackEvents, legacy phases or ftrace events the
 *   event model cannot carry
 * @extra_flows: flow ids the event model cannot bind (`skipped-flow-ids`):
 *   those of a thread or async slice past the %TRACE_SLICE_MAX_FLOWS it
 *   binds (these also in @unsupported_events)
 * @other_clock: packets timestamped on a clock no snapshot ties to the
 *   stream's (kept as they are)
 * @atrace_markers: ftrace `print` events read as atrace markers (slices,
 *   counters, async events), as ftrace-src reads `tracing_mark_write`
 * @opaque_ftrace: ftrace events of kinds the .proto subset does not
 *   declare, carried on as opaque bytes (not dropped)
 * @unread_fields: fields the subset does not declare in packets and
 *   ftrace events that are read (not carried; by kind:
 *   perfetto_reader_foreach_packet_kind())
 * @late_system_info: `system_info` packets naming another kernel version
 *   after sched switches were read (those were read with the version
 *   before; trace_processor reads all with the last one)
 * @opaque_packets: packets of kinds the .proto subset does not declare,
 *   carried on as records (not dropped; by kind:
 *   perfetto_reader_foreach_packet_kind())
 * @no_cpu_events: ftrace events of bundles that name no cpu, skipped as
 *   trace_processor skips those bundles (`ftrace_bundle_tokenizer_errors`)
 * @dropped_sequences: sequences whose state (interned data, defaults,
 *   thread) was dropped because more than 65536 held state at once (the
 *   least recently used first); their later packets that need it are
 *   skipped (@no_incremental_state)
 *
 * What a #PerfettoReader read and what it could not use.
 */
typedef struct
{
  guint64 bytes;
  guint64 packets;
  guint64 events;
  guint64 unknown_packets;
  guint64 unknown_fields;
  guint64 truncated_bytes;
  guint64 truncated_offset;
  guint64 no_incremental_state;
  guint64 unknown_track;
  guint64 unknown_iid;
  guint64 unsupported_events;
  guint64 extra_flows;
  guint64 other_clock;
  guint64 atrace_markers;
  guint64 opaque_ftrace;
  guint64 no_cpu_events;
  guint64 opaque_packets;
  guint64 late_system_info;
  guint64 unread_fields;
  guint64 dropped_sequences;
} PerfettoReaderStats;

/* Packets of one kind the subset does not declare. */
typedef struct
{
  guint64 carried;
  guint64 skipped;
  guint64 unread_fields; /* of packets of a kind that is read */
} PerfettoPacketKindCount;

typedef void (*PerfettoPacketKindFunc) (guint32 field,
                                        const PerfettoPacketKindCount *count,
                                        gpointer user_data);

typedef struct _PerfettoReader PerfettoReader;

PerfettoReader *perfetto_reader_new (GInputStream *in,
                                     const char *location,
                                     TraceStringPool *pool);
gboolean perfetto_reader_read_batch (PerfettoReader *r,
                                     TraceBatch **out,
                                     GError **error);
TraceClockDomain perfetto_reader_get_clock_domain (PerfettoReader *r);
char *perfetto_reader_get_metadata (PerfettoReader *r);
void perfetto_reader_get_stats (PerfettoReader *r,
                                PerfettoReaderStats *stats);
void perfetto_reader_foreach_packet_kind (PerfettoReader *r,
                                          PerfettoPacketKindFunc func,
                                          gpointer user_data);
char *perfetto_reader_describe_unsupported (PerfettoReader *r);
void perfetto_reader_free (PerfettoReader *r);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PerfettoReader, perfetto_reader_free)

G_END_DECLS
