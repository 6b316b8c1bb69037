/* tracepipe - Perfetto writer: hot packets straight to protobuf wire format
 *
 * protobuf-c packs a message by walking every field of its descriptor
 * twice (once for the size, once for the bytes), whether the field is set
 * or not: for a TrackEvent packet of a slice begin, end or counter that is
 * some forty fields for the five or six that are set, a third of the
 * time of systrace → Perfetto when protobuf-c packs them. The packets that dominate
 * a trace (TracePacket with a TrackEvent, its debug annotations and
 * Chrome legacy fields, or an ftrace event bundle, with its events and
 * compact sched arrays; the interned names and strings they refer to) are
 * written here field by field in protobuf-c's own order (field number)
 * and with its own rules (proto2 presence: has_ flags, non-NULL pointers,
 * oneof cases; int32 negatives as ten-byte varints; unpacked repeated
 * scalars), so the bytes are the same as protobuf-c's. Sub-messages of
 * other types (interned frames, callstacks and mappings, typed ftrace
 * events but sched_switch, sched_wakeup, sched_waking and print) are
 * still packed by protobuf-c, which stays the schema, the generated code
 * and the decoder; packets with another payload go to protobuf-c whole.
 * perfetto-writer-wire-schema.c checks the field numbers against
 * protobuf-c's descriptors (test-perfetto-wire.c runs the check, and
 * packs random messages both ways and compares the bytes).
 *
 * An event's args skip the structs altogether: perfetto-writer-args.c
 * writes their annotations in wire format as it reads them, and they are
 * copied in here. A packet kind is written one way only: a TrackEvent or
 * an ftrace bundle always here, every other packet by protobuf-c.
 *
 * A length-delimited field is written with a one-byte length slot, which
 * is enough below 128 bytes (most TrackEvents); a longer body is moved by
 * the extra bytes when it is closed, since the size is only known then.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-wire.h"

#include <string.h>

#include "perfetto-wire-fields.h"
#include "perfetto-wire-inline.h"

/* A message of a type this file does not stream, by protobuf-c. */
static void
put_message_pbc (PerfettoWireBuf *b,
                 guint32 field,
                 const ProtobufCMessage *msg)
{
  gsize n = protobuf_c_message_get_packed_size (msg);

  wire_reserve (b, WIRE_SCALAR_MAX + n);
  put_tag_raw (b, field, W_LEN);
  put_varint_raw (b, n);
  b->len += protobuf_c_message_pack (msg, b->data + b->len);
}

/* ---- TrackEvent ---- */

static void
put_repeated_varint (PerfettoWireBuf *b,
                     guint32 field,
                     gsize n,
                     const guint64 *v)
{
  for (gsize i = 0; i < n; i++)
    put_varint (b, field, v[i]);
}

static void
put_repeated_fixed64 (PerfettoWireBuf *b,
                      guint32 field,
                      gsize n,
                      const guint64 *v)
{
  for (gsize i = 0; i < n; i++)
    put_fixed64 (b, field, v[i]);
}

