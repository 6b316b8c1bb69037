/* tracepipe - Perfetto writer: the wire writer's field numbers checked
 * against protobuf-c's descriptors
 *
 * perfetto-writer-wire.c writes the hot packets field by field with the
 * numbers of perfetto-wire-fields.h. Each is checked here against the
 * descriptor protoc-c generated from protos/, and each streamed message's
 * field count against the fields the writer knows: test-perfetto-wire.c
 * runs the check, so that a .proto change fails the unit tests rather
 * than writing wrong or missing fields.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-wire.h"
#include "perfetto-wire-fields.h"

static const struct
{
  const ProtobufCMessageDescriptor *desc;
  const char *name;
  guint32 number;
} wire_numbers[] = {
  { &perfetto__protos__trace__descriptor, "packet", F_TRACE_PACKET },
  { &perfetto__protos__trace_packet__descriptor, "timestamp", F_PACKET_TIMESTAMP },
  { &perfetto__protos__trace_packet__descriptor, "trusted_packet_sequence_id", F_PACKET_SEQUENCE_ID },
  { &perfetto__protos__trace_packet__descriptor, "interned_data", F_PACKET_INTERNED_DATA },
  { &perfetto__protos__trace_packet__descriptor, "sequence_flags", F_PACKET_SEQUENCE_FLAGS },
  { &perfetto__protos__trace_packet__descriptor, "incremental_state_cleared", F_PACKET_INCREMENTAL_STATE_CLEARED },
  { &perfetto__protos__trace_packet__descriptor, "previous_packet_dropped", F_PACKET_PREVIOUS_PACKET_DROPPED },
  { &perfetto__protos__trace_packet__descriptor, "timestamp_clock_id", F_PACKET_TIMESTAMP_CLOCK_ID },
  { &perfetto__protos__trace_packet__descriptor, "trace_packet_defaults", F_PACKET_DEFAULTS },
  { &perfetto__protos__trace_packet__descriptor, "trusted_pid", F_PACKET_TRUSTED_PID },
  { &perfetto__protos__trace_packet__descriptor, "first_packet_on_sequence", F_PACKET_FIRST_ON_SEQUENCE },
  { &perfetto__protos__track_event__descriptor, "category_iids", F_TE_CATEGORY_IIDS },
  { &perfetto__protos__track_event__descriptor, "debug_annotations", F_TE_DEBUG_ANNOTATIONS },
  { &perfetto__protos__track_event__descriptor, "legacy_event", F_TE_LEGACY_EVENT },
  { &perfetto__protos__track_event__descriptor, "type", F_TE_TYPE },
  { &perfetto__protos__track_event__descriptor, "track_uuid", F_TE_TRACK_UUID },
  { &perfetto__protos__track_event__descriptor, "extra_counter_values", F_TE_EXTRA_COUNTER_VALUES },
  { &perfetto__protos__track_event__descriptor, "categories", F_TE_CATEGORIES },
  { &perfetto__protos__track_event__descriptor, "extra_counter_track_uuids", F_TE_EXTRA_COUNTER_TRACK_UUIDS },
  { &perfetto__protos__track_event__descriptor, "flow_ids_old", F_TE_FLOW_IDS_OLD },
  { &perfetto__protos__track_event__descriptor, "terminating_flow_ids_old", F_TE_TERMINATING_FLOW_IDS_OLD },
  { &perfetto__protos__track_event__descriptor, "flow_ids", F_TE_FLOW_IDS },
  { &perfetto__protos__track_event__descriptor, "terminating_flow_ids", F_TE_TERMINATING_FLOW_IDS },
  { &perfetto__protos__debug_annotation__descriptor, "dict_entries", F_DA_DICT_ENTRIES },
  { &perfetto__protos__debug_annotation__descriptor, "array_values", F_DA_ARRAY_VALUES },
  { &perfetto__protos__track_event__descriptor, "extra_double_counter_track_uuids", F_TE_EXTRA_DOUBLE_COUNTER_TRACK_UUIDS },
  { &perfetto__protos__track_event__descriptor, "extra_double_counter_values", F_TE_EXTRA_DOUBLE_COUNTER_VALUES },
  { &perfetto__protos__ftrace_event_bundle__descriptor, "cpu", F_BUNDLE_CPU },
  { &perfetto__protos__ftrace_event_bundle__descriptor, "event", F_BUNDLE_EVENT },
  { &perfetto__protos__ftrace_event_bundle__descriptor, "lost_events", F_BUNDLE_LOST_EVENTS },
  { &perfetto__protos__ftrace_event_bundle__descriptor, "compact_sched", F_BUNDLE_COMPACT_SCHED },
  { &perfetto__protos__ftrace_event_bundle__descriptor, "last_read_event_timestamp", F_BUNDLE_LAST_READ_EVENT_TIMESTAMP },
  { &perfetto__protos__ftrace_event_bundle__descriptor, "previous_bundle_end_timestamp",
    F_BUNDLE_PREVIOUS_BUNDLE_END_TIMESTAMP },
  { &perfetto__protos__ftrace_event__descriptor, "timestamp", F_FEV_TIMESTAMP },
  { &perfetto__protos__ftrace_event__descriptor, "pid", F_FEV_PID },
  { &perfetto__protos__ftrace_event__descriptor, "common_flags", F_FEV_COMMON_FLAGS },
#define PRINT_DESC &perfetto__protos__print_ftrace_event__descriptor
  { PRINT_DESC, "ip", F_PRINT_IP },
  { PRINT_DESC, "buf", F_PRINT_BUF },
#undef PRINT_DESC
#define SW_DESC &perfetto__protos__sched_switch_ftrace_event__descriptor
  { SW_DESC, "prev_comm", F_SW_PREV_COMM },
  { SW_DESC, "prev_pid", F_SW_PREV_PID },
  { SW_DESC, "prev_prio", F_SW_PREV_PRIO },
  { SW_DESC, "prev_state", F_SW_PREV_STATE },
  { SW_DESC, "next_comm", F_SW_NEXT_COMM },
  { SW_DESC, "next_pid", F_SW_NEXT_PID },
  { SW_DESC, "next_prio", F_SW_NEXT_PRIO },
#undef SW_DESC
#define WAKEUP_NUMBERS(desc)             \
  { desc, "comm", F_WK_COMM },           \
      { desc, "pid", F_WK_PID },         \
      { desc, "prio", F_WK_PRIO },       \
      { desc, "success", F_WK_SUCCESS }, \
  {                                      \
    desc, "target_cpu", F_WK_TARGET_CPU  \
  }
  WAKEUP_NUMBERS (&perfetto__protos__sched_wakeup_ftrace_event__descriptor),
  WAKEUP_NUMBERS (&perfetto__protos__sched_waking_ftrace_event__descriptor),
#undef WAKEUP_NUMBERS
#define CS_DESC &perfetto__protos__ftrace_event_bundle__compact_sched__descriptor
  { CS_DESC, "switch_timestamp", F_CS_SWITCH_TIMESTAMP },
  { CS_DESC, "switch_prev_state", F_CS_SWITCH_PREV_STATE },
  { CS_DESC, "switch_next_pid", F_CS_SWITCH_NEXT_PID },
  { CS_DESC, "switch_next_prio", F_CS_SWITCH_NEXT_PRIO },
  { CS_DESC, "intern_table", F_CS_INTERN_TABLE },
  { CS_DESC, "switch_next_comm_index", F_CS_SWITCH_NEXT_COMM_INDEX },
  { CS_DESC, "waking_timestamp", F_CS_WAKING_TIMESTAMP },
  { CS_DESC, "waking_pid", F_CS_WAKING_PID },
  { CS_DESC, "waking_target_cpu", F_CS_WAKING_TARGET_CPU },
  { CS_DESC, "waking_prio", F_CS_WAKING_PRIO },
  { CS_DESC, "waking_comm_index", F_CS_WAKING_COMM_INDEX },
  { CS_DESC, "waking_common_flags", F_CS_WAKING_COMMON_FLAGS },
#undef CS_DESC
#define LE_DESC &perfetto__protos__track_event__legacy_event__descriptor
  { LE_DESC, "name_iid", F_LE_NAME_IID },
  { LE_DESC, "phase", F_LE_PHASE },
  { LE_DESC, "duration_us", F_LE_DURATION_US },
  { LE_DESC, "thread_duration_us", F_LE_THREAD_DURATION_US },
  { LE_DESC, "unscoped_id", F_LE_UNSCOPED_ID },
  { LE_DESC, "id_scope", F_LE_ID_SCOPE },
  { LE_DESC, "bind_id", F_LE_BIND_ID },
  { LE_DESC, "local_id", F_LE_LOCAL_ID },
  { LE_DESC, "global_id", F_LE_GLOBAL_ID },
  { LE_DESC, "bind_to_enclosing", F_LE_BIND_TO_ENCLOSING },
  { LE_DESC, "flow_direction", F_LE_FLOW_DIRECTION },
  { LE_DESC, "instant_event_scope", F_LE_INSTANT_EVENT_SCOPE },
  { LE_DESC, "pid_override", F_LE_PID_OVERRIDE },
  { LE_DESC, "tid_override", F_LE_TID_OVERRIDE },
#undef LE_DESC
#define ID_DESC &perfetto__protos__interned_data__descriptor
  { ID_DESC, "event_categories", F_ID_EVENT_CATEGORIES },
  { ID_DESC, "event_names", F_ID_EVENT_NAMES },
  { ID_DESC, "debug_annotation_names", F_ID_DEBUG_ANNOTATION_NAMES },
  { ID_DESC, "function_names", F_ID_FUNCTION_NAMES },
  { ID_DESC, "mapping_paths", F_ID_MAPPING_PATHS },
  { ID_DESC, "kernel_symbols", F_ID_KERNEL_SYMBOLS },
  { ID_DESC, "debug_annotation_string_values", F_ID_DEBUG_ANNOTATION_STRING_VALUES },
#undef ID_DESC
  { &perfetto__protos__event_category__descriptor, "iid", F_NAMED_IID },
  { &perfetto__protos__event_category__descriptor, "name", F_NAMED_NAME },
  { &perfetto__protos__event_name__descriptor, "iid", F_NAMED_IID },
  { &perfetto__protos__event_name__descriptor, "name", F_NAMED_NAME },
  { &perfetto__protos__debug_annotation_name__descriptor, "iid", F_NAMED_IID },
  { &perfetto__protos__debug_annotation_name__descriptor, "name", F_NAMED_NAME },
  { &perfetto__protos__interned_string__descriptor, "iid", F_IS_IID },
  { &perfetto__protos__interned_string__descriptor, "str", F_IS_STR },
};

/* The fields each streamed message has, all or outside its oneofs: a
 * field added to a .proto (and not here) turns streaming off rather than
 * being dropped. A new oneof member of TracePacket or FtraceEvent needs
 * nothing: other payloads go to protobuf-c and so do typed ftrace events
 * other than the four streamed. */
