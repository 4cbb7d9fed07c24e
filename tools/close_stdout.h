/* tools/close_stdout.h - the last thing crisp and crisp-bench do: close
 * stdout and learn whether any output was lost. */
#ifndef CRISP_TOOLS_CLOSE_STDOUT_H
#define CRISP_TOOLS_CLOSE_STDOUT_H

/* fflush(stdout) for output that must show as it is made (a progress
 * line); the first failure's errno is kept for cli_close_stdout. */
void cli_flush_stdout(void);

/* Closes stdout; returns 0, or -1 when a write failed, with errno its cause
 * (0 when only an earlier write failed and no cli_flush_stdout saw why).
 * was_closed: descriptor 1 was closed at start (and holds a stand-in), so
 * any output written was lost with EBADF. Nothing may use stdout after. */
int cli_close_stdout(int was_closed);

#endif
