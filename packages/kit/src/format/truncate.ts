/** Cuts text to `max` characters and marks the cut with '...' (notification previews, spec §2). */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
