import sharp from 'sharp';

function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
}

/** A coloured square with the person's initials, rendered locally (no network needed). */
export async function initialsAvatar(name: string, colour: string, size = 256): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
  <rect width="100%" height="100%" fill="${colour}"/>
  <text x="50%" y="50%" dy="0.35em" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif"
    font-size="${Math.round(size * 0.42)}" font-weight="bold" fill="#ffffff">${initials(name)}</text>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