/* Chrome's legacy fields (flows, ids, the phase of a flow event). */
static void
put_legacy_event (PerfettoWireBuf *b,
                  const Perfetto__Protos__TrackEvent__LegacyEvent *le)
{
  gsize slot = wire_open (b, F_TE_LEGACY_EVENT);

  if (le->has_name_iid)
    put_varint (b, F_LE_NAME_IID, le->name_iid);
  if (le->has_phase)
    put_int32 (b, F_LE_PHASE, le->phase);
  if (le->has_duration_us)
    put_varint (b, F_LE_DURATION_US, (guint64) le->duration_us);
  if (le->has_thread_duration_us)
    put_varint (b, F_LE_THREAD_DURATION_US, (guint64) le->thread_duration_us);
  if (le->has_unscoped_id)
    put_varint (b, F_LE_UNSCOPED_ID, le->unscoped_id);
  if (le->id_scope)
    put_string (b, F_LE_ID_SCOPE, le->id_scope);
  if (le->has_bind_id)
    put_varint (b, F_LE_BIND_ID, le->bind_id);
  if (le->has_local_id)
    put_varint (b, F_LE_LOCAL_ID, le->local_id);
  if (le->has_global_id)
    put_varint (b, F_LE_GLOBAL_ID, le->global_id);
  if (le->has_bind_to_enclosing)
    put_varint (b, F_LE_BIND_TO_ENCLOSING, le->bind_to_enclosing ? 1 : 0);
  if (le->has_flow_direction)
    put_int32 (b, F_LE_FLOW_DIRECTION, le->flow_direction);
  if (le->has_instant_event_scope)
    put_int32 (b, F_LE_INSTANT_EVENT_SCOPE, le->instant_event_scope);
  if (le->has_pid_override)
    put_int32 (b, F_LE_PID_OVERRIDE, le->pid_override);
  if (le->has_tid_override)
    put_int32 (b, F_LE_TID_OVERRIDE, le->tid_override);
  wire_close (b, slot);
}

/* @annotations: the TrackEvent's debug annotations, already in wire
 * format (perfetto-writer-args.c): @te has none of its own */
static void
put_track_event (PerfettoWireBuf *b,
                 const PerfettoTrackEvent *te,
                 const PerfettoWireBuf *annotations)
{
  g_warn_if_fail (te->n_debug_annotations == 0);
  /* in field number order, as protobuf-c packs them */
  if (te->thread_time_case == PERFETTO__PROTOS__TRACK_EVENT__THREAD_TIME_THREAD_TIME_DELTA_US)
    put_varint (b, PERFETTO__PROTOS__TRACK_EVENT__THREAD_TIME_THREAD_TIME_DELTA_US, (guint64) te->thread_time_delta_us);
  put_repeated_varint (b, F_TE_CATEGORY_IIDS, te->n_category_iids, te->category_iids);
  if (annotations != NULL && annotations->len > 0)
    put_bytes (b, annotations->data, annotations->len);
  if (te->legacy_event && te->legacy_event->base.n_unknown_fields == 0)
    put_legacy_event (b, te->legacy_event);
  else if (te->legacy_event)
    put_message_pbc (b, F_TE_LEGACY_EVENT, &te->legacy_event->base);
  if (te->thread_instruction_count_case ==
      PERFETTO__PROTOS__TRACK_EVENT__THREAD_INSTRUCTION_COUNT_THREAD_INSTRUCTION_COUNT_DELTA)
    put_varint (b, PERFETTO__PROTOS__TRACK_EVENT__THREAD_INSTRUCTION_COUNT_THREAD_INSTRUCTION_COUNT_DELTA,
                (guint64) te->thread_instruction_count_delta);
  if (te->has_type)
    put_int32 (b, F_TE_TYPE, te->type);
  if (te->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID)
    put_varint (b, PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID, te->name_iid);
  if (te->has_track_uuid)
    put_varint (b, F_TE_TRACK_UUID, te->track_uuid);
  put_repeated_varint (b, F_TE_EXTRA_COUNTER_VALUES, te->n_extra_counter_values,
                       (const guint64 *) te->extra_counter_values);
  if (te->thread_time_case == PERFETTO__PROTOS__TRACK_EVENT__THREAD_TIME_THREAD_TIME_ABSOLUTE_US)
    put_varint (b, PERFETTO__PROTOS__TRACK_EVENT__THREAD_TIME_THREAD_TIME_ABSOLUTE_US,
                (guint64) te->thread_time_absolute_us);
  if (te->thread_instruction_count_case ==
      PERFETTO__PROTOS__TRACK_EVENT__THREAD_INSTRUCTION_COUNT_THREAD_INSTRUCTION_COUNT_ABSOLUTE)
    put_varint (b, PERFETTO__PROTOS__TRACK_EVENT__THREAD_INSTRUCTION_COUNT_THREAD_INSTRUCTION_COUNT_ABSOLUTE,
                (guint64) te->thread_instruction_count_absolute);
  for (gsize i = 0; i < te->n_categories; i++)
    put_string (b, F_TE_CATEGORIES, te->categories[i]);
  if (te->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME && te->name)
    put_string (b, PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME, te->name);
  if (te->counter_value_field_case == PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE)
    put_varint (b, PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE, (guint64) te->counter_value);
  put_repeated_varint (b, F_TE_EXTRA_COUNTER_TRACK_UUIDS, te->n_extra_counter_track_uuids,
                       te->extra_counter_track_uuids);
  put_repeated_varint (b, F_TE_FLOW_IDS_OLD, te->n_flow_ids_old, te->flow_ids_old);
  put_repeated_varint (b, F_TE_TERMINATING_FLOW_IDS_OLD, te->n_terminating_flow_ids_old, te->terminating_flow_ids_old);
  if (te->counter_value_field_case == PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_DOUBLE_COUNTER_VALUE)
    put_double (b, PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_DOUBLE_COUNTER_VALUE, te->double_counter_value);
  put_repeated_varint (b, F_TE_EXTRA_DOUBLE_COUNTER_TRACK_UUIDS, te->n_extra_double_counter_track_uuids,
                       te->extra_double_counter_track_uuids);
  for (gsize i = 0; i < te->n_extra_double_counter_values; i++)
    put_double (b, F_TE_EXTRA_DOUBLE_COUNTER_VALUES, te->extra_double_counter_values[i]);
  put_repeated_fixed64 (b, F_TE_FLOW_IDS, te->n_flow_ids, te->flow_ids);
  put_repeated_fixed64 (b, F_TE_TERMINATING_FLOW_IDS, te->n_terminating_flow_ids, te->terminating_flow_ids);
  if (te->correlation_id_field_case == PERFETTO__PROTOS__TRACK_EVENT__CORRELATION_ID_FIELD_CORRELATION_ID)
    put_varint (b, PERFETTO__PROTOS__TRACK_EVENT__CORRELATION_ID_FIELD_CORRELATION_ID, te->correlation_id);
  if (te->correlation_id_field_case == PERFETTO__PROTOS__TRACK_EVENT__CORRELATION_ID_FIELD_CORRELATION_ID_STR && te->correlation_id_str)
    put_string (b, PERFETTO__PROTOS__TRACK_EVENT__CORRELATION_ID_FIELD_CORRELATION_ID_STR, te->correlation_id_str);
}

