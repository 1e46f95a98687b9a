import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { ProductImage } from '@auction/shared';
import { Icon } from '../../../components/ui/Icon';
import { mediaSrc } from '../../../lib/media';

/** How far a finger must travel sideways (px) for a swipe to change the photo. */
export const SWIPE_PX = 40;

/**
 * A lot's photos: one large at a time with previous / next buttons and a strip of thumbnails. The
 * arrow keys (and Home / End) move through them while the gallery has focus, and a sideways swipe on
 * the photo does the same on a touch screen (vertical movement still scrolls the page).
 */
export function LotGallery({ name, images }: { name: string; images: readonly ProductImage[] }) {
  const galleryId = useId();
  const [index, setIndex] = useState(0);
  const start = useRef<{ x: number; y: number; id: number } | null>(null);
  const count = images.length;
  // Photos may be removed while the page is open: stay within those left.
  const shown = Math.min(index, Math.max(0, count - 1));
  useEffect(() => {
    if (index !== shown) setIndex(shown);
  }, [index, shown]);

  if (count === 0) {
    return (
      <div className="lot-gallery lot-gallery-empty" role="img" aria-label={`No photos of ${name} yet`}>
        <Icon name="image" size={40} />
        <span>No photos yet</span>
      </div>
    );
  }

  const go = (to: number) => setIndex(((to % count) + count) % count);
  const image = images[shown]!;

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const moves: Record<string, number> = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: count - 1 };
    const to = moves[e.key];
    if (to === undefined || count < 2) return;
    e.preventDefault();
    go(to);
  }

  function onPointerDown(e: PointerEvent<HTMLDivElement>) {
    if (e.pointerType === 'mouse') return;
    start.current = { x: e.clientX, y: e.clientY, id: e.pointerId };
  }

  function onPointerUp(e: PointerEvent<HTMLDivElement>) {
    const from = start.current;
    start.current = null;
    if (!from || from.id !== e.pointerId || count < 2) return;
    const dx = e.clientX - from.x;
    const dy = e.clientY - from.y;
    if (Math.abs(dx) < SWIPE_PX || Math.abs(dx) < Math.abs(dy)) return;
    go(dx < 0 ? shown + 1 : shown - 1);
  }

  return (
    <div className="lot-gallery" role="region" aria-roledescription="gallery" aria-label={`Photos of ${name}`}
      tabIndex={0} onKeyDown={onKeyDown}>
      <div className="lot-stage" onPointerDown={onPointerDown} onPointerUp={onPointerUp} onPointerCancel={() => { start.current = null; }}>
        <img key={image.id} className="lot-photo" src={mediaSrc(image.url)} alt={`${name}, photo ${shown + 1} of ${count}`} draggable={false} />
        {count > 1 && (
          <>
            <button type="button" className="lot-nav lot-nav-prev" aria-label="Previous photo" aria-controls={galleryId} onClick={() => go(shown - 1)}>
              <Icon name="chevron-left" size={22} />
            </button>
            <button type="button" className="lot-nav lot-nav-next" aria-label="Next photo" aria-controls={galleryId} onClick={() => go(shown + 1)}>
              <Icon name="chevron-right" size={22} />
            </button>
            <p className="lot-counter" id={galleryId} aria-live="polite">{shown + 1} / {count}</p>
          </>
        )}
      </div>
      {count > 1 && (
        <ul className="lot-thumbs" aria-label="All photos">
          {images.map((img, i) => (
            <li key={img.id}>
              <button type="button" className={`lot-thumb${i === shown ? ' lot-thumb-on' : ''}`} aria-label={`Show photo ${i + 1} of ${count}`}
                aria-current={i === shown ? 'true' : undefined} onClick={() => go(i)}>
                <img src={mediaSrc(img.thumb_url)} alt="" loading="lazy" draggable={false} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
