/* tracepipe - what the Perfetto writer and reader share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <trace/trace.h>

#include "trace.pb-c.h"

G_BEGIN_DECLS

typedef Perfetto__Protos__TracePacket PfPacket;
typedef Perfetto__Protos__TrackEvent PfTrackEvent;
typedef Perfetto__Protos__TrackDescriptor PfTrackDescriptor;
typedef Perfetto__Protos__DebugAnnotation PfAnnotation;
typedef Perfetto__Protos__InternedData PfInternedData;
typedef Perfetto__Protos__FtraceEvent PfFtraceEvent;
typedef Perfetto__Protos__FtraceEventBundle PfFtraceBundle;

/* The sequence flags of TracePacket. */
#define PF_SEQ_CLEARED PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_INCREMENTAL_STATE_CLEARED
#define PF_SEQ_NEEDS PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_NEEDS_INCREMENTAL_STATE

/* Perfetto's builtin clock ids. */
#define PF_CLOCK_REALTIME 1
#define PF_CLOCK_MONOTONIC 3
#define PF_CLOCK_MONOTONIC_RAW 5
#define PF_CLOCK_BOOTTIME 6

/* The name of the track global-scope instants go to. */
#define PF_GLOBAL_TRACK_NAME "Global events"
/* The debug annotation that carries an async step's name. */
#define PF_STEP_ANNOTATION "step"
/* What a counter track's name appends for a counter instance id, as
 * trace_processor's JSON importer names them. */
#define PF_COUNTER_ID_SEPARATOR " id: "
/* The prefix of atrace clock-sync markers written as ftrace print. */
#define PF_CLOCK_SYNC_PREFIX "trace_event_clock_sync: "

/* The largest packet the reader accepts. */
#define PF_MAX_PACKET_SIZE (256u * 1024 * 1024)

/* The key of the writer's and reader's tables: up to four numbers. */
typedef struct
{
  gint64 a, b, c, d;
} PfKey;

guint pf_key_hash (gconstpointer key);
gboolean pf_key_equal (gconstpointer a,
                       gconstpointer b);

guint32 perfetto_clock_domain_to_builtin (TraceClockDomain domain);
TraceClockDomain perfetto_builtin_to_clock_domain (guint32 clock_id);

/* Typed ftrace events reached through TRACE_EVENT_FTRACE (name + args):
 * which arg (as ftrace prints it) goes to which field of which message. */
typedef enum
{
  PF_FTRACE_NUMBER, /* an integer field */
  PF_FTRACE_STRING, /* a string field */
  PF_FTRACE_KSYM,   /* a kernel symbol: interned in kernel_symbols */
} PfFtraceValueKind;

typedef struct
{
  const char *key;     /* the arg key ftrace text uses */
  const char *alt_key; /* another spelling accepted on input, or NULL */
  const char *field;   /* the field of the typed message */
  PfFtraceValueKind kind;
} PfFtraceFieldMap;

#define PF_FTRACE_MAX_FIELDS 8

typedef struct
{
  const char *name;    /* the ftrace event name */
  guint32 event_field; /* its field number in FtraceEvent's oneof */
  const ProtobufCMessageDescriptor *descriptor;
  PfFtraceFieldMap fields[PF_FTRACE_MAX_FIELDS];
  /* resolved at first use */
  const ProtobufCFieldDescriptor *field_descs[PF_FTRACE_MAX_FIELDS];
  guint n_fields;
} PfFtraceEventMap;

const PfFtraceEventMap *perfetto_ftrace_map_by_name (const char *name);
const PfFtraceEventMap *perfetto_ftrace_map_by_field (guint32 event_field);

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
ProtobufCMessage *perfetto_oneof_get (const ProtobufCMessage *msg,
                                      guint32 *field_number);

G_END_DECLS
