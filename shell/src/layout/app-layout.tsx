import { lazy, Suspense, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import styled from 'styled-components';
import { mediaDesktop, mediaMobile } from '@campus/kit/theme';
import { useMediaQuery } from '@campus/kit/ui';
import { RemoteSlot } from '../composition/remote-slot';
import { FloatingRemoteHost } from './floating-remote-host';
import { FirstRunHost } from './first-run-host';
import { PlusIcon } from './icons';
import { MobileHeader } from './mobile-header';
import { Sidebar } from './sidebar';

// Small screens only (hidden from 768 px, fixed to the bottom: it moves nothing when it arrives):
// a wide screen never fetches it, a small one as soon as it is small.
const BottomBar = lazy(() => import('./bottom-bar').then((m) => ({ default: m.BottomBar })));

const Frame = styled.div`
  min-height: 100vh;
  ${mediaDesktop} {
    padding-left: ${({ theme }) => theme.space(60)};
  }
  ${mediaMobile} {
    padding-top: 56px;
    padding-bottom: 64px;
  }
`;

const Main = styled.main`
  max-width: 680px;
  margin: 0 auto;
  min-height: 100vh;
  background: ${({ theme }) => theme.colors.surface};
  border-left: 1px solid ${({ theme }) => theme.colors.border};
  border-right: 1px solid ${({ theme }) => theme.colors.border};

  &:focus {
    outline: none;
  }
  /* A page with a right column (the feed's Who to follow) gets the room for it. */
  @media (min-width: 1240px) {
    &:has([data-right-column]) {
      max-width: 1000px;
    }
  }
`;

const FloatingPostButton = styled.button`
  position: fixed;
  right: ${({ theme }) => theme.space(4)};
  bottom: 80px;
  z-index: 40;
  display: flex;
  align-items: center;
  justify-content: center;
  width: 56px;
  height: 56px;
  border: 0;
  border-radius: 50%;
  background: ${({ theme }) => theme.colors.primary};
  color: ${({ theme }) => theme.colors.onPrimary};
  box-shadow: ${({ theme }) => theme.shadow.lg};
  cursor: pointer;
  ${mediaDesktop} {
    display: none;
  }
`;

const SkipLink = styled.a`
  position: absolute;
  left: ${({ theme }) => theme.space(2)};
  top: -48px;
  z-index: 100;
  padding: ${({ theme }) => theme.space(2)} ${({ theme }) => theme.space(3)};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.colors.primary};
  color: ${({ theme }) => theme.colors.onPrimary};

  &:focus {
    top: ${({ theme }) => theme.space(2)};
  }
`;

/** Spec §2: no floating post button on these small-screen pages. */
const NO_FLOATING_BUTTON = ['/search', '/opportunities'];

/** The signed-in frame: sidebar (≥ 768 px) or header + bottom bar, and the post composer. */
export function AppLayout() {
  const { pathname } = useLocation();
  const [composerRequested, setComposerRequested] = useState(false);
  const [composerOpen, setComposerOpen] = useState(false);
  const smallScreen = useMediaQuery(mediaMobile, true);
  const openComposer = () => {
    setComposerRequested(true);
    setComposerOpen(true);
  };

  return (
    <Frame>
      <SkipLink href="#main-content">Skip to content</SkipLink>
      <Sidebar onPost={openComposer} />
      <MobileHeader />
      <Main id="main-content" tabIndex={-1}>
        <Outlet />
      </Main>
      {!NO_FLOATING_BUTTON.includes(pathname) && (
        <FloatingPostButton type="button" aria-label="Create post" onClick={openComposer}>
          <PlusIcon />
        </FloatingPostButton>
      )}
      {smallScreen && (
        <Suspense fallback={null}>
          <BottomBar />
        </Suspense>
      )}
      <FirstRunHost />
      {composerRequested && (
        <FloatingRemoteHost $at="bottom">
          <RemoteSlot
            remote="mf_feed"
            exposed="PostComposer"
            what="the post composer"
            compact
            fallback={null}
            props={{ open: composerOpen, onOpenChange: setComposerOpen }}
          />
        </FloatingRemoteHost>
      )}
    </Frame>
  );
}
