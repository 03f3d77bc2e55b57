import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import useSWR from 'swr';
import { configureApi } from '@campus/kit/api';
import type { MediaUploadResponse } from '@campus/contracts';
import { ApiError } from '@campus/kit/api';
import type { UploadImage } from '@campus/kit/media';
import { callsTo, makeImage, mockApi, TEST_API_URL, uploadedAs } from '@campus/kit/testing';
import { DataProvider } from '@campus/kit/data';
import { onAppEvent } from '@campus/kit/events';
import { KitThemeProvider } from '@campus/kit/theme';
import { Toaster, dismissToast } from '@campus/kit/toast';
import PostComposer from './post-composer';

/** Every request answers `status` with `{ id: 1 }`, once `release` is called. */
function respondWith(status: number, body: unknown = { id: 1 }) {
  let release: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (release = resolve));
  const fetchMock = mockApi(async () => {
    await answered;
    return { status, body };
  });
  return { fetchMock, release };
}

function Harness({ upload }: { upload?: UploadImage }) {
  const [open, setOpen] = useState(true);
  return (
    <KitThemeProvider>
      <DataProvider>
        <button onClick={() => setOpen(true)}>open</button>
        <PostComposer open={open} onOpenChange={setOpen} upload={upload} />
        <Toaster />
      </DataProvider>
    </KitThemeProvider>
  );
}

/** Uploads the test answers one by one (`POST /api/media` is replaced through `upload`). */
function controlledUploads() {
  const pending: {
    file: File;
    resolve: (media: MediaUploadResponse) => void;
    reject: (error: unknown) => void;
  }[] = [];
  const upload: UploadImage = (file) =>
    new Promise((resolve, reject) => pending.push({ file, resolve, reject }));
  return { pending, upload };
}

const png = (name: string) => new File([new Uint8Array(8)], name, { type: 'image/png' });

beforeAll(() => {
  // jsdom has no object URLs; the previews only need a string.
  Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => undefined });
});

beforeEach(() => {
  configureApi({ baseUrl: TEST_API_URL });
  act(() => dismissToast());
});