static const struct
{
  const ProtobufCMessageDescriptor *desc;
  gboolean outside_oneofs;
  guint n_fields;
} wire_field_counts[] = {
  { &perfetto__protos__trace__descriptor, FALSE, 1 },
  { &perfetto__protos__trace_packet__descriptor, TRUE, 10 },
  { &perfetto__protos__track_event__descriptor, FALSE, 24 },
  { &perfetto__protos__debug_annotation__descriptor, FALSE, 13 }, /* nested_value: read, never written */
  { &perfetto__protos__ftrace_event_bundle__descriptor, FALSE, 6 },
  { &perfetto__protos__ftrace_event__descriptor, TRUE, 3 },
  { &perfetto__protos__ftrace_event_bundle__compact_sched__descriptor, FALSE, 12 },
  { &perfetto__protos__print_ftrace_event__descriptor, FALSE, 2 },
  { &perfetto__protos__sched_switch_ftrace_event__descriptor, FALSE, 7 },
  { &perfetto__protos__sched_wakeup_ftrace_event__descriptor, FALSE, 5 },
  { &perfetto__protos__sched_waking_ftrace_event__descriptor, FALSE, 5 },
  { &perfetto__protos__track_event__legacy_event__descriptor, FALSE, 14 },
  /* the five lists not streamed are checked empty (interned_streamable) */
  { &perfetto__protos__interned_data__descriptor, FALSE, 12 },
  { &perfetto__protos__event_category__descriptor, FALSE, 2 },
  { &perfetto__protos__event_name__descriptor, FALSE, 2 },
  { &perfetto__protos__debug_annotation_name__descriptor, FALSE, 2 },
  { &perfetto__protos__interned_string__descriptor, FALSE, 2 },
};

