/* tracepipe tests - elements with every kind of property, for the parser
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <trace/trace.h>

G_BEGIN_DECLS

/* Registers, as an application would (no plugin):
 * - test-props: no pads; properties int (-10..100), uint (0..1000), int64,
 *   uint64, double (0..1), bool, mode (enum fast/slow/exact-match), opts
 *   (flags a/b/c), text (string), offset (int64, nanoseconds) and the
 *   read-only counter;
 * - test-other-src: an ALWAYS src pad of media type "test/other";
 * - test-mux: REQUEST sink_%u pads with an int64 "offset" property (in
 *   nanoseconds) and an ALWAYS src pad.
 */
void test_elements_register (void);

/* How many test-props elements are alive: a failed parse must leave 0. */
guint test_props_get_n_alive (void);

G_END_DECLS
