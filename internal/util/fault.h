/*
 * Named fault points, for tests that must kill a process at one exact
 * moment (a crash between two durable writes). With ESTAFETTE_FAULT=NAME in
 * the environment, est_fault_point(NAME) kills the process with SIGKILL, as
 * a power cut would; otherwise it does nothing. Points in use:
 *
 *   fetch-after-store   a mail's outcome is stored, its message not yet marked seen
 */
#ifndef EST_UTIL_FAULT_H
#define EST_UTIL_FAULT_H

void est_fault_point(const char *name);

#endif
