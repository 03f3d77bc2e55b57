import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Button, Dialog } from '@campus/kit/ui';
import { renderWithTheme } from '../testing/render-with-theme';

function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Open</Button>
      <Dialog open={open} onOpenChange={setOpen} title="Send Feedback" description="Tell us">
        <input aria-label="first" />
        <Button>Last</Button>
      </Dialog>
    </>
  );
}

describe('Dialog', () => {
  it('is a labelled modal that takes focus and gives it back on Escape', async () => {
    const user = userEvent.setup();
    renderWithTheme(<Harness />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Send Feedback' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleDescription('Tell us');
    expect(screen.getByLabelText('first')).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('traps Tab inside the dialog in both directions', async () => {
    const user = userEvent.setup();
    renderWithTheme(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.tab();
    expect(screen.getByRole('button', { name: 'Last' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Last' })).toHaveFocus();
  });

  it('makes the rest of the page inert while open, but never the toasts', async () => {
    const user = userEvent.setup();
    const toasts = document.createElement('div');
    toasts.setAttribute('data-kit-layer', 'toasts');
    document.body.appendChild(toasts);
    const { container } = renderWithTheme(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(container).toHaveAttribute('inert');
    expect(toasts).not.toHaveAttribute('inert');
    expect(screen.getByTestId('dialog-backdrop')).not.toHaveAttribute('inert');
    await user.keyboard('{Escape}');
    expect(container).not.toHaveAttribute('inert');
    toasts.remove();
  });

  it('closes on a backdrop click but not on a click inside', async () => {
    const user = userEvent.setup();
    renderWithTheme(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.click(screen.getByRole('dialog'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await user.click(screen.getByTestId('dialog-backdrop'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
