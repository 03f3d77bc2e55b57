import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { readStoredAuth } from '@campus/kit/api';
import { onAppEvent } from '@campus/kit/events';
import { dismissToast } from '@campus/kit/toast';
import {
  ADA,
  BEN,
  callsTo,
  mockApi,
  profileOf,
  renderPage,
  type ApiHandler,
} from '@campus/kit/testing';
import { cropImage } from '../edit-profile/crop-image';
import FirstRunDialog from './first-run-dialog';

jest.mock('../edit-profile/crop-image', () => ({
  ...jest.requireActual('../edit-profile/crop-image'),
  cropImage: jest.fn(),
}));
const cropImageMock = jest.mocked(cropImage);

const UPLOADED = 'http://api.test/uploads/ffffffffffffffffffffffffffffffff.webp';

function api(extra: ApiHandler = () => undefined) {
  return mockApi(async (call) => {
    const answer = await extra(call);
    if (answer) return answer;
    const { method, pathname, body } = call;
    if (method === 'PUT' && pathname === '/api/users/1')
      return { status: 200, body: { ...profileOf(ADA), ...(body as object) } };
    if (method === 'POST' && pathname === '/api/upload/avatar')
      return { status: 201, body: { avatarUrl: UPLOADED } };
    if (method === 'GET' && pathname === '/api/users/suggestions')
      return {
        status: 200,
        body: [{ ...BEN, bio: '', isFollowing: false, mutualCount: 0, followersCount: 9 }],
      };
    if (method === 'POST' && pathname === '/api/users/2/follow')
      return { status: 200, body: { following: true, followersCount: 10 } };
    return undefined;
  });
}

