import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MediaUploadResponse, Post, PostImage } from '@campus/contracts';
import type { UploadImage } from '@campus/kit/media';
import { configureApi } from '@campus/kit/api';
import { PostCard, PostImages, RepostDialog } from '@campus/kit/post-card';
import {
  ADA,
  BEN,
  TEST_API_URL,
  TEST_THUMBHASH,
  makeImage,
  makePost,
  mockApi,
  renderPage,
  uploadedAs,
} from '@campus/kit/testing';
import { gridRatio, placeholderUrl, sourcesOf } from './image-sources';

/** A post carrying images (contracts' `images`, issue 39). */
const withImages = (post: Post, images: PostImage[]): Post => ({ ...post, images });

const LAB = makeImage({ id: 'lab', alt: 'The robotics lab, two arms on a bench' });
const POSTER = makeImage({ id: 'poster', width: 900, height: 1600, alt: 'Club fair poster' });

// jsdom has no PointerEvent: the viewer's gestures read pointerId and clientX/clientY from one.
class TestPointerEvent extends MouseEvent {
  readonly pointerId: number;
  constructor(type: string, init: PointerEventInit = {}) {
    super(type, init);
    this.pointerId = init.pointerId ?? 1;
  }
}
beforeAll(() => {
  Object.assign(globalThis, { PointerEvent: TestPointerEvent });
});
afterAll(() => {
  delete (globalThis as { PointerEvent?: unknown }).PointerEvent;
});

beforeEach(() => {
  configureApi({ baseUrl: TEST_API_URL });
  mockApi(() => ({ status: 404 }));
});

function renderImages(images: PostImage[], props: { priority?: boolean; hidden?: boolean } = {}) {
  return renderPage(
    <>
      <button type="button">before</button>
      <PostImages images={images} {...props} />
    </>,
  );
}

const cells = () => screen.getAllByRole('button', { name: /^Open image/ });

describe('image sources', () => {
  it('when an image has AVIF and WebP variants, then each format is a srcset, smallest first, with absolute URLs', () => {
    const sources = sourcesOf(makeImage({ id: 'x' }));
    expect(sources.avif).toBe(
      `${TEST_API_URL}/api/media/x-400.avif 400w, ${TEST_API_URL}/api/media/x-1200.avif 1200w`,
    );
    expect(sources.webp).toBe(
      `${TEST_API_URL}/api/media/x-400.webp 400w, ${TEST_API_URL}/api/media/x-1200.webp 1200w, ${TEST_API_URL}/api/media/x-1600.webp 1600w`,
    );
    expect(sources.src).toBe(`${TEST_API_URL}/api/media/x-400.webp`);
  });

  it('when one image is very tall or very wide, then the grid keeps between 4:5 and 2:1; two are 2:1, three or four 3:2', () => {
    expect(gridRatio([{ width: 1000, height: 4000 }])).toBe(4 / 5);
    expect(gridRatio([{ width: 4000, height: 1000 }])).toBe(2);
    expect(gridRatio([{ width: 1600, height: 1200 }])).toBeCloseTo(4 / 3);
    expect(gridRatio([LAB, POSTER])).toBe(2);
    expect(gridRatio([LAB, POSTER, LAB])).toBe(3 / 2);
    expect(gridRatio([LAB, POSTER, LAB, POSTER])).toBe(3 / 2);
  });

  it('when a ThumbHash is decoded, then it is a PNG data URL; a broken one gives none', () => {
    expect(placeholderUrl(TEST_THUMBHASH)).toMatch(/^data:image\/png;base64,/);
    expect(placeholderUrl('not base64 at all!')).toBe('');
  });
});

