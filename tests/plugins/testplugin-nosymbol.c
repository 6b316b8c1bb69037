/* A loadable module that is not a tracepipe plugin. */
#include <gmodule.h>

G_MODULE_EXPORT int not_a_plugin = 1;
