import { useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

/**
 * Every new page starts at the top: a PUSH or REPLACE navigation scrolls the window up, while
 * Back and Forward (POP) are left alone, so the page that comes back restores its own place
 * (mf-feed restores the feed's). Following a link to the page already shown (Home on Home)
 * glides to the top. A link to an #anchor keeps the browser's own jump.
 */
export function useScrollToTopOnNavigate(): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const previous = useRef(location);

  useLayoutEffect(() => {
    const before = previous.current;
    previous.current = location;
    if (before.key === location.key || navigationType === 'POP' || location.hash) return;
    const samePage = before.pathname === location.pathname && before.search === location.search;
    window.scrollTo({ top: 0, left: 0, behavior: samePage ? 'smooth' : 'instant' });
  }, [location, navigationType]);
}
