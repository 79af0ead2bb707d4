/** Where a command-line program writes: the process's standard output and error, or a buffer. */
export interface ProgramOutput {
  out(text: string): void;
  err(text: string): void;
  /** Progress of long commands (the importers): the process's standard error. */
  progress?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}
