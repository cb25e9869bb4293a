/* SPDX-License-Identifier: MIT */
/* fastraw: runs a program with libfastraw.so preloaded and the library's environment set from options. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch/arch.h"
#include "common/tool_libpath.h"
#include "common/tool_output.h"
#include "launcher/launcher_lib.h"
#include "launcher/launcher_target.h"
#ifndef FASTRAW_VERSION
#define FASTRAW_VERSION "unknown"
#endif

/* The launcher itself failed (no library, no memory), as env(1) and timeout(1) use 125. */
#define EXIT_LAUNCHER 125
#define EXIT_USAGE 2

struct opts {
	const char *tsc;
	const char *lib;
	int debug;
	int stats;
	const char *clocks;
};

/* FASTRAW_CLOCKS's words (src/proc/env.c), checked here so that a typo is a usage error. */
#define CLOCK_WORDS "raw, monotonic, boottime, realtime, tai, monotonic_coarse, realtime_coarse"

/* Whether list is "all" or a comma list of CLOCK_WORDS, as the library accepts it. */
static int clocks_ok(const char *list)
{
	static const char *const words[] = { "raw", "monotonic", "boottime", "realtime", "tai",
					     "monotonic_coarse", "realtime_coarse" };

	if (strcmp(list, "all") == 0)
		return 1;
	for (const char *w = list;;) {
		size_t n = strcspn(w, ","), i;

		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
			if (strlen(words[i]) == n && strncmp(w, words[i], n) == 0)
				break;
		}
		if (i == sizeof(words) / sizeof(words[0]))
			return 0;
		if (!w[n])
			return 1;
		w += n + 1;
	}
}

/* FASTRAW_TSC's values, as the architecture names them (header only: the launcher links no library code). */
#define TSC_UNO FR_ARCH_COUNTER_NAME_UNORDERED
#define TSC_ORD FR_ARCH_COUNTER_NAME_ORDERED
#define TSC_FEN FR_ARCH_COUNTER_NAME_FENCED

#define USAGE_LINE                                                                          \
	"usage: fastraw [--tsc " TSC_UNO "|" TSC_ORD "|" TSC_FEN "] [--debug] [--stats] [--clocks LIST] " \
	"[--lib PATH] [--] PROGRAM [ARG...]\n"

static void help(void)
{
	printf(USAGE_LINE
		"Runs PROGRAM with libfastraw.so preloaded: its clock_gettime(CLOCK_MONOTONIC_RAW)\n"
		"calls are answered in-process, every other clock goes on to libc (or to a later\n"
		"interposer). The library goes after the entries already in LD_PRELOAD.\n"
		"\n"
		"  --tsc MODE   how the counter is read: " TSC_ORD ", " TSC_FEN " or " TSC_UNO " (sets FASTRAW_TSC)\n"
		"  --debug      the library prints one line on stderr at start (sets FASTRAW_DEBUG=1)\n"
		"  --stats      the library prints its call counts on stderr at exit (sets FASTRAW_STATS=1)\n"
		"  --clocks LIST\n"
		"               also serve these clocks from the kernel's page, exactly as its vDSO would:\n"
		"               all, or a comma list of " CLOCK_WORDS "\n"
		"               (sets FASTRAW_CLOCKS; the default, raw, serves CLOCK_MONOTONIC_RAW alone)\n"
		"  --lib PATH   preload this libfastraw.so instead of searching for it\n"
		"  -h, --help   print this help and exit\n"
		"  --version    print the version and exit\n"
		"\n"
		"Without --lib, libfastraw.so is taken from %s, then from DIR/%s\n"
		"and then DIR, where DIR holds this program (an installed tree moved elsewhere;\n"
		"a build tree).\n"
		"PROGRAM is searched for along PATH. Statically linked, set-user-ID, set-group-ID and\n"
		"file-capable programs are refused: the dynamic loader would not preload into them.\n"
		"A program that may be run but not read is run with the library preloaded, as it\n"
		"cannot be told static or dynamic (--debug says so).\n"
		"\n"
		"Exit status: PROGRAM's own; 2 usage error; 125 no usable library, or the help or\n"
		"version could not be written; 126 PROGRAM cannot be run with the library preloaded;\n"
		"127 PROGRAM not found.\n",
		tool_lib_install_libdir, tool_lib_bin_to_lib);
}

