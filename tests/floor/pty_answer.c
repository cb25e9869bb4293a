/* SPDX-License-Identifier: MIT */
/* Runs a command on a new terminal and types one answer at its password prompt, as a person would. */
/*
 *   pty_answer PROMPT ANSWER COMMAND [ARG...]
 *
 * The command gets a pseudo-terminal as its controlling terminal and standard streams (su reads
 * its password from the terminal, never from a pipe). Everything it writes is copied to our
 * standard output. When its output contains PROMPT, ANSWER and a newline are typed, once, but only
 * after the terminal's echo is off: PAM's conversation prints the prompt and then turns echo off
 * with TCSAFLUSH, which discards whatever was typed before, so an answer sent on the prompt alone
 * could be lost. Exit status: the command's, 128 + N when signal N ended it, 124 when it neither
 * ended nor wrote anything for 120 s (a guard against a hang, not a measurement), 125 on an error
 * of our own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define IDLE_LIMIT_MS 120000
#define ECHO_POLL_MS 10

static pid_t start_child(int master, char **argv)
{
	const char *slave_name = ptsname(master);
	pid_t pid;

	if (!slave_name)
		return -1;
	pid = fork();
	if (pid != 0)
		return pid;
	/* A new session whose first terminal opened becomes its controlling terminal. */
	if (setsid() < 0)
		_exit(125);
	int slave = open(slave_name, O_RDWR);
	if (slave < 0 || ioctl(slave, TIOCSCTTY, 0) < 0)
		_exit(125);
	close(master);
	dup2(slave, 0);
	dup2(slave, 1);
	dup2(slave, 2);
	if (slave > 2)
		close(slave);
	execvp(argv[0], argv);
	fprintf(stderr, "pty_answer: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* On Linux the master's terminal attributes are the slave's, so the echo flag is readable here. */
static int echo_is_off(int master)
{
	struct termios t;

	return tcgetattr(master, &t) == 0 && !(t.c_lflag & ECHO);
}

static int exit_status(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 125;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	static char seen[65536];
	size_t seen_len = 0;
	int answered = 0, idle_ms = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: pty_answer PROMPT ANSWER COMMAND [ARG...]\n");
		return 125;
	}
	const char *prompt = argv[1], *answer = argv[2];
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0) {
		perror("pty_answer: pseudo-terminal");
		return 125;
	}
	pid_t pid = start_child(master, argv + 3);
	if (pid < 0) {
		perror("pty_answer: fork");
		return 125;
	}
	for (;;) {
		int prompted = !answered && strstr(seen, prompt) != NULL;
		struct pollfd p = { .fd = master, .events = POLLIN };
		int n = poll(&p, 1, prompted ? ECHO_POLL_MS : 1000);

		if (n < 0 && errno != EINTR)
			break;
		if (n > 0) {
			char buf[4096];
			ssize_t got = read(master, buf, sizeof(buf));

			/* EIO: every descriptor of the slave is closed, the command and its children are done. */
			if (got <= 0)
				break;
			fwrite(buf, 1, (size_t)got, stdout);
			fflush(stdout);
			if (seen_len + (size_t)got < sizeof(seen)) {
				memcpy(seen + seen_len, buf, (size_t)got);
				seen_len += (size_t)got;
				seen[seen_len] = '\0';
			}
			idle_ms = 0;
			continue;
		}
		if (prompted && echo_is_off(master)) {
			char line[512];
			int len = snprintf(line, sizeof(line), "%s\n", answer);

			if (len < 0 || (size_t)len >= sizeof(line) || write(master, line, (size_t)len) != len) {
				fprintf(stderr, "pty_answer: cannot type the answer\n");
				break;
			}
			answered = 1;
		}
		idle_ms += prompted ? ECHO_POLL_MS : 1000;
		if (idle_ms >= IDLE_LIMIT_MS) {
			fprintf(stderr, "pty_answer: %s wrote nothing for %d s%s; stopped\n", argv[3],
				IDLE_LIMIT_MS / 1000, answered ? "" : " and was not answered");
			kill(pid, SIGKILL);
			exit_status(pid);
			return 124;
		}
	}
	close(master);
	return exit_status(pid);
}
