import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import type { AttachImageRequest, MediaUploadResponse } from '@campus/contracts';
import { ApiError } from '@campus/kit/api';
import {
  ImageAttachments,
  imageFilesOf,
  useImageAttachments,
  type UploadImage,
  type UploadImageOptions,
} from '@campus/kit/media';
import { makeImage, renderWithTheme, uploadedAs } from '@campus/kit/testing';

/** An upload the test answers: its progress, then success or failure. */
interface PendingUpload {
  file: File;
  options: UploadImageOptions;
  resolve: (media: MediaUploadResponse) => void;
  reject: (error: unknown) => void;
}

function controlledUploads() {
  const pending: PendingUpload[] = [];
  const upload: UploadImage = (file, options = {}) =>
    new Promise((resolve, reject) => pending.push({ file, options, resolve, reject }));
  return { pending, upload };
}

/** What the composer would send: `images`, and whether Post waits. */
function Composer({ upload }: { upload: UploadImage }) {
  const attachments = useImageAttachments();
  const [sent, setSent] = useState<AttachImageRequest[] | null>(null);
  return (
    <>
      <ImageAttachments attachments={attachments} upload={upload} />
      <output aria-label="payload">{JSON.stringify(attachments.images)}</output>
      <output aria-label="state">
        {attachments.uploading ? 'uploading' : attachments.failed ? 'failed' : 'ready'}
      </output>
      <button type="button" onClick={() => setSent(attachments.images)}>
        Send
      </button>
      {sent && <output aria-label="sent">{JSON.stringify(sent)}</output>}
    </>
  );
}

const png = (name: string) => new File([new Uint8Array(10)], name, { type: 'image/png' });
const payload = () => JSON.parse(screen.getByLabelText('payload').textContent ?? '[]') as unknown[];
const state = () => screen.getByLabelText('state').textContent;

let objectUrls = 0;
beforeAll(() => {
  // jsdom has no object URLs; the previews only need a distinct string per file.
  Object.assign(URL, {
    createObjectURL: () => `blob:preview-${++objectUrls}`,
    revokeObjectURL: () => undefined,
  });
});

async function renderAndPick(files: File[], upload: UploadImage) {
  const user = userEvent.setup({ applyAccept: false });
  renderWithTheme(<Composer upload={upload} />);
  const input = await screen.findByLabelText('Choose images');
  await user.upload(input, files);
  return user;
}

