import { useState } from 'react';
import { Icon } from '../../../components/ui/Icon';

/** A chosen file: its preview (an object URL, revoked once it is done with), waiting, on its way, or refused. */
export interface Upload {
  key: number;
  file: File;
  preview: string;
  state: 'waiting' | 'uploading' | 'failed';
  error?: string;
}

/**
 * The files chosen for a product's photos (ProductPhotos) that are not photos yet, each with its
 * preview and its state; a refused one can be dismissed.
 */
export function PhotoUploads({ uploads, onDismiss }: { uploads: readonly Upload[]; onDismiss: (upload: Upload) => void }) {
  return (
    <ul className="photos-uploads" aria-label="Uploads">
      {uploads.map((u) => (
        <li key={u.key} className={`photos-upload photos-upload-${u.state}`} data-testid="photo-upload">
          <UploadPreview src={u.preview} />
          <div className="photos-upload-info">
            <span className="photos-upload-name">{u.file.name}</span>
            {u.state === 'failed' ? (
              <span className="field-error" role="alert">{u.error}</span>
            ) : (
              <span className="photos-upload-status">
                <progress className="photos-progress" aria-label={`Uploading ${u.file.name}`} />
                {u.state === 'uploading' ? 'Uploading…' : 'Waiting…'}
              </span>
            )}
          </div>
          {u.state === 'failed' && (
            <button type="button" className="icon-btn photos-tool" aria-label={`Dismiss ${u.file.name}`} title="Dismiss" onClick={() => onDismiss(u)}>
              <Icon name="close" size={16} />
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** A chosen file's preview; a file the browser cannot show (not a picture) gets an image icon, not a broken image. */
function UploadPreview({ src }: { src: string }) {
  const [broken, setBroken] = useState(false);
  if (broken) {
    return (
      <span className="photos-upload-preview photos-upload-preview-none" data-testid="preview-unavailable">
        <Icon name="image" size={20} />
      </span>
    );
  }
  return <img className="photos-upload-preview" src={src} alt="" onError={() => setBroken(true)} />;
}
