import sharp from 'sharp';
import { attachMedia } from '../modules/media/attach-media';
import { storeImage } from '../modules/media/upload-media';
import type { AppContext } from '../context';

/**
 * Demo pictures (issue 39): posters, lab snapshots and charts drawn at seed time from shapes,
 * gradients and SVG text rasterised by sharp (no stock photos), processed as uploads are (the
 * image pool: variants, ThumbHash, no metadata) and attached to some recent demo posts.
 */
const PALETTES = [
  ['#1d4ed8', '#9333ea', '#fde047'],
  ['#047857', '#0ea5e9', '#fef3c7'],
  ['#b91c1c', '#f97316', '#fff7ed'],
  ['#334155', '#14b8a6', '#f1f5f9'],
  ['#7c3aed', '#db2777', '#fdf2f8'],
  ['#0f766e', '#84cc16', '#ecfccb'],
] as const;

const TITLES = [
  ['Club Fair', 'Thursday · Main Quad'],
  ['Robotics Lab', 'Open house 4–6 pm'],
  ['Hackathon', '48 hours · Prizes'],
  ['Study Group', 'Linear algebra · Room 204'],
  ['Career Day', '30 employers · Hall B'],
  ['Campus Run', '5 km · Sunday 8 am'],
  ['Poetry Night', 'Library café'],
  ['Chess Club', 'Beginners welcome'],
] as const;

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** One picture, `width`×`height`, drawn from `seed` (the same seed draws the same picture). */
export function demoPicture(seed: number, width: number, height: number): Promise<Buffer> {
  const [a, b, c] = PALETTES[seed % PALETTES.length]!;
  const [title, subtitle] = TITLES[seed % TITLES.length]!;
  const shapes = Array.from({ length: 7 }, (_, i) => {
    const x = ((seed * 37 + i * 131) % 100) / 100;
    const y = ((seed * 53 + i * 71) % 100) / 100;
    const r = 0.06 + (((seed + i) * 29) % 20) / 100;
    return i % 2 === 0
      ? `<circle cx="${x * width}" cy="${y * height}" r="${r * height}" fill="${c}" opacity="0.25"/>`
      : `<rect x="${x * width}" y="${y * height}" width="${r * width}" height="${r * height}" rx="${r * 40}" fill="${b}" opacity="0.35" transform="rotate(${((seed * 17 + i * 23) % 60) - 30} ${x * width} ${y * height})"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${shapes}
    <text x="50%" y="46%" text-anchor="middle" font-family="sans-serif" font-weight="700"
      font-size="${Math.round(height / 7)}" fill="${c}">${escapeXml(title)}</text>
    <text x="50%" y="62%" text-anchor="middle" font-family="sans-serif"
      font-size="${Math.round(height / 16)}" fill="${c}" opacity="0.9">${escapeXml(subtitle)}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** Sizes of the demo pictures: landscape, portrait, square. */
const SHAPES: Array<[number, number]> = [
  [1000, 667],
  [720, 900],
  [800, 800],
];

/** Which demo posts get pictures: every third of the newest 36 plain posts (not job posts). */
export async function postsForDemoImages(target: AppContext): Promise<number[]> {
  const recent = await target.models.Post.find(
    { originalPostId: null, sharedCommentId: null, isJdTagged: false, deletedAt: null },
    { _id: 1 },
  )
    .sort({ createdAt: -1 })
    .limit(36)
    .lean();
  return recent.filter((_, i) => i % 3 === 0).map((p) => p._id);
}

/**
 * Attaches pictures to `postIds` (1 to 4 each, from the post id), drawing and processing two
 * at a time (the pool's threads and the drawing overlap). Answers how many pictures it stored.
 */
export async function seedDemoImages(target: AppContext, postIds: number[]): Promise<number> {
  const plans = postIds.map((postId, i) => ({
    postId,
    pictures: Array.from({ length: [1, 2, 1, 1, 4, 1][i % 6]! }, (_, k) => {
      const [width, height] = SHAPES[(postId + k) % SHAPES.length]!;
      return {
        seed: postId * 5 + k,
        width,
        height,
        alt: `${TITLES[(postId * 5 + k) % TITLES.length]![0]} poster`,
      };
    }),
  }));
  let stored = 0;
  for (let at = 0; at < plans.length; at += 2) {
    const counts = await Promise.all(
      plans.slice(at, at + 2).map(async ({ postId, pictures }) => {
        const images = await Promise.all(
          pictures.map(async (p) => ({
            bytes: await demoPicture(p.seed, p.width, p.height),
            alt: p.alt,
          })),
        );
        const post = await target.models.Post.findById(postId, { authorId: 1 }).lean();
        if (!post) return 0;
        const uploads: Array<{ id: string; alt: string }> = [];
        for (const image of images) {
          const doc = await storeImage(target, post.authorId, { bytes: image.bytes });
          uploads.push({ id: doc._id, alt: image.alt });
        }
        await target.transaction(async () => {
          const attached = await attachMedia(target, post.authorId, postId, uploads);
          await target.models.Post.updateOne({ _id: postId }, { $set: { images: attached } });
        });
        return images.length;
      }),
    );
    stored += counts.reduce((sum, n) => sum + n, 0);
  }
  return stored;
}