__attribute__((format(printf, 1, 2), noreturn)) static void bad_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("fastraw: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n" USAGE_LINE "Run 'fastraw --help' for the options.\n", stderr);
	exit(EXIT_USAGE);
}

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "tsc", required_argument, NULL, 't' },  { "debug", no_argument, NULL, 'd' },
		{ "stats", no_argument, NULL, 's' },      { "lib", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },       { "version", no_argument, NULL, 'V' },
		{ "clocks", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	/* '+': stop at the first non-option, so the program's own options are left alone. */
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (strcmp(optarg, TSC_UNO) && strcmp(optarg, TSC_ORD) && strcmp(optarg, TSC_FEN))
				bad_usage("--tsc takes " TSC_UNO ", " TSC_ORD " or " TSC_FEN ", not '%s'", optarg);
			o->tsc = optarg;
			break;
		case 'd':
			o->debug = 1;
			break;
		case 'c':
			if (!clocks_ok(optarg))
				bad_usage("--clocks takes all or a comma list of " CLOCK_WORDS ", not '%s'", optarg);
			o->clocks = optarg;
			break;
		case 's':
			o->stats = 1;
			break;
		case 'l':
			o->lib = optarg;
			break;
		case 'h':
			help();
			exit(0);
		case 'V':
			printf("fastraw %s\n", FASTRAW_VERSION);
			exit(0);
		case ':':
			bad_usage("option '%s' needs a value", argv[optind - 1]);
		default:
			/* optopt names an unknown short option; for a long one it is 0. */
			if (optopt)
				bad_usage("unknown option '-%c'", optopt);
			bad_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		bad_usage("no program to run");
	return optind;
}

static void set_env(const char *name, const char *value)
{
	if (setenv(name, value, 1) != 0) {
		fprintf(stderr, "fastraw: cannot set %s: %s\n", name, strerror(errno));
		exit(EXIT_LAUNCHER);
	}
}

static void unset_env(const char *name)
{
	if (unsetenv(name) != 0) {
		fprintf(stderr, "fastraw: cannot unset %s: %s\n", name, strerror(errno));
		exit(EXIT_LAUNCHER);
	}
}

int main(int argc, char **argv)
{
	char lib[PATH_MAX], prog[PATH_MAX], why[2048];
	struct opts o = { 0 };
	char *preload, *inherited;
	int first, rc, err, unread, copies;

	tool_output_init("fastraw", EXIT_LAUNCHER);
	first = parse(argc, argv, &o);
	if (launcher_find_lib(o.lib, lib, sizeof(lib), why, sizeof(why)) != 0) {
		fprintf(stderr, "fastraw: no usable libfastraw.so: %s%s\n", why,
			o.lib ? "" : "; name one with --lib PATH");
		return EXIT_LAUNCHER;
	}
	rc = launcher_resolve(argv[first], prog, sizeof(prog), why, sizeof(why));
	if (rc) {
		fprintf(stderr, "fastraw: %s: %s\n", argv[first], why);
		return rc;
	}
	rc = launcher_check(prog, &unread, why, sizeof(why));
	if (rc) {
		fprintf(stderr, "fastraw: %s: %s\n", prog, why);
		return rc;
	}
	/* The loader preloads into it if it is dynamically linked; if not, nothing is preloaded. */
	if (unread && o.debug)
		fprintf(stderr, "fastraw: %s: whether it is dynamically linked is unknown; preloading anyway\n",
			why);
	inherited = launcher_preload_inherited(environ, &copies);
	preload = copies && !inherited ? NULL : launcher_preload_value(lib, inherited);
	free(inherited);
	if (!preload) {
		fprintf(stderr, "fastraw: out of memory\n");
		return EXIT_LAUNCHER;
	}
	/*
	 * Exactly one LD_PRELOAD goes on, the one built here: a loader reading another copy (glibc's
	 * reads the last) would run the program without the library.
	 */
	while (getenv("LD_PRELOAD"))
		unset_env("LD_PRELOAD");
	set_env("LD_PRELOAD", preload);
	free(preload);
	if (copies > 1 && o.debug)
		fprintf(stderr, "fastraw: LD_PRELOAD was set %d times; their entries go on in one, in order\n",
			copies);
	if (o.tsc)
		set_env("FASTRAW_TSC", o.tsc);
	if (o.debug)
		set_env("FASTRAW_DEBUG", "1");
	if (o.stats)
		set_env("FASTRAW_STATS", "1");
	if (o.clocks)
		set_env("FASTRAW_CLOCKS", o.clocks);
	if (o.debug)
		fprintf(stderr, "fastraw: launching %s with LD_PRELOAD=%s\n", prog, getenv("LD_PRELOAD"));
	fflush(NULL);
	execv(prog, argv + first);
	err = errno;
	fprintf(stderr, "fastraw: %s: %s\n", prog, strerror(err));
	return err == ENOENT ? LAUNCHER_EXIT_NOT_FOUND : LAUNCHER_EXIT_CANNOT_RUN;
}
