import { useEffect } from 'react';
import { useToasts } from '../../../components/ui/toast/toast-store';
import { onLive } from '../../live';
import { notificationFor } from '../messages';

/**
 * Turns the signed-in user's personal live events (outbid, won, reinstated) into toasts, whatever
 * page they are on. Renders nothing; mounted once by the user portal's shell.
 */
export function LiveNotifications() {
  useEffect(() => {
    const stop = onLive((e) => {
      const note = notificationFor(e);
      if (note) useToasts.getState().show(note.kind, note.message);
    });
    return () => {
      stop();
    };
  }, []);
  return null;
}
