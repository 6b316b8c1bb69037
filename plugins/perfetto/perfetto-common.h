/* tracepipe - what the Perfetto reader and writer share: the .proto
 * subset's names, clock ids, the tables' key, the typed ftrace events,
 * fields by descriptor, kernel task states and packet kinds
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <string.h>

#include <gio/gio.h>
#include <trace/trace.h>

#include "trace.pb-c.h"

G_BEGIN_DECLS

typedef Perfetto__Protos__TracePacket PerfettoPacket;
typedef Perfetto__Protos__TrackEvent PerfettoTrackEvent;
typedef Perfetto__Protos__TrackDescriptor PerfettoTrackDescriptor;
typedef Perfetto__Protos__DebugAnnotation PerfettoAnnotation;
typedef Perfetto__Protos__InternedData PerfettoInternedData;
typedef Perfetto__Protos__FtraceEvent PerfettoFtraceEvent;
typedef Perfetto__Protos__FtraceEventBundle PerfettoFtraceBundle;

/* The sequence flags of TracePacket. */
#define PERFETTO_SEQ_CLEARED PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_INCREMENTAL_STATE_CLEARED
#define PERFETTO_SEQ_NEEDS PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_NEEDS_INCREMENTAL_STATE

/* Perfetto's builtin clock ids. */
#define PERFETTO_CLOCK_REALTIME 1
#define PERFETTO_CLOCK_MONOTONIC 3
#define PERFETTO_CLOCK_MONOTONIC_RAW 5
#define PERFETTO_CLOCK_BOOTTIME 6
/* BUILTIN_CLOCK_TRACE_FILE: the file's own timeline, of no known clock. */
#define PERFETTO_CLOCK_TRACE_FILE 11

/* The name of the track global-scope instants go to. */
#define PERFETTO_GLOBAL_TRACK_NAME "Global events"
/* The debug annotation that carries an async step's name. */
#define PERFETTO_STEP_ANNOTATION "step"

/* The PerfSample fields a sample event carries as integer args, by
 * these names: a sample with any of them (or a cpu) is written back as
 * a PerfSample, whose timebase count makes trace_processor's per-cpu
 * counter. */
typedef enum
{
  PERFETTO_PERF_TIMEBASE_COUNT,
  PERFETTO_PERF_CPU_MODE,
  PERFETTO_PERF_UNWIND_ERROR,
  PERFETTO_PERF_SKIPPED_REASON,
  PERFETTO_PERF_N_ARGS
} PerfettoPerfArg;

extern const char *const perfetto_perf_arg_names[PERFETTO_PERF_N_ARGS];
/* The string arg of a PerfSample's event naming its sequence's timebase
 * (perfetto-perf-timebase.c), when the sequence had defaults. */
#define PERFETTO_PERF_TIMEBASE_ARG "timebase"

void perfetto_timebase_name (const Perfetto__Protos__PerfEvents__Timebase *timebase,
                             GString *out);
void perfetto_timebase_init_named (Perfetto__Protos__PerfEvents__Timebase *timebase,
                                   Perfetto__Protos__PerfEvents__Tracepoint *tracepoint,
                                   const char *name);
/* What a counter track's name appends for a counter instance id, as
 * trace_processor's JSON importer names them. */
#define PERFETTO_COUNTER_ID_SEPARATOR " id: "
/* An ftrace event of a kind the .proto subset does not declare travels
 * as a FTRACE event named PREFIX<field number>, with these two args: the
 * FtraceEvent field number and the payload's bytes in base64. */
#define PERFETTO_OPAQUE_FTRACE_PREFIX "perfetto_ftrace_"

#define PERFETTO_OPAQUE_FIELD_ARG "perfetto.field"
#define PERFETTO_OPAQUE_BYTES_ARG "perfetto.bytes"
/* Records carrying a packet of a kind the subset does not declare. */
#define PERFETTO_OPAQUE_PACKET_PREFIX "perfetto_packet_"
/* The largest such payload carried (base64 in the string pool, 4/3 of
 * it); larger ones are counted as skipped. */