/* ---- ftrace event bundles ---- */

/* A packed repeated field, in one pass: room for the longest varints,
 * then the body is moved if its length needs more than one byte (a
 * first pass summing the varints' sizes was as slow as protobuf-c). */
#define PUT_PACKED_VARINTS(b, field, n, v, conv)       \
  G_STMT_START                                         \
  {                                                    \
    gsize slot_;                                       \
    if ((n) == 0)                                      \
      break;                                           \
    wire_reserve ((b), WIRE_SCALAR_MAX + 1 + (n) *10); \
    put_tag_raw ((b), (field), W_LEN);                 \
    slot_ = (b)->len++;                                \
    for (gsize i_ = 0; i_ < (n); i_++)                 \
      put_varint_raw ((b), conv ((v)[i_]));            \
    wire_close ((b), slot_);                           \
  }                                                    \
  G_STMT_END

#define AS_U64(x) ((guint64) (x))
#define AS_I32(x) ((guint64) (gint64) (gint32) (x))

static void
put_compact_sched (PerfettoWireBuf *b,
                   const Perfetto__Protos__FtraceEventBundle__CompactSched *cs)
{
  gsize slot;

  if (cs->base.n_unknown_fields)
    {
      put_message_pbc (b, F_BUNDLE_COMPACT_SCHED, &cs->base);
      return;
    }
  slot = wire_open (b, F_BUNDLE_COMPACT_SCHED);
  PUT_PACKED_VARINTS (b, F_CS_SWITCH_TIMESTAMP, cs->n_switch_timestamp, cs->switch_timestamp, AS_U64);
  PUT_PACKED_VARINTS (b, F_CS_SWITCH_PREV_STATE, cs->n_switch_prev_state, cs->switch_prev_state, AS_U64);
  PUT_PACKED_VARINTS (b, F_CS_SWITCH_NEXT_PID, cs->n_switch_next_pid, cs->switch_next_pid, AS_I32);
  PUT_PACKED_VARINTS (b, F_CS_SWITCH_NEXT_PRIO, cs->n_switch_next_prio, cs->switch_next_prio, AS_I32);
  for (gsize i = 0; i < cs->n_intern_table; i++)
    put_string (b, F_CS_INTERN_TABLE, cs->intern_table[i]);
  PUT_PACKED_VARINTS (b, F_CS_SWITCH_NEXT_COMM_INDEX, cs->n_switch_next_comm_index, cs->switch_next_comm_index,
                      AS_U64);
  PUT_PACKED_VARINTS (b, F_CS_WAKING_TIMESTAMP, cs->n_waking_timestamp, cs->waking_timestamp, AS_U64);
  PUT_PACKED_VARINTS (b, F_CS_WAKING_PID, cs->n_waking_pid, cs->waking_pid, AS_I32);
  PUT_PACKED_VARINTS (b, F_CS_WAKING_TARGET_CPU, cs->n_waking_target_cpu, cs->waking_target_cpu, AS_I32);
  PUT_PACKED_VARINTS (b, F_CS_WAKING_PRIO, cs->n_waking_prio, cs->waking_prio, AS_I32);
  PUT_PACKED_VARINTS (b, F_CS_WAKING_COMM_INDEX, cs->n_waking_comm_index, cs->waking_comm_index, AS_U64);
  PUT_PACKED_VARINTS (b, F_CS_WAKING_COMMON_FLAGS, cs->n_waking_common_flags, cs->waking_common_flags, AS_U64);
  wire_close (b, slot);
}

