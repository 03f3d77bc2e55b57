import type { MediaUploadResponse, Post, PostImage } from '@campus/contracts';
import { rgbaToThumbHash } from 'thumbhash';
import type { SessionUser } from '@campus/kit/api';

export const ADA: SessionUser = {
  id: 1,
  name: 'Ada Okafor',
  email: 'ada.okafor@campus.edu',
  avatarUrl: null,
};
export const BEN: SessionUser = {
  id: 2,
  name: 'Ben Larsen',
  email: 'ben.larsen@campus.edu',
  avatarUrl: null,
};

let nextPostId = 1000;

/** A post by Ben with no engagement, not deletable by the viewer; every call gets a new id unless `overrides.id` is given. */
export function makePost(overrides: Partial<Post> = {}): Post {
  const id = overrides.id ?? nextPostId++;
  return {
    id,
    content: `Post number ${id}`,
    createdAt: new Date().toISOString(),
    isJdTagged: false,
    likesCount: 0,
    repostsCount: 0,
    commentsCount: 0,
    isLiked: false,
    isReposted: false,
    canDelete: false,
    author: BEN,
    originalPostId: null,
    repostComment: null,
    originalPost: null,
    ...overrides,
  };
}

/** `count` distinct posts. */
export const makePosts = (count: number) => Array.from({ length: count }, () => makePost());

/** The `GET /api/users/{id}` profile of `user` (joined 90 days ago, no follows, no posts). */
export function profileOf(user: SessionUser, extra: Record<string, unknown> = {}) {
  return {
    ...user,
    bio: '',
    createdAt: new Date(Date.now() - 90 * 24 * 3600 * 1000).toISOString(),
    followingCount: 0,
    followersCount: 0,
    isFollowing: false,
    posts: [],
    ...extra,
  };
}

/** A real ThumbHash (base64) of a small blue-to-orange gradient. */
function gradientThumbHash(): string {
  const size = 16;
  const rgba = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const at = (y * size + x) * 4;
      rgba.set([(x * 255) / size, 120, 255 - (y * 255) / size, 255], at);
    }
  }
  return btoa(String.fromCharCode(...rgbaToThumbHash(size, size, rgba)));
}

export const TEST_THUMBHASH = gradientThumbHash();

/**
 * An uploaded image as the API answers it (contracts' PostImage, issue 39): 1,600 × 1,200 with
 * WebP variants at 400, 1,200 and 1,600 px and AVIF at 400 and 1,200 px, under `/api/media/`.
 */
export function makeImage(overrides: Partial<PostImage> = {}): PostImage {
  const id = overrides.id ?? `m${nextImageId++}`;
  const width = overrides.width ?? 1600;
  const height = overrides.height ?? 1200;
  const variant = (w: number, type: 'image/webp' | 'image/avif') => ({
    url: `/api/media/${id}-${w}.${type === 'image/webp' ? 'webp' : 'avif'}`,
    width: w,
    height: Math.round((w * height) / width),
    type,
  });
  return {
    id,
    width,
    height,
    placeholder: TEST_THUMBHASH,
    alt: '',
    variants: [
      variant(400, 'image/webp'),
      variant(1200, 'image/webp'),
      variant(width, 'image/webp'),
      variant(400, 'image/avif'),
      variant(1200, 'image/avif'),
    ],
    ...overrides,
  };
}

let nextImageId = 1;

/** What `POST /api/media` answers for an upload (`expiresAt` a day later). */
export function uploadedAs(image: PostImage): MediaUploadResponse {
  const { alt: _alt, ...media } = image;
  return { ...media, expiresAt: new Date(Date.now() + 24 * 3600 * 1000).toISOString() };
}
