/* tracepipe - what the Perfetto writer and reader share: clock ids, the
 * table of typed ftrace events, and field access through protobuf-c's
 * descriptors (so that one table drives both writing and reading).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-common.h"

#include <string.h>

guint
perfetto_key_hash (gconstpointer key)
{
  const PerfettoKey *k = key;
  guint64 h = (guint64) k->a * 0x9E3779B97F4A7C15ull;

  h ^= (guint64) k->b + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
  h ^= (guint64) k->c + 0x85EBCA77C2B2AE63ull + (h << 6) + (h >> 2);
  h ^= (guint64) k->d + 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
  return (guint) (h ^ (h >> 32));
}

gboolean
perfetto_key_equal (gconstpointer a,
                    gconstpointer b)
{
  return memcmp (a, b, sizeof (PerfettoKey)) == 0;
}

/**
 * perfetto_clock_domain_to_builtin:
 * @domain: a #TraceClockDomain
 *
 * Returns: the Perfetto builtin clock of @domain. An unknown clock is
 *   BUILTIN_CLOCK_TRACE_FILE, the file's own timeline, which
 *   trace_processor ties to no other clock but the trace's, as it does a
 *   JSON trace (and perfetto_builtin_to_clock_domain() reads it back as
 *   unknown). The other domains Perfetto has no builtin clock for (ftrace
 *   local, raw counters) are written as BOOTTIME, which is what
 *   trace_processor assumes for ftrace text.
 */
guint32
perfetto_clock_domain_to_builtin (TraceClockDomain domain)
{
  switch (domain)
    {
    case TRACE_CLOCK_MONOTONIC:
      return PERFETTO_CLOCK_MONOTONIC;
    case TRACE_CLOCK_MONOTONIC_RAW:
      return PERFETTO_CLOCK_MONOTONIC_RAW;
    case TRACE_CLOCK_REALTIME:
      return PERFETTO_CLOCK_REALTIME;
    case TRACE_CLOCK_UNKNOWN:
      return PERFETTO_CLOCK_TRACE_FILE;
    default:
      return PERFETTO_CLOCK_BOOTTIME;
    }
}

/**
 * perfetto_builtin_to_clock_domain:
 * @clock_id: a Perfetto clock id
 *
 * Returns: the domain, %TRACE_CLOCK_UNKNOWN for clocks the event model
 *   has no domain for
 */
TraceClockDomain
perfetto_builtin_to_clock_domain (guint32 clock_id)
{
  switch (clock_id)
    {
    case 1: /* REALTIME */
    case 2: /* REALTIME_COARSE */
      return TRACE_CLOCK_REALTIME;
    case 3: /* MONOTONIC */
    case 4: /* MONOTONIC_COARSE */
      return TRACE_CLOCK_MONOTONIC;
    case 5:
      return TRACE_CLOCK_MONOTONIC_RAW;
    case 6:
      return TRACE_CLOCK_BOOTTIME;
    default:
      return TRACE_CLOCK_UNKNOWN;
    }
}

#define NUM PERFETTO_FTRACE_NUMBER
#define STR PERFETTO_FTRACE_STRING
#define KSYM PERFETTO_FTRACE_KSYM
#define DESC(type) &perfetto__protos__##type##_ftrace_event__descriptor

/* Arg keys are the ones the kernel prints (and trace_processor's systrace
 * parser reads); the fields are the typed messages' own. */
