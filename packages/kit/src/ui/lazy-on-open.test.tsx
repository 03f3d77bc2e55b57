import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { lazyOnOpen, type OpenableProps } from '@campus/kit/ui';

function Panel({ open, onOpenChange, text }: OpenableProps & { text: string }) {
  if (!open) return null;
  return (
    <div role="dialog" aria-label={text}>
      <button onClick={() => onOpenChange(false)}>Close {text}</button>
    </div>
  );
}

/** A loader the test answers by hand: each call waits for `succeed` or `fail`. */
function controlledLoader() {
  const calls: { succeed: () => void; fail: () => void }[] = [];
  const load = jest.fn(
    () =>
      new Promise<typeof Panel>((resolve, reject) => {
        calls.push({ succeed: () => resolve(Panel), fail: () => reject(new Error('offline')) });
      }),
  );
  return { load, calls };
}

function Harness({
  Dialog,
}: {
  Dialog: ReturnType<typeof lazyOnOpen<OpenableProps & { text: string }>>;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Open</button>
      <span>{open ? 'open' : 'closed'}</span>
      <Dialog open={open} onOpenChange={setOpen} text="Lazy" />
    </>
  );
}

describe('lazyOnOpen', () => {
  it('fetches nothing while closed, fetches once on first opening and keeps it loaded', async () => {
    const { load, calls } = controlledLoader();
    const Dialog = lazyOnOpen(load);
    const user = userEvent.setup();
    render(<Harness Dialog={Dialog} />);
    expect(load).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(load).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await act(async () => calls[0]!.succeed());
    expect(screen.getByRole('dialog', { name: 'Lazy' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Close Lazy' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open' }));
    // Already loaded: shown at once, not fetched again.
    expect(screen.getByRole('dialog', { name: 'Lazy' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('closes and reports a failed fetch, and tries again at the next opening', async () => {
    const { load, calls } = controlledLoader();
    const onLoadFailure = jest.fn();
    const Dialog = lazyOnOpen(load, onLoadFailure);
    const user = userEvent.setup();
    render(<Harness Dialog={Dialog} />);

    await user.click(screen.getByRole('button', { name: 'Open' }));
    await act(async () => calls[0]!.fail());
    expect(onLoadFailure).toHaveBeenCalledWith(expect.objectContaining({ message: 'offline' }));
    expect(screen.getByText('closed')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(load).toHaveBeenCalledTimes(2);
    await act(async () => calls[1]!.succeed());
    expect(screen.getByRole('dialog', { name: 'Lazy' })).toBeInTheDocument();
  });

  it('preload fetches ahead of the first opening, once', async () => {
    const { load, calls } = controlledLoader();
    const Dialog = lazyOnOpen(load);
    const first = Dialog.preload();
    expect(Dialog.preload()).toBe(first);
    calls[0]!.succeed();
    await first;
    const user = userEvent.setup();
    render(<Harness Dialog={Dialog} />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByRole('dialog', { name: 'Lazy' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
