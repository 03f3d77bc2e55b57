import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AVATAR_URL_MESSAGE } from '@campus/contracts';
import { readStoredAuth } from '@campus/kit/api';
import { onAppEvent } from '@campus/kit/events';
import { dismissToast } from '@campus/kit/toast';
import { ADA, profileOf, renderPage, mockApi, type ApiHandler } from '@campus/kit/testing';
import { cropImage } from './crop-image';
import EditProfilePage from './edit-profile-page';

jest.mock('./crop-image', () => ({
  ...jest.requireActual('./crop-image'),
  cropImage: jest.fn(),
}));
const cropImageMock = jest.mocked(cropImage);

const STORED_AVATAR = 'http://api.test/uploads/0123456789abcdef0123456789abcdef.webp';
const UPLOADED = 'http://api.test/uploads/ffffffffffffffffffffffffffffffff.webp';

function api(extra: ApiHandler = () => undefined) {
  return mockApi(async (call) => {
    const answer = await extra(call);
    if (answer) return answer;
    const { method, path, init } = call;
    if (method === 'GET' && path === '/api/users/1')
      return {
        status: 200,
        body: profileOf({ ...ADA, avatarUrl: STORED_AVATAR }, { bio: 'Physics' }),
      };
    if (method === 'PUT' && path === '/api/users/1') {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      return { status: 200, body: { ...profileOf(ADA), ...body } };
    }
    if (method === 'POST' && path === '/api/upload/avatar')
      return { status: 201, body: { avatarUrl: UPLOADED } };
    return undefined;
  });
}

const renderEdit = (path = '/profile/1/edit') =>
  renderPage(<EditProfilePage />, { path, route: '/profile/:id/edit', signedInAs: ADA });

function putBody(fetchMock: jest.Mock) {
  const call = fetchMock.mock.calls.find(
    ([, init]) => (init as RequestInit | undefined)?.method === 'PUT',
  );
  return call ? JSON.parse(String((call[1] as RequestInit).body)) : undefined;
}

/** Chooses a file and loads its picture in the crop dialog (jsdom lays nothing out). */
async function chooseFile() {
  const file = new File(['x'], 'me.png', { type: 'image/png' });
  await userEvent.upload(screen.getByLabelText('Upload picture'), file);
  const dialog = await screen.findByRole('dialog', { name: 'Crop your picture' });
  const image = within(dialog).getByAltText('Picture to crop') as HTMLImageElement;
  Object.defineProperty(image, 'width', { value: 200, configurable: true });
  Object.defineProperty(image, 'height', { value: 100, configurable: true });
  fireEvent.load(image);
  return dialog;
}

beforeAll(() => {
  URL.createObjectURL = jest.fn(() => 'blob:chosen');
  URL.revokeObjectURL = jest.fn();
});
beforeEach(() => {
  act(() => dismissToast());
  cropImageMock.mockReset();
});
afterEach(() => window.localStorage.clear());