static guint
count_fields (const ProtobufCMessageDescriptor *desc,
              gboolean outside_oneofs)
{
  guint n = 0;

  for (guint i = 0; i < desc->n_fields; i++)
    if (!outside_oneofs || !(desc->fields[i].flags & PROTOBUF_C_FIELD_FLAG_ONEOF))
      n++;
  return n;
}

/**
 * perfetto_wire_check_schema:
 * @error: where to say what does not match
 *
 * Returns: whether each field number this file writes is the one
 *   protobuf-c's descriptor gives, and each streamed message has the
 *   fields this file knows of and no more
 */
gboolean
perfetto_wire_check_schema (GError **error)
{
  for (gsize i = 0; i < G_N_ELEMENTS (wire_numbers); i++)
    {
      const ProtobufCFieldDescriptor *f =
          protobuf_c_message_descriptor_get_field_by_name (wire_numbers[i].desc, wire_numbers[i].name);

      if (f == NULL || f->id != wire_numbers[i].number)
        {
          g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_FAILED, "%s.%s: field number %u, written as %u",
                       wire_numbers[i].desc->name, wire_numbers[i].name, f ? f->id : 0, wire_numbers[i].number);
          return FALSE;
        }
    }
  for (gsize i = 0; i < G_N_ELEMENTS (wire_field_counts); i++)
    {
      guint n = count_fields (wire_field_counts[i].desc, wire_field_counts[i].outside_oneofs);

      if (n != wire_field_counts[i].n_fields)
        {
          g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_FAILED, "%s: %u fields, the wire writer knows %u",
                       wire_field_counts[i].desc->name, n, wire_field_counts[i].n_fields);
          return FALSE;
        }
    }
  return TRUE;
}
