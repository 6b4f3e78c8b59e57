/** Short, unambiguous labels for the Overview, computed on the server (no locale drift at hydration). */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "4 Dec" from "2026-12-04" (a UTC day or week start). */
export function formatDay(isoDay: string): string {
  const [, month, day] = isoDay.slice(0, 10).split("-").map(Number);
  return `${day} ${MONTHS[(month ?? 1) - 1]}`;
}

/** "45 min", "4 h", "2.5 days". */
export function formatDuration(hours: number): string {
  if (hours < 1) return `${Math.max(1, Math.round(hours * 60))} min`;
  if (hours < 48) return `${Math.round(hours * 10) / 10} h`;
  return `${Math.round((hours / 24) * 10) / 10} days`;
}

export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function memoryHref(projectId: string, path: string): string {
  return `/memories/team/${encodeURIComponent(projectId)}/${path.split("/").map(encodeURIComponent).join("/")}`;
}
