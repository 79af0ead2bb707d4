/** A stream progress is drawn on: a terminal (a bar redrawn in place) or anything else (lines). */
export type ProgressStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/** Where a command-line program writes: the process's standard output and error, or a buffer. */
export interface ProgramOutput {
  out(text: string): void;
  err(text: string): void;
  /** Progress of long commands (the importers): the process's standard error. */
  progress?: ProgressStream;
}

/**
 * Runs a program (the CLI, the migration commands) as the process: standard output and error,
 * and its result as the exit code; an error it did not expect exits 1 with its message.
 */
export function runAsProcess(program: (output: ProgramOutput) => Promise<number>): void {
  program({
    out: (text) => console.log(text),
    err: (text) => console.error(text),
    progress: process.stderr,
  }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
}