/* sched_wakeup and sched_waking: two messages of one shape. */
#define PUT_WAKEUP_FIELDS(b, wk)                          \
  G_STMT_START                                            \
  {                                                       \
    if ((wk)->comm)                                       \
      put_string ((b), F_WK_COMM, (wk)->comm);            \
    if ((wk)->has_pid)                                    \
      put_int32 ((b), F_WK_PID, (wk)->pid);               \
    if ((wk)->has_prio)                                   \
      put_int32 ((b), F_WK_PRIO, (wk)->prio);             \
    if ((wk)->has_success)                                \
      put_int32 ((b), F_WK_SUCCESS, (wk)->success);       \
    if ((wk)->has_target_cpu)                             \
      put_int32 ((b), F_WK_TARGET_CPU, (wk)->target_cpu); \
  }                                                       \
  G_STMT_END

static void
put_sched_switch_fields (PerfettoWireBuf *b,
                         const Perfetto__Protos__SchedSwitchFtraceEvent *sw)
{
  if (sw->prev_comm)
    put_string (b, F_SW_PREV_COMM, sw->prev_comm);
  if (sw->has_prev_pid)
    put_int32 (b, F_SW_PREV_PID, sw->prev_pid);
  if (sw->has_prev_prio)
    put_int32 (b, F_SW_PREV_PRIO, sw->prev_prio);
  if (sw->has_prev_state)
    put_varint (b, F_SW_PREV_STATE, (guint64) sw->prev_state);
  if (sw->next_comm)
    put_string (b, F_SW_NEXT_COMM, sw->next_comm);
  if (sw->has_next_pid)
    put_int32 (b, F_SW_NEXT_PID, sw->next_pid);
  if (sw->has_next_prio)
    put_int32 (b, F_SW_NEXT_PRIO, sw->next_prio);
}

/* The typed event (the oneof member), whose field number is the case:
 * the common kernel ones streamed, the rest by protobuf-c. */