describe('PostImages', () => {
  it('when a post has two images, then each is a picture with AVIF and WebP sources, its alt, its size and its placeholder, in a grid of reserved shape', async () => {
    renderImages([LAB, POSTER]);
    const grid = screen.getByRole('group', { name: '2 images' });
    expect(grid).toHaveStyle({ aspectRatio: '2' });
    const [first, second] = cells();
    expect(first).toHaveAccessibleName('Open image 1 of 2: The robotics lab, two arms on a bench');
    expect(second).toHaveAccessibleName('Open image 2 of 2: Club fair poster');
    // The pictures come once the page has painted (post-images-first-paint.test.tsx).
    const img = await within(first!).findByRole('img', { name: LAB.alt });
    expect(first!.style.backgroundImage).toMatch(/^url\("data:image\/png;base64,/);
    expect(first!.style.backgroundColor).toMatch(/^rgb/);
    expect(img).toHaveAttribute('width', '1600');
    expect(img).toHaveAttribute('height', '1200');
    expect(img).toHaveAttribute('loading', 'lazy');
    expect(img).not.toHaveAttribute('fetchpriority');
    const sources = first!.querySelectorAll('source');
    expect(Array.from(sources, (source) => source.getAttribute('type'))).toEqual([
      'image/avif',
      'image/webp',
    ]);
    expect(sources[0]).toHaveAttribute('srcset', sourcesOf(LAB).avif);
    expect(sources[1]).toHaveAttribute('sizes', expect.stringContaining('calc(50vw - 44px)'));
  });

  it('when the images are the page first, then they load at once and the first with high priority', () => {
    renderImages([LAB, POSTER], { priority: true });
    const [first, second] = cells().map((cell) => within(cell).getByRole('img'));
    expect(first).toHaveAttribute('fetchpriority', 'high');
    expect(first).toHaveAttribute('loading', 'eager');
    expect(second).toHaveAttribute('loading', 'eager');
    expect(second).not.toHaveAttribute('fetchpriority');
  });

  it('when an image is opened with the keyboard, then the viewer shows it, the arrows move, ALT shows the alt text, and Escape gives the focus back', async () => {
    const user = userEvent.setup();
    renderImages([LAB, POSTER]);
    await user.click(screen.getByRole('button', { name: 'before' }));
    await user.tab();
    expect(cells()[0]).toHaveFocus();
    await user.keyboard('{Enter}');

    const viewer = await screen.findByRole('dialog', { name: 'Image 1 of 2' });
    expect(within(viewer).getByRole('img', { name: LAB.alt })).toBeInTheDocument();
    expect(within(viewer).getByRole('button', { name: 'Previous image' })).toBeDisabled();

    await user.keyboard('{ArrowRight}');
    expect(viewer).toHaveAccessibleName('Image 2 of 2');
    const alt = within(viewer).getByRole('button', { name: 'ALT' });
    expect(alt).toHaveAttribute('aria-expanded', 'false');
    expect(within(viewer).getByText(POSTER.alt)).not.toBeVisible();
    await user.click(alt);
    expect(alt).toHaveAttribute('aria-expanded', 'true');
    expect(within(viewer).getByText(POSTER.alt)).toBeVisible();

    await user.keyboard('{ArrowLeft}');
    expect(viewer).toHaveAccessibleName('Image 1 of 2');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(cells()[0]).toHaveFocus());
  });

  it('when Next reaches the last image, then the focus moves to Previous rather than being lost', async () => {
    const user = userEvent.setup();
    renderImages([LAB, POSTER]);
    await user.click(cells()[0]!);
    const viewer = await screen.findByRole('dialog', { name: 'Image 1 of 2' });
    await user.click(within(viewer).getByRole('button', { name: 'Next image' }));
    expect(viewer).toHaveAccessibleName('Image 2 of 2');
    expect(within(viewer).getByRole('button', { name: 'Previous image' })).toHaveFocus();
  });

  it('when the member swipes left or right on the image, then the viewer moves to the next or the previous one', async () => {
    const user = userEvent.setup();
    renderImages([LAB, POSTER]);
    await user.click(cells()[1]!);
    const viewer = await screen.findByRole('dialog', { name: 'Image 2 of 2' });
    const stage = within(viewer).getByTestId('image-viewer-stage');
    const swipe = (fromX: number, toX: number) => {
      fireEvent.pointerDown(stage, { pointerId: 1, clientX: fromX, clientY: 300 });
      fireEvent.pointerMove(stage, { pointerId: 1, clientX: toX, clientY: 310 });
      fireEvent.pointerUp(stage, { pointerId: 1, clientX: toX, clientY: 310 });
    };
    act(() => swipe(100, 300));
    expect(viewer).toHaveAccessibleName('Image 1 of 2');
    act(() => swipe(300, 100));
    expect(viewer).toHaveAccessibleName('Image 2 of 2');
    // A short move is not a swipe.
    act(() => swipe(300, 280));
    expect(viewer).toHaveAccessibleName('Image 2 of 2');
  });

  it('when the member pinches out, then the image zooms (at most 4x), and back to 1x it rests', async () => {
    const user = userEvent.setup();
    renderImages([LAB]);
    await user.click(cells()[0]!);
    const viewer = await screen.findByRole('dialog', { name: 'Image' });
    const stage = within(viewer).getByTestId('image-viewer-stage');
    const picture = () => stage.querySelector('picture')!;
    act(() => {
      fireEvent.pointerDown(stage, { pointerId: 1, clientX: 100, clientY: 100 });
      fireEvent.pointerDown(stage, { pointerId: 2, clientX: 200, clientY: 100 });
      fireEvent.pointerMove(stage, { pointerId: 2, clientX: 300, clientY: 100 });
    });
    expect(picture().style.transform).toBe('translate(0px, 0px) scale(2)');
    act(() => void fireEvent.pointerMove(stage, { pointerId: 2, clientX: 1000, clientY: 100 }));
    expect(picture().style.transform).toBe('translate(0px, 0px) scale(4)');
    act(() => void fireEvent.pointerMove(stage, { pointerId: 2, clientX: 150, clientY: 100 }));
    expect(picture().style.transform).toBe('');
  });

  it("when the images are a reported post's in the admin's queue, then only placeholders show until the admin clicks, and nothing is fetched before", async () => {
    const user = userEvent.setup();
    renderImages([LAB, POSTER], { hidden: true });
    expect(screen.queryAllByRole('img')).toHaveLength(0);
    expect(document.querySelector('source, img')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Show the 2 reported images' }));
    expect(cells()).toHaveLength(2);
    expect(screen.getByRole('img', { name: POSTER.alt })).toBeInTheDocument();
  });
});

describe('PostCard with images', () => {
  it('when a post has images, then the card shows them under its text, and opening one does not open the post', async () => {
    const user = userEvent.setup();
    const post = withImages(makePost({ id: 5, author: ADA }), [LAB]);
    renderPage(<PostCard post={post} imagePriority />, { signedInAs: BEN });
    const card = screen.getByRole('article', { name: `Post by ${ADA.name}` });
    const cell = within(card).getByRole('button', { name: `Open image 1 of 1: ${LAB.alt}` });
    expect(within(cell).getByRole('img')).toHaveAttribute('fetchpriority', 'high');
    await user.click(cell);
    expect(await screen.findByRole('dialog', { name: 'Image' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it("when a quote carries images of its own and quotes a post with images, then both show, the quote's first", () => {
    const original = withImages(makePost({ id: 6, author: ADA, content: 'Original' }), [POSTER]);
    const quote = withImages(
      makePost({
        id: 7,
        author: BEN,
        repostComment: 'Look at this',
        originalPostId: original.id,
        originalPost: original,
      }),
      [LAB],
    );
    renderPage(<PostCard post={quote} />, { signedInAs: ADA });
    const names = screen
      .getAllByRole('button', { name: /^Open image/ })
      .map((button) => button.getAttribute('aria-label'));
    expect(names).toEqual([`Open image 1 of 1: ${LAB.alt}`, `Open image 1 of 1: ${POSTER.alt}`]);
  });

  it('when a post has no images, then the card has no image grid', () => {
    renderPage(<PostCard post={makePost({ author: ADA })} />, { signedInAs: BEN });
    expect(screen.queryByRole('group', { name: /image/i })).not.toBeInTheDocument();
  });
});

describe('RepostDialog with images (a quote)', () => {
  beforeAll(() => {
    // jsdom has no object URLs; the previews only need a string.
    Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => undefined });
  });

  it('when a quote gets an image, then Repost waits for it and for a comment, and sends both with the alt text', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const request = jest.fn((_postId: number, _comment?: string, _images?: unknown) =>
      Promise.resolve(makePost({ id: 99, author: BEN })),
    );
    let finish: (media: MediaUploadResponse) => void = () => undefined;
    const upload: UploadImage = () => new Promise((resolve) => (finish = resolve));
    renderPage(
      <RepostDialog
        post={makePost({ id: 40, author: ADA })}
        open
        onOpenChange={() => undefined}
        request={request}
        upload={upload}
      />,
      { signedInAs: BEN },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Repost' });
    await user.upload(await within(dialog).findByLabelText('Choose images'), [
      new File([new Uint8Array(8)], 'stand.png', { type: 'image/png' }),
    ]);
    const repost = within(dialog).getByRole('button', { name: 'Repost' });
    expect(repost).toBeDisabled();
    expect(within(dialog).getByText('Uploading images…')).toBeInTheDocument();
    await act(async () => finish(uploadedAs(makeImage({ id: 'stand' }))));
    expect(within(dialog).getByText('Add a comment to quote with images.')).toBeInTheDocument();
    expect(repost).toBeDisabled();

    await user.type(within(dialog).getByLabelText('Add a comment (optional)'), 'Our stand!');
    await user.type(within(dialog).getByLabelText('Alt text for image 1'), 'The stand');
    expect(repost).toBeEnabled();
    await user.click(repost);
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(request).toHaveBeenCalledWith(40, 'Our stand!', [{ id: 'stand', alt: 'The stand' }]);
  });
});
