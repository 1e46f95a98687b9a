/** Product photos as the browser loads them (docs/photos.md). */
/**
 * Where a photo's `/media/…` path is read from: the page's own origin, or the API's when the client is
 * hosted elsewhere (VITE_API_BASE names another origin; the renditions are served beside /api).
 */
export function mediaSrc(path: string): string {
  const base = import.meta.env.VITE_API_BASE;
  if (!base || !path.startsWith('/')) return path;
  try {
    return new URL(path, new URL(base, window.location.href)).href;
  } catch {
    return path;
  }
}
