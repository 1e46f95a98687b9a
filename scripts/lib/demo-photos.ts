/**
 * The demo's lot photos: a card in the auction's colour with the lot's name and its auction, drawn as
 * SVG and rendered to PNG by sharp (already the server's image library). The demo uploads them through
 * `POST /api/admin/products/{id}/images`, the same path as a seller's photos (docs/photos.md).
 */
import sharp from 'sharp';

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** The name in at most two lines of about `width` characters, broken between words. */
function lines(name: string, width = 18): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of name.split(/\s+/)) {
    if (line && (line + ' ' + word).length > width) { out.push(line); line = word; } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out.length <= 2 ? out : [out[0]!, `${out.slice(1).join(' ').slice(0, width - 1)}…`];
}

/** An 800×600 PNG card: `colour` fading to dark, a frame, the lot's name large and the auction's small. */
export async function lotPhoto(name: string, auction: string, colour: string): Promise<Buffer> {
  const text = lines(name);
  const top = text.length === 1 ? 300 : 265;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${colour}"/><stop offset="1" stop-color="#0f172a"/></linearGradient></defs>
  <rect width="800" height="600" fill="url(#g)"/>
  <rect x="36" y="36" width="728" height="528" rx="28" fill="none" stroke="#ffffff" stroke-opacity="0.35" stroke-width="4"/>
  <circle cx="400" cy="150" r="46" fill="#ffffff" fill-opacity="0.18"/>
  <text x="400" y="168" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="48" text-anchor="middle" fill="#ffffff" fill-opacity="0.9">${escapeXml(name.charAt(0).toUpperCase())}</text>
  ${text.map((l, i) => `<text x="400" y="${top + i * 66}" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="54" font-weight="700" text-anchor="middle" fill="#ffffff">${escapeXml(l)}</text>`).join('\n  ')}
  <text x="400" y="500" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="26" letter-spacing="3" text-anchor="middle" fill="#ffffff" fill-opacity="0.75">${escapeXml(auction.toUpperCase())}</text>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