static void
put_typed (PerfettoWireBuf *b,
           const PerfettoFtraceEvent *fev)
{
  const ProtobufCMessage *typed = (const ProtobufCMessage *) fev->print;
  gsize slot;

  if (typed->n_unknown_fields)
    {
      put_message_pbc (b, fev->event_case, typed);
      return;
    }
  switch (fev->event_case)
    {
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKEUP:
      slot = wire_open (b, fev->event_case);
      PUT_WAKEUP_FIELDS (b, fev->sched_wakeup);
      break;
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKING:
      slot = wire_open (b, fev->event_case);
      PUT_WAKEUP_FIELDS (b, fev->sched_waking);
      break;
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH:
      slot = wire_open (b, fev->event_case);
      put_sched_switch_fields (b, fev->sched_switch);
      break;
    case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_PRINT:
      slot = wire_open (b, fev->event_case);
      if (fev->print->has_ip)
        put_varint (b, F_PRINT_IP, fev->print->ip);
      if (fev->print->buf)
        put_string (b, F_PRINT_BUF, fev->print->buf);
      break;
    default:
      put_message_pbc (b, fev->event_case, typed);
      return;
    }
  wire_close (b, slot);
}

/* The typed event sits among the common fields by its number. */
static void
put_ftrace_event (PerfettoWireBuf *b,
                  const PerfettoFtraceEvent *fev)
{
  gboolean typed = fev->event_case != 0 && fev->print != NULL;
  guint32 number = fev->event_case;
  gsize slot;

  if (fev->base.n_unknown_fields)
    {
      put_message_pbc (b, F_BUNDLE_EVENT, &fev->base);
      return;
    }
  slot = wire_open (b, F_BUNDLE_EVENT);
  if (fev->has_timestamp)
    put_varint (b, F_FEV_TIMESTAMP, fev->timestamp);
  if (fev->has_pid)
    put_varint (b, F_FEV_PID, fev->pid);
  if (typed && number < F_FEV_COMMON_FLAGS)
    put_typed (b, fev);
  if (fev->has_common_flags)
    put_varint (b, F_FEV_COMMON_FLAGS, fev->common_flags);
  if (typed && number > F_FEV_COMMON_FLAGS)
    put_typed (b, fev);
  wire_close (b, slot);
}

static void
put_ftrace_bundle (PerfettoWireBuf *b,
                   const Perfetto__Protos__FtraceEventBundle *bundle)
{
  if (bundle->has_cpu)
    put_varint (b, F_BUNDLE_CPU, bundle->cpu);
  for (gsize i = 0; i < bundle->n_event; i++)
    put_ftrace_event (b, bundle->event[i]);
  if (bundle->has_lost_events)
    put_varint (b, F_BUNDLE_LOST_EVENTS, bundle->lost_events ? 1 : 0);
  if (bundle->compact_sched)
    put_compact_sched (b, bundle->compact_sched);
  if (bundle->has_last_read_event_timestamp)
    put_varint (b, F_BUNDLE_LAST_READ_EVENT_TIMESTAMP, bundle->last_read_event_timestamp);
  if (bundle->has_previous_bundle_end_timestamp)
    put_varint (b, F_BUNDLE_PREVIOUS_BUNDLE_END_TIMESTAMP, bundle->previous_bundle_end_timestamp);
}

/* ---- interned data ---- */

/* EventCategory, EventName and DebugAnnotationName have one layout;
 * protobuf-c's structs for them differ only in their descriptor. */
G_STATIC_ASSERT (sizeof (Perfetto__Protos__EventName) == sizeof (Perfetto__Protos__EventCategory));
G_STATIC_ASSERT (sizeof (Perfetto__Protos__EventName) == sizeof (Perfetto__Protos__DebugAnnotationName));
G_STATIC_ASSERT (G_STRUCT_OFFSET (Perfetto__Protos__EventName, iid) ==
                 G_STRUCT_OFFSET (Perfetto__Protos__EventCategory, iid));
G_STATIC_ASSERT (G_STRUCT_OFFSET (Perfetto__Protos__EventName, name) ==
                 G_STRUCT_OFFSET (Perfetto__Protos__DebugAnnotationName, name));