#define PERFETTO_MAX_OPAQUE_PACKET (16u << 20)
/* The kernel record of when a cpu's ring buffer holds all its events
 * (the first bundle's previous_bundle_end_timestamp): a FTRACE event of
 * that cpu at that time, with no args. */
#define PERFETTO_CPU_DATA_START "perfetto_cpu_data_start"
/* The prefix of atrace clock-sync markers written as ftrace print. */
#define PERFETTO_CLOCK_SYNC_PREFIX "trace_event_clock_sync: "

/* The key of the writer's and reader's tables: up to four numbers. */
typedef struct
{
  gint64 a, b, c, d;
} PerfettoKey;

guint perfetto_key_hash (gconstpointer key);
gboolean perfetto_key_equal (gconstpointer a,
                             gconstpointer b);

guint32 perfetto_clock_domain_to_builtin (TraceClockDomain domain);
TraceClockDomain perfetto_builtin_to_clock_domain (guint32 clock_id);

/* Typed ftrace events reached through TRACE_EVENT_FTRACE (name + args):
 * which arg (as ftrace prints it) goes to which field of which message. */
typedef enum
{
  PERFETTO_FTRACE_NUMBER, /* an integer field */
  PERFETTO_FTRACE_STRING, /* a string field */
  PERFETTO_FTRACE_KSYM,   /* a kernel symbol: interned in kernel_symbols */
} PerfettoFtraceValueKind;

typedef struct
{
  const char *key;     /* the arg key ftrace text uses */
  const char *alt_key; /* another spelling accepted on input, or NULL */
  const char *field;   /* the field of the typed message */
  PerfettoFtraceValueKind kind;
} PerfettoFtraceFieldMap;

#define PERFETTO_FTRACE_MAX_FIELDS 8

typedef struct
{
  const char *name;    /* the ftrace event name */
  guint32 event_field; /* its field number in FtraceEvent's oneof */
  const ProtobufCMessageDescriptor *descriptor;
  PerfettoFtraceFieldMap fields[PERFETTO_FTRACE_MAX_FIELDS];
  /* trace_processor reads the typed message only (not the text line):
   * written typed only for a stream that came from Perfetto */
  gboolean proto_only;
  /* resolved at first use */
  const ProtobufCFieldDescriptor *field_descs[PERFETTO_FTRACE_MAX_FIELDS];
  guint n_fields;
} PerfettoFtraceEventMap;

const PerfettoFtraceEventMap *perfetto_ftrace_map_by_name (const char *name);
const PerfettoFtraceEventMap *perfetto_ftrace_map_by_field (guint32 event_field);
const PerfettoFtraceEventMap *perfetto_ftrace_map_for_writer (const char *name,
                                                              gboolean proto_kernel_events);

void perfetto_message_set_int (ProtobufCMessage *msg,
                               const ProtobufCFieldDescriptor *field,
                               gint64 value);
void perfetto_message_set_string (ProtobufCMessage *msg,
                                  const ProtobufCFieldDescriptor *field,
                                  const char *value);
gboolean perfetto_message_get_int (const ProtobufCMessage *msg,
                                   const ProtobufCFieldDescriptor *field,
                                   gint64 *value);
const char *perfetto_message_get_string (const ProtobufCMessage *msg,
                                         const ProtobufCFieldDescriptor *field);
void perfetto_oneof_set (ProtobufCMessage *msg,
                         guint32 field_number,
                         ProtobufCMessage *value);
guint8 *perfetto_pack_length_delimited (const ProtobufCMessage *msg,
                                        gsize *out);
ProtobufCMessage *perfetto_oneof_get (const ProtobufCMessage *msg,
                                      guint32 *field_number);

/* perfetto-kernel-state.c */
guint32 perfetto_kernel_version (const char *sysname,
                                 const char *release);
gint64 perfetto_task_state_from_raw (gint64 raw,
                                     guint32 version);
gint64 perfetto_task_state_to_raw (gint64 state,
                                   guint32 version);
guint32 perfetto_system_info_version (const Perfetto__Protos__SystemInfo *info);

/* perfetto-packet-kinds.c */
const char *perfetto_packet_kind_name (guint32 field,
                                       char *buf,
                                       gsize size);
gboolean perfetto_packet_kind_carries_unread (guint32 field);

G_END_DECLS