describe('PostComposer', () => {
  it('starts with sync on, JD off and Post disabled until there is text', async () => {
    render(<Harness />);
    // The kit's Dialog fetches its code on first opening (issue 22): found once it is there.
    expect(await screen.findByRole('checkbox', { name: 'Sync to profile timeline' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Tag as JD (Jobs/Admissions)' })).not.toBeChecked();
    const post = screen.getByRole('button', { name: 'Post' });
    expect(post).toBeDisabled();
    await userEvent.type(screen.getByRole('textbox'), '   ');
    expect(post).toBeDisabled();
    await userEvent.type(screen.getByRole('textbox'), 'hello');
    expect(post).toBeEnabled();
  });

  it('when the text goes over 5000 characters, then the counter warns and Post is disabled, the text kept (issue 41)', async () => {
    const fetchMock = mockApi(() => ({ status: 201, body: { id: 1 } }));
    render(<Harness />);
    const field = await screen.findByRole('textbox', { name: "What's happening on campus?" });
    expect(field).toHaveAccessibleDescription('0/5000');
    await userEvent.click(field);
    await userEvent.paste('x'.repeat(5001));
    expect(field).toHaveValue('x'.repeat(5001));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription('1 character over the limit 5001/5000');
    expect(screen.getByText('1 character over the limit')).toBeVisible();
    const post = screen.getByRole('button', { name: 'Post' });
    expect(post).toBeDisabled();
    fireEvent.submit(post.closest('form')!);
    expect(callsTo(fetchMock, '/api/posts', 'POST')).toHaveLength(0);

    await userEvent.type(field, '{Backspace}');
    expect(field).toHaveAccessibleDescription('5000/5000');
    expect(field).not.toHaveAttribute('aria-invalid');
    expect(post).toBeEnabled();
  });

  it('sends the trimmed post, shows Posting..., then resets, closes, announces and fires postCreated', async () => {
    const { fetchMock, release } = respondWith(201);
    const created = jest.fn();
    const off = onAppEvent('postCreated', created);
    render(<Harness />);
    await userEvent.type(screen.getByRole('textbox'), '  Internship fair on Friday  ');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Sync to profile timeline' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Tag as JD (Jobs/Admissions)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    expect(screen.getByRole('button', { name: 'Posting...' })).toBeDisabled();
    await act(async () => release());

    expect(await screen.findByText('Post created successfully!')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(created).toHaveBeenCalledTimes(1);
    expect(created).toHaveBeenCalledWith({ postId: 1 });
    off();
    expect(fetchMock).toHaveBeenCalledWith(
      'http://api.test/api/posts',
      expect.objectContaining({
        method: 'POST',
        body: JSON.stringify({
          content: 'Internship fair on Friday',
          syncToProfile: false,
          isJdTagged: true,
        }),
      }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'open' }));
    expect(screen.getByRole('textbox')).toHaveValue('');
    expect(screen.getByRole('checkbox', { name: 'Sync to profile timeline' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Tag as JD (Jobs/Admissions)' })).not.toBeChecked();
  });

  it('mentions a member picked with the keyboard and sends their id with the post (issue 40)', async () => {
    const fetchMock = mockApi(({ method, pathname, url }) => {
      if (pathname === '/api/users/mention-suggestions') {
        const all = [
          {
            id: 2,
            name: 'Ben Larsen',
            email: 'ben@campus.edu',
            avatarUrl: null,
            isFollowing: true,
          },
          { id: 6, name: 'Bo Chen', email: 'bo@campus.edu', avatarUrl: null, isFollowing: false },
        ];
        const q = (url.searchParams.get('q') ?? '').toLowerCase();
        return { status: 200, body: all.filter((m) => m.name.toLowerCase().startsWith(q)) };
      }
      if (method === 'POST' && pathname === '/api/posts') return { status: 201, body: { id: 1 } };
      return undefined;
    });
    render(<Harness />);
    const field = await screen.findByRole('textbox', { name: "What's happening on campus?" });
    await userEvent.type(field, 'Study group with @b');
    const list = await screen.findByRole('listbox', { name: 'Members to mention' });
    expect(within(list).getAllByRole('option')).toHaveLength(2);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(field).toHaveValue('Study group with @Bo Chen ');
    // Escape closed the list only: the composer stays open
    await userEvent.type(field, 'and @');
    await screen.findByRole('listbox');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Create Post' })).toBeInTheDocument();
    await userEvent.type(field, 'friends');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    expect(await screen.findByText('Post created successfully!')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, '/api/posts', 'POST');
    expect(JSON.parse(String(call?.init.body))).toEqual({
      content: 'Study group with @Bo Chen and @friends',
      syncToProfile: true,
      isJdTagged: false,
      mentions: [6],
    });
  });

  it("keeps the text and shows the API's limit message when the member posts too fast (429)", async () => {
    const message =
      'Too many posts: you can make at most 10 posts per minute. Please try again in 30 seconds.';
    const { release } = respondWith(429, { message });
    release();
    render(<Harness />);
    await userEvent.type(screen.getByRole('textbox'), 'hello');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('textbox')).toHaveValue('hello');
  });

  it('keeps the text and shows the destructive toast when posting fails', async () => {
    const { release } = respondWith(500);
    release();
    render(<Harness />);
    await userEvent.type(screen.getByRole('textbox'), 'hello');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to create post. Please try again.',
    );
    expect(screen.getByRole('textbox')).toHaveValue('hello');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('discards cached posts and refetches the posts on screen 20 ms after posting', async () => {
    const { release } = respondWith(201);
    release();
    const feedReads = jest.fn(async () => [] as unknown[]);
    function FeedProbe() {
      const { data } = useSWR(['/api/posts', 'feed', 'for-you', 0], feedReads);
      return <output data-testid="probe">{data ? 'loaded' : 'empty'}</output>;
    }
    render(
      <KitThemeProvider>
        <DataProvider>
          <FeedProbe />
          <PostComposer open onOpenChange={() => undefined} />
          <Toaster />
        </DataProvider>
      </KitThemeProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('probe')).toHaveTextContent('loaded'));
    expect(feedReads).toHaveBeenCalledTimes(1);
    await userEvent.type(screen.getByRole('textbox'), 'hello');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    expect(await screen.findByText('Post created successfully!')).toBeInTheDocument();
    await waitFor(() => expect(feedReads).toHaveBeenCalledTimes(2));
  });

  describe('with images (issue 39)', () => {
    it('when two images are attached with alt text, then Post waits for the uploads and sends them in order with their alt, and the composer empties', async () => {
      const user = userEvent.setup({ applyAccept: false });
      const { pending, upload } = controlledUploads();
      const { fetchMock, release } = respondWith(201);
      release();
      render(<Harness upload={upload} />);
      await user.type(
        await screen.findByRole('textbox', { name: "What's happening on campus?" }),
        'Club fair today',
      );
      await user.upload(await screen.findByLabelText('Choose images'), [
        png('fair.png'),
        png('stand.png'),
      ]);
      await waitFor(() => expect(pending).toHaveLength(2));
      const post = screen.getByRole('button', { name: 'Post' });
      expect(post).toBeDisabled();
      expect(screen.getByText('Uploading images…')).toBeInTheDocument();

      await act(async () => pending[0]!.resolve(uploadedAs(makeImage({ id: 'fair' }))));
      expect(post).toBeDisabled();
      await act(async () => pending[1]!.resolve(uploadedAs(makeImage({ id: 'stand' }))));
      expect(post).toBeEnabled();
      await user.type(screen.getByLabelText('Alt text for image 1'), 'The fair hall');
      await user.type(screen.getByLabelText('Alt text for image 2'), 'Our stand');
      await user.click(post);

      expect(await screen.findByText('Post created successfully!')).toBeInTheDocument();
      const sent = fetchMock.mock.calls.find(([url]) => url === 'http://api.test/api/posts');
      expect(JSON.parse(String(sent?.[1]?.body))).toEqual({
        content: 'Club fair today',
        syncToProfile: true,
        isJdTagged: false,
        images: [
          { id: 'fair', alt: 'The fair hall' },
          { id: 'stand', alt: 'Our stand' },
        ],
      });
      await user.click(screen.getByRole('button', { name: 'open' }));
      await screen.findByRole('dialog');
      expect(screen.queryByRole('list', { name: 'Attached images' })).not.toBeInTheDocument();
    });

    it('when an upload fails, then the text and the other image stay, Post waits for Retry or Remove, and the post goes without it', async () => {
      const user = userEvent.setup({ applyAccept: false });
      const { pending, upload } = controlledUploads();
      const { fetchMock, release } = respondWith(201);
      release();
      render(<Harness upload={upload} />);
      const text = await screen.findByRole('textbox', { name: "What's happening on campus?" });
      await user.type(text, 'Lab photos');
      await user.upload(await screen.findByLabelText('Choose images'), [
        png('lab.png'),
        png('broken.png'),
      ]);
      await waitFor(() => expect(pending).toHaveLength(2));
      await act(async () => pending[0]!.resolve(uploadedAs(makeImage({ id: 'lab' }))));
      await act(async () =>
        pending[1]!.reject(new ApiError(413, 'Payload Too Large', '{"message":"Too large"}')),
      );

      expect(screen.getByRole('alert')).toHaveTextContent('Upload failed: Too large');
      expect(text).toHaveValue('Lab photos');
      expect(screen.getAllByRole('listitem')).toHaveLength(2);
      expect(screen.getByRole('button', { name: 'Post' })).toBeDisabled();
      expect(screen.getByText('Retry or remove the image that failed.')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Remove image 2' }));
      await user.click(screen.getByRole('button', { name: 'Post' }));
      expect(await screen.findByText('Post created successfully!')).toBeInTheDocument();
      const sent = fetchMock.mock.calls.find(([url]) => url === 'http://api.test/api/posts');
      expect(JSON.parse(String(sent?.[1]?.body))).toMatchObject({
        images: [{ id: 'lab', alt: '' }],
      });
    });

    it('when an image is pasted into the text, then it is attached', async () => {
      const { pending, upload } = controlledUploads();
      render(<Harness upload={upload} />);
      const text = await screen.findByRole('textbox', { name: "What's happening on campus?" });
      await screen.findByLabelText('Choose images');
      fireEvent.paste(text, {
        clipboardData: { files: [png('screenshot.png')], getData: () => '' },
      });
      await waitFor(() => expect(pending).toHaveLength(1));
      const list = screen.getByRole('list', { name: 'Attached images' });
      expect(within(list).getByRole('listitem', { name: 'Image 1: screenshot.png' })).toBeVisible();
    });
  });
});
