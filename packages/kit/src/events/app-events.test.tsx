import { render } from '@testing-library/react';
import { emitAppEvent, onAppEvent, useAppEvent } from '@campus/kit/events';

describe('app events', () => {
  it('delivers the typed detail to subscribers until they unsubscribe', () => {
    const seen: number[] = [];
    const off = onAppEvent('postDeleted', ({ postId }) => seen.push(postId));
    emitAppEvent('postDeleted', { postId: 4 });
    off();
    emitAppEvent('postDeleted', { postId: 5 });
    expect(seen).toEqual([4]);
  });

  it('fires plain window events under the exact names other code listens for', () => {
    const listener = jest.fn();
    window.addEventListener('postCreated', listener);
    emitAppEvent('postCreated', {});
    window.removeEventListener('postCreated', listener);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('useAppEvent listens while mounted and always calls the latest handler', () => {
    const first = jest.fn();
    const second = jest.fn();
    function Listener({ onChange }: { onChange: (userId: number) => void }) {
      useAppEvent('profileChanged', ({ userId }) => onChange(userId));
      return null;
    }
    const view = render(<Listener onChange={first} />);
    view.rerender(<Listener onChange={second} />);
    emitAppEvent('profileChanged', { userId: 7 });
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledWith(7);
    view.unmount();
    emitAppEvent('profileChanged', { userId: 8 });
    expect(second).toHaveBeenCalledTimes(1);
  });
});
