/* tracepipe - Perfetto writer: the field numbers the wire writer writes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

/* Field numbers of the fields that are not members of a oneof (those
 * are the generated *_CASE values), from the .proto files in protos/; the test checks
 * each against protobuf-c's descriptor (perfetto_wire_check_schema). */
#define F_TRACE_PACKET 1
#define F_PACKET_TIMESTAMP 8
#define F_PACKET_SEQUENCE_ID 10
#define F_PACKET_INTERNED_DATA 12
#define F_PACKET_SEQUENCE_FLAGS 13
#define F_PACKET_INCREMENTAL_STATE_CLEARED 41
#define F_PACKET_PREVIOUS_PACKET_DROPPED 42
#define F_PACKET_TIMESTAMP_CLOCK_ID 58
#define F_PACKET_DEFAULTS 59
#define F_PACKET_TRUSTED_PID 79
#define F_PACKET_FIRST_ON_SEQUENCE 87
#define F_TE_CATEGORY_IIDS 3
#define F_TE_DEBUG_ANNOTATIONS 4
#define F_TE_LEGACY_EVENT 6
#define F_TE_TYPE 9
#define F_TE_TRACK_UUID 11
#define F_TE_EXTRA_COUNTER_VALUES 12
#define F_TE_CATEGORIES 22
#define F_TE_EXTRA_COUNTER_TRACK_UUIDS 31
#define F_TE_FLOW_IDS_OLD 36
#define F_TE_TERMINATING_FLOW_IDS_OLD 42
#define F_TE_FLOW_IDS 47
#define F_TE_TERMINATING_FLOW_IDS 48
#define F_DA_DICT_ENTRIES 11
#define F_DA_ARRAY_VALUES 12
#define F_TE_EXTRA_DOUBLE_COUNTER_TRACK_UUIDS 45
#define F_TE_EXTRA_DOUBLE_COUNTER_VALUES 46
#define F_BUNDLE_CPU 1
#define F_BUNDLE_EVENT 2
#define F_BUNDLE_LOST_EVENTS 3
#define F_BUNDLE_COMPACT_SCHED 4
#define F_BUNDLE_LAST_READ_EVENT_TIMESTAMP 9
#define F_BUNDLE_PREVIOUS_BUNDLE_END_TIMESTAMP 10
#define F_FEV_TIMESTAMP 1
#define F_FEV_PID 2
#define F_FEV_COMMON_FLAGS 5
#define F_PRINT_IP 1
#define F_PRINT_BUF 2
#define F_SW_PREV_COMM 1
#define F_SW_PREV_PID 2
#define F_SW_PREV_PRIO 3
#define F_SW_PREV_STATE 4
#define F_SW_NEXT_COMM 5
#define F_SW_NEXT_PID 6
#define F_SW_NEXT_PRIO 7
#define F_WK_COMM 1
#define F_WK_PID 2
#define F_WK_PRIO 3
#define F_WK_SUCCESS 4
#define F_WK_TARGET_CPU 5
#define F_CS_SWITCH_TIMESTAMP 1
#define F_CS_SWITCH_PREV_STATE 2
#define F_CS_SWITCH_NEXT_PID 3
#define F_CS_SWITCH_NEXT_PRIO 4
#define F_CS_INTERN_TABLE 5
#define F_CS_SWITCH_NEXT_COMM_INDEX 6
#define F_CS_WAKING_TIMESTAMP 7
#define F_CS_WAKING_PID 8
#define F_CS_WAKING_TARGET_CPU 9
#define F_CS_WAKING_PRIO 10
#define F_CS_WAKING_COMM_INDEX 11
#define F_CS_WAKING_COMMON_FLAGS 12
#define F_LE_NAME_IID 1
#define F_LE_PHASE 2
#define F_LE_DURATION_US 3
#define F_LE_THREAD_DURATION_US 4
#define F_LE_UNSCOPED_ID 6
#define F_LE_ID_SCOPE 7
#define F_LE_BIND_ID 8
#define F_LE_LOCAL_ID 10
#define F_LE_GLOBAL_ID 11
#define F_LE_BIND_TO_ENCLOSING 12
#define F_LE_FLOW_DIRECTION 13
#define F_LE_INSTANT_EVENT_SCOPE 14
#define F_LE_PID_OVERRIDE 18
#define F_LE_TID_OVERRIDE 19
#define F_ID_EVENT_CATEGORIES 1
#define F_ID_EVENT_NAMES 2
#define F_ID_DEBUG_ANNOTATION_NAMES 3
#define F_ID_FUNCTION_NAMES 5
#define F_ID_MAPPING_PATHS 17
#define F_ID_KERNEL_SYMBOLS 26
#define F_ID_DEBUG_ANNOTATION_STRING_VALUES 29
#define F_NAMED_IID 1 /* EventCategory, EventName, DebugAnnotationName */
#define F_NAMED_NAME 2
#define F_IS_IID 1 /* InternedString */
#define F_IS_STR 2