static PerfettoFtraceEventMap ftrace_maps[] = {
  { "sched_blocked_reason", 18, DESC (sched_blocked_reason), { { "pid", NULL, "pid", NUM }, { "iowait", "io_wait", "io_wait", NUM }, { "caller", NULL, "caller", KSYM } } },
  { "cpu_frequency_limits", 12, DESC (cpu_frequency_limits), { { "min_freq", "min", "min_freq", NUM }, { "max_freq", "max", "max_freq", NUM }, { "cpu_id", NULL, "cpu_id", NUM } } },
  { "clock_enable", 14, DESC (clock_enable), { { "name", NULL, "name", STR }, { "state", NULL, "state", NUM }, { "cpu_id", NULL, "cpu_id", NUM } } },
  { "clock_disable", 15, DESC (clock_disable), { { "name", NULL, "name", STR }, { "state", NULL, "state", NUM }, { "cpu_id", NULL, "cpu_id", NUM } } },
  { "clock_set_rate", 16, DESC (clock_set_rate), { { "name", NULL, "name", STR }, { "state", NULL, "state", NUM }, { "cpu_id", NULL, "cpu_id", NUM } } },
  { "binder_transaction", 50, DESC (binder_transaction), { { "transaction", "debug_id", "debug_id", NUM }, { "dest_node", "target_node", "target_node", NUM }, { "dest_proc", "to_proc", "to_proc", NUM }, { "dest_thread", "to_thread", "to_thread", NUM }, { "reply", NULL, "reply", NUM }, { "flags", NULL, "flags", NUM }, { "code", NULL, "code", NUM } } },
  { "binder_transaction_received", 51, DESC (binder_transaction_received), { { "transaction", "debug_id", "debug_id", NUM } } },
  { "binder_lock", 53, DESC (binder_lock), { { "tag", NULL, "tag", STR } } },
  { "binder_locked", 54, DESC (binder_locked), { { "tag", NULL, "tag", STR } } },
  { "binder_unlock", 55, DESC (binder_unlock), { { "tag", NULL, "tag", STR } } },
  { "binder_transaction_alloc_buf", 323, DESC (binder_transaction_alloc_buf), { { "transaction", "debug_id", "debug_id", NUM }, { "data_size", NULL, "data_size", NUM }, { "offsets_size", NULL, "offsets_size", NUM }, { "extra_buffers_size", NULL, "extra_buffers_size", NUM } } },
  { "binder_command", 485, DESC (binder_command), { { "cmd", NULL, "cmd", NUM } } },
  { "binder_return", 486, DESC (binder_return), { { "cmd", NULL, "cmd", NUM } } },
  { "workqueue_execute_start", 58, DESC (workqueue_execute_start), { { "work", NULL, "work", NUM }, { "function", NULL, "function", KSYM } } },
  { "workqueue_execute_end", 57, DESC (workqueue_execute_end), { { "work", NULL, "work", NUM }, { "function", NULL, "function", KSYM } } },
  { "thermal_temperature", 341, DESC (thermal_temperature), { { "thermal_zone", NULL, "thermal_zone", STR }, { "id", NULL, "id", NUM }, { "temp_prev", NULL, "temp_prev", NUM }, { "temp", NULL, "temp", NUM } } },
  { "cdev_update", 342, DESC (cdev_update), { { "type", NULL, "type", STR }, { "target", NULL, "target", NUM } } },
  { "rss_stat", 313, DESC (rss_stat), { { "member", NULL, "member", NUM }, { "size", NULL, "size", NUM }, { "curr", NULL, "curr", NUM }, { "mm_id", NULL, "mm_id", NUM } } },
  { "print", 3, DESC (print), { { "buf", NULL, "buf", STR }, { "ip", NULL, "ip", NUM } } },
  /* The kernel prints `irq=3 name=timer`, `irq=3 ret=handled` (the typed
   * field is 1 or 0), `vec=1 [action=TIMER]`; `handler` it never prints. */
  { "irq_handler_entry", 36, DESC (irq_handler_entry), { { "irq", NULL, "irq", NUM }, { "name", NULL, "name", STR }, { "handler", NULL, "handler", NUM } }, TRUE },
  { "irq_handler_exit", 37, DESC (irq_handler_exit), { { "irq", NULL, "irq", NUM }, { "ret", NULL, "ret", NUM } }, TRUE },
  { "softirq_entry", 24, DESC (softirq_entry), { { "vec", NULL, "vec", NUM } }, TRUE },
  { "softirq_exit", 25, DESC (softirq_exit), { { "vec", NULL, "vec", NUM } }, TRUE },
  { "funcgraph_entry", 437, DESC (funcgraph_entry), { { "depth", NULL, "depth", NUM }, { "func", NULL, "func", KSYM } }, TRUE },
  { "funcgraph_exit", 438, DESC (funcgraph_exit), { { "calltime", NULL, "calltime", NUM }, { "depth", NULL, "depth", NUM }, { "func", NULL, "func", KSYM }, { "overrun", NULL, "overrun", NUM }, { "rettime", NULL, "rettime", NUM } }, TRUE },
  { "suspend_resume", 113, DESC (suspend_resume), { { "action", NULL, "action", STR }, { "val", NULL, "val", NUM }, { "start", NULL, "start", NUM } }, TRUE },
  { "wakeup_source_activate", 404, DESC (wakeup_source_activate), { { "name", NULL, "name", STR }, { "state", NULL, "state", NUM } }, TRUE },
  { "wakeup_source_deactivate", 405, DESC (wakeup_source_deactivate), { { "name", NULL, "name", STR }, { "state", NULL, "state", NUM } }, TRUE },
  { "gpu_frequency", 332, DESC (gpu_frequency), { { "gpu_id", NULL, "gpu_id", NUM }, { "state", NULL, "state", NUM } }, TRUE },
  /* Vendor trace points the kernel prints as atrace (`C|237|name|0`):
   * their fields under their own names. */
  { "g2d_tracing_mark_write", 349, DESC (g2d_tracing_mark_write), { { "pid", NULL, "pid", NUM }, { "name", NULL, "name", STR }, { "type", NULL, "type", NUM }, { "value", NULL, "value", NUM } }, TRUE },
  { "dpu_tracing_mark_write", 348, DESC (dpu_tracing_mark_write), { { "pid", NULL, "pid", NUM }, { "trace_name", NULL, "trace_name", STR }, { "trace_begin", NULL, "trace_begin", NUM }, { "name", NULL, "name", STR }, { "type", NULL, "type", NUM }, { "value", NULL, "value", NUM } }, TRUE },
  { "mali_tracing_mark_write", 350, DESC (mali_tracing_mark_write), { { "name", NULL, "name", STR }, { "pid", NULL, "pid", NUM }, { "type", NULL, "type", NUM }, { "value", NULL, "value", NUM } }, TRUE },
  { "lwis_tracing_mark_write", 467, DESC (lwis_tracing_mark_write), { { "lwis_name", NULL, "lwis_name", STR }, { "type", NULL, "type", NUM }, { "pid", NULL, "pid", NUM }, { "func_name", NULL, "func_name", STR }, { "value", NULL, "value", NUM } }, TRUE },
  { "sde_tracing_mark_write", 333, DESC (sde_tracing_mark_write), { { "pid", NULL, "pid", NUM }, { "trace_name", NULL, "trace_name", STR }, { "trace_type", NULL, "trace_type", NUM }, { "value", NULL, "value", NUM }, { "trace_begin", NULL, "trace_begin", NUM } }, TRUE },
  { "samsung_tracing_mark_write", 484, DESC (samsung_tracing_mark_write), { { "pid", NULL, "pid", NUM }, { "trace_name", NULL, "trace_name", STR }, { "trace_begin", NULL, "trace_begin", NUM }, { "trace_type", NULL, "trace_type", NUM }, { "value", NULL, "value", NUM } }, TRUE },
};