/** The dialog as the shell mounts it over the feed; answers its onClose. */
function renderRun(onClose = jest.fn()) {
  renderPage(<FirstRunDialog onClose={onClose} />, { signedInAs: ADA });
  return onClose;
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

describe('FirstRunDialog', () => {
  it('is a modal dialog named by its first step, with focus inside', async () => {
    api();
    renderRun();
    const dialog = await screen.findByRole('dialog', { name: 'Add a photo and a bio' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(within(dialog).getByText('Step 1 of 2')).toBeInTheDocument();
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    expect(within(dialog).getByLabelText('Bio')).toHaveAttribute('maxLength', '500');
  });

  it('saves the bio with the profile call, then offers people to follow; Done ends the run', async () => {
    const fetchMock = api();
    const onClose = renderRun();
    const changed = jest.fn();
    const off = onAppEvent('profileChanged', changed);
    await userEvent.type(await screen.findByLabelText('Bio'), '  Physics, second year  ');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));

    const people = await screen.findByRole('dialog', { name: 'People to follow' });
    const [put] = callsTo(fetchMock, '/api/users/1', 'PUT');
    expect(JSON.parse(String(put!.init.body))).toEqual({
      name: 'Ada Okafor',
      bio: 'Physics, second year',
    });
    expect(callsTo(fetchMock, '/api/upload/avatar', 'POST')).toHaveLength(0);
    expect(changed).toHaveBeenCalledWith({ userId: 1 });
    off();
    // The next step takes the focus (the Next button is gone).
    expect(within(people).getByText('Step 2 of 2').parentElement).toHaveFocus();

    const ben = await within(people).findByRole('listitem', { name: 'Ben Larsen' });
    await userEvent.click(within(ben).getByRole('button', { name: 'Follow Ben Larsen' }));
    expect(
      await within(ben).findByRole('button', { name: 'Following Ben Larsen' }),
    ).toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/users/2/follow', 'POST')).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();
    await userEvent.click(within(people).getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('moves on without a request when nothing was entered', async () => {
    const fetchMock = api();
    renderRun();
    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('dialog', { name: 'People to follow' })).toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/users/1', 'PUT')).toHaveLength(0);
  });

  it('crops a chosen photo in place, uploads it with the avatar call and stores the new avatar', async () => {
    const fetchMock = api();
    renderRun();
    cropImageMock.mockResolvedValue(new File(['jpeg'], 'avatar.jpg', { type: 'image/jpeg' }));
    await userEvent.upload(
      await screen.findByLabelText('Choose a photo'),
      new File(['x'], 'me.png', { type: 'image/png' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Add a photo and a bio' });
    const image = within(dialog).getByAltText('Picture to crop') as HTMLImageElement;
    Object.defineProperty(image, 'width', { value: 200, configurable: true });
    Object.defineProperty(image, 'height', { value: 100, configurable: true });
    fireEvent.load(image);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply Crop' }));
    expect(
      await within(dialog).findByText('avatar.jpg will be uploaded when you continue.'),
    ).toBeInTheDocument();
    // Back from the crop, the photo's control has the focus again.
    expect(within(dialog).getByLabelText('Choose another photo')).toHaveFocus();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    await screen.findByRole('dialog', { name: 'People to follow' });
    expect(callsTo(fetchMock, '/api/upload/avatar', 'POST')).toHaveLength(1);
    const [put] = callsTo(fetchMock, '/api/users/1', 'PUT');
    expect(JSON.parse(String(put!.init.body))).toEqual({ name: 'Ada Okafor', avatarUrl: UPLOADED });
    expect(readStoredAuth()?.user.avatarUrl).toBe(UPLOADED);
  });

  it('refuses a file that is not a picture, without a crop', async () => {
    api();
    renderRun();
    await userEvent.upload(
      await screen.findByLabelText('Choose a photo'),
      new File(['x'], 'notes.txt', { type: 'text/plain' }),
      { applyAccept: false },
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'notes.txt is not a picture. Choose a JPEG, PNG, WebP or GIF file.',
    );
    expect(screen.queryByAltText('Picture to crop')).not.toBeInTheDocument();
  });

  it('stays on the step and says why when saving fails', async () => {
    api(({ method, pathname }) =>
      method === 'PUT' && pathname === '/api/users/1'
        ? { status: 400, body: { message: 'Bio must be less than 500 characters' } }
        : undefined,
    );
    renderRun();
    await userEvent.type(await screen.findByLabelText('Bio'), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Bio must be less than 500 characters')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Add a photo and a bio' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled());
  });

  it('is skipped at any step with Skip, or with Escape, saving nothing', async () => {
    const fetchMock = api();
    const onSkip = renderRun();
    await userEvent.type(await screen.findByLabelText('Bio'), 'Not saved');
    await userEvent.click(screen.getByRole('button', { name: 'Skip' }));
    expect(onSkip).toHaveBeenCalledTimes(1);
    expect(callsTo(fetchMock, '/api/users/1', 'PUT')).toHaveLength(0);
  });

  it('is used with the keyboard: Tab stays inside, Enter moves on, Escape skips', async () => {
    api();
    const onClose = renderRun();
    const dialog = await screen.findByRole('dialog', { name: 'Add a photo and a bio' });
    for (let i = 0; i < 8; i += 1) {
      await userEvent.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await userEvent.click(within(dialog).getByLabelText('Bio'));
    await userEvent.tab(); // Skip
    await userEvent.tab(); // Next
    expect(within(dialog).getByRole('button', { name: 'Next' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    const people = await screen.findByRole('dialog', { name: 'People to follow' });
    await within(people).findByRole('listitem', { name: 'Ben Larsen' });
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('offers Retry when the suggestions fail to load', async () => {
    let failing = true;
    api(({ pathname }) =>
      failing && pathname === '/api/users/suggestions'
        ? { status: 503, body: { message: 'Unavailable' } }
        : undefined,
    );
    renderRun();
    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Suggestions could not be loaded.')).toBeInTheDocument();
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('listitem', { name: 'Ben Larsen' })).toBeInTheDocument();
  });
});
