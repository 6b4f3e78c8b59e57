import type { Config, FaultPointName } from "../config";

/**
 * A test-only crash at one step of a store commit: when the configuration names this step
 * (TEAMMEM_FAULT_POINT), the process kills itself on the spot with SIGKILL, as a power cut or
 * an OOM kill would, with no cleanup, no finally blocks and no lease release. Production never
 * sets it; the check is one comparison.
 */
export function reachFaultPoint(config: Pick<Config, "faultPoint">, name: FaultPointName): void {
  if (config.faultPoint !== name) return;
  process.kill(process.pid, "SIGKILL");
  // The signal is delivered at once; this only makes sure not one more line runs meanwhile.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
}