#undef NUM
#undef STR
#undef KSYM
#undef DESC

static GHashTable *maps_by_name;
static GHashTable *maps_by_field;

static gpointer
ftrace_maps_init (gpointer data)
{
  maps_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  maps_by_field = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (ftrace_maps); i++)
    {
      PerfettoFtraceEventMap *map = &ftrace_maps[i];

      for (map->n_fields = 0; map->n_fields < PERFETTO_FTRACE_MAX_FIELDS; map->n_fields++)
        {
          PerfettoFtraceFieldMap *f = &map->fields[map->n_fields];

          if (f->key == NULL)
            break;
          map->field_descs[map->n_fields] =
              protobuf_c_message_descriptor_get_field_by_name (map->descriptor, f->field);
          g_assert (map->field_descs[map->n_fields] != NULL);
        }
      g_hash_table_insert (maps_by_name, (gpointer) map->name, map);
      g_hash_table_insert (maps_by_field, GUINT_TO_POINTER (map->event_field), map);
    }
  return NULL;
}

static void
ftrace_maps_ensure (void)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, ftrace_maps_init, NULL);
}

/**
 * perfetto_ftrace_map_by_name:
 * @name: an ftrace event name
 *
 * Returns: (nullable): how to write event @name as a typed message
 */
const PerfettoFtraceEventMap *
perfetto_ftrace_map_by_name (const char *name)
{
  ftrace_maps_ensure ();
  return g_hash_table_lookup (maps_by_name, name);
}

