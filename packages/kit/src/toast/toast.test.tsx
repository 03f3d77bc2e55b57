import { act, screen } from '@testing-library/react';
import { Toaster, dismissToast, toast } from '@campus/kit/toast';
import { renderWithTheme } from '../testing/render-with-theme';

beforeEach(() => jest.useFakeTimers());
afterEach(() => {
  act(() => dismissToast());
  jest.useRealTimers();
});

describe('toasts', () => {
  it('shows one toast at a time: a new one replaces the current one', () => {
    renderWithTheme(<Toaster />);
    act(() => {
      toast({ title: 'Welcome back!', description: 'You have successfully logged in.' });
    });
    expect(screen.getByRole('status')).toHaveTextContent(
      'Welcome back!You have successfully logged in.',
    );
    act(() => {
      toast({ title: 'Success', description: 'Post created successfully!' });
    });
    expect(screen.getAllByRole('status')).toHaveLength(1);
    expect(screen.queryByText('Welcome back!')).not.toBeInTheDocument();
  });

  it('disappears after 5000 ms by default', () => {
    renderWithTheme(<Toaster />);
    act(() => {
      toast({ title: 'Feedback sent!' });
    });
    act(() => jest.advanceTimersByTime(4999));
    expect(screen.getByText('Feedback sent!')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.queryByText('Feedback sent!')).not.toBeInTheDocument();
  });

  it('honours a per-toast duration and ignores the timer of a replaced toast', () => {
    renderWithTheme(<Toaster />);
    act(() => {
      toast({ title: 'first', duration: 1000 });
    });
    act(() => jest.advanceTimersByTime(500));
    act(() => {
      toast({ title: 'Success', duration: 2000 });
    });
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.getByText('Success')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.queryByText('Success')).not.toBeInTheDocument();
  });

  it('announces the destructive variant as an alert and can be dismissed', () => {
    renderWithTheme(<Toaster />);
    act(() => {
      toast({
        title: 'Error',
        description: 'Failed to update like. Please try again.',
        variant: 'destructive',
      });
    });
    expect(screen.getByRole('alert')).toHaveAttribute('data-variant', 'destructive');
    act(() => screen.getByRole('button', { name: 'Dismiss notification' }).click());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
