/* tracepipe - json plugin: a byte buffer that moves to a temporary file
 * when it grows past a memory limit
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Used for text that must be written (or handed on) only at the end of a
 * stream: the systemTraceEvents text, in both directions.  Memory stays
 * bounded by the limit; the rest lives in an unlinked temporary file that
 * disappears with the process.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _JsonSpill JsonSpill;

JsonSpill *json_spill_new (gsize memory_limit);
void json_spill_free (JsonSpill *spill);
gboolean json_spill_write (JsonSpill *spill, const void *data, gsize len, GError **error);
guint64 json_spill_get_size (JsonSpill *spill);
gboolean json_spill_is_on_disk (JsonSpill *spill);
GInputStream *json_spill_read (JsonSpill *spill, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JsonSpill, json_spill_free)

G_END_DECLS
