/* tracepipe - json plugin: how trace_processor names an actual frame's class
 *
 * trace_processor shows an Android actual frame (frame_timeline_event) with
 * its present type, jank type and prediction type as text args; json-sink
 * writes the same texts (json-writer-graphics.c), from the numbers of
 * Perfetto's FrameTimelineEvent enums.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "json-common.h"
#include "json-writer-private.h"

static const char *const present_types[] = {
  "Unspecified Present",
  "On-time Present",
  "Late Present",
  "Early Present",
  "Dropped Frame",
  "Unknown Present",
};

static const char *const prediction_types[] = {
  "Unspecified Prediction",
  "Valid Prediction",
  "Expired Prediction",
  "Unknown Prediction",
};

/* The jank bits, in the order trace_processor lists them. */
static const struct
{
  gint32 bit;
  const char *name;
} jank_reasons[] = {
  { 2, "SurfaceFlinger Scheduling" },
  { 4, "Prediction Error" },
  { 8, "Display HAL" },
  { 16, "SurfaceFlinger CPU Deadline Missed" },
  { 32, "SurfaceFlinger GPU Deadline Missed" },
  { 64, "App Deadline Missed" },
  { 4096, "App Resynced Jitter" },
  { 128, "Buffer Stuffing" },
  { 256, "Unknown Jank" },
  { 512, "SurfaceFlinger Stuffing" },
  { 1024, "Dropped Frame" },
  { 2048, "Non Animating" },
  { 8192, "Display not ON" },
  { 16384, "ModeChange in progress" },
  { 32768, "PowerModeChange in progress" },
};

/* A jank type bitmask as trace_processor words it: its reasons joined. */
static void
put_jank_type (GString *out,
               gint32 jank)
{
  g_autoptr (GString) text = g_string_new (NULL);

  if (jank == 0 || jank == 1)
    g_string_append (text, jank == 0 ? "Unspecified" : "None");
  for (gsize i = 0; jank != 0 && jank != 1 && i < G_N_ELEMENTS (jank_reasons); i++)
    if (jank & jank_reasons[i].bit)
      g_string_append_printf (text, "%s%s", text->len ? ", " : "", jank_reasons[i].name);
  chrome_fmt_string (out, text->str, text->len);
}

/* An enum's text, the first (Unspecified) for a value out of range or
 * not given, as trace_processor does. */
static void
put_enum (GString *out,
          const char *key,
          const char *const *texts,
          gsize n_texts,
          gboolean has,
          gint32 v)
{
  const char *text = texts[has && v >= 1 && (gsize) v < n_texts ? v : 0];

  g_string_append_printf (out, ",\"%s\":", key);
  chrome_fmt_string (out, text, strlen (text));
}

/**
 * chrome_writer_frame_class_args:
 * @out: the args object being written, after its first member
 * @c: an actual frame's class
 *
 * Appends the members trace_processor shows for an actual frame:
 * `"Present type"`, `"On time finish"`, `"GPU composition"`, `"Jank type"`,
 * `"Prediction type"`.
 */
void
chrome_writer_frame_class_args (GString *out,
                                const ChromeFrameClass *c)
{
  put_enum (out, "Present type", present_types, G_N_ELEMENTS (present_types), c->has_present, c->present);
  g_string_append_printf (out, ",\"On time finish\":%d,\"GPU composition\":%d,\"Jank type\":", c->on_time ? 1 : 0,
                          c->gpu ? 1 : 0);
  put_jank_type (out, c->jank);
  put_enum (out, "Prediction type", prediction_types, G_N_ELEMENTS (prediction_types), c->has_prediction,
            c->prediction);
}
