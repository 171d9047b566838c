/** How tables show times (`--time utc|local|relative`). */
export type TimeMode = 'utc' | 'local' | 'relative';
export const TIME_MODES: readonly TimeMode[] = ['utc', 'local', 'relative'];

/** A timestamp as a table shows it: "3m" ago, "2026-11-01 09:00:00Z", or local with its offset. */
export function formatTime(timestamp: string | null | undefined, mode: TimeMode, now: number): string {
  if (!timestamp) return '';
  if (mode === 'relative') return age(timestamp, now);
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) return timestamp;
  const date = new Date(ms);
  if (mode === 'utc') return `${date.toISOString().slice(0, 19).replace('T', ' ')}Z`;
  const offset = -date.getTimezoneOffset();
  const local = new Date(ms + offset * 60_000).toISOString().slice(0, 19).replace('T', ' ');
  const sign = offset < 0 ? '-' : '+';
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offset) % 60).padStart(2, '0');
  return `${local}${sign}${hours}:${minutes}`;
}

/** Whether a field holds a time: `created_at`, `last_check.time`, a status bucket's `t`. */
export function isTimeField(path: string): boolean {
  const key = path.slice(path.lastIndexOf('.') + 1);
  return key.endsWith('_at') || key === 'time' || key === 't';
}

/** "3m", "5h", "2d": how long ago a timestamp was, for tables. */
export function age(timestamp: string | null | undefined, now: number): string {
  if (!timestamp) return '';
  const seconds = Math.max(0, Math.round((now - Date.parse(timestamp)) / 1000));
  if (Number.isNaN(seconds)) return timestamp;
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}
