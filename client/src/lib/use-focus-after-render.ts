import { useCallback, useEffect, useRef } from 'react';

/**
 * A form's "focus this next": the element with the id given gets the focus once the next render is on
 * screen (the first field in error after a refused save, a field just added to a list).
 */
export function useFocusAfterRender(): (id: string) => void {
  const next = useRef<string | null>(null);
  useEffect(() => {
    if (!next.current) return;
    document.getElementById(next.current)?.focus();
    next.current = null;
  });
  return useCallback((id: string) => { next.current = id; }, []);
}
