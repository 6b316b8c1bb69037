/* tracepipe - static tables a class declares once, kept on its type
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A base class asks its subclasses for a table in class_init (the stats
 * keys of a TraceFileSrc, the skip reasons of a TraceLineSrc) and reads
 * it per instance: the table hangs on the subclass's GType, and a
 * subclass of that subclass inherits it.
 */
#include "config.h"

#include "trace-private.h"

void
_trace_class_set_table (GType type,
                        GQuark quark,
                        gconstpointer items,
                        guint n_items)
{
  TraceClassTable *table = g_new0 (TraceClassTable, 1); /* lives as long as the type */

  table->items = items;
  table->n_items = n_items;
  g_free (g_type_get_qdata (type, quark)); /* class_init runs once; set twice, keep the last */
  g_type_set_qdata (type, quark, table);
}

/* The table of @type or of its nearest ancestor below @base; NULL when
 * none declared one. */
const TraceClassTable *
_trace_class_find_table (GType type,
                         GType base,
                         GQuark quark)
{
  for (; type != 0 && type != base; type = g_type_parent (type))
    {
      const TraceClassTable *table = g_type_get_qdata (type, quark);

      if (table)
        return table;
    }
  return NULL;
}
