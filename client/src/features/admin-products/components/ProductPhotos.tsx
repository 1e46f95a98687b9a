import { LIMITS, type Product, type ProductImage } from '@auction/shared';
import { useEffect, useId, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { Icon } from '../../../components/ui/Icon';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText, isSessionEnded } from '../../../lib/api-client';
import { systemSettingsQuery } from '../../../lib/admin-settings';
import { useServerMutation, useServerQuery } from '../../../lib/query';
import { deleteImage, orderImages, productsChanged, uploadImage } from '../api/products-api';
import { checkPhoto, mediaSrc, moveItem, PHOTO_MAX_MB, PHOTO_TYPES, PHOTOS_SOLD, photoLimits, TOO_MANY_PHOTOS, uploadErrorText } from '../model';
import { PhotoUploads, type Upload } from './PhotoUploads';

/** What takes focus next: a photo's button (the moved photo's, the next photo's, Keep in its confirm), or Choose photos. */
type FocusTarget = { id: number; action: 'left' | 'right' | 'delete' | 'keep' } | 'choose';

const pick = ({ id, url, thumb_url }: ProductImage): ProductImage => ({ id, url, thumb_url });
const hasFiles = (e: DragEvent) => [...e.dataTransfer.types].includes('Files');
let nextKey = 1;

/**
 * A product's photos (docs/photos.md), changed at once on the server: add by drag and drop or "Choose
 * photos" (one upload at a time, each with its preview and its own outcome), reorder by dragging or by
 * the Move buttons (the first photo is the cover), delete after a small confirm. Nothing can change
 * once the product is sold. Every change has the admin's product lists read again.
 */
