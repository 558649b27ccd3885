/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helper processes: the helper's side (the core's is proc/helper.h). The
 * guardian is the exec'd hostbench in helper mode. It runs no plugin code
 * itself, so nothing a plugin does to signals, locale or memory reaches
 * it: it reads the request, forks the task (which may load a plugin),
 * waits for the task's answer and exit, kills every process the task left
 * behind (it is a child subreaper, so daemons come back to it), and then
 * answers the core. It dies with the core (a parent-death signal), taking
 * the task's whole tree with it.
 */
#ifndef HB_CORE_PROC_GUARDIAN_H
#define HB_CORE_PROC_GUARDIAN_H

/*
 * One kind of work a helper does, run in the task process: request is the
 * text the core sent (NUL-terminated); the answer goes to answer_fd. The
 * return value is the task's exit status (0: answered).
 */
typedef int (*guardian_task_fn)(const char *request, int answer_fd);

/* A task by the mode name the core asks for. */
struct guardian_task {
	const char *mode;
	guardian_task_fn run;
};

/*
 * The whole life of a helper started as `hostbench __helper MODE PARENT`
 * (argv as main() got it): tasks lists the modes it knows, ended by a
 * NULL mode. Returns the exit status for main(): 0 when it answered, 2 for
 * a bad call, 1 when told to end or orphaned.
 */
int guardian_main(int argc, char **argv, const struct guardian_task *tasks);

#endif
