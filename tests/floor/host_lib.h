/* SPDX-License-Identifier: MIT */
/* A plugin host as a shared library (libfloor_host.so), the way libpam and sudo load their modules: its interface to the probe and to its plugin. */
#ifndef FR_FLOOR_HOST_LIB_H
#define FR_FLOOR_HOST_LIB_H

/* The plugin's version node (tests/floor/host_plugin.map). */
#define FLOOR_PLUGIN_NODE "FLOOR_PLUGIN_1"
/* What the plugin's functions answer, and what the host's callback answers. */
#define FLOOR_PLUGIN_ANSWER 42
#define FLOOR_HOST_CALLBACK_ANSWER 7

/* Loads plugin (a path) and looks its functions up in every way a library does, printing one
   line per lookup; returns the number of lookups that did not give what glibc gives. */
int floor_host_run(const char *plugin);

/* What the plugin calls back, found with dlsym(RTLD_NEXT): FLOOR_HOST_CALLBACK_ANSWER. */
int floor_host_callback(void);

/* The plugin's exports. */
int floor_plugin_answer(void);
int floor_plugin_call_back(void);
int floor_plugin_next_clock(void);

#endif