/**
 * perfetto_ftrace_map_by_field:
 * @event_field: a field number of FtraceEvent's `event` oneof
 *
 * Returns: (nullable): how to read that typed message back into args
 */
const PerfettoFtraceEventMap *
perfetto_ftrace_map_by_field (guint32 event_field)
{
  ftrace_maps_ensure ();
  return g_hash_table_lookup (maps_by_field, GUINT_TO_POINTER (event_field));
}

/**
 * perfetto_ftrace_map_for_writer:
 * @name: an ftrace event name
 * @proto_kernel_events: whether the stream came from a Perfetto trace
 *
 * trace_processor makes slices of a typed interrupt event but ignores the
 * same event as an ftrace text line: writing it typed for a stream read
 * from text would show slices the original does not have, so there it
 * goes generic (kept whole, shown as a raw ftrace event, as from text).
 *
 * Returns: (nullable): how the writer writes event @name as a typed message
 */
const PerfettoFtraceEventMap *
perfetto_ftrace_map_for_writer (const char *name,
                                gboolean proto_kernel_events)
{
  const PerfettoFtraceEventMap *map = perfetto_ftrace_map_by_name (name);

  return map && map->proto_only && !proto_kernel_events ? NULL : map;
}

static void
message_set_present (ProtobufCMessage *msg,
                     const ProtobufCFieldDescriptor *field)
{
  if (field->label == PROTOBUF_C_LABEL_OPTIONAL && field->quantifier_offset != 0)
    G_STRUCT_MEMBER (protobuf_c_boolean, msg, field->quantifier_offset) = TRUE;
}

/**
 * perfetto_message_set_int:
 * @msg: a message
 * @field: one of its optional integer fields
 * @value: the value (converted to the field's width, as C does)
 */
void
perfetto_message_set_int (ProtobufCMessage *msg,
                          const ProtobufCFieldDescriptor *field,
                          gint64 value)
{
  gpointer member = G_STRUCT_MEMBER_P (msg, field->offset);

  switch (field->type)
    {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_ENUM:
      *(gint32 *) member = (gint32) value;
      break;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
      *(guint32 *) member = (guint32) value;
      break;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
      *(gint64 *) member = value;
      break;
    case PROTOBUF_C_TYPE_BOOL:
      *(protobuf_c_boolean *) member = value != 0;
      break;
    default:
      g_return_if_reached ();
    }
  message_set_present (msg, field);
}

/**
 * perfetto_message_set_string:
 * @msg: a message
 * @field: one of its string fields
 * @value: the string; it must outlive the message (pool strings do)
 */
void
perfetto_message_set_string (ProtobufCMessage *msg,
                             const ProtobufCFieldDescriptor *field,
                             const char *value)
{
  g_return_if_fail (field->type == PROTOBUF_C_TYPE_STRING);
  G_STRUCT_MEMBER (const char *, msg, field->offset) = value;
}

/**
 * perfetto_message_get_int:
 * @msg: a message
 * @field: one of its optional integer fields
 * @value: (out): the value, widened to 64 bits
 *
 * Returns: whether the field is present
 */