describe('EditProfilePage', () => {
  it('shows a loading card, then the form with the stored values', async () => {
    api();
    renderEdit();
    expect(screen.getByRole('heading', { name: 'Edit Profile' })).toBeInTheDocument();
    expect(screen.getByLabelText('Loading your profile')).toBeInTheDocument();
    expect(await screen.findByLabelText('Display name')).toHaveValue('Ada Okafor');
    expect(screen.getByLabelText('Bio')).toHaveValue('Physics');
    expect(screen.getByLabelText('Or use an image URL')).toHaveValue('');
  });

  it('offers Retry when the profile fails to load, then shows the form (issue 41)', async () => {
    let failing = true;
    api(({ method, path }) =>
      failing && method === 'GET' && path === '/api/users/1'
        ? { status: 503, body: { message: 'Unavailable' } }
        : undefined,
    );
    renderEdit();
    expect(await screen.findByRole('heading', { name: 'User not found' })).toBeInTheDocument();
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByLabelText('Bio')).toHaveValue('Physics');
  });

  it("sends someone else's edit page to their profile", async () => {
    api();
    renderEdit('/profile/2/edit');
    expect(await screen.findByLabelText('location')).toHaveTextContent('/profile/2');
  });

  it('validates on submit, then again on every change', async () => {
    const fetchMock = api();
    renderEdit();
    const name = await screen.findByLabelText('Display name');
    await userEvent.clear(name);
    expect(screen.queryByText('Name is required')).not.toBeInTheDocument(); // not before submit
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    await userEvent.type(name, 'A');
    await waitFor(() => expect(screen.queryByText('Name is required')).not.toBeInTheDocument());
    await userEvent.type(name, 'x'.repeat(100));
    expect(await screen.findByText('Name must be less than 100 characters')).toBeInTheDocument();
    await userEvent.clear(name);
    await userEvent.type(name, 'Ada');
    fireEvent.input(screen.getByLabelText('Bio'), { target: { value: 'b'.repeat(501) } });
    expect(await screen.findByText('Bio must be less than 500 characters')).toBeInTheDocument();
    expect(putBody(fetchMock)).toBeUndefined();
  });

  it('saves, updates the stored user, announces profileChanged and returns to the profile', async () => {
    const fetchMock = api();
    const changed = jest.fn();
    const off = onAppEvent('profileChanged', changed);
    renderEdit();
    const name = await screen.findByLabelText('Display name');
    await userEvent.clear(name);
    await userEvent.type(name, '  Ada O.  ');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument();
    expect(putBody(fetchMock)).toEqual({
      name: 'Ada O.',
      bio: 'Physics',
      avatarUrl: STORED_AVATAR,
    });
    expect(readStoredAuth()?.user.name).toBe('Ada O.');
    expect(changed).toHaveBeenCalledWith({ userId: 1 });
    // The navigation is a transition React may draw after the toast: wait for it.
    await waitFor(() =>
      expect(screen.getByLabelText('location')).toHaveTextContent(/^\/profile\/1$/),
    );
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/api/upload/avatar'))).toBe(
      false,
    );
    off();
  });

  it('shows the server message, or the default, when saving fails', async () => {
    api(({ method }) =>
      method === 'PUT' ? { status: 400, body: { message: 'Name is taken by a ghost' } } : undefined,
    );
    renderEdit();
    await userEvent.click(await screen.findByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Name is taken by a ghost');
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
  });

  it('uses a typed image URL, and restores the stored avatar when it is cleared', async () => {
    const fetchMock = api();
    renderEdit();
    const url = await screen.findByLabelText('Or use an image URL');
    await userEvent.type(url, UPLOADED);
    expect(screen.getByAltText('Ada Okafor')).toHaveAttribute('src', UPLOADED);
    await userEvent.clear(url);
    expect(screen.getByAltText('Ada Okafor')).toHaveAttribute('src', STORED_AVATAR);
    // Only pictures uploaded to Campus: never a script, nor another site's image.
    for (const refused of ['javascript:alert(1)', 'https://pics.example/me.png']) {
      await userEvent.clear(url);
      await userEvent.type(url, refused);
      // Not previewed either: the browser would fetch another site's image for nothing.
      expect(screen.getByAltText('Ada Okafor')).toHaveAttribute('src', STORED_AVATAR);
      await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
      expect(await screen.findByText(AVATAR_URL_MESSAGE)).toBeInTheDocument();
    }
    await userEvent.clear(url);
    await userEvent.type(url, UPLOADED);
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Profile updated successfully!');
    expect(putBody(fetchMock).avatarUrl).toBe(UPLOADED);
  });

  it('crops a chosen file, uploads the JPEG on save, then saves its URL', async () => {
    const cropped = new File(['jpeg'], 'cropped-avatar.jpg', { type: 'image/jpeg' });
    cropImageMock.mockResolvedValue(cropped);
    const fetchMock = api();
    renderEdit();
    await screen.findByLabelText('Display name');
    const dialog = await chooseFile();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply Crop' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [, crop] = cropImageMock.mock.calls[0]!;
    // 90 % of the width would not fit the height: the largest centred square is 100 x 100.
    expect(crop).toMatchObject({ unit: 'px', width: 100, height: 100, x: 50, y: 0 });
    expect(
      screen.getByText('cropped-avatar.jpg will be uploaded when you save.'),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Profile updated successfully!');
    const upload = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/upload/avatar'));
    const form = (upload![1] as RequestInit).body as FormData;
    expect((form.get('avatar') as File).name).toBe('cropped-avatar.jpg');
    expect(putBody(fetchMock).avatarUrl).toBe(UPLOADED);
  });

  it('says Failed to upload image with the server message, or Upload failed', async () => {
    cropImageMock.mockResolvedValue(
      new File(['jpeg'], 'cropped-avatar.jpg', { type: 'image/jpeg' }),
    );
    const fetchMock = api(({ path }) =>
      path === '/api/upload/avatar' ? { status: 500, body: '' } : undefined,
    );
    renderEdit();
    await screen.findByLabelText('Display name');
    const dialog = await chooseFile();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply Crop' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to upload image');
    expect(alert).toHaveTextContent('Upload failed');
    expect(putBody(fetchMock)).toBeUndefined();
  });

  it('clears the selection on Cancel and says so when cropping fails', async () => {
    cropImageMock.mockRejectedValue(new Error('no canvas'));
    api();
    renderEdit();
    await screen.findByLabelText('Display name');
    let dialog = await chooseFile();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply Crop' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to crop image. Please try again.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByLabelText('Upload picture')).toHaveValue('');
    expect(screen.queryByText(/will be uploaded/)).not.toBeInTheDocument();

    // a typed URL discards a chosen (cropped) file
    cropImageMock.mockResolvedValue(
      new File(['jpeg'], 'cropped-avatar.jpg', { type: 'image/jpeg' }),
    );
    dialog = await chooseFile();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply Crop' }));
    expect(await screen.findByText(/will be uploaded/)).toBeInTheDocument();
    await userEvent.type(
      screen.getByLabelText('Or use an image URL'),
      'https://pics.example/a.png',
    );
    expect(screen.queryByText(/will be uploaded/)).not.toBeInTheDocument();
  });
  it('says a chosen file that is not a picture is not one, and opens no crop dialog', async () => {
    api();
    renderEdit();
    await screen.findByLabelText('Display name');
    // The browser's file chooser lets a member switch to "All files"; the accept list is a hint.
    const user = userEvent.setup({ applyAccept: false });
    const notes = new File(['%PDF-1.7'], 'notes.pdf', { type: 'application/pdf' });
    await user.upload(screen.getByLabelText('Upload picture'), notes);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'notes.pdf is not a picture. Choose a JPEG, PNG, WebP or GIF file.',
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Upload picture')).toHaveAttribute('aria-invalid', 'true');

    // A picture chosen next clears the message and opens the crop dialog.
    await chooseFile();
    expect(screen.queryByText(/is not a picture/)).not.toBeInTheDocument();
  });

  it('closes the crop dialog and says so when a file named as a picture cannot be drawn', async () => {
    api();
    renderEdit();
    await screen.findByLabelText('Display name');
    const fake = new File(['not really'], 'holiday.png', { type: 'image/png' });
    await userEvent.upload(screen.getByLabelText('Upload picture'), fake);
    const dialog = await screen.findByRole('dialog', { name: 'Crop your picture' });
    fireEvent.error(within(dialog).getByAltText('Picture to crop'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(
      screen.getByText('holiday.png is not a picture. Choose a JPEG, PNG, WebP or GIF file.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/will be uploaded/)).not.toBeInTheDocument();
  });
});
