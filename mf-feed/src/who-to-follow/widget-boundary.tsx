import { Component, type ReactNode } from 'react';

/**
 * Keeps a side widget's failure to itself: the feed goes on without it (and the error is
 * logged), rather than the whole remote falling to the shell's boundary.
 */
export class WidgetBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error('A feed widget failed', error);
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
