/**
 * Milliseconds of CPU time the calling thread has used. A bound on work reads this rather than
 * the clock, so that a loaded machine does not turn valid input into an error, and rather than the
 * whole process's time, so that other threads' work (the collector's helpers, the libuv pool
 * hashing a password) is not charged to it. Node before 23.9 has no per-thread figure: the
 * process's is the closest.
 */
export function threadCpuMs(): number {
  const used =
    typeof process.threadCpuUsage === 'function' ? process.threadCpuUsage() : process.cpuUsage();
  return (used.user + used.system) / 1000;
}
