import { useLayoutEffect, useRef } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router-dom';

/**
 * A new page opens at its top: the window's scroll position is not carried from the page before
 * (a link followed at the foot of a long list would open the next page scrolled down). Back and
 * forward (POP) keep what the browser restores; a change of the query alone (a tab, a filter) keeps
 * the place on the same page.
 */
export function ScrollToTop() {
  const { pathname } = useLocation();
  const type = useNavigationType();
  const shown = useRef(pathname);
  useLayoutEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    if (type !== NavigationType.Pop) window.scrollTo(0, 0);
  }, [pathname, type]);
  return null;
}