describe('ImageAttachments', () => {
  it('when two images are picked, then each uploads with its progress, and once uploaded they are the payload in order, with their alt text', async () => {
    const { pending, upload } = controlledUploads();
    const lab = makeImage({ id: 'lab' });
    const poster = makeImage({ id: 'poster' });
    const user = await renderAndPick([png('lab.png'), png('poster.png')], upload);

    await waitFor(() => expect(pending).toHaveLength(2));
    expect(pending.map((entry) => entry.file.name)).toEqual(['lab.png', 'poster.png']);
    expect(state()).toBe('uploading');
    act(() => pending[0]!.options.onProgress?.(0.4));
    expect(screen.getByRole('progressbar', { name: 'Uploading image 1: 40%' })).toHaveValue(40);

    await act(async () => pending[0]!.resolve(uploadedAs(lab)));
    expect(screen.queryByRole('progressbar', { name: /image 1/ })).not.toBeInTheDocument();
    expect(state()).toBe('uploading');
    await act(async () => pending[1]!.resolve(uploadedAs(poster)));
    expect(state()).toBe('ready');

    await user.type(screen.getByLabelText('Alt text for image 2'), '  Club fair poster ');
    expect(payload()).toEqual([
      { id: 'lab', alt: '' },
      { id: 'poster', alt: 'Club fair poster' },
    ]);
  });

  it('when an alt text is empty, then a reminder says why it matters; typing one removes it; the field counts to 1,500', async () => {
    const { pending, upload } = controlledUploads();
    const user = await renderAndPick([png('lab.png')], upload);
    await waitFor(() => expect(pending).toHaveLength(1));
    const row = screen.getByRole('listitem', { name: 'Image 1: lab.png' });
    expect(within(row).getByText(/helps people who use a screen reader/)).toBeInTheDocument();
    const field = within(row).getByLabelText('Alt text for image 1');
    expect(field).toHaveAttribute('maxlength', '1500');
    await user.type(field, 'A lab');
    expect(within(row).queryByText(/helps people who use a screen reader/)).not.toBeInTheDocument();
    expect(within(row).getByText('5/1500')).toBeInTheDocument();
  });

  it('when an upload fails, then it says why and offers Retry; the other image stays; Retry sends it again', async () => {
    const { pending, upload } = controlledUploads();
    const user = await renderAndPick([png('lab.png'), png('fake.png')], upload);
    await waitFor(() => expect(pending).toHaveLength(2));
    await act(async () => pending[0]!.resolve(uploadedAs(makeImage({ id: 'lab' }))));
    await act(async () =>
      pending[1]!.reject(
        new ApiError(415, 'Unsupported Media Type', JSON.stringify({ message: 'Not an image' })),
      ),
    );

    expect(screen.getByRole('alert')).toHaveTextContent('Upload failed: Not an image');
    expect(state()).toBe('failed');
    expect(payload()).toEqual([{ id: 'lab', alt: '' }]);

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(pending).toHaveLength(3));
    expect(pending[2]!.file.name).toBe('fake.png');
    expect(state()).toBe('uploading');
    await act(async () => pending[2]!.resolve(uploadedAs(makeImage({ id: 'second-try' }))));
    expect(payload()).toEqual([
      { id: 'lab', alt: '' },
      { id: 'second-try', alt: '' },
    ]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('when more than four images, or files that are not images, are picked, then four are kept and a notice says why the rest were not', async () => {
    const { pending, upload } = controlledUploads();
    const files = ['a', 'b', 'c', 'd', 'e'].map((name) => png(`${name}.png`));
    const notes = new File(['<svg/>'], 'notes.txt', { type: 'text/plain' });
    await renderAndPick([...files, notes], upload);
    await waitFor(() => expect(pending).toHaveLength(4));
    expect(screen.getAllByRole('listitem')).toHaveLength(4);
    expect(
      screen.getByText('notes.txt: not an image. A post can have at most 4 images.'),
    ).toHaveAttribute('role', 'status');
    expect(screen.getByRole('button', { name: 'Add images' })).toBeDisabled();
  });

  it('when a file is over 10 MB, then it is not sent and the notice says so', async () => {
    const { pending, upload } = controlledUploads();
    const huge = png('huge.png');
    Object.defineProperty(huge, 'size', { value: 10 * 1024 * 1024 + 1 });
    await renderAndPick([huge], upload);
    expect(await screen.findByText('huge.png: larger than 10 MB.')).toHaveAttribute(
      'role',
      'status',
    );
    expect(pending).toHaveLength(0);
  });

  it('when an image is moved with the keyboard, then the order changes, and the focus stays on a move button of it', async () => {
    const { pending, upload } = controlledUploads();
    const user = await renderAndPick([png('a.png'), png('b.png'), png('c.png')], upload);
    await waitFor(() => expect(pending).toHaveLength(3));
    for (const [index, id] of ['a', 'b', 'c'].entries()) {
      await act(async () => pending[index]!.resolve(uploadedAs(makeImage({ id }))));
    }
    const ids = () => payload().map((image) => (image as { id: string }).id);

    screen.getByRole('button', { name: 'Move image 1 down' }).focus();
    await user.keyboard('{Enter}');
    expect(ids()).toEqual(['b', 'a', 'c']);
    expect(screen.getByRole('button', { name: 'Move image 2 down' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(ids()).toEqual(['b', 'c', 'a']);
    // The last image cannot move down: its Move up button has the focus.
    expect(screen.getByRole('button', { name: 'Move image 3 up' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Move image 3 down' })).toBeDisabled();
  });

  it('when an image is removed while it uploads, then its upload is cancelled and it is gone', async () => {
    const { pending, upload } = controlledUploads();
    const user = await renderAndPick([png('a.png'), png('b.png')], upload);
    await waitFor(() => expect(pending).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Remove image 1' }));
    expect(pending[0]!.options.signal?.aborted).toBe(true);
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByRole('listitem', { name: 'Image 1: b.png' })).toBeInTheDocument();
  });

  it('when images are dropped on the area, then they are added like picked ones', async () => {
    const { pending, upload } = controlledUploads();
    renderWithTheme(<Composer upload={upload} />);
    const area = (await screen.findByRole('button', { name: 'Add images' })).closest('section')!;
    fireEvent.drop(area, { dataTransfer: { files: [png('dropped.png')], types: ['Files'] } });
    await waitFor(() => expect(pending).toHaveLength(1));
    expect(pending[0]!.file.name).toBe('dropped.png');
  });
});

describe('imageFilesOf', () => {
  it('when a paste carries an image and a text file, then only the image is taken; no data, none', () => {
    const image = png('pasted.png');
    const text = new File(['x'], 'a.txt', { type: 'text/plain' });
    const data = { files: [image, text] } as unknown as DataTransfer;
    expect(imageFilesOf(data)).toEqual([image]);
    expect(imageFilesOf(null)).toEqual([]);
  });
});
