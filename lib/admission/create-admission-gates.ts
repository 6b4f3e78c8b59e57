import { createAdmissionGate, type AdmissionGate } from "./create-admission-gate";
import { WORK_KINDS, type AdmissionSettings, type WorkKind } from "./work-kinds";

/** One gate per kind of work, sized from the settings. */
export function createAdmissionGates(settings: AdmissionSettings): Record<WorkKind, AdmissionGate> {
  const entries = WORK_KINDS.map((kind) => [kind, createAdmissionGate({ maxInFlight: settings.maxInFlight[kind], maxQueued: settings.maxQueued, maxWaitMs: settings.maxWaitMs })]);
  return Object.fromEntries(entries) as Record<WorkKind, AdmissionGate>;
}