gboolean
perfetto_message_get_int (const ProtobufCMessage *msg,
                          const ProtobufCFieldDescriptor *field,
                          gint64 *value)
{
  gconstpointer member = G_STRUCT_MEMBER_P (msg, field->offset);

  if (field->label == PROTOBUF_C_LABEL_OPTIONAL && field->quantifier_offset != 0 && !G_STRUCT_MEMBER (protobuf_c_boolean, msg, field->quantifier_offset))
    return FALSE;
  switch (field->type)
    {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_ENUM:
      *value = *(const gint32 *) member;
      return TRUE;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
      *value = *(const guint32 *) member;
      return TRUE;
    case PROTOBUF_C_TYPE_BOOL:
      *value = *(const protobuf_c_boolean *) member;
      return TRUE;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
      *value = *(const gint64 *) member;
      return TRUE;
    default:
      return FALSE;
    }
}

/**
 * perfetto_message_get_string:
 * @msg: a message
 * @field: one of its string fields
 *
 * Returns: (nullable): the string, %NULL when absent
 */
const char *
perfetto_message_get_string (const ProtobufCMessage *msg,
                             const ProtobufCFieldDescriptor *field)
{
  if (field->type != PROTOBUF_C_TYPE_STRING)
    return NULL;
  return G_STRUCT_MEMBER (const char *, msg, field->offset);
}

/**
 * perfetto_oneof_set:
 * @msg: a message with a oneof of messages
 * @field_number: the member to set
 * @value: the sub-message (not copied)
 */
void
perfetto_oneof_set (ProtobufCMessage *msg,
                    guint32 field_number,
                    ProtobufCMessage *value)
{
  const ProtobufCFieldDescriptor *field =
      protobuf_c_message_descriptor_get_field (msg->descriptor, field_number);

  g_return_if_fail (field != NULL && (field->flags & PROTOBUF_C_FIELD_FLAG_ONEOF));
  G_STRUCT_MEMBER (guint32, msg, field->quantifier_offset) = field_number;
  G_STRUCT_MEMBER (ProtobufCMessage *, msg, field->offset) = value;
}

/**
 * perfetto_oneof_get:
 * @msg: a message whose only oneof holds messages (FtraceEvent)
 * @field_number: (out): the member set, 0 for none
 *
 * Returns: (nullable): the sub-message of the member set
 */
ProtobufCMessage *
perfetto_oneof_get (const ProtobufCMessage *msg,
                    guint32 *field_number)
{
  const ProtobufCMessageDescriptor *desc = msg->descriptor;

  *field_number = 0;
  for (guint i = 0; i < desc->n_fields; i++)
    {
      const ProtobufCFieldDescriptor *field = &desc->fields[i];

      if (!(field->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) || field->type != PROTOBUF_C_TYPE_MESSAGE)
        continue;
      /* All members share the case member: read it once. */
      *field_number = G_STRUCT_MEMBER (guint32, msg, field->quantifier_offset);
      if (*field_number == 0)
        return NULL;
      field = protobuf_c_message_descriptor_get_field (desc, *field_number);
      if (field == NULL || field->type != PROTOBUF_C_TYPE_MESSAGE)
        return NULL;
      return G_STRUCT_MEMBER (ProtobufCMessage *, msg, field->offset);
    }
  return NULL;
}

/**
 * perfetto_pack_length_delimited:
 * @msg: a message
 * @out: (out): the number of bytes
 *
 * Packs @msg as the value of a length-delimited field: its length as a
 * varint, then its bytes (the payload form records carry packets in).
 *
 * Returns: (transfer full): the bytes
 */
guint8 *
perfetto_pack_length_delimited (const ProtobufCMessage *msg,
                                gsize *out)
{
  gsize len = protobuf_c_message_get_packed_size (msg);
  guint8 *buf = g_malloc (len + 10);
  gsize prefix = 0;

  for (guint64 v = len; prefix == 0 || v > 0; v >>= 7)
    buf[prefix++] = (guint8) ((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
  protobuf_c_message_pack (msg, buf + prefix);
  *out = prefix + len;
  return buf;
}