static void
put_named_list (PerfettoWireBuf *b,
                guint32 field,
                gsize n,
                Perfetto__Protos__EventName *const *entries)
{
  for (gsize i = 0; i < n; i++)
    {
      gsize slot = wire_open (b, field);

      if (entries[i]->has_iid)
        put_varint (b, F_NAMED_IID, entries[i]->iid);
      if (entries[i]->name)
        put_string (b, F_NAMED_NAME, entries[i]->name);
      wire_close (b, slot);
    }
}

static void
put_string_list (PerfettoWireBuf *b,
                 guint32 field,
                 gsize n,
                 Perfetto__Protos__InternedString *const *entries)
{
  for (gsize i = 0; i < n; i++)
    {
      gsize slot = wire_open (b, field);

      if (entries[i]->has_iid)
        put_varint (b, F_IS_IID, entries[i]->iid);
      if (entries[i]->has_str)
        {
          wire_reserve (b, WIRE_SCALAR_MAX + entries[i]->str.len);
          put_tag_raw (b, F_IS_STR, W_LEN);
          put_varint_raw (b, entries[i]->str.len);
          if (entries[i]->str.len)
            memcpy (b->data + b->len, entries[i]->str.data, entries[i]->str.len);
          b->len += entries[i]->str.len;
        }
      wire_close (b, slot);
    }
}

static gboolean
no_unknown_fields (gsize n,
                   gpointer const *messages)
{
  for (gsize i = 0; i < n; i++)
    if (((const ProtobufCMessage *) messages[i])->n_unknown_fields)
      return FALSE;
  return TRUE;
}

/* Names and strings only (what a TrackEvent stream interns): frames,
 * callstacks and mappings go to protobuf-c with the rest of it. */
static gboolean
interned_streamable (const Perfetto__Protos__InternedData *d)
{
  return d->base.n_unknown_fields == 0 && d->n_frames == 0 && d->n_callstacks == 0 && d->n_build_ids == 0 &&
         d->n_source_paths == 0 && d->n_mappings == 0 &&
         no_unknown_fields (d->n_event_categories, (gpointer const *) d->event_categories) &&
         no_unknown_fields (d->n_event_names, (gpointer const *) d->event_names) &&
         no_unknown_fields (d->n_debug_annotation_names, (gpointer const *) d->debug_annotation_names) &&
         no_unknown_fields (d->n_function_names, (gpointer const *) d->function_names) &&
         no_unknown_fields (d->n_mapping_paths, (gpointer const *) d->mapping_paths) &&
         no_unknown_fields (d->n_kernel_symbols, (gpointer const *) d->kernel_symbols) &&
         no_unknown_fields (d->n_debug_annotation_string_values, (gpointer const *) d->debug_annotation_string_values);
}

static void
put_interned_data (PerfettoWireBuf *b,
                   const Perfetto__Protos__InternedData *d)
{
  gsize slot;

  if (!interned_streamable (d))
    {
      put_message_pbc (b, F_PACKET_INTERNED_DATA, &d->base);
      return;
    }
  slot = wire_open (b, F_PACKET_INTERNED_DATA);
  put_named_list (b, F_ID_EVENT_CATEGORIES, d->n_event_categories,
                  (Perfetto__Protos__EventName *const *) d->event_categories);
  put_named_list (b, F_ID_EVENT_NAMES, d->n_event_names, d->event_names);
  put_named_list (b, F_ID_DEBUG_ANNOTATION_NAMES, d->n_debug_annotation_names,
                  (Perfetto__Protos__EventName *const *) d->debug_annotation_names);
  put_string_list (b, F_ID_FUNCTION_NAMES, d->n_function_names, d->function_names);
  put_string_list (b, F_ID_MAPPING_PATHS, d->n_mapping_paths, d->mapping_paths);
  put_string_list (b, F_ID_KERNEL_SYMBOLS, d->n_kernel_symbols, d->kernel_symbols);
  put_string_list (b, F_ID_DEBUG_ANNOTATION_STRING_VALUES, d->n_debug_annotation_string_values,
                   d->debug_annotation_string_values);
  wire_close (b, slot);
}

