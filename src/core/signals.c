/*
 * Flag-only signal handling (stress-ng's rule): the handler stores the
 * signal number and pokes a non-blocking self-pipe; everything else happens
 * in the session's main loop, which polls the pipe beside the foreground.
 */
#include "contend/signals.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t pending;
static int pipefd[2] = { -1, -1 };
static const int handled[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void on_signal(int sig)
{
	int saved = errno;
	char c = 0;

	if (!pending)
		pending = sig;
	if (pipefd[1] >= 0)
		(void)!write(pipefd[1], &c, 1);
	errno = saved;
}

int ct_signals_install(void)
{
	struct sigaction sa;

	if (pipefd[0] < 0 && pipe2(pipefd, O_CLOEXEC | O_NONBLOCK))
		return -errno;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < CT_ARRAY_SIZE(handled); i++)
		if (sigaction(handled[i], &sa, NULL))
			return -errno;
	signal(SIGPIPE, SIG_IGN);
	/* an inherited SIG_IGN would make the kernel reap our children for us */
	signal(SIGCHLD, SIG_DFL);
	/* a stopped contend would go on timing a foreground that keeps running */
	signal(SIGTSTP, SIG_IGN);
	return 0;
}

int ct_signals_fd(void)
{
	return pipefd[0];
}

int ct_signals_pending(void)
{
	return pending;
}