export function ProductPhotos({ product, autoFocus = false }: {
  product: Pick<Product, 'id' | 'status' | 'images'>;
  /** Focus "Choose photos" when shown (the product was just created). */
  autoFocus?: boolean;
}) {
  const productId = product.id;
  const sold = product.status === 'sold';
  // The largest upload in force (MEDIA_MAX_MB), once the server's settings are known.
  const maxMb = useServerQuery(systemSettingsQuery()).data?.media_max_mb ?? PHOTO_MAX_MB;
  const [images, setImagesState] = useState<ProductImage[]>(() => product.images.map(pick));
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [changing, setChanging] = useState(false);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [dragId, setDragId] = useState<number | null>(null);
  const [overId, setOverId] = useState<number | null>(null);
  const [dropActive, setDropActive] = useState(false);
  const [announce, setAnnounce] = useState('');
  const [focusTarget, setFocusTarget] = useState<FocusTarget | null>(null);

  const imagesRef = useRef(images);
  const queue = useRef<Upload[]>([]);
  const running = useRef(false);
  const abort = useRef<AbortController | null>(null);
  const previews = useRef(new Set<string>());
  const listRef = useRef<HTMLOListElement>(null);
  const chooseRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const ids = { limits: useId(), sold: useId() };

  // The three writes; each caller says itself what its answer or failure changes on screen.
  const upload = useServerMutation({ mutationFn: ({ file, signal }: { file: File; signal: AbortSignal | undefined }) => uploadImage(productId, file, signal) });
  const reorder = useServerMutation({ mutationFn: (order: readonly number[]) => orderImages(productId, order) });
  const deletion = useServerMutation({ mutationFn: (imageId: number) => deleteImage(productId, imageId) });

  const uploading = uploads.some((u) => u.state !== 'failed');
  // One change at a time: an order sent while an upload lands would not name every photo.
  const locked = sold || changing || uploading;

  function setImages(next: ProductImage[]) {
    imagesRef.current = next;
    setImagesState(next);
  }

  function forget(preview: string) {
    URL.revokeObjectURL(preview);
    previews.current.delete(preview);
  }

  // Closing the dialog stops the uploads not yet done and lets the previews go; the lists are read
  // again in case one had reached the server.
  useEffect(() => {
    const controller = new AbortController();
    abort.current = controller;
    const shown = previews.current;
    return () => {
      controller.abort();
      if (running.current || queue.current.length > 0) productsChanged();
      queue.current = [];
      for (const url of shown) URL.revokeObjectURL(url);
      shown.clear();
    };
  }, []);

  useEffect(() => {
    if (autoFocus) chooseRef.current?.focus();
  }, [autoFocus]);

  // Once a change has landed (and the buttons are enabled again), focus goes where the admin expects it.
  useEffect(() => {
    if (!focusTarget || changing) return;
    setFocusTarget(null);
    if (focusTarget === 'choose') {
      chooseRef.current?.focus();
      return;
    }
    const tile = listRef.current?.querySelector(`[data-photo-id="${focusTarget.id}"]`);
    const order = focusTarget.action === 'keep' ? ['keep'] : focusTarget.action === 'right' ? ['right', 'left', 'delete'] : [focusTarget.action, 'right', 'left', 'delete'];
    for (const action of order) {
      const button = tile?.querySelector<HTMLButtonElement>(`button[data-action="${action}"]`);
      if (button && !button.disabled) {
        button.focus();
        return;
      }
    }
    chooseRef.current?.focus();
  }, [focusTarget, changing]);

  function addFiles(files: File[]) {
    if (sold || files.length === 0) return;
    const added = files.map((file): Upload => {
      const preview = URL.createObjectURL(file);
      previews.current.add(preview);
      const problem = checkPhoto(file, maxMb);
      return problem ? { key: nextKey++, file, preview, state: 'failed', error: problem } : { key: nextKey++, file, preview, state: 'waiting' };
    });
    setUploads((u) => [...u, ...added]);
    const sending = added.filter((a) => a.state === 'waiting');
    queue.current.push(...sending);
    if (sending.length > 0) setAnnounce(sending.length === 1 ? `Uploading ${sending[0]!.file.name}` : `Uploading ${sending.length} photos`);
    void run();
  }

  const update = (key: number, change: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));

  /** Sends the queue one file at a time, so the photos arrive in the order chosen. */
  async function run() {
    if (running.current) return;
    running.current = true;
    let added = 0;
    try {
      for (;;) {
        const item = queue.current.shift();
        if (!item) break;
        const signal = abort.current?.signal;
        if (signal?.aborted) break;
        if (imagesRef.current.length >= LIMITS.imagesPerProduct) {
          update(item.key, { state: 'failed', error: TOO_MANY_PHOTOS });
          continue;
        }
        update(item.key, { state: 'uploading' });
        try {
          const { image } = await upload.mutateAsync({ file: item.file, signal });
          setImages([...imagesRef.current, pick(image)]);
          setUploads((list) => list.filter((u) => u.key !== item.key));
          forget(item.preview);
          added++;
          setAnnounce(`${item.file.name} uploaded`);
        } catch (err) {
          if (signal?.aborted || isSessionEnded(err)) break;
          const error = uploadErrorText(err, maxMb);
          update(item.key, { state: 'failed', error });
          setAnnounce(`${item.file.name} not uploaded: ${error}`);
        }
      }
    } finally {
      running.current = false;
      if (added > 0) productsChanged();
    }
  }

  function dismiss(upload: Upload) {
    forget(upload.preview);
    setUploads((list) => list.filter((u) => u.key !== upload.key));
    setFocusTarget('choose');
  }

  /** Shows `next` at once and sends it; the order before comes back if the server refuses. */
  async function sendOrder(next: ProductImage[], movedId: number, action: 'left' | 'right') {
    if (locked) return;
    const before = imagesRef.current;
    setImages(next);
    setChanging(true);
    try {
      const answer = await reorder.mutateAsync(next.map((i) => i.id));
      if (Array.isArray(answer?.images)) setImages(answer.images.map(pick));
      const at = imagesRef.current.findIndex((i) => i.id === movedId) + 1;
      setAnnounce(`Photo moved to position ${at} of ${imagesRef.current.length}${at === 1 ? ', the cover' : ''}`);
      productsChanged();
    } catch (err) {
      setImages(before);
      if (!isSessionEnded(err)) toast.error(errorText(err, 'Could not reorder the photos'));
    } finally {
      setChanging(false);
      setFocusTarget({ id: movedId, action });
    }
  }

  function move(index: number, delta: -1 | 1) {
    const to = index + delta;
    const list = imagesRef.current;
    const moved = list[index];
    if (!moved || to < 0 || to >= list.length) return;
    void sendOrder(moveItem(list, index, to), moved.id, delta < 0 ? 'left' : 'right');
  }

  function dropOn(targetId: number) {
    const list = imagesRef.current;
    const from = list.findIndex((i) => i.id === dragId);
    const to = list.findIndex((i) => i.id === targetId);
    setDragId(null);
    setOverId(null);
    if (from < 0 || to < 0 || from === to) return;
    void sendOrder(moveItem(list, from, to), list[from]!.id, to < from ? 'left' : 'right');
  }

  async function remove(image: ProductImage) {
    const index = imagesRef.current.findIndex((i) => i.id === image.id);
    setChanging(true);
    try {
      await deletion.mutateAsync(image.id);
      const next = imagesRef.current.filter((i) => i.id !== image.id);
      setImages(next);
      setAnnounce('Photo deleted');
      productsChanged();
      const neighbour = next[Math.min(index, next.length - 1)];
      setFocusTarget(neighbour ? { id: neighbour.id, action: 'delete' } : 'choose');
    } catch (err) {
      if (!isSessionEnded(err)) toast.error(errorText(err, 'Could not delete the photo'));
      setFocusTarget({ id: image.id, action: 'delete' });
    } finally {
      setConfirming(null);
      setChanging(false);
    }
  }

  // Files dropped anywhere on the section are uploaded; a photo dragged within the grid is reordered (below).
  const onSectionDragOver = (e: DragEvent) => {
    if (dragId !== null || !hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = sold ? 'none' : 'copy';
    if (!sold) setDropActive(true);
  };
  const onSectionDragLeave = (e: DragEvent<HTMLElement>) => {
    if (!(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget))) setDropActive(false);
  };
  const onSectionDrop = (e: DragEvent) => {
    if (dragId !== null || !hasFiles(e)) return;
    e.preventDefault();
    setDropActive(false);
    addFiles([...e.dataTransfer.files]);
  };

  const describedBy = sold ? `${ids.sold} ${ids.limits}` : ids.limits;

  return (
    <fieldset
      className="photos"
      disabled={sold}
      aria-describedby={describedBy}
      onDragOver={onSectionDragOver}
      onDragLeave={onSectionDragLeave}
      onDrop={onSectionDrop}
    >
      <legend className="field-label photos-legend">Photos</legend>
      {sold && (
        <p className="products-prices-fixed" id={ids.sold}>
          <Icon name="info" size={16} /> <span>{PHOTOS_SOLD}</span>
        </p>
      )}

      <div className={`photos-drop${dropActive ? ' photos-drop-active' : ''}`} data-testid="photos-drop">
        <Icon name="upload" size={22} className="photos-drop-icon" />
        <p className="photos-drop-text">Drag photos here, or</p>
        <button ref={chooseRef} type="button" className="btn btn-outline photos-choose" disabled={sold} onClick={() => inputRef.current?.click()}>
          <Icon name="image" size={16} /> Choose photos
        </button>
        <p className="products-hint photos-limits" id={ids.limits}>
          {photoLimits(maxMb)}. The first photo is the cover; changes are saved at once.
        </p>
        <input
          ref={inputRef}
          type="file"
          className="photos-input"
          accept={PHOTO_TYPES.join(',')}
          multiple
          hidden
          tabIndex={-1}
          aria-label="Photo files"
          onChange={(e) => {
            addFiles([...(e.target.files ?? [])]);
            e.target.value = '';
          }}
        />
      </div>

      {uploads.length > 0 && <PhotoUploads uploads={uploads} onDismiss={dismiss} />}

      {images.length === 0 ? (
        <p className="photos-empty">No photos yet.</p>
      ) : (
        <ol ref={listRef} className="photos-grid" aria-label="Photos in order, the first is the cover">
          {images.map((img, i) => {
            const n = i + 1;
            return (
              <li
                key={img.id}
                className={`photos-tile${overId === img.id && dragId !== img.id ? ' photos-tile-over' : ''}${dragId === img.id ? ' photos-tile-dragging' : ''}`}
                data-photo-id={img.id}
                data-testid="photo-tile"
                draggable={!locked && confirming === null}
                onDragStart={(e) => {
                  e.dataTransfer.effectAllowed = 'move';
                  e.dataTransfer.setData('text/plain', String(img.id));
                  setDragId(img.id);
                }}
                onDragOver={(e) => {
                  if (dragId === null) return;
                  e.preventDefault();
                  e.stopPropagation();
                  e.dataTransfer.dropEffect = 'move';
                  setOverId(img.id);
                }}
                onDrop={(e) => {
                  if (dragId === null) return;
                  e.preventDefault();
                  e.stopPropagation();
                  dropOn(img.id);
                }}
                onDragEnd={() => {
                  setDragId(null);
                  setOverId(null);
                }}
              >
                <div className="photos-thumb">
                  <img src={mediaSrc(img.thumb_url)} alt={`Photo ${n}`} draggable={false} loading="lazy" />
                  {i === 0 && <span className="photos-cover">Cover</span>}
                </div>
                {confirming === img.id ? (
                  <div
                    className="photos-confirm"
                    role="group"
                    aria-label={`Delete photo ${n}?`}
                    onKeyDown={(e: KeyboardEvent) => {
                      // Escape leaves the question, not the dialog.
                      if (e.key !== 'Escape') return;
                      e.stopPropagation();
                      setConfirming(null);
                      setFocusTarget({ id: img.id, action: 'delete' });
                    }}
                  >
                    <span className="photos-confirm-text">Delete?</span>
                    <button type="button" className="btn btn-danger photos-confirm-btn" disabled={changing} onClick={() => void remove(img)}>Delete</button>
                    <button
                      type="button"
                      className="btn btn-outline photos-confirm-btn"
                      data-action="keep"
                      disabled={changing}
                      onClick={() => {
                        setConfirming(null);
                        setFocusTarget({ id: img.id, action: 'delete' });
                      }}
                    >
                      Keep
                    </button>
                  </div>
                ) : (
                  <div className="photos-tools">
                    <button type="button" className="icon-btn photos-tool" data-action="left" aria-label={`Move photo ${n} left`} title="Move left" disabled={locked || i === 0} onClick={() => move(i, -1)}>
                      <Icon name="arrow-left" size={16} />
                    </button>
                    <button type="button" className="icon-btn photos-tool" data-action="right" aria-label={`Move photo ${n} right`} title="Move right" disabled={locked || i === images.length - 1} onClick={() => move(i, 1)}>
                      <Icon name="arrow-right" size={16} />
                    </button>
                    <button type="button" className="icon-btn photos-tool photos-tool-danger" data-action="delete" aria-label={`Delete photo ${n}`} title="Delete" disabled={locked}
                      onClick={() => {
                        setConfirming(img.id);
                        setFocusTarget({ id: img.id, action: 'keep' });
                      }}
                    >
                      <Icon name="trash" size={16} />
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      )}
      <p className="visually-hidden" role="status">{announce}</p>
    </fieldset>
  );
}