/* ---- TracePacket ---- */

static void
put_packet_fields (PerfettoWireBuf *b,
                   const PerfettoPacket *pkt,
                   const PerfettoWireBuf *annotations)
{
  gsize slot;

  if (pkt->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS && pkt->ftrace_events)
    {
      slot = wire_open (b, PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS);
      put_ftrace_bundle (b, pkt->ftrace_events);
      wire_close (b, slot);
    }
  if (pkt->has_timestamp)
    put_varint (b, F_PACKET_TIMESTAMP, pkt->timestamp);
  if (pkt->has_trusted_packet_sequence_id)
    put_varint (b, F_PACKET_SEQUENCE_ID, pkt->trusted_packet_sequence_id);
  if (pkt->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT && pkt->track_event)
    {
      slot = wire_open (b, PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT);
      put_track_event (b, pkt->track_event, annotations);
      wire_close (b, slot);
    }
  if (pkt->interned_data)
    put_interned_data (b, pkt->interned_data);
  if (pkt->has_sequence_flags)
    put_varint (b, F_PACKET_SEQUENCE_FLAGS, pkt->sequence_flags);
  if (pkt->has_incremental_state_cleared)
    put_varint (b, F_PACKET_INCREMENTAL_STATE_CLEARED, pkt->incremental_state_cleared ? 1 : 0);
  if (pkt->has_previous_packet_dropped)
    put_varint (b, F_PACKET_PREVIOUS_PACKET_DROPPED, pkt->previous_packet_dropped);
  if (pkt->has_timestamp_clock_id)
    put_varint (b, F_PACKET_TIMESTAMP_CLOCK_ID, pkt->timestamp_clock_id);
  if (pkt->trace_packet_defaults)
    put_message_pbc (b, F_PACKET_DEFAULTS, &pkt->trace_packet_defaults->base);
  if (pkt->has_trusted_pid)
    put_int32 (b, F_PACKET_TRUSTED_PID, pkt->trusted_pid);
  if (pkt->has_first_packet_on_sequence)
    put_varint (b, F_PACKET_FIRST_ON_SEQUENCE, pkt->first_packet_on_sequence ? 1 : 0);
}

static gboolean
streamed (const PerfettoPacket *pkt)
{
  if (pkt->base.n_unknown_fields)
    return FALSE;
  switch (pkt->data_case)
    {
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT:
      return pkt->track_event && pkt->track_event->base.n_unknown_fields == 0;
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS:
      return pkt->ftrace_events && pkt->ftrace_events->base.n_unknown_fields == 0;
    default:
      return FALSE;
    }
}

/**
 * perfetto_wire_append_record:
 * @b: the output
 * @pkt: a packet
 * @annotations: (nullable): the debug annotations of @pkt's TrackEvent,
 *   in wire format
 *
 * Appends the `Trace.packet` record of @pkt to @b, the same bytes as
 * perfetto__protos__trace__pack() of a one-packet Trace: written here if
 * its payload is a TrackEvent or an ftrace event bundle, by protobuf-c
 * otherwise.
 *
 * Returns: whether the packet was written here
 */
gboolean
perfetto_wire_append_record (PerfettoWireBuf *b,
                             const PerfettoPacket *pkt,
                             const PerfettoWireBuf *annotations)
{
  gsize slot;

  if (!streamed (pkt))
    {
      /* only a streamed TrackEvent can carry them */
      g_return_val_if_fail (annotations == NULL || annotations->len == 0, FALSE);
      put_message_pbc (b, F_TRACE_PACKET, &pkt->base);
      return FALSE;
    }
  slot = wire_open (b, F_TRACE_PACKET);
  put_packet_fields (b, pkt, annotations);
  wire_close (b, slot);
  return TRUE;
}
